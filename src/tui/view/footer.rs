//! The footer: the few keys that matter on the current screen, from the key table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::tui::app::App;
use crate::tui::keys;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let mut spans = vec![Span::raw(" ")];
    for entry in keys::footer_keys(app.context()) {
        let (key, word) = entry.split_once(' ').unwrap_or((entry, ""));
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::styled(format!(" {word}  "), theme.dim()));
    }
    Line::from(spans).render(area, buf);
}
