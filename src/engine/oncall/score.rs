//! How a drill is scored: the time until goodput is back, the amplification two minutes
//! after the right lever, the order the levers came back in, and the wrong levers.
//!
//! Points (100 in all): 50 for goodput back to 95% of its baseline within 60 s of the
//! onset, falling evenly to 0 at 300 s; 20 for attempts per request at most 1.05 in the
//! ten seconds before 120 s after the right lever; 20 for every lever restored by the end,
//! in the runbook's order, retries last; 10, less 5 for each wrong lever.
//!
//! The goodput, attempts and order points count only for a recovery on-call made: the
//! right lever (or an equivalent) pulled at or after the onset, and goodput back after it
//! (or never lost). Every incident's fault ends by itself after a while, so a drill left
//! alone, ended before its onset, answered before the onset, or answered only once the fault
//! had ended must not score the fault's own end (a trial's drill ended before its onset
//! scored 61; a right lever pulled after the recovery scored 81, a wrong one restored 25).
//! A restored window that starts before the lever but ends after it is the lever's recovery,
//! dated from the lever ([`restored_after_lever`]).
//!
//! A facilitator's second faults (`oncall --gm`) change two things, and only in a drill
//! that has one: the baseline is the calm before the first fault of any kind, and a lever
//! that answers a second fault (its own runbook's, or an equivalent) is not wrong.

use serde::Serialize;

use super::incident::DrillSetup;
use super::lever::{LeverKnob, LeverPull};
use super::sim::{DrillRun, REQUESTS_PER_S, SHEDDABLE_OF_TEN};

/// Goodput must come back to this share of its baseline.
pub const RESTORED_SHARE: f64 = 0.95;
/// Attempts per request allowed two minutes after the right lever.
pub const ATTEMPTS_LIMIT: f64 = 1.05;
/// How long after the right lever the attempts are measured.
pub const ATTEMPTS_AFTER_S: f64 = 120.0;
/// A dip is a 5 s mean below the bar; a recovery, a 10 s mean at or above it.
const DIP_WINDOW_S: usize = 5;
const RESTORED_WINDOW_S: usize = 10;

/// What the score counted, every part named.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrillScore {
    /// Interactive checkouts a second before the onset (or before an earlier second fault).
    pub baseline_goodput: f64,
    /// The second goodput was lost (None: never).
    pub goodput_lost_s: Option<f64>,
    /// The second goodput was back (None: never), in drill seconds.
    pub goodput_restored_s: Option<f64>,
    /// When the right lever (or an equivalent) was first pulled.
    pub right_lever_s: Option<f64>,
    pub attempts_per_request_after: f64,
    pub restored_in_order: bool,
    pub wrong_levers: Vec<LeverPull>,
    pub score: u32,
}

/// On-call's own recovery, the condition of the goodput, attempts and order points: the right
/// lever in the incident (`right_lever_s`, from the onset on), and goodput back after it, or
/// never lost.
fn recovery_is_on_calls(right_lever_s: Option<f64>, lost_s: Option<f64>, restored_s: Option<f64>) -> bool {
    right_lever_s.is_some_and(|right_s| lost_s.is_none() || restored_s.is_some_and(|s| s >= right_s))
}

impl DrillScore {
    /// Why the recovery points (goodput, attempts, order) were not given, in the words every
    /// summary uses (the text, the Markdown debrief, the reveal); `None` when they count.
    pub fn unearned_reason(&self) -> Option<&'static str> {
        if recovery_is_on_calls(self.right_lever_s, self.goodput_lost_s, self.goodput_restored_s) {
            return None;
        }
        Some(match (self.right_lever_s, self.goodput_restored_s) {
            (None, _) => "no recovery points: no right lever from the onset on",
            (Some(_), None) => "no recovery points: goodput was not back after the right lever",
            (Some(_), Some(_)) => "no recovery points: goodput came back by itself, before the right lever",
        })
    }
}

fn mean(values: &[u32]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    f64::from(values.iter().sum::<u32>()) / values.len() as f64
}

