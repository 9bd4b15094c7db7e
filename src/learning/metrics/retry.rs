//! Lab 2's named numbers (`retry.` metrics), and its row in [`super::LAB_METRICS`]: its three policies only, not the p-curve, with the Full Jitter ceilings and the five-layer chain.

use crate::content::params::{self, Values};
use crate::content::{LabFile, LabId};
use crate::engine::retry::{self, RetryPolicy, ScenarioResult};

use super::registry::{LAB_METRICS, LabMetrics, Metric};

/// The name of `field` of Lab 2's row for `policy`: `retry.a.db_attempts_per_action`. The
/// printer names its fields with it too ([`crate::report::retry_cells`]).
pub fn retry_metric(policy: RetryPolicy, field: &str) -> String {
    let letter = match policy {
        RetryPolicy::Layered => "a",
        RetryPolicy::TopOnly => "b",
        RetryPolicy::TopOnlyBudget => "c",
    };
    format!("retry.{letter}.{field}")
}

/// The A/B/C rows of Lab 2 as metrics `retry.a.db_attempts_per_action` and so on.
pub fn retry_metrics(rows: &[(RetryPolicy, ScenarioResult)]) -> Vec<Metric> {
    let mut metrics = Vec::new();
    for (policy, result) in rows {
        metrics.push((retry_metric(*policy, "db_attempts"), result.db_attempts as f64));
        metrics.push((
            retry_metric(*policy, "db_attempts_per_action"),
            result.db_attempts_per_action,
        ));
        metrics.push((retry_metric(*policy, "success_ratio"), result.success_ratio));
    }
    metrics
}

/// Lab 2's Full Jitter ceilings, one per attempt from 0, as metrics
/// `retry.jitter.attempt_4_ceiling_s` and so on: the bound each sleep is drawn under.
pub fn retry_jitter_metrics(ceilings_s: &[f64]) -> Vec<Metric> {
    ceilings_s
        .iter()
        .enumerate()
        .map(|(attempt, ceiling_s)| (format!("retry.jitter.attempt_{attempt}_ceiling_s"), *ceiling_s))
        .collect()
}

/// At most about this many database attempts for the five-layer run: at p = 1 with 10
/// attempts a layer one action costs 100,000, so the run takes fewer actions as the chain
/// multiplies (at p = 1 the mean per action is exact whatever the count; 3 attempts a layer
/// keeps 4,115 actions).
const FIVE_LAYERS_ATTEMPTS_MAX: u64 = 1_000_000;

/// Lab 2's chain lengthened to five layers, the depth of Amazon's example, by two more hops
/// like the back end (browser, front end, back end, back end, back end), with no budget:
/// metric `retry.five_layers.db_attempts_per_action`. The rows on screen stay at three.
pub fn retry_five_layers_metrics(settings: &params::RetrySettings) -> Vec<Metric> {
    let backend = settings.layered.last().copied().unwrap_or(1);
    let mut attempts = settings.layered.clone();
    attempts.extend([backend, backend]);
    let worst_per_action: u64 = attempts.iter().map(|a| u64::from(*a)).product::<u64>().max(1);
    let result = retry::run_scenario(&retry::ScenarioParams {
        p: settings.p,
        attempts,
        budget: 0.0,
        actions: settings
            .actions
            .min((FIVE_LAYERS_ATTEMPTS_MAX / worst_per_action).max(1)),
        seed: settings.seed,
    });
    vec![(
        "retry.five_layers.db_attempts_per_action".to_string(),
        result.db_attempts_per_action,
    )]
}

/// Lab 2 at `values` (the lab file's defaults for any name `values` does not give).
fn run(lab: &LabFile, values: &dyn Values) -> Vec<Metric> {
    let settings = params::retry_settings(lab, values);
    let mut metrics = retry_metrics(&retry::compare_policies(
        &settings.layered,
        settings.p,
        settings.budget,
        settings.actions,
        settings.seed,
    ));
    metrics.extend(retry_jitter_metrics(&retry::atlas_jitter_ceilings_s()));
    metrics.extend(retry_five_layers_metrics(&settings));
    metrics
}

#[linkme::distributed_slice(LAB_METRICS)]
static RUN: LabMetrics = LabMetrics { lab: LabId::Retry, run };
