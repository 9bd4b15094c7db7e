//! The prediction box over the bottom of a lab's right panel: the current step and its
//! check with the number being typed, then the prediction beside what the run measured.
//!
//! ```text
//! ┌ Step 1 of 2 · Layered retries ─────────────────────────┐
//! │ With p = 1.0, read row A: every layer's attempts ...     │
//! │ Predict: how many database attempts will one action ...  │
//! │ Your prediction: 64█ attempts      Enter runs · Esc      │
//! └──────────────────────────────────────────────────────────┘
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use crate::content::Question;
use crate::content::question::CheckSettings;
use crate::learning::quiz::trim_number;
use crate::learning::reveal::step_check;
use crate::tui::frame::done_note;
use crate::tui::frame::first_visit;
use crate::tui::frame::predict::{ConditionDetail, conditions, conditions_in};
use crate::tui::frame::view::lab_view::LabView;
use crate::tui::markdown::wrapped_rows;

pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    let (theme, lab) = (view.theme, view.lab);
    let state = &view.screen.predict;
    if !state.is_open() && state.hint.is_none() {
        return;
    }
    let step = lab.steps.get(state.step);
    let step_title = step.map_or(String::new(), |s| {
        format!("Step {} of {} · {}", state.step + 1, lab.steps.len(), s.title)
    });
    let check = step_check(lab, state.step);
    let unit_name = check.as_ref().and_then(|c| c.unit.as_deref()).unwrap_or_default();
    // A unitless answer (a share, a probability) takes no space before the `;` that follows.
    let unit = if unit_name.is_empty() {
        String::new()
    } else {
        format!(" {unit_name}")
    };
    // A number as the verdict writes it, with its unit: "1 call", "44 calls".
    let with_unit = |shown: String| crate::words::with_unit(&shown, unit_name);
    let mut lines: Vec<Line> = Vec::new();
    // Where the prompt's conditions are, to be said shorter if the card is short of rows.
    let mut conditions_row: Option<usize> = None;
    let title;
    if let Some(observed) = &state.observed {
        title = if observed.verdict.right {
            format!(" ✓ Right · {step_title} ")
        } else {
            format!(" ✗ Not quite · {step_title} ")
        };
        let measured = observed
            .measured
            .map_or("nothing (no such metric)".to_string(), |value| {
                with_unit(trim_number(value))
            });
        lines.push(Line::from(vec![
            Span::styled("You predicted ", theme.dim()),
            // An answer read another way than typed says how (`20, read as 20% = 0.2`).
            Span::styled(
                observed
                    .verdict
                    .reading
                    .clone()
                    .unwrap_or_else(|| with_unit(trim_number(observed.predicted))),
                theme.key(),
            ),
            Span::styled(
                if observed.live {
                    "; the live run measured "
                } else {
                    "; the run measured "
                },
                theme.dim(),
            ),
            Span::styled(measured, theme.accent()),
            Span::styled(
                check
                    .as_ref()
                    .and_then(|c| c.tolerance)
                    .filter(|t| *t > 0.0)
                    .map(|t| format!(" (counted right within ±{})", trim_number(t)))
                    .unwrap_or_default(),
                theme.dim(),
            ),
        ]));
        // A check with settings of its own names those the sliders differ from, as its prompt
        // did: the verdict's run is that one (the fleet view shows it; other labs keep the sliders').
        if let Some(scored_at) = check
            .as_ref()
            .filter(|c| c.settings.as_ref().and_then(CheckSettings::fixed).is_some())
            .and_then(|c| conditions(lab, c, view.screen.check_sliders(lab, c)))
        {
            lines.push(Line::from(Span::styled(scored_at, theme.dim())));
        }
        lines.push(Line::from(vec![
            Span::styled("Why: ", theme.key()),
            Span::raw(observed.explanation.clone()),
        ]));
        lines.push(Line::from(Span::styled(
            if observed.verdict.right && observed.seen_first {
                "Step done, saved as right after seeing the run (x). Enter: next step"
            } else if observed.verdict.right {
                "Step done and saved. Enter: next step"
            } else {
                "Saved as not right yet. Esc, then p tries again"
            },
            theme.dim(),
        )));
    } else if state.input.is_none() && check.is_none() && state.hint.is_some() {
        // A step without a check: no prompt, only what to do (and, once it is marked done,
        // where the lab goes on); the step's text stays, as it is what to try.
        let elsewhere = first_visit::steps_elsewhere(lab, view.screen.page(), state.step);
        let done = state.hint == done_note(state.step, elsewhere.as_deref());
        title = format!(" {step_title} · {} ", if done { "done" } else { "nothing to predict" });
        if let Some(step) = step.filter(|_| !done) {
            lines.push(Line::from(step.text.clone()));
        }
        if let Some(hint) = &state.hint {
            lines.push(Line::from(Span::styled(hint.clone(), theme.accent())));
        }
    } else {
        title = format!(" {step_title} ");
        if let Some(step) = step {
            lines.push(Line::from(step.text.clone()));
        }
        if let Some(check) = &check {
            lines.push(Line::from(vec![
                Span::styled("Predict: ", theme.key()),
                Span::raw(check.prompt.clone()),
            ]));
            if let Some(conditions) = conditions(lab, check, view.screen.check_sliders(lab, check)) {
                conditions_row = Some(lines.len());
                lines.push(Line::from(Span::styled(conditions, theme.dim())));
            }
        }
        if let Some(input) = &state.input {
            lines.push(Line::from(vec![
                Span::styled("Your prediction: ", theme.key()),
                Span::styled(format!("{}█", input.text), theme.selected()),
                Span::raw(unit),
                Span::styled(what_decides(view, check.as_ref()), theme.dim()),
            ]));
        }
        if let Some(hint) = &state.hint {
            lines.push(Line::from(Span::styled(hint.clone(), theme.accent())));
        }
    }
    // A prompt whose text does not fit over the right panel takes the parameter panel's
    // columns too, before it says anything shorter: the sliders cannot move while it is open, and at
    // 80x24 the right panel's 44 columns cut the step's setup ("X has its own pool...") and
    // named the check's own settings only by their count.
    let rows_in =
        |lines: &[Line], width: u16| wrapped_rows(&Text::from(lines.to_vec()), width.saturating_sub(2)) as u16 + 2;
    let area = if state.observed.is_none() && rows_in(&lines, area.width) > area.height {
        widened(area, buf.area)
    } else {
        area
    };
    let title = match step {
        Some(step) => fit_title(&title, &step.title, usize::from(area.width)),
        None => title,
    };
    let inner_width = area.width.saturating_sub(2);
    let rows_of = |lines: &[Line]| rows_in(lines, area.width);
    // A prompt that does not fit keeps its end, where the number is typed. The check's own
    // settings are said shorter first (the values alone, then only how many), as the step's
    // text is what to do (Lab 1's fleet prompts at 80x24 lost it to a list of six settings);
    // then the step's text goes (the lesson panel, L, has it); then the top scrolls away.
    // Without this a long list of settings pushed "Your prediction" off the card at 80x24 and
    // the digits typed were unseen.
    let prompting = state.observed.is_none() && state.input.is_some();
    if let (true, Some(row), Some(check)) = (prompting, conditions_row, &check) {
        for detail in [ConditionDetail::Settings, ConditionDetail::Count] {
            if rows_of(&lines) <= area.height {
                break;
            }
            if let Some(shorter) = conditions_in(lab, check, view.screen.check_sliders(lab, check), detail) {
                lines[row] = Line::from(Span::styled(shorter, theme.dim()));
            }
        }
    }
    if prompting && rows_of(&lines) > area.height && lines.len() > 1 && step.is_some() {
        lines.remove(0);
    }
    let overflow = if prompting {
        rows_of(&lines).saturating_sub(area.height)
    } else {
        0
    };
    // A verdict that does not fit keeps its last line, what to do next, at the card's foot;
    // the lines above it show their start or, after PgDn, their end.
    if state.observed.is_some() && rows_of(&lines) > area.height && lines.len() > 1 {
        let last = lines.pop().map(|line| Text::from(vec![line])).unwrap_or_default();
        let more = if state.verdict_end {
            " PgUp: its start "
        } else {
            " PgDn: more "
        };
        let block = Block::bordered()
            .title(Span::styled(title, theme.accent()))
            .title_bottom(Line::from(Span::styled(more, theme.dim())).right_aligned())
            .border_style(theme.accent());
        let inner = block.inner(area);
        let last_rows = (wrapped_rows(&last, inner_width) as u16).min(inner.height);
        let body = Rect::new(inner.x, inner.y, inner.width, inner.height - last_rows);
        let text = Text::from(lines);
        let overflow = (wrapped_rows(&text, inner_width) as u16).saturating_sub(body.height);
        Clear.render(area, buf);
        block.render(area, buf);
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .scroll((if state.verdict_end { overflow } else { 0 }, 0))
            .render(body, buf);
        let foot = Rect::new(inner.x, body.bottom(), inner.width, last_rows);
        Paragraph::new(last).wrap(Wrap { trim: false }).render(foot, buf);
        return;
    }
    let text = Text::from(lines);
    let height = (wrapped_rows(&text, inner_width) as u16 + 2).min(area.height);
    let popup = Rect::new(area.x, area.bottom() - height, area.width, height);
    Clear.render(popup, buf);
    Paragraph::new(text)
        .wrap(Wrap { trim: false })
        .scroll((overflow, 0))
        .block(
            Block::bordered()
                .title(Span::styled(title, theme.accent()))
                .border_style(theme.accent()),
        )
        .render(popup, buf);
}

