//! Lab 4's simulated run at the sliders: the run (exact) and every policy's goodput curve,
//! the bulkhead case the slots view draws, and the paper's metastable model.

use crate::content::LabFile;
use crate::content::params;
use crate::engine::overload::metastable::{self, MetastableParams, MetastableRun};
use crate::engine::overload::{self, OverloadRun, Recompute};
use crate::learning::metrics::SlotsCase;
use crate::tui::slider::Slider;

/// Lab 4's results at the sliders' values.
#[derive(Clone, Debug, PartialEq)]
pub struct OverloadResults {
    /// The run at the sliders (exact) and every policy's goodput curve.
    pub recompute: Recompute,
    /// The run the slots view draws: the bulkhead case at the same pool (X's 100 calls/s at
    /// 2 s beside the rest), or, for a verdict on a hang check, that check's hang case (X
    /// hangs and the timeout caps the slots it holds; [`compute_for_check`]).
    pub bulkhead: OverloadRun,
    /// The case `bulkhead` is (the bulkhead, or the hang for a hang check's verdict), for
    /// its named numbers.
    pub slots_case: SlotsCase,
    /// The paper's metastable model the metastable view draws: the run its check
    /// (`overload.metastable.*`) is scored on, at the model's own numbers.
    pub metastable: MetastableRun,
}

/// Lab 4: the run, the curves (kept from `previous` when they cannot have changed) and
/// the bulkhead case (kept unless the pool, service time or timeout moved).
pub fn compute_overload(lab: &LabFile, sliders: &[Slider], previous: Option<&OverloadResults>) -> OverloadResults {
    let params = params::overload_params(lab, sliders);
    let recompute = overload::screen_recompute_after(previous.map(|p| &p.recompute), &params);
    let bulkhead_params = SlotsCase::Bulkhead.params(lab, sliders);
    let bulkhead = match previous {
        Some(previous) if previous.bulkhead.params == bulkhead_params => previous.bulkhead.clone(),
        _ => overload::run(&bulkhead_params),
    };
    // The model has its own numbers: computed once, then kept.
    let metastable = match previous {
        Some(previous) => previous.metastable.clone(),
        None => metastable::run(&MetastableParams::default()),
    };
    OverloadResults {
        recompute,
        bulkhead,
        slots_case: SlotsCase::Bulkhead,
        metastable,
    }
}

/// The run a verdict on a check with `metric` scored, at `sliders` (the check's settings):
/// a check on the hanging dependency (`overload.hang.*`) puts its hang case where the slots
/// view reads, so the slots it counts are on screen.
pub fn compute_for_check(lab: &LabFile, sliders: &[Slider], metric: Option<&str>) -> OverloadResults {
    let mut results = compute_overload(lab, sliders, None);
    if metric.and_then(SlotsCase::of_metric) == Some(SlotsCase::Hang) {
        results.bulkhead = overload::run(&SlotsCase::Hang.params(lab, sliders));
        results.slots_case = SlotsCase::Hang;
    }
    results
}
