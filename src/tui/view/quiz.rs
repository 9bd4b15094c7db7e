//! The quiz screen: the picker, a question, right or wrong with the explanation, the review.
//!
//! ```text
//!  Quiz · All questions                                   question 3 of 10 · 2 right so far
//! ┌ Question 3 of 10 ──────────────────────────────────────────────────────────────────────┐
//! │ retries · easy · Lab 2                                                                  │
//! │ The database always fails. How many attempts ...                                        │
//! │ ▸ a) 64                                                                                 │
//! │   b) 12                                                                                 │
//! └─────────────────────────────────────────────────────────────────────────────────────────┘
//! ┌ Right ───────────────────────────────────────────────────────────────────────────────────┐
//! │ You answered a) 64. The answer: a) 64                                                   │
//! │ Why: ...   Source: ...                                                                  │
//! └─────────────────────────────────────────────────────────────────────────────────────────┘
//!  hint or status line
//!  footer keys
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Padding, Paragraph, Widget, Wrap};

use crate::content::QuestionKind;
use crate::learning::quiz::trim_number;
use crate::tui::app::App;
use crate::tui::keys;
use crate::tui::markdown::wrapped_rows;
use crate::tui::screens::quiz::{QuizScreen, Stage};
use crate::tui::theme::Theme;
use crate::tui::view::footer;
use crate::tui::widgets::panel::panel;
use crate::wrap::wrap_words;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let quiz = &app.quiz;
    let [title, body, status, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let pick = quiz.picks.get(quiz.picked).map_or("", |p| p.label.as_str());
    // Questions due today in the review schedule: the title's count and the Review pick's.
    let due = match quiz.stage {
        Stage::Setup => crate::learning::review::due_count(
            &app.content.quiz_questions(),
            &app.progress,
            crate::learning::schedule::today_utc_day(),
        ),
        _ => 0,
    };
    let mut left = format!(" Quiz · {pick}");
    let right = match quiz.stage {
        // How many answered questions are due today (the Review pick asks them first).
        Stage::Setup => match due {
            0 => String::new(),
            due => format!("{due} due for review today "),
        },
        Stage::Review => format!("score {} of {} ", quiz.score.right, quiz.score.asked),
        _ => format!(
            "question {} of {} · {} of {} right ",
            quiz.current + 1,
            quiz.asked.len(),
            quiz.score.right,
            quiz.score.asked
        ),
    };
    // A long pick (a lab's title) gives way to the count on a narrow screen, with a gap kept.
    let room = usize::from(title.width).saturating_sub(right.chars().count() + 1);
    if left.chars().count() > room {
        left = left.chars().take(room.saturating_sub(1)).collect::<String>() + "…";
    }
    let gap = usize::from(title.width).saturating_sub(left.chars().count() + right.chars().count());
    Line::from(vec![
        Span::styled(left, theme.accent()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.dim()),
    ])
    .render(title, buf);
    match quiz.stage {
        Stage::Setup => setup(quiz, due, theme, body, buf),
        Stage::Question | Stage::Feedback => question(quiz, theme, body, buf),
        Stage::Review => review(quiz, theme, body, buf),
    }
    let line = quiz.hint.as_ref().or(app.status.as_ref());
    if let Some(text) = line {
        Line::from(Span::styled(format!(" {text}"), theme.accent())).render(status, buf);
    }
    // A four-choice question is answered with a to d: the footer names the letters it has.
    let entries = keys::footer_keys(app.context());
    let entries = entries
        .into_iter()
        .map(|entry| keys::for_choices(entry, quiz.choices()));
    footer::render_entries(entries, app.theme, foot, buf);
}

/// A bordered panel with a column of space inside each side, so text does not touch the border.
/// The quiz's panels keep a column of air inside their borders.
fn padded_panel(title: String, theme: Theme) -> Block<'static> {
    panel(title, theme).padding(Padding::horizontal(1))
}

