//! The app's side of learning: progress loaded at start and saved after every answer and
//! step, and the quiz, book and prediction messages applied to [`App`].
//!
//! The state machines live in `quiz_screen.rs`, `predict.rs` and `book.rs`; this module
//! joins them to the app's progress and screens, so `app.rs` only dispatches to it.

use std::path::{Path, PathBuf};

use color_eyre::eyre::Result;
use ratatui::layout::Position;

use crate::progress::{self, Loaded, Progress};
use crate::tui::app::{App, Msg, Screen};
use crate::tui::book;
use crate::tui::predict::{self, Observed};
use crate::tui::quiz_screen::{NumberInput, Outcome};
use crate::tui::view::book as book_view;

/// Where progress lives and what was in it, read before the terminal is taken so that a
/// file from a newer version stops the app with a one-line error and is never overwritten.
///
/// Without `--progress` and without a data directory the app still runs, saving nothing,
/// and says so once.
pub fn load_progress(flag: Option<&Path>) -> Result<(Option<PathBuf>, Loaded)> {
    let Some(path) = flag.map(Path::to_path_buf).or_else(progress::default_path) else {
        return Ok((
            None,
            Loaded {
                progress: Progress::new(),
                notice: Some("progress is not saved: no data directory here; pass --progress FILE".to_string()),
            },
        ));
    };
    let loaded = progress::load(&path)?;
    Ok((Some(path), loaded))
}

impl App {
    /// Uses `loaded` as the learner's progress, saved to `path`; its notice shows once in
    /// the home status line.
    pub fn use_progress(&mut self, path: Option<PathBuf>, loaded: Loaded) {
        self.progress = loaded.progress;
        self.progress_path = path;
        if let Some(notice) = loaded.notice {
            self.status = Some(notice);
        }
    }

    /// Saves progress; a failure shows in the status line and the app goes on.
    fn save_progress(&mut self) {
        let Some(path) = &self.progress_path else { return };
        if let Err(error) = progress::save(path, &mut self.progress) {
            self.status = Some(format!("progress not saved: {error:#}"));
        }
    }

    /// Questions in the bank and the labs' checks, which the quiz may ask.
    pub fn question_total(&self) -> usize {
        self.content.bank.len() + self.content.labs.iter().map(|lab| lab.checks.len()).sum::<usize>()
    }

    /// The home screen's right-hand marker for entry `entry`.
    pub fn home_marker(&self, entry: usize) -> String {
        let labs = self.content.labs.len();
        if let Some(lab) = self.content.labs.get(entry) {
            let (done, total) = self.progress.lab_fraction(&lab.id, lab.steps.len(), lab.checks.len());
            return format!("{done} of {total} steps and checks");
        }
        match entry - labs {
            0 => {
                let answered = self.progress.questions.len();
                let right_last = self.progress.questions.values().filter(|q| q.streak > 0).count();
                format!(
                    "answered {answered} of {}, right at the last try {right_last}",
                    self.question_total()
                )
            }
            _ => format!("{} chapters", book::chapters().len()),
        }
    }

    pub(crate) fn open_quiz(&mut self) {
        self.screen = Screen::Quiz;
        self.status = None;
    }

    pub(crate) fn open_book(&mut self) {
        self.screen = Screen::Book;
        self.status = None;
    }

    pub(crate) fn update_quiz(&mut self, msg: Msg) -> bool {
        let msg = match msg {
            // The wheel scrolls the review and moves through choices and picks.
            Msg::Wheel(_, _, down) => {
                if down {
                    Msg::Down
                } else {
                    Msg::Up
                }
            }
            other => other,
        };
        match self.quiz.update(msg, &self.content) {
            Outcome::Unchanged => false,
            Outcome::Changed => true,
            Outcome::Answered {
                question_id,
                lab,
                right,
            } => {
                self.progress.record_answer(&question_id, lab.as_deref(), right);
                self.save_progress();
                true
            }
            Outcome::Home => {
                self.screen = Screen::Home;
                true
            }
        }
    }

