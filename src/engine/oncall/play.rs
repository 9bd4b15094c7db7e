//! The drill played by a person: a drill clock with speeds, pause and end, levers pulled
//! at the clock's moment, and [`OncallView`], the one thing a screen may draw before the
//! reveal. Its seconds come from a [`DrillSource`]: the simulation or the live twin.
//!
//! On the sim, the clock is advanced by the caller with real milliseconds (the engine reads
//! no clock). Each pull re-runs the whole drill with every lever so far: the sim is
//! deterministic and a lever at second T changes nothing before T, so the seconds already
//! shown stay as they were and the ones to come follow from the new levers.
//!
//! Live, the twin's clock is the drill's: it cannot pause or change speed (real servers
//! run on), a pull goes to the running checkout-api at once, and a second's row shows once
//! its requests have ended, a few drill seconds after the clock ([`LiveClock::behind_s`]).
//!
//! The hiding rule is a type here: [`OncallView`] has no field for the incident, its
//! dependency, its moment or its settings, so a screen drawn from it cannot show them. Only
//! [`OncallPlay::reveal`], after the drill has ended, hands out the whole run and its score.

use serde::Serialize;

use super::incident::{DrillSetup, ExtraFault, IncidentSpec};
use super::lever::{LeverKnob, LeverPull, OncallLever};
use super::mode::DrillMode;
use super::register::OncallDep;
use super::score::{DrillScore, score_drill};
use super::sim::{
    ALERT_TIME_SCALE, BREAKER_NOT_CLOSED, CALLS_REJECTED, DRILL_S, DrillRun, DrillSecond, REQUESTS_PER_S,
    SHEDDABLE_OF_TEN, run_drill,
};
use super::source::{DrillSource, LiveFeed};

/// Real milliseconds per drill second the learner can pick, slowest first.
pub const SPEEDS_MS: [u64; 5] = [1_000, 500, 250, 125, 60];
/// The default speed, 500 ms per drill second: a 420 s drill in three and a half minutes.
pub const DEFAULT_SPEED: usize = 1;
/// How many seconds of goodput the trend keeps: a minute, enough to see a dip and its end.
pub const TREND_S: usize = 60;
/// Interactive checkouts a second in calm running: the bar goodput is measured against.
/// Fixed by the load, not measured, so that the number says nothing about the moment.
pub const BASELINE_GOODPUT: u32 = (REQUESTS_PER_S * (10 - SHEDDABLE_OF_TEN) / 10) as u32;

/// One entry of the decision log, the Atlas's fixed fields: what was pulled and when,
/// why, and the effect expected.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecisionEntry {
    pub pull: LeverPull,
    pub why: String,
    pub expected: String,
}

/// A hint from a dependency's owner, sent by a facilitator ("call the owner"): on-call sees
/// it in the decision log from the moment it came.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct OwnerHint {
    /// The drill second it arrived.
    pub t_s: usize,
    pub text: String,
}

/// Second faults a drill takes at most: enough for a facilitator to make a point, few
/// enough that the drill stays one incident to reason about.
pub const EXTRA_FAULTS_MAX: usize = 3;

/// One alert as on-call sees it: which rule, for which dependency, firing since when.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlertLine {
    pub alert: &'static str,
    pub dep: OncallDep,
    /// Drill seconds it has been firing.
    pub firing_s: usize,
}

/// The live twin's clock as on-call sees it: its scale, and how far the rows trail it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LiveClock {
    /// Real milliseconds a drill second lasts live.
    pub ms_per_drill_s: u64,
    /// Drill seconds between the clock and the last row shown: a second is shown only
    /// once its requests have ended, as a scrape shows a metric an interval late.
    pub behind_s: usize,
}

