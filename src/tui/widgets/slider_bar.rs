//! A one-line slider bar: `├━━━━━●──────┤`, readable without colour.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::tui::theme::Theme;

pub struct SliderBar {
    /// Knob position, 0 (min) to 1 (max).
    fraction: f64,
    theme: Theme,
}

impl SliderBar {
    pub fn new(fraction: f64, theme: Theme) -> Self {
        Self { fraction, theme }
    }

    /// The column of the knob within a bar `width` cells wide.
    pub fn knob_column(fraction: f64, width: u16) -> u16 {
        (fraction.clamp(0.0, 1.0) * f64::from(width.saturating_sub(1))).round() as u16
    }
}

impl Widget for SliderBar {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let knob = Self::knob_column(self.fraction, area.width);
        for offset in 0..area.width {
            let (symbol, style) = match offset.cmp(&knob) {
                std::cmp::Ordering::Less => ("━", self.theme.accent()),
                std::cmp::Ordering::Equal => ("●", self.theme.key()),
                std::cmp::Ordering::Greater => ("─", self.theme.dim()),
            };
            buf[(area.x + offset, area.y)].set_symbol(symbol).set_style(style);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    fn line(fraction: f64, width: u16) -> String {
        let mut buf = Buffer::empty(Rect::new(0, 0, width, 1));
        SliderBar::new(fraction, Theme::new(ThemeName::Dark, false)).render(buf.area, &mut buf);
        (0..width).map(|x| buf[(x, 0)].symbol().to_string()).collect()
    }

    #[test]
    fn the_knob_sits_at_the_fraction_and_the_ends_clamp() {
        assert_eq!(line(0.0, 9), "●────────");
        assert_eq!(line(0.5, 9), "━━━━●────");
        assert_eq!(line(1.0, 9), "━━━━━━━━●");
        assert_eq!(line(2.0, 9), "━━━━━━━━●", "past the end stays at the end");
        assert_eq!(line(0.5, 0), "");
    }
}