    pub(crate) fn update_book(&mut self, msg: Msg) -> bool {
        let chapters = book::chapters().len();
        let layout = book_view::layout(self.area);
        let page = layout.map_or(10, |l| l.text.height.saturating_sub(3).max(1));
        let before = self.book.clone();
        let state = &mut self.book;
        match msg {
            Msg::Back => {
                self.screen = Screen::Home;
                return true;
            }
            Msg::NextItem => state.selected = (state.selected + 1) % chapters,
            Msg::PrevItem => state.selected = (state.selected + chapters - 1) % chapters,
            Msg::Open => {
                state.open = state.selected;
                state.scroll = 0;
            }
            Msg::Up => state.scroll = state.scroll.saturating_sub(1),
            Msg::Down => state.scroll = state.scroll.saturating_add(1),
            Msg::ScrollUp => state.scroll = state.scroll.saturating_sub(page),
            Msg::ScrollDown => state.scroll = state.scroll.saturating_add(page),
            Msg::Click(x, y) => {
                if let Some(entry) = layout.and_then(|l| book_view::entry_at(&l, chapters, Position::new(x, y))) {
                    state.selected = entry;
                    state.open = entry;
                    state.scroll = 0;
                }
            }
            Msg::Wheel(x, y, down) => {
                let over_list = layout.is_some_and(|l| l.list.contains(Position::new(x, y)));
                match (over_list, down) {
                    (true, true) => state.selected = (state.selected + 1).min(chapters - 1),
                    (true, false) => state.selected = state.selected.saturating_sub(1),
                    (false, true) => state.scroll = state.scroll.saturating_add(3),
                    (false, false) => state.scroll = state.scroll.saturating_sub(3),
                }
            }
            _ => {}
        }
        // The view clamps to the chapter's end; this only bounds a held key.
        state.scroll = state.scroll.min(5_000);
        before != self.book
    }

    /// Steps, the prediction prompt and its outcome on lab screen `index`.
    pub(crate) fn update_predict(&mut self, index: usize, msg: Msg) -> bool {
        let lab = &self.content.labs[index];
        let steps = lab.steps.len();
        let state = &mut self.predicts[index];
        let before = state.clone();
        if state.is_showing_outcome() {
            match msg {
                // Seen: on to the next step.
                Msg::Open => {
                    state.close();
                    state.step = (state.step + 1).min(steps.saturating_sub(1));
                }
                Msg::Back => state.close(),
                _ => {}
            }
            return before != *state;
        }
        if let Some(input) = &mut state.input {
            match msg {
                Msg::Type(c) => {
                    input.push(c);
                }
                Msg::Erase => {
                    input.erase();
                }
                Msg::Back => state.close(),
                Msg::Open => match (input.value(), predict::step_check(lab, state.step)) {
                    (Some(value), Some(check)) => {
                        let live_run = self.live_run_metrics(index);
                        let observed = predict::observe(&check, value, &self.labs[index].results, live_run);
                        self.record_prediction(index, observed);
                        return true;
                    }
                    (None, _) => state.hint = Some("type a number first, then Enter".to_string()),
                    (_, None) => state.close(),
                },
                _ => {}
            }
            return before != *state;
        }
        match msg {
            Msg::PrevStep => {
                state.step = state.step.saturating_sub(1);
                state.hint = None;
            }
            Msg::NextStep => {
                state.step = (state.step + 1).min(steps.saturating_sub(1));
                state.hint = None;
            }
            Msg::Predict => match lab.steps.get(state.step) {
                Some(step) if step.check.is_some() => {
                    state.input = Some(NumberInput::default());
                    state.hint = None;
                }
                Some(step) => {
                    // A step without a check is done once it has been read and tried.
                    let title = step.title.clone();
                    let id = lab.id.clone();
                    state.hint = Some("This step has no check to predict: marked done. Enter: next step".to_string());
                    self.progress.mark_step(&id, &title);
                    self.save_progress();
                    return true;
                }
                None => state.hint = Some("this lab has no guided steps".to_string()),
            },
            _ => {}
        }
        before != *state
    }

    /// The named numbers of the finished live run on a lab screen in live mode, if any: a
    /// prediction made there is scored against what really happened on 127.0.0.1.
    fn live_run_metrics(&self, index: usize) -> Option<Vec<crate::metrics::Metric>> {
        if self.labs[index].mode != crate::tui::app::Mode::Live {
            return None;
        }
        match self.content.labs[index].id.as_str() {
            "breaker" => self
                .live
                .breaker_series
                .as_ref()?
                .measured
                .as_ref()
                .map(crate::metrics::breaker_metrics),
            "retry" => {
                let series = self.live.retry_series.as_ref()?;
                let result = series.result.clone()?;
                Some(crate::metrics::retry_metrics(&[(series.policy?, result)]))
            }
            _ => None,
        }
    }

    /// Records a prediction: the answer, the step done, and the outcome on screen.
    fn record_prediction(&mut self, index: usize, observed: Observed) {
        let lab = &self.content.labs[index];
        let state = &mut self.predicts[index];
        let step_title = lab.steps.get(state.step).map(|s| s.title.clone());
        let lab_id = lab.id.clone();
        self.progress
            .record_answer(&observed.check_id, Some(&lab_id), observed.verdict.right);
        if let Some(title) = step_title {
            self.progress.mark_step(&lab_id, &title);
        }
        state.input = None;
        state.hint = None;
        state.observed = Some(observed);
        self.save_progress();
    }
}