/// The picker; `due` is how many questions the Review pick has due today.
fn setup(quiz: &QuizScreen, due: usize, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = padded_panel(" Choose a lab or topic ".to_string(), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    // The count sits under the list, not at the panel's foot far from it.
    let list_rows = (quiz.picks.len() as u16).min(inner.height.saturating_sub(2));
    let [list, _, count, _] = Layout::vertical([
        Constraint::Length(list_rows),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(inner);
    // Keep the selection in view when the list is taller than the panel.
    let visible = usize::from(list.height).max(1);
    let first = quiz.picked.saturating_sub(visible - 1);
    let label_width = usize::from(inner.width).saturating_sub(18);
    let lines: Vec<Line> = quiz
        .picks
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
        .map(|(index, pick)| {
            let selected = index == quiz.picked;
            let pointer = if selected { "▸ " } else { "  " };
            let label: String = pick.label.chars().take(label_width).collect();
            // "due today" is as wide as "questions", so the column stays aligned.
            let text = if pick.review {
                format!("{pointer}{label:<label_width$} {due:>4} due today ")
            } else {
                format!("{pointer}{label:<label_width$} {:>4} questions ", pick.available)
            };
            let style = if selected { theme.selected() } else { theme.text() };
            Line::from(Span::styled(text, style))
        })
        .collect();
    Paragraph::new(lines).render(list, buf);
    let available = quiz.picks.get(quiz.picked).map_or(0, |p| p.available);
    let asked = quiz.count.min(available);
    Line::from(vec![
        Span::raw(" Questions: "),
        Span::styled(format!("◂ {} ▸", quiz.count), theme.selected()),
        Span::styled(
            format!("  ({asked} will be asked; ←/→ change, Enter starts)"),
            theme.dim(),
        ),
    ])
    .render(count, buf);
}

fn question(quiz: &QuizScreen, theme: Theme, area: Rect, buf: &mut Buffer) {
    let Some(asked) = quiz.asked.get(quiz.current) else {
        return;
    };
    let q = &asked.question;
    let mut feedback_lines: Vec<Line> = Vec::new();
    let mut feedback_title = String::new();
    if let Some(feedback) = &quiz.feedback {
        let right = feedback.verdict.right;
        feedback_title = if right {
            " ✓ Right ".to_string()
        } else {
            " ✗ Not quite ".to_string()
        };
        // When right, the answer once; when wrong, what was answered beside what is right.
        let first = if right {
            vec![
                Span::styled("The answer: ", theme.dim()),
                Span::styled(feedback.verdict.expected.clone(), theme.accent()),
            ]
        } else {
            vec![
                Span::styled("You answered ", theme.dim()),
                Span::raw(feedback.response.clone()),
                Span::styled(". The answer: ", theme.dim()),
                Span::styled(feedback.verdict.expected.clone(), theme.accent()),
            ]
        };
        feedback_lines.push(Line::from(first));
        feedback_lines.push(Line::from(vec![
            Span::styled("Why: ", theme.key()),
            Span::raw(q.explanation.clone()),
        ]));
        feedback_lines.push(Line::from(vec![
            Span::styled("Source: ", theme.key()),
            Span::styled(q.source.clone(), theme.dim()),
        ]));
    }
    let feedback_text = Text::from(feedback_lines);
    let feedback_height = if quiz.feedback.is_some() {
        (wrapped_rows(&feedback_text, area.width.saturating_sub(4)) as u16 + 2).min(area.height / 2)
    } else {
        0
    };
    let [top, bottom] = Layout::vertical([Constraint::Fill(1), Constraint::Length(feedback_height)]).areas(area);

    let lab = q.lab.as_deref().map(|lab| format!(" · lab {lab}")).unwrap_or_default();
    let mut lines = vec![
        Line::from(Span::styled(
            format!("{} · {}{lab}", q.topic, q.difficulty.label()),
            theme.dim(),
        )),
        Line::from(""),
        Line::from(q.prompt.clone()),
        Line::from(""),
    ];
    let answered = quiz.stage == Stage::Feedback;
    match q.kind {
        QuestionKind::Choice => {
            let right = asked.right_letter();
            for (index, (letter, text)) in asked.shown_choices().into_iter().enumerate() {
                let focused = index == quiz.cursor;
                let is_right = Some(letter) == right;
                // Before the answer a pointer; after it, ✓ on the right choice and ✗ on a wrong pick.
                let (mark, style) = match (answered, is_right, focused) {
                    (false, _, true) => ("▸ ", theme.selected()),
                    (false, _, false) => ("  ", theme.text()),
                    (true, true, _) => ("✓ ", theme.accent()),
                    (true, false, true) => ("✗ ", theme.text()),
                    (true, false, false) => ("  ", theme.dim()),
                };
                // Wrapped lines hang under the choice's text, not under its letter.
                let width = usize::from(area.width.saturating_sub(4)).saturating_sub(5).max(10);
                for (row, part) in wrap_words(text, width).into_iter().enumerate() {
                    let lead = if row == 0 {
                        vec![
                            Span::styled(mark, style),
                            Span::styled(format!("{letter}) "), theme.key()),
                        ]
                    } else {
                        vec![Span::raw("     ")]
                    };
                    let mut spans = lead;
                    spans.push(Span::styled(part, style));
                    lines.push(Line::from(spans));
                }
            }
        }
        QuestionKind::Number | QuestionKind::Predict => {
            // An answer read another way than typed shows how it was read, units and all; one
            // typed with a unit of its own ("6 attempts", "125 rps") does not get the question's too.
            let read_as = quiz.feedback.as_ref().is_some_and(|f| f.verdict.reading.is_some());
            let typed = match &quiz.feedback {
                Some(feedback) => feedback.response.as_str(),
                None => quiz.input.text.as_str(),
            };
            let typed_a_unit = typed.chars().any(char::is_alphabetic);
            let unit = q
                .unit
                .as_deref()
                .filter(|_| !read_as && !typed_a_unit)
                .map(|u| format!(" {u}"))
                .unwrap_or_default();
            let shown = match &quiz.feedback {
                Some(feedback) => feedback.response.clone(),
                None => format!("{}█", quiz.input.text),
            };
            lines.push(Line::from(vec![
                Span::styled("Your answer: ", theme.key()),
                Span::styled(shown, theme.selected()),
                Span::raw(unit),
            ]));
            if let Some(tolerance) = q.tolerance.filter(|t| *t > 0.0) {
                lines.push(Line::from(Span::styled(
                    format!("(counted right within ±{})", trim_number(tolerance)),
                    theme.dim(),
                )));
            }
        }
    }
    let title = format!(" Question {} of {} ", quiz.current + 1, quiz.asked.len());
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(padded_panel(title, theme))
        .render(top, buf);
    if quiz.feedback.is_some() {
        Paragraph::new(feedback_text)
            .wrap(Wrap { trim: false })
            .block(padded_panel(feedback_title, theme))
            .render(bottom, buf);
    }
}

fn review(quiz: &QuizScreen, theme: Theme, area: Rect, buf: &mut Buffer) {
    let score = &quiz.score;
    let percent = (score.right * 100).checked_div(score.asked).unwrap_or(0);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("Score: ", theme.key()),
            Span::styled(
                format!("{} of {} right ({percent}%)", score.right, score.asked),
                theme.accent(),
            ),
            Span::styled(
                format!("   {} of {} questions asked", score.asked, quiz.asked.len()),
                theme.dim(),
            ),
        ]),
        Line::from(""),
    ];
    if score.missed.is_empty() {
        lines.push(Line::from("Nothing missed."));
    } else {
        lines.push(Line::from(Span::styled("What you missed:", theme.accent())));
    }
    // Labels hang: a wrapped answer or explanation lines up under its first word.
    let width = usize::from(area.width.saturating_sub(4)).max(20);
    let hanging = |label: String, text: &str, style| -> Vec<Line<'static>> {
        let indent = label.chars().count();
        wrap_words(text, width.saturating_sub(indent).max(10))
            .into_iter()
            .enumerate()
            .map(|(row, part)| {
                let lead = if row == 0 {
                    Span::styled(label.clone(), theme.key())
                } else {
                    Span::raw(" ".repeat(indent))
                };
                Line::from(vec![lead, Span::styled(part, style)])
            })
            .collect()
    };
    for (number, (question, verdict)) in score.missed.iter().enumerate() {
        lines.push(Line::from(""));
        lines.extend(hanging(format!("{}. ", number + 1), &question.prompt, theme.text()));
        lines.extend(hanging("   Answer: ".to_string(), &verdict.expected, theme.accent()));
        lines.extend(hanging("   Why: ".to_string(), &question.explanation, theme.text()));
        lines.extend(hanging("   Source: ".to_string(), &question.source, theme.dim()));
    }
    let block = padded_panel(" Review (↑↓ PgUp PgDn scroll) ".to_string(), theme);
    let inner = block.inner(area);
    let text = Text::from(lines);
    let rows = wrapped_rows(&text, inner.width);
    let scroll = quiz
        .review_scroll
        .min(rows.saturating_sub(usize::from(inner.height)) as u16);
    Paragraph::new(text)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .block(block)
        .render(area, buf);
}