/// What on-call sees at this moment, and nothing more.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OncallView {
    /// Drill seconds played so far.
    pub t_s: usize,
    /// The drill's length in drill seconds.
    pub drill_s: usize,
    /// Real milliseconds per drill second now.
    pub speed_ms: u64,
    pub paused: bool,
    pub ended: bool,
    /// The last whole second's signals (None before the first second is over).
    pub second: Option<DrillSecond>,
    /// Goodput of the last [`TREND_S`] seconds, oldest first.
    pub goodput_trend: Vec<u32>,
    pub baseline_goodput: u32,
    /// Alerts firing at the end of the last second.
    pub alerts: Vec<AlertLine>,
    /// The alert windows' speed-up over the Atlas's rule file.
    pub alert_time_scale: f64,
    /// Levers away from normal running now.
    pub pulled: Vec<OncallLever>,
    /// Every lever the register allows now: each knob in its other position.
    pub offer: Vec<OncallLever>,
    pub decisions: Vec<DecisionEntry>,
    /// Owners' hints a facilitator sent, oldest first (their text never names the incident).
    pub hints: Vec<OwnerHint>,
    /// Live only: the twin's scale and how late its rows are (None on the sim).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<LiveClock>,
    /// A probe of each dependency on-call has cut off (switched off, or its breaker forced
    /// open): its own row then reads zero, and without the probe nothing said when to put
    /// the lever back (a trial's recommendations stayed off long after it was well).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<DepProbe>,
}

/// What a health probe of a cut-off dependency answers, as on-call would see by calling it:
/// failing while a fault is in force on it, else healthy since the second it last failed.
/// It says when, never why: no mode, no setting.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DepProbe {
    pub dep: OncallDep,
    /// The drill second since which it has answered well; None while it fails.
    pub healthy_since_s: Option<usize>,
}

/// The probe of `dep` at drill second `t_s` of `setup`'s drill.
pub fn probe(setup: &DrillSetup, dep: OncallDep, t_s: usize) -> DepProbe {
    let failing = |s: usize| super::sim::fault_on(setup, dep, s as f64).is_some();
    let healthy_since_s = (!failing(t_s)).then(|| (0..t_s).rev().find(|s| failing(*s)).map_or(0, |s| s + 1));
    DepProbe { dep, healthy_since_s }
}

/// Everything the drill hid, handed out once it has ended.
#[derive(Clone, Debug)]
pub struct OncallReveal {
    pub run: DrillRun,
    pub score: DrillScore,
    pub decisions: Vec<DecisionEntry>,
    /// The hints a facilitator sent; the second faults are in `run.setup.extra_faults`.
    pub hints: Vec<OwnerHint>,
    /// Whether a facilitator ended the drill (`oncall --gm`), not on-call or the clock.
    pub ended_by_facilitator: bool,
    /// Live, ended before the clock's end (or a twin that could not run): the drill
    /// seconds the score could count (the twin cannot play the rest at once, as the sim
    /// does).
    pub live_cut_at_s: Option<usize>,
    /// Live: why the twin stopped on its own before the drill's end, as a clause ("it
    /// could not start on 127.0.0.1: ...", "it panicked: ..."), for the screen's one
    /// line; None when it ran or was stopped.
    pub live_stopped: Option<String>,
    /// The clock the drill was played on, for the debrief.
    pub mode: DrillMode,
}

/// A drill in play.
#[derive(Debug)]
pub struct OncallPlay {
    /// The levers so far's run; private, since it names the incident. Live, the rows
    /// handed over so far.
    run: DrillRun,
    source: DrillSource,
    decisions: Vec<DecisionEntry>,
    t_s: usize,
    /// Real milliseconds gathered towards the next drill second.
    pending_ms: u64,
    speed: usize,
    paused: bool,
    ended: bool,
    hints: Vec<OwnerHint>,
    ended_by_facilitator: bool,
    live_cut_at_s: Option<usize>,
    live_stopped: Option<String>,
}

/// Every knob of the register, in the register's order, shedding last.
fn knobs() -> Vec<LeverKnob> {
    let mut knobs = Vec::new();
    for dep in OncallDep::ALL {
        knobs.push(LeverKnob::Retries(dep));
        if !dep.row().hard {
            knobs.push(LeverKnob::Enabled(dep));
        }
        if dep.row().breaker {
            knobs.push(LeverKnob::Breaker(dep));
        }
    }
    knobs.push(LeverKnob::Shed);
    knobs
}

fn lever_of(knob: LeverKnob, pulled: bool) -> OncallLever {
    match knob {
        LeverKnob::Retries(dep) => OncallLever::RetriesZero(dep, pulled),
        LeverKnob::Enabled(dep) => OncallLever::SwitchedOff(dep, pulled),
        LeverKnob::Breaker(dep) => OncallLever::BreakerForced(dep, pulled),
        LeverKnob::Shed => OncallLever::Shed(pulled),
    }
}

impl OncallPlay {
    /// A drill on the sim at second 0, at the default speed, running.
    pub fn new(setup: &DrillSetup) -> Self {
        Self::with_source(setup, DrillSource::Sim)
    }

