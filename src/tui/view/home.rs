//! The home screen: the three labs with their progress, then the quiz and the book.
//!
//! ```text
//!  resilience-lab                                       how a service survives ...
//! ┌ Labs ─────────────────────────────────────────────────────────────────────┐
//! │▸ Lab 1  Truthful health and ordered shutdown     1 of 4 steps and checks │
//! │         See liveness and readiness disagree during warm-up, then ...      │
//! │  Lab 2  ...                                                               │
//! │  Quiz   ...          answered 3 of 60, right at the last try 2 │
//! └───────────────────────────────────────────────────────────────────────────┘
//!  status line (a progress notice, or a save that failed)
//!  footer keys
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::app::{App, EXTRA_ENTRIES};
use crate::tui::view::footer;

/// Rows each entry takes: its title, then its description on up to two lines.
const ENTRY_HEIGHT: u16 = 3;

/// The list's inner area and the status and footer lines.
fn regions(area: Rect) -> [Rect; 4] {
    let [title, list, status, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    [title, list, status, foot]
}

/// Where each entry is drawn, inside the list's border.
pub fn entry_rects(area: Rect, entries: usize) -> Vec<Rect> {
    let list = regions(area)[1];
    let inner = Block::bordered().inner(list);
    (0..entries as u16)
        .map(|i| Rect::new(inner.x, inner.y + i * ENTRY_HEIGHT, inner.width, ENTRY_HEIGHT))
        .filter(|rect| rect.bottom() <= inner.bottom())
        .collect()
}

/// The entry under a cell, for mouse clicks.
pub fn entry_at(area: Rect, entries: usize, at: Position) -> Option<usize> {
    entry_rects(area, entries).iter().position(|rect| rect.contains(at))
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let [title, list, status, foot] = regions(area);
    Line::from(vec![
        Span::styled(" resilience-lab", theme.accent()),
        Span::styled(
            "  how a service survives its dependencies: three labs, a quiz, a book",
            theme.dim(),
        ),
    ])
    .render(title, buf);
    Block::bordered()
        .title(" Labs ")
        .border_style(theme.border())
        .render(list, buf);
    let labs = app.content.labs.iter().enumerate().map(|(i, lab)| {
        (
            format!("Lab {}", i + 1),
            lab.title.as_str(),
            lab.objective.as_str(),
            app.home_marker(i),
        )
    });
    let labs_count = app.content.labs.len();
    let extras = EXTRA_ENTRIES
        .iter()
        .enumerate()
        .map(|(i, (name, text))| (name.to_string(), "", *text, app.home_marker(labs_count + i)));
    let rects = entry_rects(area, app.home_entries());
    for (index, ((name, heading, text, marker), rect)) in labs.chain(extras).zip(rects).enumerate() {
        let selected = index == app.home_selected;
        let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Length(2)]).areas(rect);
        let pointer = if selected { "▸ " } else { "  " };
        let style = if selected { theme.selected() } else { theme.text() };
        let left = format!("{pointer}{name:<6} {heading}");
        let gap = (head.width as usize).saturating_sub(left.chars().count() + marker.chars().count() + 1);
        Line::from(format!("{left}{}{marker} ", " ".repeat(gap)))
            .style(style)
            .render(head, buf);
        // Indented under the heading, so wrapped lines stay aligned.
        let indent = 9.min(body.width);
        let body = Rect::new(body.x + indent, body.y, body.width - indent, body.height);
        Paragraph::new(text)
            .style(theme.dim())
            .wrap(Wrap { trim: false })
            .render(body, buf);
    }
    if let Some(text) = &app.status {
        Line::from(Span::styled(format!(" {text}"), theme.accent())).render(status, buf);
    }
    footer::render(app, foot, buf);
}
