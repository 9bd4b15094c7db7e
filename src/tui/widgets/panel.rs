//! The one panel: a bordered block with its title in the accent colour.

use ratatui::text::Span;
use ratatui::widgets::Block;

use crate::tui::theme::Theme;

/// A bordered block titled `title`, in `theme`'s border and accent colours.
pub fn panel<'a>(title: impl Into<std::borrow::Cow<'a, str>>, theme: Theme) -> Block<'a> {
    Block::bordered()
        .title(Span::styled(title.into(), theme.accent()))
        .border_style(theme.border())
}

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;

    use super::*;
    use crate::tui::theme::ThemeName;

    #[test]
    fn the_title_sits_on_the_top_border() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 3));
        panel(" Probes ", Theme::new(ThemeName::Dark, false)).render(buf.area, &mut buf);
        let row = |y: u16| (0..12).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>();
        assert_eq!(row(0), "┌ Probes ──┐");
        assert_eq!(row(1), "│          │");
        assert_eq!(row(2), "└──────────┘");
    }
}
