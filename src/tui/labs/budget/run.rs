//! Lab 5's simulated run: the seven scenarios of `engine::budget` at the sliders, which
//! scenario the page draws, and its named numbers.
//!
//! [`at_sliders`] is what the page computes on a slider change, [`BudgetResults::metrics`]
//! the named numbers (the checks' and the hiding rule's), [`scenario_at_step`] which
//! scenario the page shows.
//!
//! The page shows one scenario at a time, the one the current guided step asks about: the
//! steps walk the scenarios in the material's order, so `[` and `]` are how the learner moves
//! between them, and a verdict shows the scenario of the check it scored.

use std::sync::OnceLock;

use crate::content::LabFile;
use crate::content::params::budget::budget_params;
use crate::engine::budget::{self, BudgetParams, BudgetRun, BudgetScenario, herd, retry_after};
use crate::learning::metrics::{self, Metric};
use crate::tui::slider::Slider;

/// The retry-after chart's slot: arrivals at the API per 100 ms.
pub const ARRIVAL_SLOT_MS: f64 = 100.0;

/// The herd chart's slot, the one its check counts in (`peak_per_10ms`).
pub const HERD_SLOT_MS: f64 = 10.0;

/// What the page shows: every scenario at the sliders, and what its charts draw.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetResults {
    pub params: BudgetParams,
    /// Each scenario's run, in [`BudgetScenario::ALL`]'s order.
    pub runs: Vec<BudgetRun>,
    /// Arrivals at the API per [`ARRIVAL_SLOT_MS`] from 0 to the run's duration: clients
    /// that ignore `Retry-After`, then clients that honour it.
    pub arrivals: [Vec<u64>; 2],
    /// The herd's returns per [`HERD_SLOT_MS`] with the sleep the slider picks, from the
    /// outage's end.
    pub herd_slots: Vec<u64>,
}

impl BudgetResults {
    /// The run of `scenario`.
    pub fn run(&self, scenario: BudgetScenario) -> &BudgetRun {
        let index = BudgetScenario::ALL.iter().position(|s| *s == scenario).unwrap_or(0);
        &self.runs[index]
    }

    /// The named numbers of every scenario (`budget.NAME`).
    pub fn metrics(&self) -> Vec<Metric> {
        metrics::budget_metrics(&self.runs)
    }
}

/// Counts of `times_ms` per `slot_ms` from `from_ms`, `slots` of them (later times are left out).
fn per_slot(times_ms: impl IntoIterator<Item = f64>, from_ms: f64, slot_ms: f64, slots: usize) -> Vec<u64> {
    let mut counts = vec![0; slots];
    for at_ms in times_ms {
        let slot = ((at_ms - from_ms) / slot_ms).floor();
        if slot >= 0.0 && (slot as usize) < slots {
            counts[slot as usize] += 1;
        }
    }
    counts
}

/// Every scenario at `params`, and the charts' series (kept from `previous` where the
/// settings they depend on did not move).
pub fn results(params: &BudgetParams, previous: Option<&BudgetResults>) -> BudgetResults {
    let runs = budget::run_all(params);
    let ra = &params.retry_after;
    let arrivals = match previous {
        Some(previous) if previous.params.retry_after == *ra => previous.arrivals.clone(),
        _ => {
            let slots = (ra.duration_ms as f64 / ARRIVAL_SLOT_MS).ceil() as usize;
            [false, true].map(|honour| {
                let (_, times) =
                    retry_after::run_with_arrivals(&retry_after::RetryAfterParams { honour, ..ra.clone() });
                per_slot(times, 0.0, ARRIVAL_SLOT_MS, slots)
            })
        }
    };
    let herd_slots = match previous {
        Some(previous) if previous.params.herd == params.herd && previous.params.herd_sleep == params.herd_sleep => {
            previous.herd_slots.clone()
        }
        _ => {
            let herd_run = herd::run(&params.herd, params.herd_sleep.0);
            let outage_ms = params.herd.outage_ms as f64;
            let last_ms = herd_run.landed_ms.iter().copied().fold(outage_ms, f64::max);
            // At least a second after the outage, so that a fixed sleep's one spike shows as one.
            let count = (((last_ms - outage_ms) / HERD_SLOT_MS).floor() as usize + 1).max(100);
            per_slot(herd_run.landed_ms, outage_ms, HERD_SLOT_MS, count)
        }
    };
    BudgetResults {
        params: params.clone(),
        runs,
        arrivals,
        herd_slots,
    }
}

/// Lab 5 at the sliders, keeping what `previous` computed that they cannot have moved.
pub fn at_sliders(sliders: &[Slider], previous: Option<&BudgetResults>) -> BudgetResults {
    results(&budget_params(sliders), previous)
}

/// Which scenario names each number, from a run of each at the defaults (the names do not
/// depend on the settings).
fn scenario_names() -> &'static [(String, BudgetScenario)] {
    static NAMES: OnceLock<Vec<(String, BudgetScenario)>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let params = BudgetParams::default();
        BudgetScenario::ALL
            .iter()
            .flat_map(|&scenario| {
                budget::run(scenario, &params)
                    .metrics
                    .into_iter()
                    .map(move |(name, _)| (metrics::budget_metric(name), scenario))
            })
            .collect()
    })
}

/// The scenario whose run names `metric` (`budget.worst_case_ms`: register).
pub fn scenario_of_metric(metric: &str) -> Option<BudgetScenario> {
    scenario_names()
        .iter()
        .find(|(name, _)| name == metric)
        .map(|(_, scenario)| *scenario)
}

/// The scenario guided step `step` asks about (its check's), else the first.
pub fn scenario_at_step(lab: &LabFile, step: usize) -> BudgetScenario {
    let check = lab.steps.get(step).and_then(|step| step.check.as_deref());
    lab.checks
        .iter()
        .find(|candidate| Some(candidate.id.as_str()) == check)
        .and_then(|check| check.metric.as_deref().and_then(scenario_of_metric))
        .unwrap_or_default()
}