/// The levers' text that counts as right for this run: the runbook's and the equivalents.
fn right_levers(run: &DrillRun) -> Vec<String> {
    let setup = &run.setup;
    let mut right: Vec<String> = setup.runbook().iter().map(|p| p.lever.to_string()).collect();
    right.extend(setup.incident.also_right.iter().map(|l| setup.resolve(l)));
    right
}

/// The levers that answer a facilitator's second faults: each fault's runbook and
/// equivalents, resolved for the dependency it was put on.
fn second_fault_levers(run: &DrillRun) -> Vec<String> {
    let mut levers = Vec::new();
    for extra in &run.setup.extra_faults {
        // The second fault as a drill of its own: its dependency, its moment.
        let mut as_drill = DrillSetup::new(&extra.incident, run.setup.seed);
        as_drill.dependency = extra.dependency;
        as_drill.onset_s = extra.from_s;
        levers.extend(as_drill.runbook().iter().map(|p| p.lever.to_string()));
        levers.extend(extra.incident.also_right.iter().map(|l| as_drill.resolve(l)));
    }
    levers
}

/// Interactive checkouts a second in calm running, for a drill whose second fault left no
/// calm second to measure: fixed by the load.
const CALM_GOODPUT: f64 = (REQUESTS_PER_S * (10 - SHEDDABLE_OF_TEN) / 10) as f64;

/// Goodput before the first fault: the seconds from 10 to the onset, or to a second fault
/// that came earlier.
fn baseline(run: &DrillRun, goodput: &[u32]) -> f64 {
    let onset = run.setup.onset_s as usize;
    let calm_until = run
        .setup
        .extra_faults
        .iter()
        .map(|extra| extra.from_s as usize)
        .fold(onset, usize::min);
    // A live drill ended early may stop before the onset: its calm is what it measured.
    let measured_until = calm_until.min(goodput.len());
    let calm = &goodput[10.min(measured_until)..measured_until];
    if calm.is_empty() && calm_until < onset {
        CALM_GOODPUT
    } else {
        mean(calm)
    }
}

/// Whether the learner's restores come in the runbook's order, retries last, and leave
/// every lever as it was.
fn restored_in_order(run: &DrillRun) -> bool {
    use std::collections::HashMap;
    let mut pulled: HashMap<LeverKnob, bool> = HashMap::new();
    let mut restores: Vec<LeverKnob> = Vec::new();
    for pull in &run.levers {
        pulled.insert(pull.lever.knob(), pull.lever.is_pull());
        if !pull.lever.is_pull() {
            restores.push(pull.lever.knob());
        }
    }
    if pulled.values().any(|still_pulled| *still_pulled) {
        return false;
    }
    let is_retries = |knob: &LeverKnob| matches!(knob, LeverKnob::Retries(_));
    if let Some(first_retries) = restores.iter().position(is_retries)
        && restores[first_retries..].iter().any(|k| !is_retries(k))
    {
        return false;
    }
    let runbook_order: Vec<LeverKnob> = run
        .setup
        .runbook()
        .iter()
        .filter(|p| !p.lever.is_pull())
        .map(|p| p.lever.knob())
        .collect();
    let learner_order: Vec<&LeverKnob> = restores.iter().filter(|k| runbook_order.contains(k)).collect();
    let expected: Vec<&LeverKnob> = runbook_order.iter().filter(|k| learner_order.contains(k)).collect();
    learner_order == expected
}

/// The restored moment of a recovery the right lever made, where the first restored window
/// (dated at its start) began before the lever but ends after it: the window's mean counts the
/// lever's own seconds, so the recovery is the lever's and is dated from it, at the first
/// restored window that starts at or after the lever (`None` if the drill ended before one
/// fit). A storm that lets goodput up for a second or two between collapses otherwise dated
/// a recovery the lever made a second before the lever, and scored it as the fault's own end
/// (a trial: the right lever at 136 s, a flicker at 135 s, 10 of 100). A window wholly before
/// the lever is the fault's own end; `restored` is kept when no window straddles the lever.
fn restored_after_lever(
    goodput: &[u32],
    bar: f64,
    restored: Option<usize>,
    right_lever_s: Option<f64>,
) -> Option<usize> {
    let (Some(start), Some(right_s)) = (restored, right_lever_s) else {
        return restored;
    };
    let straddles = (start as f64) < right_s && (start + RESTORED_WINDOW_S) as f64 > right_s;
    if !straddles {
        return restored;
    }
    let from = right_s.ceil() as usize;
    (from..=goodput.len().saturating_sub(RESTORED_WINDOW_S)).find(|&s| mean(&goodput[s..s + RESTORED_WINDOW_S]) >= bar)
}

