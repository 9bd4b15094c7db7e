//! Named numbers a lab run produces, for the predict-then-observe checks.
//!
//! A check in a lab file names a metric such as `breaker.with_breaker.sick_calls`; the
//! app scores the learner's prediction against the value a run reports here, and
//! `resilience-lab check` refuses a check whose metric no run produces.
//!
//! Each lab's names are its own file here (`health`, `retry`, `breaker`, `overload`,
//! `budget`), which also registers the lab's run in [`LAB_METRICS`]: a new lab adds its file
//! and no arm to a `match`.

mod breaker;
mod budget;
mod health;
mod overload;
mod registry;
mod retry;

pub use breaker::{BREAKER_CALLERS, breaker_metric, breaker_metrics};
pub use budget::{budget_metric, budget_metrics};
pub use health::{
    HEALTH_EXIT_CODE, HEALTH_LATE_REQUEST_DONE, fleet_metrics, health_metrics, health_probe_metric, readyz_moment,
};
pub use overload::{SlotsCase, overload_case_metrics, overload_metastable_metrics, overload_metrics};
pub use registry::{LAB_METRICS, LabMetrics, Metric};
pub use retry::{retry_five_layers_metrics, retry_jitter_metrics, retry_metric, retry_metrics};

use crate::content::params::{Defaults, Values};
use crate::content::question::CheckSettings;
use crate::content::{Content, LabFile, Question};

/// The value of `name` in `metrics`, if the run produced it.
pub fn lookup(metrics: &[Metric], name: &str) -> Option<f64> {
    metrics.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
}

/// Every metric the simulation of `lab` produces at `values` (the lab file's defaults for
/// any name `values` does not give), by the lab's row of [`LAB_METRICS`].
pub fn run_metrics(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<Metric> {
    // Every lab registers one (the test below): a lab without would score nothing, so it
    // stops here rather than fail open.
    let row = LAB_METRICS.iter().find(|row| row.lab == lab.lab).unwrap_or_else(|| {
        panic!(
            "lab {} registers no row in LAB_METRICS (learning/metrics/{}.rs)",
            lab.lab, lab.lab
        )
    });
    (row.run)(lab, &Borrowed(values))
}

/// `values` as a sized source, so a slice of sliders passes as `&dyn Values` too.
struct Borrowed<'a, V: ?Sized>(&'a V);

impl<V: Values + ?Sized> Values for Borrowed<'_, V> {
    fn value(&self, name: &str) -> Option<f64> {
        self.0.value(name)
    }
}

/// The run a lab's check is scored against: the simulation at the check's own settings,
/// whatever the sliders say, or at `on_screen` (the sliders) for a check that says
/// `settings = "on screen"`. A check without settings (none in a file `check` accepts)
/// is scored at `on_screen` too.
pub fn check_run(lab: &LabFile, check: &Question, on_screen: &(impl Values + ?Sized)) -> Vec<Metric> {
    match check.settings.as_ref().and_then(CheckSettings::fixed) {
        Some(own) => run_metrics(lab, own),
        None => run_metrics(lab, on_screen),
    }
}

/// Every metric a default run of each lab produces, to check predict checks against.
pub fn default_metrics(content: &Content) -> Vec<Metric> {
    // The lab files' defaults, which `--content` may have changed for a class.
    content
        .labs
        .iter()
        .flat_map(|lab| run_metrics(lab, &Defaults))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::LabId;

    #[test]
    fn every_lab_registers_its_run_once() {
        for lab in LabId::ALL {
            let rows = LAB_METRICS.iter().filter(|row| row.lab == lab).count();
            assert_eq!(rows, 1, "{lab}: {rows} rows in LAB_METRICS");
        }
        assert_eq!(LAB_METRICS.len(), LabId::ALL.len());
    }

    /// Each check of Labs 2 and 3 at its own settings gives the Atlas's printed number
    /// (`retry_lab.py`, `breaker_lab.py` and their exercises), computed by the simulation.
    #[rustfmt::skip]
    const ATLAS_ANSWERS: [(LabId, &str, f64, f64); 14] = [
        // lab           check                                  Atlas    within
        (LabId::Retry,   "retry-predict-layered",               64.0,    0.005),
        (LabId::Retry,   "retry-predict-one-layer",             4.0,     0.005),
        (LabId::Retry,   "retry-predict-budget",                1.11,    0.005),
        (LabId::Retry,   "retry-predict-layered-rare",          1.42,    0.005),
        (LabId::Retry,   "retry-predict-budget-success",        0.782,   0.0005),
        (LabId::Retry,   "retry-predict-jitter-ceiling",        1.6,     1e-9),
        (LabId::Retry,   "retry-predict-five-layers",           243.0,   1e-9),
        (LabId::Breaker, "breaker-predict-sick-calls",          44.0,    1e-9),
        (LabId::Breaker, "breaker-predict-stuck-timeout",       20.0,    0.05),
        (LabId::Breaker, "breaker-predict-p99-breaker",         40.0,    0.5),
        (LabId::Breaker, "breaker-predict-degraded",            3133.0,  1e-9),
        (LabId::Breaker, "breaker-predict-first-open-atlas",    10.29,   0.005),
        (LabId::Breaker, "breaker-predict-first-open",          10.69,   0.005),
        (LabId::Breaker, "breaker-predict-sick-calls-open-1s",  101.0,   1e-9),
    ];

    #[test]
    fn every_check_of_labs_2_and_3_gives_the_atlas_number_at_its_settings() {
        let content = Content::load(None).expect("the built-in labs load");
        for (lab_id, check_id, atlas, within) in ATLAS_ANSWERS {
            let lab = content.lab(lab_id);
            let check = lab
                .checks
                .iter()
                .find(|c| c.id == check_id)
                .unwrap_or_else(|| panic!("{check_id}"));
            let run = check_run(lab, check, &Defaults);
            let value = lookup(&run, check.metric.as_deref().unwrap_or_default()).expect(check_id);
            assert!(
                (value - atlas).abs() <= within,
                "{check_id}: {value} against the Atlas's {atlas}"
            );
        }
        // The Atlas's exercise: a 100-call window opens at the 50th failure, at 10.69 s.
        let lab = content.lab(LabId::Breaker);
        let wide = [("window".to_string(), 100.0), ("min_calls".to_string(), 100.0)];
        let first_open = lookup(&run_metrics(lab, &wide[..]), "breaker.with_breaker.first_open_s");
        assert!(first_open.is_some_and(|t| (t - 10.69).abs() < 0.005), "{first_open:?}");
    }

    #[test]
    fn labs_2_and_3_have_six_steps_with_checks_each() {
        let content = Content::load(None).expect("the built-in labs load");
        for id in [LabId::Retry, LabId::Breaker] {
            let lab = content.lab(id);
            let checked = lab.steps.iter().filter(|step| step.check.is_some()).count();
            assert!(checked >= 6, "{id:?}: {checked} steps with a check");
        }
    }
}
