//! The lesson panel (L): the lab's guided steps (done ones ticked, the current one marked),
//! then its book chapter rendered from Markdown, scrollable as one text.
//!
//! A lab whose chapter is not in the book falls back to the lab file's `lesson` text.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::screens::book::{self, render_markdown, wrapped_rows};
use crate::tui::view::lab::LabView;
use crate::tui::view::quiz::wrap_words;

pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    let (theme, lab, state) = (view.theme, view.lab, view.screen);
    let block = Block::bordered()
        .title(Span::styled(" Lesson · steps and book chapter ", theme.accent()))
        .title_bottom(" L hides · PgUp/PgDn · [ ] steps ")
        .border_style(theme.border());
    let inner = block.inner(area);
    let current = state.predict.step;
    let done = view.progress.labs.get(&lab.id);
    let mut lines: Vec<Line> = vec![Line::from(Span::styled("Guided steps", theme.accent()))];
    for (number, step) in lab.steps.iter().enumerate() {
        let is_done = done.is_some_and(|p| p.steps_done.iter().any(|t| t == &step.title));
        let pointer = if number == current { "▸" } else { " " };
        let tick = if is_done { "✓" } else { "·" };
        let style = if number == current { theme.key() } else { theme.text() };
        lines.push(Line::from(Span::styled(
            format!("{pointer} {tick} Step {}: {}", number + 1, step.title),
            style,
        )));
        if number == current {
            // The current step's text hangs under its title.
            let width = usize::from(inner.width.saturating_sub(6)).max(10);
            for part in wrap_words(&step.text, width) {
                lines.push(Line::from(Span::styled(format!("      {part}"), theme.dim())));
            }
        }
    }
    lines.push(Line::from(""));
    let mut text = Text::from(lines);
    match book::chapter(&lab.chapter) {
        Some(chapter) => text.extend(render_markdown(chapter.markdown, theme, inner.width)),
        None => {
            for line in lab.lesson.trim().lines() {
                text.push_line(Line::from(line.to_string()));
            }
        }
    }
    // Stop scrolling once the last line is at the bottom: past that is only blank.
    let rows = wrapped_rows(&text, inner.width);
    let scroll = state
        .lesson_scroll
        .min(rows.saturating_sub(usize::from(inner.height)) as u16);
    Paragraph::new(text)
        .wrap(Wrap { trim: false })
        .block(block)
        .scroll((scroll, 0))
        .render(area, buf);
}
