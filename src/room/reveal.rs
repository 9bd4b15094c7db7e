//! The reveal's truth: a check run at its own settings and each answer graded, with the
//! very functions the lab screen's verdict uses ([`metrics::check_run`] for the run,
//! [`quiz::expected_number`] for its value and [`quiz::grade`] for right or not), so the
//! room and a learner's own screen can never disagree about an answer.

use crate::content::params::Defaults;
use crate::content::{LabFile, Question};
use crate::learning::metrics::{self, Metric};
use crate::learning::quiz::{self, Asked, Reading, Response};

/// A check's run and the value it measured.
pub struct Measured {
    run: Vec<Metric>,
    pub value: Option<f64>,
}

/// Runs `check` of `lab` at its own settings (a check "on screen" at the lab file's
/// defaults: the projector has no sliders) and reads the value it asks for.
pub fn measure(lab: &LabFile, check: &Question) -> Measured {
    let run = metrics::check_run(lab, check, &Defaults);
    let value = quiz::expected_number(check, &run);
    Measured { run, value }
}

impl Measured {
    /// The run behind a value saved in a session file: measured again (the simulation is
    /// deterministic), with the saved value kept when it came from elsewhere (a live run).
    pub fn at(lab: &LabFile, check: &Question, value: Option<f64>) -> Measured {
        let mut measured = measure(lab, check);
        if let (Some(saved), Some(metric)) = (value, check.metric.as_ref()) {
            measured.run.retain(|(name, _)| name != metric);
            measured.run.push((metric.clone(), saved));
            measured.value = Some(saved);
        }
        measured
    }

    /// Whether `value` is right for `check`, as the lab screen's verdict grades it.
    pub fn is_right(&self, check: &Question, value: f64) -> bool {
        let asked = Asked {
            question: check.clone(),
            choice_order: Vec::new(),
        };
        quiz::grade(&asked, &Response::Number(Reading::from(value)), &self.run).right
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};

    #[test]
    fn a_check_is_measured_at_its_own_settings_and_graded_with_its_tolerance() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Retry);
        let check = lab
            .checks
            .iter()
            .find(|c| c.id == "retry-predict-layered")
            .expect("step 1's check");
        let measured = measure(lab, check);
        assert_eq!(measured.value, Some(64.0));
        assert!(measured.is_right(check, 64.0));
        assert!(!measured.is_right(check, 8.0));
        let saved = Measured::at(lab, check, Some(10.0));
        assert!(saved.is_right(check, 10.0) && !saved.is_right(check, 64.0));
    }
}
