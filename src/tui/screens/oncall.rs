//! The on-call drill screen's state: the drill in play, the lever picker, the decision log's
//! short form, and the reveal once the drill has ended.
//!
//! ```text
//! Drill --l/Enter--> Picker --Enter--> Form --Enter (why, expected)--> Drill (lever pulled)
//!   |  Space pause, +/- speed    | Esc          | Esc
//!   +--E, or the clock's end--> Reveal --Esc--> home
//! ```
//!
//! The clock stops while the picker or the form is open: the form asks for a reason, and a
//! drill that ran on while the learner typed would punish writing one. The screen holds the
//! drill ([`OncallPlay`]), which keeps the incident to itself; what is drawn before the end
//! comes from [`OncallPlay::view`] only (`view/oncall.rs`).
//!
//! Live (`oncall --live`) the same screen plays the twin on 127.0.0.1: its clock runs on
//! under the picker and the form (real servers do not wait), and the screen holds the
//! twin's task, so that the app stops it (bounded) when it quits.

use std::path::{Path, PathBuf};
use std::time::Instant;

use color_eyre::eyre::Result;

use crate::engine::oncall::register::OncallDep;
use crate::engine::oncall::{
    DrillSetup, DrillSource, FacilitatorCommand, FacilitatorView, IncidentSpec, OncallLever, OncallPlay, OncallReveal,
    builtin_incidents,
};
use crate::learning::debrief::{debrief_dir, save_debrief};
use crate::learning::progress::OncallSummary;
use crate::live::oncall::feed;
use crate::report::oncall::{
    add_facilitator_json, add_live_json, debrief_json, debrief_markdown, expected_effect, facilitator_markdown,
};
use crate::tui::keys::Context;
use crate::tui::msg::{Msg, OncallMsg};

/// The longest reason or expected effect the form takes: a decision-log line, not an essay.
pub const FIELD_MAX_CHARS: usize = 80;

/// Which field of the form has the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormField {
    Why,
    Expected,
}

/// The decision log's short form for one lever: what (the lever), why, the effect expected.
#[derive(Clone, Debug, PartialEq)]
pub struct LeverForm {
    pub lever: OncallLever,
    pub why: String,
    pub expected: String,
    pub field: FormField,
    /// Why Enter did not pull yet (no reason written), shown under the fields.
    pub problem: Option<String>,
}

/// Where the screen is.
#[derive(Clone, Debug, PartialEq)]
pub enum OncallStage {
    Drill,
    /// The lever picker, its highlighted row.
    Picker(usize),
    Form(LeverForm),
    /// The drill has ended: the reveal, scrolled this many rows.
    Reveal(u16),
}

/// What the app must do after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OncallOutcome {
    Unchanged,
    Changed,
    /// The drill has just ended: save its debrief and its summary in progress.
    Ended,
    Home,
}

/// The on-call screen's state.
#[derive(Debug)]
pub struct OncallScreen {
    pub play: OncallPlay,
    pub stage: OncallStage,
    /// The whole run and its score, once ended.
    pub reveal: Option<OncallReveal>,
    /// Where the debrief went, or why it was not saved.
    pub saved: Option<String>,
    /// The seed, for the debrief's file name and the next drill's seed.
    pub seed: u64,
    /// Real time of the last tick, for the drill clock.
    last_tick: Option<Instant>,
    /// Live: the twin's task, stopped through the play and awaited when the app quits.
    live_task: Option<tokio::task::JoinHandle<()>>,
    /// `E` was pressed once: the next `E` ends the drill, any other key goes on. Ending
    /// reveals the incident and cannot be undone, so one stray key must not do it (a
    /// trial's drill ended on a single E).
    pub end_asked: bool,
}

impl OncallScreen {
    /// A drill of `incident` with `seed`, at second 0.
    pub fn new(incident: &IncidentSpec, seed: u64) -> Self {
        Self::from_play(OncallPlay::new(&DrillSetup::new(incident, seed)), seed, None)
    }