    /// A drill of `setup` at second 0 whose seconds come from `source`.
    pub fn with_source(setup: &DrillSetup, source: DrillSource) -> Self {
        let run = match source {
            DrillSource::Sim => run_drill(setup, &[]),
            DrillSource::Live { .. } => DrillRun {
                setup: setup.clone(),
                levers: Vec::new(),
                seconds: Vec::with_capacity(DRILL_S),
                alerts: Vec::new(),
            },
        };
        Self {
            run,
            source,
            decisions: Vec::new(),
            t_s: 0,
            pending_ms: 0,
            speed: DEFAULT_SPEED,
            paused: false,
            ended: false,
            hints: Vec::new(),
            ended_by_facilitator: false,
            live_cut_at_s: None,
            live_stopped: None,
        }
    }

    /// Whether the seconds come from the live twin (its clock cannot stop).
    pub fn is_live(&self) -> bool {
        matches!(self.source, DrillSource::Live { .. })
    }

    /// Moves the clock on by `real_ms` of real time; true when a drill second went by. The
    /// drill ends by itself after its last second. Live, `real_ms` is not used: the clock
    /// is the twin's, and the rows are the ones it has completed.
    pub fn advance(&mut self, real_ms: u64) -> bool {
        if self.is_live() {
            return self.follow_live();
        }
        if self.paused || self.ended {
            return false;
        }
        self.pending_ms += real_ms;
        let per_s = SPEEDS_MS[self.speed];
        let seconds = (self.pending_ms / per_s) as usize;
        self.pending_ms %= per_s;
        self.step(seconds)
    }

    /// Live: the twin's clock read, its completed rows closed through the alerts and
    /// kept; at the clock's end, the final run once every call has ended. True if anything
    /// on screen moved.
    fn follow_live(&mut self) -> bool {
        let DrillSource::Live { feed, alerts } = &mut self.source else {
            return false;
        };
        if self.ended {
            return false;
        }
        let t_s = live_second(feed.as_ref());
        let mut changed = t_s != self.t_s;
        self.t_s = t_s;
        let rows = feed.take_rows();
        if !rows.is_empty() {
            for mut row in rows {
                alerts.close(&mut row);
                self.run.seconds.push(row);
            }
            // Copied only when a row came: the spans change with the rows alone.
            self.run.alerts = alerts.spans().to_vec();
            changed = true;
        }
        match feed.take_final() {
            Some(Ok(done)) => {
                // Short only if the twin could not run the whole drill: the reveal says so.
                if done.seconds.len() < DRILL_S {
                    self.live_cut_at_s = Some(done.seconds.len());
                }
                self.run.seconds = done.seconds;
                self.run.alerts = done.alerts;
            }
            Some(Err(why)) => {
                // The twin is gone: the drill ends on the rows it handed over.
                self.live_cut_at_s = Some(self.run.seconds.len());
                self.live_stopped = Some(why);
            }
            None => return changed,
        }
        self.ended = true;
        true
    }

    /// Plays `seconds` drill seconds at once (pause and speed aside); true if any went by.
    /// The sim's only: the live twin's seconds take their real time.
    pub fn step(&mut self, seconds: usize) -> bool {
        if self.ended || seconds == 0 || self.is_live() {
            return false;
        }
        self.t_s = (self.t_s + seconds).min(DRILL_S);
        if self.t_s == DRILL_S {
            self.ended = true;
        }
        true
    }

    /// Pauses or runs the sim's clock again; live, nothing (real servers run on, and the
    /// screen says so).
    pub fn toggle_pause(&mut self) {
        if !self.is_live() {
            self.paused = !self.paused;
        }
    }

    /// One speed faster (`true`) or slower; the time gathered so far is kept. Live,
    /// unchanged: the twin's scale is set when its servers start.
    pub fn change_speed(&mut self, faster: bool) -> bool {
        if self.is_live() {
            return false;
        }
        let before = self.speed;
        self.speed = if faster {
            (self.speed + 1).min(SPEEDS_MS.len() - 1)
        } else {
            self.speed.saturating_sub(1)
        };
        self.speed != before
    }

