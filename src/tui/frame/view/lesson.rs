//! The lesson panel (L): the lab file's `lesson` paragraphs, the lab's guided steps (done
//! ones ticked, the current one marked and expanded), then its book chapter rendered from
//! Markdown, scrollable as one text. The chapter is rendered once per width and theme
//! (`frame/chapter_cache.rs`); a frame wraps only the lines in sight.
//!
//! On a page's first visit (`frame/first_visit.rs`) it opens by itself, headed by a
//! line on how to close it and go on. A later page's first visit (Lab 1's fleet view, after
//! the single server's) leaves out the lab's paragraphs the learner has read and folds the
//! other pages' steps to one line a run.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::content::book;
use crate::learning::reveal;
use crate::tui::frame::chapter_cache::line_rows;
use crate::tui::frame::first_visit;
use crate::tui::frame::view::lab_view::LabView;
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
    let (mut lines, current_step) = head(view, inner.width);
    let width = inner.width;
    // The chapter works out the answers: folded to a note while a check waits (the
    // learning loop's rule, `learning::reveal::checks_waiting`), a note with no number in it.
    let waiting = reveal::checks_waiting(lab, &state.revealed, view.progress);
    if waiting > 0 {
        lines.extend(folded_chapter(view, waiting));
    }
    // The chapter comes from the screen's cache: rendering it is most of a frame's work.
    let chapter = (waiting == 0).then(|| state.lesson_chapter.get(&lab.chapter, theme, width));
    let (chapter_lines, chapter_rows) = chapter
        .as_deref()
        .map_or((&[][..], &[][..]), |c| (&c.lines[..], &c.line_rows[..]));
    let head_rows: Vec<usize> = lines.iter().map(|line| line_rows(line, width)).collect();
    let rows = head_rows.iter().sum::<usize>() + chapter.as_deref().map_or(0, |c| c.rows());
    // Stop scrolling once the last line is at the bottom: past that is only blank.
    let end = rows.saturating_sub(usize::from(inner.height));
    // The screen's PgDn stops here too, so PgUp from the end moves at once.
    state.lesson_scroll_end.set(u16::try_from(end).unwrap_or(u16::MAX));
    let scroll = if state.lesson_to_step {
        step_scroll(&head_rows, current_step, usize::from(state.lesson_scroll), inner.height)
    } else {
        usize::from(state.lesson_scroll)
    }
    .min(end);
    state.lesson_scroll_drawn.set(u16::try_from(scroll).unwrap_or(u16::MAX));
    // Only the lines that reach the panel go to the Paragraph, scrolled within the first.
    let bottom = scroll + usize::from(inner.height);
    let (mut start, mut skip) = (0, 0);
    let mut shown: Vec<Line> = Vec::new();
    let all_rows = head_rows.iter().chain(chapter_rows);
    for (line, line_rows) in lines.iter().chain(chapter_lines).zip(all_rows) {
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

/// In the chapter's place while `waiting` checks wait: what it holds and where it is.
fn folded_chapter(view: &LabView, waiting: usize) -> Vec<Line<'static>> {
    let theme = view.theme;
    let title = book::chapter(&view.lab.chapter).map_or_else(|| view.lab.chapter.clone(), |c| c.title.to_string());
    // "one of this lab's checks waits ... its answer", "3 of this lab's checks wait ... their
    // answers" (a trial read "1 of this lab's check wait").
    let (count, verb, whose) = if waiting == 1 {
        ("one".to_string(), "waits", "its answer")
    } else {
        (waiting.to_string(), "wait", "their answers")
    };
    vec![
        Line::from(""),
        Line::from(Span::styled(format!("Book chapter: {title}"), theme.accent())),
        Line::from(Span::styled(
            format!(
                "Folded while {count} of this lab's checks {verb} for your prediction: it works {whose} out. \
                 It opens here once each is predicted (or seen with x); the book on the home screen has it now."
            ),
            theme.dim(),
        )),
    ]
}

/// The first row to show so that the current step (its lines `step` of the head, of
/// `head_rows` rows each) is in sight: `scroll` if it shows whole there, else from its title
/// (its title and as much of its text as the panel's `height` holds).
fn step_scroll(head_rows: &[usize], step: std::ops::Range<usize>, scroll: usize, height: u16) -> usize {
    let start: usize = head_rows[..step.start.min(head_rows.len())].iter().sum();
    let end: usize = head_rows[..step.end.min(head_rows.len())].iter().sum();
    let bottom = scroll + usize::from(height);
    if start >= scroll && end <= bottom {
        scroll
    } else {
        start
    }
}