    /// A drill of `incident` with `seed` played live: checkout-api and its dependencies
    /// start on 127.0.0.1 now, in the background (on the current tokio runtime).
    pub fn new_live(incident: &IncidentSpec, seed: u64) -> Self {
        Self::new_live_at(incident, seed, feed::APP_MS_PER_DRILL_S)
    }

    /// [`OncallScreen::new_live`] at `ms_per_drill_s` real ms a drill second: the app's
    /// scale is a person's, a test's may be quicker (the twin agrees with the sim at 80 ms).
    pub fn new_live_at(incident: &IncidentSpec, seed: u64, ms_per_drill_s: u64) -> Self {
        let setup = DrillSetup::new(incident, seed);
        let (feed, task) = feed::spawn(&setup, ms_per_drill_s);
        let play = OncallPlay::with_source(&setup, DrillSource::live(Box::new(feed)));
        Self::from_play(play, seed, Some(task))
    }

    /// The screen at second 0 of `play`, before any key.
    fn from_play(play: OncallPlay, seed: u64, live_task: Option<tokio::task::JoinHandle<()>>) -> Self {
        Self {
            play,
            stage: OncallStage::Drill,
            reveal: None,
            saved: None,
            seed,
            last_tick: None,
            live_task,
            end_asked: false,
        }
    }

    /// Stops a live drill's twin and hands over its task to await; None on the sim or once
    /// handed over.
    pub fn stop_live(&mut self) -> Option<tokio::task::JoinHandle<()>> {
        let task = self.live_task.take()?;
        self.play.end();
        Some(task)
    }

    /// Whether a live drill's twin may still be running.
    pub fn live_running(&self) -> bool {
        self.live_task.as_ref().is_some_and(|task| !task.is_finished())
    }

    pub fn context(&self) -> Context {
        match self.stage {
            OncallStage::Drill if self.play.is_live() => Context::OncallLiveDrill,
            OncallStage::Drill => Context::OncallDrill,
            OncallStage::Picker(_) => Context::OncallPicker,
            OncallStage::Form(_) => Context::OncallForm,
            OncallStage::Reveal(_) => Context::OncallReveal,
        }
    }

    /// Whether the simulated clock waits for the learner: under the lever picker and the form
    /// ([`Self::advance`] moves a simulated drill only on the drill stage; a live one runs on).
    pub fn clock_waits(&self) -> bool {
        !self.play.is_live() && matches!(self.stage, OncallStage::Picker(_) | OncallStage::Form(_))
    }

    /// The frame tick: the drill clock moves by the real time since the last tick, while
    /// the drill shows and no picker or form is open. Returns what the app must do.
    pub fn tick(&mut self) -> OncallOutcome {
        let now = Instant::now();
        let since_ms = self
            .last_tick
            .map_or(0, |last| now.duration_since(last).as_millis() as u64);
        self.last_tick = Some(now);
        self.advance(since_ms)
    }

    /// Moves the drill clock on by `real_ms` (the tick's, or a test's); live, the twin's
    /// clock and rows are read, under the picker and the form too.
    pub fn advance(&mut self, real_ms: u64) -> OncallOutcome {
        let live_running = self.play.is_live() && !matches!(self.stage, OncallStage::Reveal(_));
        if self.stage != OncallStage::Drill && !live_running {
            return OncallOutcome::Unchanged;
        }
        if !self.play.advance(real_ms) {
            return OncallOutcome::Unchanged;
        }
        if self.play.ended() {
            return self.finish();
        }
        OncallOutcome::Changed
    }

    /// Forgets the last tick: time away from the screen is not drill time.
    pub fn leave(&mut self) {
        self.last_tick = None;
    }

    fn finish(&mut self) -> OncallOutcome {
        self.play.end();
        self.reveal = self.play.reveal();
        self.stage = OncallStage::Reveal(0);
        OncallOutcome::Ended
    }

