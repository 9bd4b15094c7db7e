//! Lab 5's named numbers (`budget.` metrics), and its row in [`super::LAB_METRICS`]: every scenario of the chain.

use crate::content::params::{self, Values};
use crate::content::{LabFile, LabId};
use crate::engine::budget;

use super::registry::{LAB_METRICS, LabMetrics, Metric};

/// The name of Lab 5's number `name`: `budget.worst_case_ms`, as `run budget --json` calls
/// it with the lab's prefix.
pub fn budget_metric(name: &str) -> String {
    format!("budget.{name}")
}

/// Lab 5's named numbers of `runs` (one per scenario): each scenario's single numbers under
/// [`budget_metric`]; a name two scenarios share (`attempts`) is the first one's. The lists
/// (`hop_budget_ms`) are named hop by hop already (`checkout_budget_ms`).
pub fn budget_metrics(runs: &[budget::BudgetRun]) -> Vec<Metric> {
    let mut all: Vec<Metric> = Vec::new();
    for run in runs {
        for (name, value) in &run.metrics {
            let budget::MetricValue::Number(value) = value else {
                continue;
            };
            let name = budget_metric(name);
            if !all.iter().any(|(known, _)| *known == name) {
                all.push((name, *value));
            }
        }
    }
    all
}

/// Lab 5 at `values` (the lab file's defaults for any name `values` does not give).
fn run(_lab: &LabFile, values: &dyn Values) -> Vec<Metric> {
    let params = params::budget::budget_params(values);
    budget_metrics(&budget::run_all(&params))
}

#[linkme::distributed_slice(LAB_METRICS)]
static RUN: LabMetrics = LabMetrics {
    lab: LabId::Budget,
    run,
};