/// The lines above the chapter: the first visit's note, the lab file's paragraphs and the
/// guided steps, the current one's text wrapped to fit `width`; and which of them are the
/// current step's (its title, text and key).
fn head(view: &LabView, width: u16) -> (Vec<Line<'static>>, std::ops::Range<usize>) {
    let (theme, lab, state) = (view.theme, view.lab, view.screen);
    let current = state.predict.step;
    let done = view.progress.labs.get(&lab.id);
    let mut lines: Vec<Line> = Vec::new();
    let mut current_lines = 0..0;
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
        // A check answered but not right yet is marked apart from a step not tried (a trial
        // could not tell its misses from the steps it had not reached).
        let missed = step.check.as_deref().is_some_and(|check| {
            done.and_then(|p| p.check_answers.get(check))
                .is_some_and(|answers| answers.answered > 0)
        });
        let pointer = if number == current { "▸" } else { " " };
        let tick = match (is_done, missed) {
            (true, _) => "✓",
            (false, true) => "✗",
            (false, false) => "·",
        };
        let style = if number == current { theme.key() } else { theme.text() };
        // A step of Lab 1's other view says which key gets there: `[`, `]` and `p` stay in this one.
        let view_key = match first_visit::step_page(lab, number) {
            page if page == state.page() => String::new(),
            page => lab
                .pages
                .get(page)
                .map_or_else(String::new, |page| format!(" (F: {})", page.short)),
        };
        if number == current {
            current_lines.start = lines.len();
        }
        // A long title continues under its own start, not under the marks.
        let title = format!("Step {}: {}{view_key}", number + 1, step.title);
        let title_width = usize::from(width.saturating_sub(4)).max(10);
        for (row, part) in wrap_words(&title, title_width).into_iter().enumerate() {
            let marks = if row == 0 {
                format!("{pointer} {tick} ")
            } else {
                "    ".to_string()
            };
            lines.push(Line::from(Span::styled(format!("{marks}{part}"), style)));
        }
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
            current_lines.end = lines.len();
        }
    }
    lines.push(Line::from(""));
    (lines, current_lines)
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
        // Every check seen with x, so the chapter is in the panel (folded while one waits).
        for step in 0..app.content.labs[1].steps.len() {
            app.labs[1].revealed.insert(step);
        }
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
        let mut text = Text::from(head(view, inner.width).0);
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

    fn drawn(app: &App, area: Rect) -> String {
        let mut buf = Buffer::empty(area);
        render(&view(app), area, &mut buf);
        buf.content().iter().map(|cell| cell.symbol()).collect()
    }

    #[test]
    fn the_next_step_shows_in_the_lesson_wherever_it_was_scrolled() {
        let mut app = lab2();
        let area = Rect::new(0, 0, 46, 14);
        app.labs[1].lesson_scroll = 400;
        assert!(!drawn(&app, area).contains("Step 2:"), "scrolled to the chapter's end");
        app.update(Msg::NextStep);
        let screen = drawn(&app, area);
        assert!(screen.contains("▸ · Step 2: Retry in one place"), "{screen}");
        assert!(screen.contains("Keep p = 1.0"), "its text begins under it: {screen}");
        // Scrolling goes on from there, not from where the chapter's end had been.
        let shown = app.labs[1].lesson_scroll_drawn.get();
        app.update(Msg::ScrollUp);
        assert!(app.labs[1].lesson_scroll < shown, "PgUp from step 2's row");
        // A step already in sight does not move the panel.
        app.labs[1].lesson_scroll = 0;
        app.labs[1].lesson_to_step = true;
        let at_top = drawn(&app, Rect::new(0, 0, 46, 60));
        assert_eq!(app.labs[1].lesson_scroll_drawn.get(), 0, "{at_top}");
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

    /// A step whose check was answered but not right is marked apart from one not tried, and a
    /// title too long for the panel continues under its own start (a trial could not tell its
    /// misses from untouched steps, and read wrapped titles flush left under the marks).
    #[test]
    fn a_missed_step_is_marked_and_a_long_title_hangs_under_itself() {
        let mut app = lab2();
        let lab = &app.content.labs[1];
        let check = lab.steps[0].check.clone().expect("Lab 2's step 1 has a check");
        app.progress.record_answer(&check, Some("retry"), false);
        let rows = |app: &App, width: u16| -> Vec<String> {
            head(&view(app), width).0.iter().map(ToString::to_string).collect()
        };
        let wide = rows(&app, 100);
        assert!(wide.iter().any(|row| row.contains("✗ Step 1:")), "{wide:#?}");
        assert!(wide.iter().any(|row| row.contains("· Step 2:")), "{wide:#?}");
        let narrow = rows(&app, 24);
        let first = narrow.iter().position(|row| row.contains("Step 2:")).expect("step 2");
        let title = &app.content.labs[1].steps[1].title;
        assert!(narrow[first].chars().count() <= 24, "{narrow:#?}");
        assert!(
            format!("    Step 2: {title}").chars().count() > 24,
            "the title wraps at 24"
        );
        assert!(
            narrow[first + 1].starts_with("    ") && !narrow[first + 1].trim().is_empty(),
            "{narrow:#?}"
        );
    }

    /// The chapter works out the answers (Lab 2's opens with 4 x 4 x 4 = 64): while one check
    /// waits the panel holds a note in its place, whatever the scroll, and the chapter opens
    /// once every check is predicted or seen.
    #[test]
    fn the_chapter_is_folded_while_a_check_waits_for_its_prediction() {
        let area = Rect::new(0, 0, 120, 400);
        let text = |app: &App| {
            let mut buf = Buffer::empty(area);
            render(&view(app), area, &mut buf);
            (0..area.height)
                .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        };
        let mut app = lab2();
        app.labs[1].revealed = Default::default();
        app.labs[1].revealed.insert(0);
        let folded = text(&app);
        let waiting = app.content.labs[1].steps.iter().filter(|s| s.check.is_some()).count() - 1;
        assert!(
            folded.contains(&format!("Folded while {waiting} of this lab's checks wait")),
            "{folded}"
        );
        assert!(!folded.contains("The idea") && !folded.contains("64"), "{folded}");
        assert_eq!(
            app.labs[1].lesson_chapter.renders(),
            0,
            "a folded chapter is not rendered"
        );
        // The last check waiting reads in the singular.
        let checked = app.content.labs[1]
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| s.check.is_some());
        app.labs[1].revealed = Default::default();
        for (index, _) in checked.skip(1) {
            app.labs[1].revealed.insert(index);
        }
        let one = text(&app);
        assert!(one.contains("Folded while one of this lab's checks waits"), "{one}");
        assert!(one.contains("works its answer out"), "{one}");
        let app = lab2();
        let open = text(&app);
        assert!(open.contains("The idea") && open.contains("64"), "{open}");
        assert!(!open.contains("Folded while"), "{open}");
    }
}