    pub fn update(&mut self, msg: Msg) -> OncallOutcome {
        match self.stage.clone() {
            OncallStage::Drill => self.update_drill(msg),
            OncallStage::Picker(selected) => self.update_picker(selected, msg),
            OncallStage::Form(form) => self.update_form(form, msg),
            OncallStage::Reveal(scroll) => {
                let scroll = match msg {
                    Msg::Back => return OncallOutcome::Home,
                    Msg::Up => scroll.saturating_sub(1),
                    Msg::Down => scroll.saturating_add(1),
                    Msg::ScrollUp => scroll.saturating_sub(10),
                    Msg::ScrollDown => scroll.saturating_add(10),
                    Msg::Wheel(_, _, down) => {
                        if down {
                            scroll.saturating_add(1)
                        } else {
                            scroll.saturating_sub(1)
                        }
                    }
                    _ => return OncallOutcome::Unchanged,
                }
                // Bounded here; the view stops at the last row.
                .min(500);
                self.stage = OncallStage::Reveal(scroll);
                OncallOutcome::Changed
            }
        }
    }

    fn update_drill(&mut self, msg: Msg) -> OncallOutcome {
        // Any key but a second E lets the drill go on.
        let end_asked = std::mem::take(&mut self.end_asked);
        match msg {
            Msg::Oncall(OncallMsg::Pause) => self.play.toggle_pause(),
            Msg::Oncall(OncallMsg::Faster) => {
                self.play.change_speed(true);
            }
            Msg::Oncall(OncallMsg::Slower) => {
                self.play.change_speed(false);
            }
            Msg::Oncall(OncallMsg::Levers) => self.stage = OncallStage::Picker(0),
            Msg::Oncall(OncallMsg::End) if end_asked => return self.finish(),
            Msg::Oncall(OncallMsg::End) => {
                self.end_asked = true;
                return OncallOutcome::Changed;
            }
            Msg::Back => {
                if !self.play.view().paused {
                    self.play.toggle_pause();
                }
                self.leave();
                return OncallOutcome::Home;
            }
            _ => return OncallOutcome::Unchanged,
        }
        OncallOutcome::Changed
    }

    fn update_picker(&mut self, selected: usize, msg: Msg) -> OncallOutcome {
        let offer = self.play.offer();
        match msg {
            Msg::Up => self.stage = OncallStage::Picker(selected.saturating_sub(1)),
            Msg::Down => self.stage = OncallStage::Picker((selected + 1).min(offer.len() - 1)),
            Msg::Wheel(_, _, down) => {
                let step = if down { Msg::Down } else { Msg::Up };
                return self.update_picker(selected, step);
            }
            Msg::Open => {
                self.stage = OncallStage::Form(LeverForm {
                    lever: offer[selected],
                    why: String::new(),
                    expected: String::new(),
                    field: FormField::Why,
                    problem: None,
                });
            }
            Msg::Back => self.stage = OncallStage::Drill,
            _ => return OncallOutcome::Unchanged,
        }
        self.leave();
        OncallOutcome::Changed
    }

