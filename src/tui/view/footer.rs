//! The footer: the few keys that matter on the current screen, from the key table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::tui::keys::{self, Context};
use crate::tui::theme::Theme;

/// The footer of `context`: its keys as the key table lists them.
pub fn render_keys(context: Context, theme: Theme, area: Rect, buf: &mut Buffer) {
    render_entries(keys::footer_keys(context), theme, area, buf);
}

/// A footer of entries such as `L lesson`: the key highlighted, its word dimmed. When they
/// do not all fit the width, entries before the last are left out (the help lists them), so
/// the last, `? help`, always shows whole.
pub fn render_entries<'a>(entries: impl IntoIterator<Item = &'a str>, theme: Theme, area: Rect, buf: &mut Buffer) {
    render_entries_gap(entries, 2, theme, area, buf);
}

/// A key that steps through a choice, in a status line, with the value it has now apart
/// from the key's name: `f: fault (hang)`, where `f fault: hang` read as "f makes it hang".
pub fn choice_hint(key: &str, name: &str, now: &str) -> String {
    format!("{key}: {name} ({now})")
}

/// Columns a footer of `entries` takes with `gap` spaces after each (the last entry's gap
/// may fall past the border).
pub fn entries_width(entries: &[&str], gap: usize) -> usize {
    1 + entries.iter().map(|e| e.chars().count() + gap).sum::<usize>()
}

/// As [`render_entries`], with `gap` spaces between entries (a screen whose keys all fit
/// with one space, not two, keeps them all).
pub fn render_entries_gap<'a>(
    entries: impl IntoIterator<Item = &'a str>,
    gap: usize,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let mut entries: Vec<&str> = entries.into_iter().collect();
    while entries.len() > 1 && entries_width(&entries, gap) > usize::from(area.width) + gap {
        entries.remove(entries.len() - 2);
    }
    let mut spans = vec![Span::raw(" ")];
    for entry in entries {
        let (key, word) = entry.split_once(' ').unwrap_or((entry, ""));
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::styled(format!(" {word}{}", " ".repeat(gap)), theme.dim()));
    }
    Line::from(spans).render(area, buf);
}
