//! The lesson panel (L): the lab file's `lesson` text, wrapped and scrollable.
//!
//! The book chapter replaces this text when the book lands; the panel stays.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::content::LabFile;
use crate::tui::app::{App, LabState};

pub fn render(app: &App, lab: &LabFile, state: &LabState, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let block = Block::bordered()
        .title(Span::styled(" Lesson ", theme.accent()))
        .title_bottom(" L hides · PgUp/PgDn scroll ")
        .border_style(theme.border());
    let mut text = lab.lesson.trim().to_string();
    text.push_str(&format!("\n\nBook chapter: {}", lab.chapter));
    for (number, step) in lab.steps.iter().enumerate() {
        text.push_str(&format!("\n\nStep {}: {}. {}", number + 1, step.title, step.text));
    }
    // Stop scrolling once the last line is at the top: past that is only blank. The count
    // is an estimate (words wrap a little earlier than characters), good enough for a limit.
    let width = usize::from(block.inner(area).width.max(1));
    let lines: usize = text
        .lines()
        .map(|line| line.chars().count().div_ceil(width).max(1))
        .sum();
    let scroll = state.lesson_scroll.min(lines.saturating_sub(1) as u16);
    let paragraph = Paragraph::new(text).wrap(Wrap { trim: true });
    paragraph.block(block).scroll((scroll, 0)).render(area, buf);
}