    fn update_form(&mut self, mut form: LeverForm, msg: Msg) -> OncallOutcome {
        let field = match form.field {
            FormField::Why => &mut form.why,
            FormField::Expected => &mut form.expected,
        };
        match msg {
            Msg::Type(c) if field.chars().count() < FIELD_MAX_CHARS => field.push(c),
            Msg::Type(_) => form.problem = Some(format!("at most {FIELD_MAX_CHARS} characters")),
            Msg::Erase => {
                field.pop();
            }
            Msg::NextItem => {
                form.field = match form.field {
                    FormField::Why => FormField::Expected,
                    FormField::Expected => FormField::Why,
                };
            }
            Msg::Back => {
                self.stage = OncallStage::Drill;
                return OncallOutcome::Changed;
            }
            Msg::Open if form.field == FormField::Why => form.field = FormField::Expected,
            Msg::Open if form.why.trim().is_empty() => {
                form.field = FormField::Why;
                form.problem = Some("write why first: the log keeps the reason, not only the lever".to_string());
            }
            Msg::Open => {
                // Left empty, the expected effect is the lever's documented one, said as such.
                let expected = if form.expected.trim().is_empty() {
                    format!("(documented) {}", expected_effect(form.lever))
                } else {
                    form.expected.clone()
                };
                let result = self.play.pull(form.lever, &form.why, &expected);
                self.stage = match result {
                    Ok(()) => OncallStage::Drill,
                    Err(problem) => OncallStage::Form(LeverForm {
                        problem: Some(problem),
                        ..form
                    }),
                };
                self.leave();
                return OncallOutcome::Changed;
            }
            _ => return OncallOutcome::Unchanged,
        }
        self.stage = OncallStage::Form(form);
        OncallOutcome::Changed
    }

    /// Applies a facilitator's command (`oncall --gm`); returns what the app must do and a
    /// line for the facilitator's screen. The learner's screen shows only its effect: a
    /// second fault in the signals, a hint in the log, the reveal.
    pub fn apply_facilitator(&mut self, command: FacilitatorCommand) -> (OncallOutcome, String) {
        match command {
            FacilitatorCommand::AddFault { incident, dependency } => {
                let incidents = builtin_incidents().unwrap_or_default();
                let Some(spec) = incidents.iter().find(|i| i.name == incident) else {
                    return (OncallOutcome::Unchanged, format!("refused: no incident {incident:?}"));
                };
                let Some(dep) = OncallDep::from_name(&dependency) else {
                    return (
                        OncallOutcome::Unchanged,
                        format!("refused: no dependency {dependency:?}"),
                    );
                };
                match self.play.add_fault(spec, dep) {
                    Ok(extra) => (
                        OncallOutcome::Changed,
                        format!("second fault: {} on {} from t={} s", incident, dep.name(), extra.from_s),
                    ),
                    Err(why) => (OncallOutcome::Unchanged, format!("refused: {why}")),
                }
            }
            FacilitatorCommand::CallOwner { hint } => {
                let hints = FacilitatorView::of(&self.play).owner_hints;
                let Some(text) = hints.get(hint).filter(|t| !t.is_empty()) else {
                    return (OncallOutcome::Unchanged, format!("refused: no owner's hint {hint}"));
                };
                match self.play.add_hint(text) {
                    Ok(()) => (OncallOutcome::Changed, format!("hint sent at t={} s", self.play.t_s())),
                    Err(why) => (OncallOutcome::Unchanged, format!("refused: {why}")),
                }
            }
            FacilitatorCommand::End => {
                if self.play.ended() {
                    return (OncallOutcome::Unchanged, "the drill had already ended".to_string());
                }
                self.play.end_by_facilitator();
                (self.finish(), "ended: on-call's screen shows the reveal".to_string())
            }
        }
    }

    /// The ended drill's summary for progress, naming the saved debrief if there is one.
    pub fn summary(&self, debrief: Option<String>) -> Option<OncallSummary> {
        let reveal = self.reveal.as_ref()?;
        let setup = &reveal.run.setup;
        Some(OncallSummary {
            incident: setup.incident.name.clone(),
            seed: self.seed,
            score: reveal.score.score,
            restored_after_s: reveal.score.goodput_restored_s.map(|t| t - setup.onset_s),
            wrong_levers: reveal.score.wrong_levers.len() as u32,
            debrief,
        })
    }