    pub fn t_s(&self) -> usize {
        self.t_s
    }

    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Ends the drill now: on the sim the rest of the timeline plays out with the levers as
    /// they are, and the score counts the whole drill, as a real incident goes on after a
    /// shift. Live, the servers stop and the score counts the rows completed so far.
    pub fn end(&mut self) {
        if let DrillSource::Live { feed, .. } = &mut self.source {
            feed.stop();
            if !self.ended {
                self.live_cut_at_s = Some(self.run.seconds.len());
            }
        }
        self.ended = true;
    }

    /// Ends the drill on a facilitator's word; the debrief says who ended it.
    pub fn end_by_facilitator(&mut self) {
        if !self.ended {
            self.ended_by_facilitator = true;
        }
        self.end();
    }

    /// Adds `incident`'s fault on `dependency` from now on: the sim plays the drill again
    /// with it (the seconds already shown stay as they were), the live twin's dependencies
    /// take it at once. Refused after the end, or past [`EXTRA_FAULTS_MAX`].
    pub fn add_fault(&mut self, incident: &IncidentSpec, dependency: OncallDep) -> Result<ExtraFault, String> {
        if self.ended {
            return Err("the drill has ended".to_string());
        }
        if self.run.setup.extra_faults.len() >= EXTRA_FAULTS_MAX {
            return Err(format!("at most {EXTRA_FAULTS_MAX} second faults a drill"));
        }
        if let Some(feed) = self.live_feed() {
            // As a lever: from the twin's second now, not the last tick's.
            self.t_s = live_second(feed);
        }
        let extra = ExtraFault {
            incident: incident.clone(),
            dependency,
            from_s: self.t_s as f64,
        };
        match &mut self.source {
            DrillSource::Sim => {
                let mut setup = self.run.setup.clone();
                setup.extra_faults.push(extra.clone());
                self.run = run_drill(&setup, &self.run.levers);
            }
            // The twin's dependencies take it at once; the play keeps it for the score,
            // the facilitator's view and the debrief.
            DrillSource::Live { feed, .. } => {
                feed.add_fault(extra.clone());
                self.run.setup.extra_faults.push(extra.clone());
            }
        }
        Ok(extra)
    }

    /// Puts an owner's hint in on-call's log now. Refused after the end.
    pub fn add_hint(&mut self, text: &str) -> Result<(), String> {
        if self.ended {
            return Err("the drill has ended".to_string());
        }
        self.hints.push(OwnerHint {
            t_s: self.t_s,
            text: text.trim().to_string(),
        });
        Ok(())
    }

    /// The drill's setup, for the facilitator's view (`engine::oncall` only): on-call's
    /// screens cannot reach it (the hiding rule).
    pub(super) fn setup(&self) -> &DrillSetup {
        &self.run.setup
    }

    /// Whether a facilitator ended the drill.
    pub fn ended_by_facilitator(&self) -> bool {
        self.ended_by_facilitator
    }

    /// The drill's score once it has ended (None before).
    pub(super) fn score_if_ended(&self) -> Option<u32> {
        self.ended.then(|| score_drill(&self.run).score)
    }

    /// Levers away from normal running now, in the register's order.
    pub fn pulled(&self) -> Vec<OncallLever> {
        knobs()
            .into_iter()
            .filter(|knob| {
                self.run
                    .levers
                    .iter()
                    .rev()
                    .find(|p| p.lever.knob() == *knob)
                    .is_some_and(|p| p.lever.is_pull())
            })
            .map(|knob| lever_of(knob, true))
            .collect()
    }

    /// Every lever on offer: each knob the register allows, in its other position.
    pub fn offer(&self) -> Vec<OncallLever> {
        let pulled = self.pulled();
        knobs()
            .into_iter()
            .map(|knob| lever_of(knob, !pulled.contains(&lever_of(knob, true))))
            .collect()
    }

    /// Pulls (or restores) `lever` now, with its decision-log entry, and plays the drill
    /// again with it. Refused after the end, or when the lever is not on offer.
    pub fn pull(&mut self, lever: OncallLever, why: &str, expected: &str) -> Result<(), String> {
        if self.ended {
            return Err("the drill has ended".to_string());
        }
        if !self.offer().contains(&lever) {
            return Err(format!("{lever} is not on offer now"));
        }
        if let Some(feed) = self.live_feed() {
            // The picker and the form do not stop the twin's clock: the lever acts now.
            self.t_s = live_second(feed);
        }
        let pull = LeverPull {
            t_s: self.t_s as f64,
            lever,
        };
        match &mut self.source {
            DrillSource::Sim => {
                let mut levers = self.run.levers.clone();
                levers.push(pull);
                self.run = run_drill(&self.run.setup, &levers);
            }
            // Logged at the whole drill second the learner saw; sent at once.
            DrillSource::Live { feed, .. } => {
                feed.pull(lever);
                self.run.levers.push(pull);
            }
        }
        self.decisions.push(DecisionEntry {
            pull,
            why: why.trim().to_string(),
            expected: expected.trim().to_string(),
        });
        Ok(())
    }

