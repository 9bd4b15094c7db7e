//! The lesson panel (L): the lab file's `lesson` paragraphs, the lab's guided steps (done
//! ones ticked, the current one marked and expanded), then its book chapter rendered from
//! Markdown, scrollable as one text. The chapter is rendered once per width and theme
//! (`screens/lab/chapter_cache.rs`); a frame wraps only the lines in sight.
//!
//! On a page's first visit (`screens/lab/first_visit.rs`) it opens by itself, headed by a
//! line on how to close it and go on. A later page's first visit (Lab 1's fleet view, after
//! the single server's) leaves out the lab's paragraphs the learner has read and folds the
//! other pages' steps to one line a run.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::screens::lab::chapter_cache::line_rows;
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
    let lines = head_lines(view, inner.width);
    // The chapter comes from the screen's cache: rendering it is most of a frame's work.
    let width = inner.width;
    let chapter = state.lesson_chapter.get(&lab.chapter, theme, width);
    let head_rows: Vec<usize> = lines.iter().map(|line| line_rows(line, width)).collect();
    let rows = head_rows.iter().sum::<usize>() + chapter.rows();
    // Stop scrolling once the last line is at the bottom: past that is only blank.
    let end = rows.saturating_sub(usize::from(inner.height));
    // The screen's PgDn stops here too, so PgUp from the end moves at once.
    state.lesson_scroll_end.set(u16::try_from(end).unwrap_or(u16::MAX));
    let scroll = usize::from(state.lesson_scroll).min(end);
    // Only the lines that reach the panel go to the Paragraph, scrolled within the first.
    let bottom = scroll + usize::from(inner.height);
    let (mut start, mut skip) = (0, 0);
    let mut shown: Vec<Line> = Vec::new();
    let all_rows = head_rows.iter().chain(&chapter.line_rows);
    for (line, line_rows) in lines.iter().chain(&chapter.lines).zip(all_rows) {
        if start >= bottom {
            break;
        }
        let end = start + line_rows;
        if end > scroll {
            if shown.is_empty() {
                skip = scroll - start;
            }
            shown.push(line.clone());
        }
        start = end;
    }
    Paragraph::new(Text::from(shown))
        .wrap(Wrap { trim: false })
        .block(block)
        .scroll((u16::try_from(skip).unwrap_or(u16::MAX), 0))
        .render(area, buf);
}

/// The lines above the chapter: the first visit's note, the lab file's paragraphs and the
/// guided steps, the current one's text wrapped to fit `width`.
fn head_lines(view: &LabView, width: u16) -> Vec<Line<'static>> {
    let (theme, lab, state) = (view.theme, view.lab, view.screen);
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
    // A later page's first visit: the learner read the lab's paragraphs on the first page's,
    // and the steps of the other pages shrink to a line each run, so that this page's first
    // step is on screen at 80x24.
    let later_page_first_visit = state.first_visit && state.lab_lesson_seen;
    if !later_page_first_visit {
        // The lab file's two paragraphs: what the lab is about, before what to do in it.
        for line in lab.lesson.trim().lines() {
            lines.push(Line::from(Span::styled(line.to_string(), theme.text())));
        }
        lines.push(Line::from(""));
    }
    lines.push(Line::from(Span::styled("Guided steps", theme.accent())));
    for (number, step) in lab.steps.iter().enumerate() {
        if later_page_first_visit && first_visit::step_page(lab, number) != state.page() {
            if let Some(run) = first_visit::other_page_run_from(lab, state.page(), number) {
                lines.push(Line::from(Span::styled(run, theme.dim())));
            }
            continue;
        }
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
            let width = usize::from(width.saturating_sub(6)).max(10);
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
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::content::book;
    use crate::tui::app::App;
    use crate::tui::keys::Context;
    use crate::tui::markdown::{render_markdown, wrapped_rows};
    use crate::tui::msg::Msg;
    use crate::tui::theme::Theme;
    use crate::tui::theme::ThemeName;

    /// The app on Lab 2 with its lesson open.
    fn lab2() -> App {
        let content = Content::load(None).expect("built-in labs");
        let mut app = App::new(content, Theme::new(ThemeName::Dark, true), Rect::new(0, 0, 100, 30));
        app.mark_all_visited();
        app.update(Msg::Down);
        app.update(Msg::Open);
        app.update(Msg::ToggleLesson);
        app
    }

    fn view(app: &App) -> LabView<'_> {
        LabView {
            screen: &app.labs[1],
            lab: &app.content.labs[1],
            number: 2,
            theme: app.theme,
            progress: &app.progress,
            context: Context::Lab,
        }
    }

    /// The panel as it was drawn before the cache: the whole text, wrapped and scrolled.
    fn render_whole(view: &LabView, chapter: &Text<'static>, area: Rect, buf: &mut Buffer) {
        let block = Block::bordered()
            .title(Span::styled(" Lesson · steps and book chapter ", view.theme.accent()))
            .title_bottom(" L/Esc close · PgUp/PgDn · [ ] steps ")
            .border_style(view.theme.border());
        let inner = block.inner(area);
        let mut text = Text::from(head_lines(view, inner.width));
        text.extend(chapter.lines.iter().cloned());
        let rows = wrapped_rows(&text, inner.width);
        let scroll = view
            .screen
            .lesson_scroll
            .min(rows.saturating_sub(usize::from(inner.height)) as u16);
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .block(block)
            .scroll((scroll, 0))
            .render(area, buf);
    }

    #[test]
    fn the_lines_in_sight_draw_as_the_whole_text_does_at_every_scroll() {
        let mut app = lab2();
        let markdown = book::chapter(&app.content.labs[1].chapter)
            .expect("Lab 2's chapter")
            .markdown;
        for area in [Rect::new(0, 0, 46, 25), Rect::new(3, 2, 31, 12)] {
            let chapter = render_markdown(markdown, app.theme, area.width - 2);
            for scroll in 0..400 {
                app.labs[1].lesson_scroll = scroll;
                let (mut drawn, mut whole) = (Buffer::empty(area), Buffer::empty(area));
                render(&view(&app), area, &mut drawn);
                render_whole(&view(&app), &chapter, area, &mut whole);
                assert_eq!(drawn, whole, "{area:?} scrolled {scroll}");
            }
        }
    }

    #[test]
    fn frames_at_one_width_render_the_chapter_once_and_a_new_width_again() {
        let app = lab2();
        let before = app.labs[1].lesson_chapter.renders();
        let mut buf = Buffer::empty(Rect::new(0, 0, 46, 25));
        for _ in 0..3 {
            render(&view(&app), buf.area, &mut buf);
        }
        assert_eq!(app.labs[1].lesson_chapter.renders(), before + 1);
        let mut wider = Buffer::empty(Rect::new(0, 0, 52, 25));
        render(&view(&app), wider.area, &mut wider);
        assert_eq!(app.labs[1].lesson_chapter.renders(), before + 2);
    }
}