    /// Saves the ended drill's debrief (JSON and Markdown) beside `progress_file`, never over
    /// an older one; returns the JSON's path.
    pub fn save(&self, progress_file: &Path) -> Result<PathBuf> {
        let Some(reveal) = &self.reveal else {
            color_eyre::eyre::bail!("the drill has not ended");
        };
        let mut doc = debrief_json(&reveal.run, &reveal.score, &reveal.decisions);
        add_facilitator_json(&mut doc, &reveal.run, &reveal.hints, reveal.ended_by_facilitator);
        add_live_json(&mut doc, reveal.mode, reveal.live_cut_at_s);
        let json = serde_json::to_string_pretty(&doc)?;
        let mut md = debrief_markdown(&reveal.run, &reveal.score, &reveal.decisions);
        md.push_str(&facilitator_markdown(
            &reveal.run,
            &reveal.hints,
            reveal.ended_by_facilitator,
        ));
        let stem = format!("{}-seed{}", reveal.run.setup.incident.name, self.seed);
        save_debrief(&debrief_dir(progress_file), &stem, &json, &md)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen() -> OncallScreen {
        let incidents = builtin_incidents().unwrap();
        OncallScreen::new(&incidents[1], 1)
    }

    fn type_text(screen: &mut OncallScreen, text: &str) {
        for c in text.chars() {
            screen.update(Msg::Type(c));
        }
    }

    #[test]
    fn a_lever_is_pulled_only_after_its_reason_is_written() {
        let mut screen = screen();
        screen.advance(10 * 500);
        screen.update(Msg::Oncall(OncallMsg::Levers));
        assert_eq!(screen.context(), Context::OncallPicker);
        for _ in 0..5 {
            screen.update(Msg::Down);
        }
        screen.update(Msg::Open);
        let OncallStage::Form(form) = &screen.stage else {
            panic!("the form opens")
        };
        assert_eq!(form.lever, OncallLever::SwitchedOff(OncallDep::Recommendations, true));
        screen.update(Msg::Open);
        screen.update(Msg::Open);
        assert!(
            matches!(&screen.stage, OncallStage::Form(f) if f.problem.is_some()),
            "no reason: no pull"
        );
        assert!(screen.play.view().decisions.is_empty());
        type_text(&mut screen, "p99 at 1.9 s, workers full");
        screen.update(Msg::Open);
        screen.update(Msg::Open);
        assert_eq!(screen.stage, OncallStage::Drill);
        let log = screen.play.view().decisions;
        assert_eq!(log.len(), 1);
        assert_eq!(log[0].why, "p99 at 1.9 s, workers full");
        assert!(log[0].expected.starts_with("(documented)"));
        assert_eq!(log[0].pull.t_s, 10.0);
    }

    #[test]
    fn the_clock_stops_while_the_picker_or_the_form_is_open() {
        let mut screen = screen();
        screen.update(Msg::Oncall(OncallMsg::Levers));
        screen.advance(60_000);
        assert_eq!(screen.play.t_s(), 0);
        screen.update(Msg::Back);
        screen.advance(1_000);
        assert_eq!(screen.play.t_s(), 2);
    }

    #[test]
    fn the_end_reveals_and_asks_the_app_to_save() {
        let mut screen = screen();
        assert!(screen.reveal.is_none());
        // One E asks; a key between lets the drill go on; E twice ends it.
        assert_eq!(screen.update(Msg::Oncall(OncallMsg::End)), OncallOutcome::Changed);
        assert!(screen.end_asked && screen.reveal.is_none());
        screen.update(Msg::Oncall(OncallMsg::Pause));
        assert!(!screen.end_asked);
        assert_eq!(screen.update(Msg::Oncall(OncallMsg::End)), OncallOutcome::Changed);
        assert_eq!(screen.update(Msg::Oncall(OncallMsg::End)), OncallOutcome::Ended);
        assert_eq!(screen.context(), Context::OncallReveal);
        assert!(screen.reveal.is_some());
        let dir = tempfile::tempdir().unwrap();
        let progress = dir.path().join("progress.toml");
        let first = screen.save(&progress).unwrap();
        let second = screen.save(&progress).unwrap();
        assert_ne!(first, second, "never over an older debrief");
        assert!(first.with_extension("md").exists());
        assert_eq!(screen.update(Msg::Back), OncallOutcome::Home);
    }
}