    /// What on-call sees now.
    pub fn view(&self) -> OncallView {
        let shown = &self.run.seconds[..self.t_s.min(self.run.seconds.len())];
        let second = shown.last().cloned();
        let alerts = second.as_ref().map_or_else(Vec::new, |last| {
            self.run
                .alerts
                .iter()
                .filter(|span| span.from_s <= last.t_s && span.to_s.is_none_or(|to| to > last.t_s))
                .map(|span| AlertLine {
                    alert: span.alert,
                    dep: span.dep,
                    firing_s: last.t_s + 1 - span.from_s,
                })
                .collect()
        });
        let live = self.live_feed().map(|feed| LiveClock {
            ms_per_drill_s: feed.ms_per_drill_s(),
            behind_s: self.t_s.saturating_sub(shown.len()),
        });
        // Probed at the last second shown, as the row beside it.
        let probes = second.as_ref().map_or_else(Vec::new, |last| {
            self.pulled()
                .into_iter()
                .filter_map(|lever| match lever {
                    OncallLever::SwitchedOff(dep, true) | OncallLever::BreakerForced(dep, true) => {
                        Some(probe(&self.run.setup, dep, last.t_s))
                    }
                    _ => None,
                })
                .collect()
        });
        OncallView {
            t_s: self.t_s,
            drill_s: DRILL_S,
            speed_ms: live.map_or(SPEEDS_MS[self.speed], |live| live.ms_per_drill_s),
            paused: self.paused,
            ended: self.ended,
            second,
            goodput_trend: shown[shown.len().saturating_sub(TREND_S)..]
                .iter()
                .map(|s| s.goodput)
                .collect(),
            baseline_goodput: BASELINE_GOODPUT,
            alerts,
            alert_time_scale: ALERT_TIME_SCALE,
            pulled: self.pulled(),
            offer: self.offer(),
            decisions: self.decisions.clone(),
            hints: self.hints.clone(),
            live,
            probes,
        }
    }

    fn live_feed(&self) -> Option<&dyn LiveFeed> {
        match &self.source {
            DrillSource::Sim => None,
            DrillSource::Live { feed, .. } => Some(feed.as_ref()),
        }
    }

    /// The whole run, its score and the decision log, once the drill has ended.
    pub fn reveal(&self) -> Option<OncallReveal> {
        self.ended.then(|| OncallReveal {
            score: score_drill(&self.run),
            run: self.run.clone(),
            decisions: self.decisions.clone(),
            hints: self.hints.clone(),
            ended_by_facilitator: self.ended_by_facilitator,
            live_cut_at_s: self.live_cut_at_s,
            live_stopped: self.live_stopped.clone(),
            mode: self.live_feed().map_or(DrillMode::Sim, |feed| DrillMode::Live {
                ms_per_drill_s: feed.ms_per_drill_s(),
            }),
        })
    }
}

/// The live twin's whole drill second now, within the drill.
fn live_second(feed: &dyn LiveFeed) -> usize {
    (feed.now_s().floor() as usize).min(DRILL_S)
}

