//! What a facilitator's screen (`oncall --gm`) is sent, and what it may ask of the drill.
//!
//! [`FacilitatorView`] is the drill as the facilitator sees it: the hidden incident, the
//! second faults, the owners' hints on offer, and beside them what on-call sees (clock,
//! headline signals, levers, decision log). It travels as JSON from the learner's app to
//! the facilitator's, so every field is owned data that reads back as it was written.
//! [`FacilitatorCommand`] is the other direction: three things a facilitator can do.

use serde::{Deserialize, Serialize};

use super::incident::{DrillSetup, ExtraFault};
use super::play::{OncallPlay, OwnerHint};

/// A second fault as the facilitator's screen and the debrief list it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultLine {
    /// The incident file whose fault it is.
    pub incident: String,
    pub dependency: String,
    pub from_s: f64,
}

/// checkout-api's headline numbers for the last whole drill second.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadlineSignals {
    pub goodput: u32,
    pub attempts_per_request: f64,
    pub p99_ms: f64,
    pub workers_busy: u32,
    pub failed: u32,
    pub rejected: u32,
    pub shed: u32,
}

/// One dependency's row for the last whole drill second.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepLine {
    pub name: String,
    pub attempts: u32,
    pub errors: u32,
    pub p99_ms: f64,
    pub breaker: String,
}

/// One decision-log entry as text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionLine {
    pub t_s: f64,
    pub lever: String,
    pub why: String,
    pub expected: String,
}

/// The drill as a facilitator sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FacilitatorView {
    pub incident: String,
    pub title: String,
    pub dependency: String,
    pub onset_s: f64,
    /// The incident file's hidden settings, as the file writes them.
    pub settings: Vec<String>,
    pub extra_faults: Vec<FaultLine>,
    /// The owner's hint for the incident, then for each second fault (empty: none written).
    pub owner_hints: Vec<String>,
    pub t_s: usize,
    pub drill_s: usize,
    pub speed_ms: u64,
    /// On-call plays the live twin: its clock is real time (`speed_ms` its scale) and
    /// cannot pause. Absent in a view from a build before it: the simulation.
    #[serde(default)]
    pub live: bool,
    pub paused: bool,
    pub ended: bool,
    pub ended_by_facilitator: bool,
    /// The score, once the drill has ended.
    pub score: Option<u32>,
    pub baseline_goodput: u32,
    /// None before the first drill second is over.
    pub signals: Option<HeadlineSignals>,
    pub deps: Vec<DepLine>,
    /// Alerts firing now, as `Rule{name=dep} for N s`.
    pub alerts: Vec<String>,
    pub pulled: Vec<String>,
    pub decisions: Vec<DecisionLine>,
    pub hints: Vec<OwnerHint>,
    /// What became of the facilitator's last command, said by the learner's app.
    pub note: Option<String>,
}

impl FacilitatorView {
    /// What a facilitator sees of `play` now. Never for on-call's screen.
    pub fn of(play: &OncallPlay) -> Self {
        let setup: &DrillSetup = play.setup();
        let view = play.view();
        let mut owner_hints = vec![setup.owner_hint()];
        owner_hints.extend(setup.extra_faults.iter().map(ExtraFault::owner_hint));
        let second = view.second.as_ref();
        FacilitatorView {
            incident: setup.incident.name.clone(),
            title: setup.incident.title.clone(),
            dependency: setup.dependency.name().to_string(),
            onset_s: setup.onset_s,
            settings: setup.incident.settings_lines(),
            extra_faults: setup
                .extra_faults
                .iter()
                .map(|extra| FaultLine {
                    incident: extra.incident.name.clone(),
                    dependency: extra.dependency.name().to_string(),
                    from_s: extra.from_s,
                })
                .collect(),
            owner_hints: owner_hints.into_iter().map(Option::unwrap_or_default).collect(),
            t_s: view.t_s,
            drill_s: view.drill_s,
            speed_ms: view.live.map_or(view.speed_ms, |live| live.ms_per_drill_s),
            live: view.live.is_some(),
            paused: view.paused,
            ended: view.ended,
            ended_by_facilitator: play.ended_by_facilitator(),
            score: play.score_if_ended(),
            baseline_goodput: view.baseline_goodput,
            signals: second.map(|s| HeadlineSignals {
                goodput: s.goodput,
                attempts_per_request: s.attempts_per_request(),
                p99_ms: s.p99_ms,
                workers_busy: s.workers_busy,
                failed: s.failed,
                rejected: s.rejected,
                shed: s.shed,
            }),
            deps: second.map_or_else(Vec::new, |s| {
                s.deps
                    .iter()
                    .map(|d| DepLine {
                        name: d.dep.name().to_string(),
                        attempts: d.attempts,
                        errors: d.errors,
                        p99_ms: d.p99_ms,
                        breaker: d.breaker.to_string(),
                    })
                    .collect()
            }),
            alerts: view
                .alerts
                .iter()
                .map(|a| format!("{}{{name={}}} for {} s", a.alert, a.dep.name(), a.firing_s))
                .collect(),
            pulled: view.pulled.iter().map(ToString::to_string).collect(),
            decisions: view
                .decisions
                .iter()
                .map(|d| DecisionLine {
                    t_s: d.pull.t_s,
                    lever: d.pull.lever.to_string(),
                    why: d.why.clone(),
                    expected: d.expected.clone(),
                })
                .collect(),
            hints: view.hints.clone(),
            note: None,
        }
    }
}

/// What a facilitator asks of the drill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum FacilitatorCommand {
    /// Adds the fault of the shipped incident `incident` on `dependency`, from now on.
    AddFault { incident: String, dependency: String },
    /// "Call the owner": the owner's hint of the incident (0) or of a second fault (1, ...)
    /// goes into on-call's log. An index, not text, so the facilitator's app cannot put
    /// words of its own on the learner's screen.
    CallOwner { hint: usize },
    /// Ends the drill; on-call's screen reveals as with its own `E`.
    End,
}