/// The right panel `right` stretched left to the screen's edge (over the parameter panel),
/// same rows.
fn widened(right: Rect, screen: Rect) -> Rect {
    let left = screen.x.min(right.x);
    Rect::new(left, right.y, right.right() - left, right.height)
}

/// Fewest letters of a step's name worth showing before a "…": fewer say nothing.
const SHORTEST_NAME: usize = 6;

/// `title` shortened to fit a card `width` cells wide: the step's `name` loses its end at a
/// whole word, marked "…", and goes whole (with its " · ") only when fewer than [`SHORTEST_NAME`] letters of it
/// would fit; the step's number and the verdict always stay. (It went whole at the first cell
/// too many: Lab 4's step 6 and the fleet's step 9 verdict showed no name at all.)
fn fit_title(title: &str, name: &str, width: usize) -> String {
    let room = width.saturating_sub(2);
    let length = title.chars().count();
    if length <= room || name.is_empty() {
        return title.to_string();
    }
    let over = length - room;
    let kept = name.chars().count().saturating_sub(over + 1);
    // Whole words only: a word cut after its first letters read as another word.
    let chars: Vec<char> = name.chars().collect();
    let whole = match chars.get(kept) {
        Some(next) if !next.is_whitespace() => chars[..kept].iter().rposition(|c| c.is_whitespace()).unwrap_or(0),
        _ => kept,
    };
    let cut: String = chars[..whole].iter().collect();
    let cut = cut.trim_end();
    if cut.chars().count() >= SHORTEST_NAME {
        return title.replacen(name, &format!("{cut}…"), 1);
    }
    title.replacen(&format!(" · {name}"), "", 1)
}

