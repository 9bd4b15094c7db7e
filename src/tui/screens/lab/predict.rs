//! Predict-then-observe in a lab screen: the lab's guided steps, a prompt for the current
//! step's check, and the prediction scored against what the sliders' run measures.
//!
//! The run is the one the screen already shows (`LabResults`, the simulated clock), so the
//! number the learner is scored against is the number on the screen, not a hidden default.

use crate::content::{LabFile, Question};
use crate::engine::retry::Policy;
use crate::metrics::{self, Metric};
use crate::quiz::{self, Asked, Response, Verdict};
use crate::tui::screens::lab::sim::LabResults;
use crate::tui::widgets::number_input::NumberInput;

/// A prediction scored against the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    pub check_id: String,
    pub predicted: f64,
    /// What the run measured; `None` when the run does not produce the check's metric.
    pub measured: Option<f64>,
    /// Whether `measured` comes from a finished live run rather than the simulation.
    pub live: bool,
    pub verdict: Verdict,
    pub explanation: String,
}

/// One lab's guided-step state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PredictState {
    /// Index into the lab's `steps`.
    pub step: usize,
    /// The prompt is open and this is what was typed.
    pub input: Option<NumberInput>,
    /// The last prediction's outcome, shown until closed.
    pub observed: Option<Observed>,
    /// A one-line message: a step without a check (shown like an outcome), a number still to type.
    pub hint: Option<String>,
}

impl PredictState {
    /// Whether the prompt or an outcome covers the lab screen (keys go to it).
    pub fn is_open(&self) -> bool {
        self.input.is_some() || self.observed.is_some() || self.hint.is_some()
    }

    /// Whether an outcome (or a note on a step without a check) shows, waiting for Enter or Esc.
    pub fn is_showing_outcome(&self) -> bool {
        self.observed.is_some() || (self.input.is_none() && self.hint.is_some())
    }

    pub fn close(&mut self) {
        self.input = None;
        self.observed = None;
        self.hint = None;
    }
}

/// The check of step `step` of `lab`, tagged with its lab, if the step has one.
pub fn step_check(lab: &LabFile, step: usize) -> Option<Question> {
    let id = lab.steps.get(step)?.check.as_deref()?;
    lab.checks.iter().find(|check| check.id == id).map(|check| Question {
        lab: Some(lab.id.clone()),
        ..check.clone()
    })
}

/// The named numbers of the run a lab screen shows.
pub fn lab_metrics(results: &LabResults) -> Vec<Metric> {
    match results {
        LabResults::Health(run) => metrics::health_metrics(run),
        LabResults::Breaker(run) => metrics::breaker_metrics(run),
        LabResults::Retry(retry) => {
            // The rows are in `Policy::ALL` order (A, B, C), as `compare_policies` returns them.
            let rows: Vec<_> = Policy::ALL
                .iter()
                .zip(&retry.rows)
                .map(|(policy, (_, result))| (*policy, result.clone()))
                .collect();
            metrics::retry_metrics(&rows)
        }
    }
}

/// Scores `predicted` for `check` against the simulated run `results`, or against the
/// metrics of a finished live run when there is one that produces the check's metric.
pub fn observe(check: &Question, predicted: f64, results: &LabResults, live_run: Option<Vec<Metric>>) -> Observed {
    let produces = |run: &Vec<Metric>| quiz::expected_number(check, run).is_some();
    let (run, live) = match live_run.filter(produces) {
        Some(run) => (run, true),
        None => (lab_metrics(results), false),
    };
    let asked = Asked {
        question: check.clone(),
        choice_order: Vec::new(),
    };
    Observed {
        check_id: check.id.clone(),
        predicted,
        measured: quiz::expected_number(check, &run),
        live,
        verdict: quiz::grade(&asked, &Response::Number(predicted), &run),
        explanation: check.explanation.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::content::LabId;
    use crate::tui::screens::lab::sim as runs;
    use crate::tui::slider::Slider;

    fn sliders(lab: &LabFile) -> Vec<Slider> {
        lab.parameters.iter().cloned().map(Slider::new).collect()
    }

    #[test]
    fn predictions_score_against_the_sliders_run() {
        let content = Content::load(None).expect("content");
        let lab = content.lab(LabId::Retry);
        let check = step_check(lab, 0).expect("step 1 has a check");
        let mut sliders = sliders(lab);
        let results = runs::compute(lab, &sliders);
        let observed = observe(&check, 64.0, &results, None);
        assert!(observed.verdict.right, "{observed:?}");
        assert_eq!(observed.measured, Some(64.0));
        // Two attempts per layer: 2 x 2 x 2 = 8, so 64 is now wrong.
        for slider in sliders.iter_mut().filter(|s| s.spec.name.starts_with("attempts_")) {
            slider.set_value(2.0);
        }
        let results = runs::compute(lab, &sliders);
        let observed = observe(&check, 64.0, &results, None);
        assert!(!observed.verdict.right);
        assert_eq!(observed.measured, Some(8.0));
    }

    #[test]
    fn a_finished_live_run_scores_the_prediction_when_it_has_the_metric() {
        let content = Content::load(None).expect("content");
        let lab = content.lab(LabId::Breaker);
        let check = step_check(lab, 1).expect("step 2 asks for the calls to the sick dependency");
        let results = runs::compute(lab, &sliders(lab));
        let live_run = vec![("breaker.with_breaker.sick_calls".to_string(), 45.0)];
        let observed = observe(&check, 45.0, &results, Some(live_run));
        assert!(observed.live && observed.verdict.right);
        assert_eq!(observed.measured, Some(45.0));
        // A live run without that metric leaves the simulation to score it.
        let observed = observe(&check, 45.0, &results, Some(vec![("breaker.other".to_string(), 1.0)]));
        assert!(!observed.live);
        assert_eq!(observed.measured, Some(44.0));
    }

    #[test]
    fn every_lab_check_has_a_metric_in_its_screens_run() {
        let content = Content::load(None).expect("content");
        for lab in &content.labs {
            let run = lab_metrics(&runs::compute(lab, &sliders(lab)));
            for check in &lab.checks {
                let metric = check.metric.as_deref().expect("a predict check names a metric");
                assert!(metrics::lookup(&run, metric).is_some(), "{}: {metric}", lab.id);
            }
        }
    }
}