/// The alert rules in the order the screen lists them.
pub const ALERT_RULES: [&str; 2] = [BREAKER_NOT_CLOSED, CALLS_REJECTED];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oncall::incident::builtin_incidents;

    fn setup(name: &str, seed: u64) -> DrillSetup {
        let incidents = builtin_incidents().unwrap();
        let incident = incidents.iter().find(|i| i.name == name).unwrap();
        DrillSetup::new(incident, seed)
    }

    #[test]
    fn the_clock_moves_a_second_per_speed_and_stops_when_paused() {
        let mut play = OncallPlay::new(&setup("payments-503", 1));
        assert!(!play.advance(499));
        assert!(play.advance(1));
        assert_eq!(play.t_s(), 1);
        play.change_speed(true);
        play.advance(1_000);
        assert_eq!(play.t_s(), 5, "250 ms a drill second");
        play.toggle_pause();
        assert!(!play.advance(10_000));
        assert_eq!(play.t_s(), 5);
        play.toggle_pause();
        for _ in 0..10 {
            play.change_speed(false);
        }
        assert_eq!(play.view().speed_ms, 1_000);
        play.advance(2_000);
        assert_eq!(play.t_s(), 7);
    }

    #[test]
    fn the_drill_ends_by_itself_and_only_then_reveals() {
        let mut play = OncallPlay::new(&setup("payments-503", 1));
        play.step(DRILL_S - 1);
        assert!(play.reveal().is_none());
        play.step(5);
        assert_eq!(play.t_s(), DRILL_S);
        assert!(play.ended());
        assert!(play.reveal().is_some());
        assert!(play.pull(OncallLever::Shed(true), "late", "").is_err());
    }

    #[test]
    fn a_pull_keeps_the_seconds_shown_and_matches_the_headless_run() {
        let setup = setup("inventory-brownout", 2);
        let mut play = OncallPlay::new(&setup);
        let at = setup.onset_s as usize + 15;
        play.step(at);
        let before: Vec<DrillSecond> = play.run.seconds[..at].to_vec();
        play.pull(OncallLever::Shed(true), "goodput down", "less load").unwrap();
        assert_eq!(&play.run.seconds[..at], &before[..], "the past does not move");
        let headless = run_drill(
            &setup,
            &[LeverPull {
                t_s: at as f64,
                lever: OncallLever::Shed(true),
            }],
        );
        assert_eq!(play.run.seconds, headless.seconds, "deterministic");
        assert_eq!(play.view().decisions[0].why, "goodput down");
    }

    #[test]
    fn the_offer_turns_a_pulled_lever_into_its_restore() {
        let mut play = OncallPlay::new(&setup("recommendations-hang", 1));
        let offer = play.offer();
        assert_eq!(
            offer.len(),
            10,
            "the register's knobs: 4 retries, 2 enabled, 3 breakers, shed"
        );
        assert!(offer.contains(&OncallLever::SwitchedOff(OncallDep::Recommendations, true)));
        assert!(!offer.contains(&OncallLever::SwitchedOff(OncallDep::Payments, true)));
        play.step(10);
        let off = OncallLever::SwitchedOff(OncallDep::Recommendations, true);
        play.pull(off, "", "").unwrap();
        assert_eq!(play.pulled(), vec![off]);
        assert!(
            play.offer()
                .contains(&OncallLever::SwitchedOff(OncallDep::Recommendations, false))
        );
        assert!(play.pull(off, "", "").is_err(), "already pulled");
    }

    #[test]
    fn the_runbook_played_by_hand_scores_as_the_headless_runbook() {
        let setup = setup("receipt-store-slow", 3);
        let mut play = OncallPlay::new(&setup);
        for pull in setup.runbook() {
            play.step(pull.t_s as usize - play.t_s());
            play.pull(pull.lever, "runbook", "").unwrap();
        }
        play.end();
        let reveal = play.reveal().unwrap();
        assert_eq!(reveal.score, score_drill(&run_drill(&setup, &setup.runbook())));
        assert_eq!(reveal.decisions.len(), setup.runbook().len());
    }

    /// A live feed without sockets: its clock is set by the test, its rows are a sim run's,
    /// handed over [`FAKE_LAG_S`] seconds behind the clock, and the levers it got are kept.
    #[derive(Debug)]
    struct FakeFeed {
        now_s: std::sync::Arc<std::sync::Mutex<f64>>,
        rows: Vec<DrillSecond>,
        handed: usize,
        pulled: std::sync::Arc<std::sync::Mutex<Vec<OncallLever>>>,
        final_run: Option<DrillRun>,
        stopped: std::sync::Arc<std::sync::Mutex<bool>>,
        faults: std::sync::Arc<std::sync::Mutex<Vec<ExtraFault>>>,
        /// From this clock on, the twin is gone and says why (as a panic or a failed start).
        fails_at: Option<(f64, String)>,
    }

    const FAKE_LAG_S: usize = 6;

    impl LiveFeed for FakeFeed {
        fn ms_per_drill_s(&self) -> u64 {
            400
        }
        fn now_s(&self) -> f64 {
            *self.now_s.lock().unwrap()
        }
        fn pull(&mut self, lever: OncallLever) {
            self.pulled.lock().unwrap().push(lever);
        }
        fn take_rows(&mut self) -> Vec<DrillSecond> {
            let complete = (self.now_s() as usize).saturating_sub(FAKE_LAG_S);
            let rows: Vec<DrillSecond> = self.rows[self.handed..complete.max(self.handed)]
                .iter()
                .map(|row| DrillSecond {
                    alerts: Vec::new(),
                    ..row.clone()
                })
                .collect();
            self.handed += rows.len();
            rows
        }
        fn take_final(&mut self) -> Option<Result<DrillRun, String>> {
            if let Some((at_s, why)) = &self.fails_at
                && self.now_s() >= *at_s
            {
                return Some(Err(why.clone()));
            }
            // As the twin: the final run once the clock is past the end.
            if self.now_s() >= DRILL_S as f64 {
                self.final_run.take().map(Ok)
            } else {
                None
            }
        }
        fn add_fault(&mut self, fault: ExtraFault) {
            self.faults.lock().unwrap().push(fault);
        }
        fn stop(&mut self) {
            *self.stopped.lock().unwrap() = true;
        }
    }

    type Handles = (
        std::sync::Arc<std::sync::Mutex<f64>>,
        std::sync::Arc<std::sync::Mutex<Vec<OncallLever>>>,
        std::sync::Arc<std::sync::Mutex<bool>>,
        std::sync::Arc<std::sync::Mutex<Vec<ExtraFault>>>,
    );

    /// A play on a fake live feed whose rows are `setup`'s sim run without levers.
    fn fake_live(setup: &DrillSetup) -> (OncallPlay, Handles) {
        fake_live_failing(setup, None)
    }

    /// [`fake_live`] whose twin stops on its own at `fails_at` (the clock, and why).
    fn fake_live_failing(setup: &DrillSetup, fails_at: Option<(f64, String)>) -> (OncallPlay, Handles) {
        let run = run_drill(setup, &[]);
        let handles: Handles = Default::default();
        let feed = FakeFeed {
            now_s: handles.0.clone(),
            rows: run.seconds.clone(),
            handed: 0,
            pulled: handles.1.clone(),
            final_run: Some(run),
            stopped: handles.2.clone(),
            faults: handles.3.clone(),
            fails_at,
        };
        (
            OncallPlay::with_source(setup, DrillSource::live(Box::new(feed))),
            handles,
        )
    }

    #[test]
    fn the_sim_source_plays_as_the_sim_play_did() {
        let setup = setup("inventory-brownout", 2);
        let mut old = OncallPlay::new(&setup);
        let mut seam = OncallPlay::with_source(&setup, DrillSource::Sim);
        for play in [&mut old, &mut seam] {
            play.step(setup.onset_s as usize + 12);
            play.pull(OncallLever::Shed(true), "goodput down", "").unwrap();
            play.advance(2_500);
        }
        assert_eq!(old.view(), seam.view());
        assert_eq!(seam.view().live, None, "the sim names no live clock");
        let json = serde_json::to_value(seam.view()).unwrap();
        assert!(json.get("live").is_none(), "the sim's view serializes as before");
        old.end();
        seam.end();
        assert_eq!(old.reveal().unwrap().score, seam.reveal().unwrap().score);
    }

    #[test]
    fn a_live_source_shows_its_rows_behind_its_clock_and_cannot_pause() {
        let setup = setup("inventory-brownout", 2);
        let (mut play, (now_s, ..)) = fake_live(&setup);
        *now_s.lock().unwrap() = 30.4;
        assert!(play.advance(0));
        let view = play.view();
        assert_eq!(view.t_s, 30);
        assert_eq!(view.second.as_ref().map(|s| s.t_s), Some(30 - FAKE_LAG_S - 1));
        assert_eq!(
            view.live,
            Some(LiveClock {
                ms_per_drill_s: 400,
                behind_s: FAKE_LAG_S
            })
        );
        assert_eq!(view.speed_ms, 400, "the live scale, not a speed");
        play.toggle_pause();
        assert!(!play.change_speed(false));
        assert!(!play.view().paused, "real servers do not pause");
        assert!(!play.step(10), "live seconds take their real time");
        assert_eq!(play.t_s(), 30);
    }

    #[test]
    fn a_live_pull_goes_to_the_feed_at_its_clock_and_the_end_takes_the_final_run() {
        let setup = setup("inventory-brownout", 2);
        let (mut play, (now_s, pulled, _, faults)) = fake_live(&setup);
        *now_s.lock().unwrap() = 200.7;
        play.advance(0);
        *now_s.lock().unwrap() = 201.2;
        let lever = OncallLever::Shed(true);
        play.pull(lever, "goodput down", "").unwrap();
        assert_eq!(*pulled.lock().unwrap(), vec![lever], "sent to the twin at once");
        assert_eq!(
            play.view().decisions[0].pull.t_s,
            201.0,
            "at the twin's clock, not the last tick's"
        );
        *now_s.lock().unwrap() = 203.6;
        let extra = play
            .add_fault(&setup.incident, OncallDep::Payments)
            .expect("a live drill takes a second fault");
        assert_eq!(extra.from_s, 203.0, "from the twin's second, not the last tick's");
        assert_eq!(*faults.lock().unwrap(), vec![extra.clone()], "sent to the twin at once");
        *now_s.lock().unwrap() = DRILL_S as f64 + 3.0;
        play.advance(0);
        assert!(play.ended(), "the clock's end and the final run end the drill");
        let reveal = play.reveal().unwrap();
        assert_eq!(reveal.run.seconds.len(), DRILL_S);
        assert_eq!(reveal.run.levers.len(), 1, "the play keeps the levers");
        assert_eq!(
            reveal.run.setup.extra_faults,
            vec![extra],
            "and the second fault, for the score"
        );
        assert_eq!(reveal.live_cut_at_s, None);
        let alerts_of_rows = run_drill(&setup, &[]).alerts;
        assert_eq!(reveal.run.alerts, alerts_of_rows);
    }

    #[test]
    fn live_rows_fire_the_alerts_the_sim_fires_on_the_same_rows() {
        let setup = setup("inventory-brownout", 1);
        let (mut play, (now_s, ..)) = fake_live(&setup);
        let full = run_drill(&setup, &[]);
        let span = full.alerts.first().expect("an unattended brownout fires an alert");
        *now_s.lock().unwrap() = (span.from_s + 10 + FAKE_LAG_S) as f64;
        play.advance(0);
        let view = play.view();
        let line = view
            .alerts
            .iter()
            .find(|a| a.alert == span.alert && a.dep == span.dep)
            .expect("the live rows' alert log fires it");
        assert_eq!(line.firing_s, 10);
    }

    #[test]
    fn a_live_drill_ended_before_the_onset_stops_the_twin_and_scores_what_it_measured() {
        let setup = setup("inventory-brownout", 2);
        let (mut play, (now_s, _, stopped, _)) = fake_live(&setup);
        *now_s.lock().unwrap() = 9.0;
        play.advance(0);
        play.end();
        assert!(*stopped.lock().unwrap(), "the servers stop with the drill");
        let reveal = play.reveal().unwrap();
        assert_eq!(reveal.live_cut_at_s, Some(9 - FAKE_LAG_S));
        assert_eq!(reveal.run.seconds.len(), 9 - FAKE_LAG_S);
    }

    #[test]
    fn a_twin_that_stops_on_its_own_ends_the_drill_on_the_seconds_measured_and_says_why() {
        let setup = setup("inventory-brownout", 2);
        let why = "it panicked: boom".to_string();
        let (mut play, (now_s, ..)) = fake_live_failing(&setup, Some((40.0, why.clone())));
        *now_s.lock().unwrap() = 39.5;
        play.advance(0);
        assert!(!play.ended());
        *now_s.lock().unwrap() = 40.0;
        assert!(play.advance(0), "the end is news");
        assert!(play.ended(), "no frozen screen: the drill ends");
        let reveal = play.reveal().expect("the reveal");
        assert_eq!(reveal.live_stopped, Some(why));
        // The rows handed over up to the failure, and no more.
        let measured = 40 - FAKE_LAG_S;
        assert_eq!(reveal.live_cut_at_s, Some(measured), "scored on the seconds measured");
        assert_eq!(reveal.run.seconds.len(), measured);
    }

    #[test]
    fn alerts_show_how_long_they_have_fired() {
        let setup = setup("inventory-brownout", 1);
        let mut play = OncallPlay::new(&setup);
        let full = run_drill(&setup, &[]);
        let span = full.alerts.first().expect("an unattended brownout fires an alert");
        play.step(span.from_s + 10);
        let view = play.view();
        let line = view
            .alerts
            .iter()
            .find(|a| a.alert == span.alert && a.dep == span.dep)
            .unwrap();
        assert_eq!(line.firing_s, 10);
    }
}
