//! The lesson panel (L): the lab file's `lesson` paragraphs, the lab's guided steps (done
//! ones ticked, the current one marked and expanded), then its book chapter rendered from
//! Markdown, scrollable as one text.
//!
//! On a page's first visit (`screens/lab/first_visit.rs`) it opens by itself, headed by a
//! line on how to close it and go on.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::screens::book::{self, render_markdown, wrapped_rows};
use crate::tui::screens::lab::first_visit;
use crate::tui::view::lab::LabView;
use crate::wrap::wrap_words;

pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    let (theme, lab, state) = (view.theme, view.lab, view.screen);
    let title = if state.first_visit {
        " Lesson · first visit "
    } else {
        " Lesson · steps and book chapter "
    };
    let block = Block::bordered()
        .title(Span::styled(title, theme.accent()))
        .title_bottom(" L/Esc close · PgUp/PgDn · [ ] steps ")
        .border_style(theme.border());
    let inner = block.inner(area);
    let current = state.predict.step;
    let done = view.progress.labs.get(&lab.id);
    let mut lines: Vec<Line> = Vec::new();
    if state.first_visit {
        lines.push(Line::from(vec![
            Span::styled("First visit: ", theme.accent()),
            Span::styled("L", theme.key()),
            Span::raw(" or "),
            Span::styled("Esc", theme.key()),
            Span::raw(" closes this, L opens it again. Do the step, "),
            Span::styled("p", theme.key()),
            Span::raw(" predicts its check, "),
            Span::styled("]", theme.key()),
            Span::raw(" goes on. PgUp/PgDn scroll."),
        ]));
        lines.push(Line::from(""));
    }
    // The lab file's two paragraphs: what the lab is about, before what to do in it.
    for line in lab.lesson.trim().lines() {
        lines.push(Line::from(Span::styled(line.to_string(), theme.text())));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Guided steps", theme.accent())));
    for (number, step) in lab.steps.iter().enumerate() {
        let is_done = done.is_some_and(|p| p.steps_done.iter().any(|t| t == &step.title));
        let pointer = if number == current { "▸" } else { " " };
        let tick = if is_done { "✓" } else { "·" };
        let style = if number == current { theme.key() } else { theme.text() };
        // A step of Lab 1's other view says which key gets there: `[`, `]` and `p` stay in this one.
        let view_key = match first_visit::step_page(lab, number) {
            page if page == state.page() => String::new(),
            page => lab
                .pages
                .get(page)
                .map_or_else(String::new, |page| format!(" (F: {})", page.short)),
        };
        lines.push(Line::from(Span::styled(
            format!("{pointer} {tick} Step {}: {}{view_key}", number + 1, step.title),
            style,
        )));
        if number == current {
            // The current step's text hangs under its title.
            let width = usize::from(inner.width.saturating_sub(6)).max(10);
            for part in wrap_words(&step.text, width) {
                lines.push(Line::from(Span::styled(format!("      {part}"), theme.dim())));
            }
            // The key to the step's check, said where the step is read.
            if step.check.is_some() {
                for (row, part) in wrap_words("p opens this step's prediction card.", width)
                    .iter()
                    .enumerate()
                {
                    let (key, rest) = if row == 0 {
                        part.split_at(1)
                    } else {
                        ("", part.as_str())
                    };
                    lines.push(Line::from(vec![
                        Span::raw("      "),
                        Span::styled(key.to_string(), theme.key()),
                        Span::styled(rest.to_string(), theme.dim()),
                    ]));
                }
            }
        }
    }
    lines.push(Line::from(""));
    let mut text = Text::from(lines);
    if let Some(chapter) = book::chapter(&lab.chapter) {
        text.extend(render_markdown(chapter.markdown, theme, inner.width));
    }
    // Stop scrolling once the last line is at the bottom: past that is only blank.
    let rows = wrapped_rows(&text, inner.width);
    let end = u16::try_from(rows.saturating_sub(usize::from(inner.height))).unwrap_or(u16::MAX);
    // The screen's PgDn stops here too, so PgUp from the end moves at once.
    state.lesson_scroll_end.set(end);
    let scroll = state.lesson_scroll.min(end);
    Paragraph::new(text)
        .wrap(Wrap { trim: false })
        .block(block)
        .scroll((scroll, 0))
        .render(area, buf);
}