/// What will score the prediction, as the prompt promises it: the lab's first page says when
/// not the simulation at once ([`crate::tui::labs::page::Page::scored_by`]: Lab 1 live, a
/// real probe), as it is the one asked whether its live run decides a check.
fn what_decides(view: &LabView, check: Option<&Question>) -> &'static str {
    let screen = view.screen;
    screen
        .page_state(0)
        .and_then(|first| first.scored_by(check, screen.lab_sliders()))
        .unwrap_or("   (Enter: run it and see)")
}

#[cfg(test)]
mod title_tests {
    use super::fit_title;

    #[test]
    fn a_long_step_name_loses_its_end_before_it_goes() {
        let title = " Step 6 of 8 · A timeout caps the wait ";
        assert_eq!(fit_title(title, "A timeout caps the wait", 60), title);
        let cut = fit_title(title, "A timeout caps the wait", 34);
        assert_eq!(cut, " Step 6 of 8 · A timeout caps… ");
        assert!(cut.chars().count() + 2 <= 34, "{cut:?}");
        let verdict = " ✓ Right · Step 9 of 11 · Readiness on the database ";
        let cut = fit_title(verdict, "Readiness on the database", 40);
        assert_eq!(cut, " ✓ Right · Step 9 of 11 · Readiness… ");
        // Never mid-word: "Readiness on the datab…" read as another word.
        let cut = fit_title(verdict, "Readiness on the database", 50);
        assert_eq!(cut, " ✓ Right · Step 9 of 11 · Readiness on the… ");
        assert_eq!(
            fit_title(" Step 2 of 8 · Overloaded queues ", "Overloaded queues", 31),
            " Step 2 of 8 · Overloaded… "
        );
        // Too narrow for a name worth reading: the number and the verdict stay.
        assert_eq!(
            fit_title(verdict, "Readiness on the database", 30),
            " ✓ Right · Step 9 of 11 "
        );
    }
}