/// Scores a finished drill.
pub fn score_drill(run: &DrillRun) -> DrillScore {
    let onset = run.setup.onset_s as usize;
    let goodput: Vec<u32> = run.seconds.iter().map(|s| s.goodput).collect();
    let baseline_goodput = baseline(run, &goodput);
    let bar = RESTORED_SHARE * baseline_goodput;
    let lost = (onset..goodput.len().saturating_sub(DIP_WINDOW_S)).find(|&s| mean(&goodput[s..s + DIP_WINDOW_S]) < bar);
    let restored = match lost {
        // Never lost, in a drill that ran long enough to tell (a live drill ended before its
        // onset had been read as restored at the onset).
        None if goodput.len() >= onset + RESTORED_WINDOW_S => Some(onset),
        None => None,
        Some(lost) => (lost + 1..=goodput.len().saturating_sub(RESTORED_WINDOW_S))
            .find(|&s| mean(&goodput[s..s + RESTORED_WINDOW_S]) >= bar),
    };
    let right = right_levers(run);
    // A pull before the onset answered nothing yet: the first right pull from the onset on.
    let right_lever_s = run
        .levers
        .iter()
        .find(|p| p.t_s >= onset as f64 && p.lever.is_pull() && right.contains(&p.lever.to_string()))
        .map(|p| p.t_s);
    let restored = if lost.is_some() {
        restored_after_lever(&goodput, bar, restored, right_lever_s)
    } else {
        restored
    };
    let end = run.seconds.len();
    let window_end = right_lever_s.map_or(end, |t| ((t + ATTEMPTS_AFTER_S) as usize).min(end));
    let window = &run.seconds[window_end.saturating_sub(10)..window_end];
    let attempts: u32 = window.iter().flat_map(|s| &s.deps).map(|d| d.attempts).sum();
    let calls: u32 = window.iter().flat_map(|s| &s.deps).map(|d| d.calls).sum();
    let attempts_per_request_after = if calls == 0 {
        1.0
    } else {
        f64::from(attempts) / f64::from(calls)
    };
    let answers_second_fault = second_fault_levers(run);
    let wrong_levers: Vec<LeverPull> = run
        .levers
        .iter()
        .filter(|p| {
            let lever = p.lever.to_string();
            p.lever.is_pull() && !right.contains(&lever) && !answers_second_fault.contains(&lever)
        })
        .copied()
        .collect();
    let acted = recovery_is_on_calls(right_lever_s, lost.map(|s| s as f64), restored.map(|s| s as f64));
    let in_order = acted && restored_in_order(run);
    let time_points = restored.filter(|_| acted).map_or(0.0, |s| {
        let after_onset = s.saturating_sub(onset) as f64;
        (50.0 * (1.0 - (after_onset - 60.0).max(0.0) / 240.0)).max(0.0)
    });
    let attempts_points = if acted && attempts_per_request_after <= ATTEMPTS_LIMIT {
        20.0
    } else {
        0.0
    };
    let order_points = if in_order { 20.0 } else { 0.0 };
    let wrong_points = (10.0 - 5.0 * wrong_levers.len() as f64).max(0.0);
    DrillScore {
        baseline_goodput,
        goodput_lost_s: lost.map(|s| s as f64),
        goodput_restored_s: restored.map(|s| s as f64),
        right_lever_s,
        attempts_per_request_after,
        restored_in_order: in_order,
        wrong_levers,
        score: (time_points + attempts_points + order_points + wrong_points).round() as u32,
    }
}
