//! Lab 3's named numbers (`breaker.` metrics), and its row in [`super::LAB_METRICS`]: both callers of the brownout.

use crate::content::params::{self, Values};
use crate::content::{LabFile, LabId};
use crate::engine::brownout::{self, BrownoutComparison};

use super::registry::{LAB_METRICS, LabMetrics, Metric};

/// Lab 3's two callers: the label the Atlas prints and the metrics' key (`breaker.<key>.*`).
pub const BREAKER_CALLERS: [(&str, &str); 2] = [("timeout only", "timeout_only"), ("with breaker", "with_breaker")];

/// The name of `field` of Lab 3's caller `key`: `breaker.with_breaker.sick_calls`.
pub fn breaker_metric(key: &str, field: &str) -> String {
    format!("breaker.{key}.{field}")
}

/// Both callers of Lab 3 as metrics `breaker.timeout_only.calls` and so on.
pub fn breaker_metrics(run: &BrownoutComparison) -> Vec<Metric> {
    let mut metrics = Vec::new();
    for ((_, key), summary) in BREAKER_CALLERS
        .iter()
        .zip([&run.timeout_only.summary, &run.with_breaker.summary])
    {
        metrics.push((breaker_metric(key, "calls"), summary.calls as f64));
        metrics.push((breaker_metric(key, "sick_calls"), summary.sick_calls as f64));
        metrics.push((breaker_metric(key, "degraded"), summary.degraded as f64));
        metrics.push((breaker_metric(key, "p99_wait_ms"), summary.p99_wait_ms));
        metrics.push((breaker_metric(key, "stuck"), summary.stuck));
    }
    let transitions = &run.with_breaker.transitions;
    metrics.push(("breaker.with_breaker.transitions".to_string(), transitions.len() as f64));
    if let Some(first) = transitions.first() {
        metrics.push(("breaker.with_breaker.first_open_s".to_string(), first.t_s));
    }
    metrics
}

/// Lab 3 at `values` (the lab file's defaults for any name `values` does not give).
/// Lab files that `check` accepts make calls; a run that makes none is the Atlas's.
fn run(lab: &LabFile, values: &dyn Values) -> Vec<Metric> {
    breaker_metrics(&brownout::compare(
        &params::brownout_params(lab, values).unwrap_or_default(),
    ))
}

#[linkme::distributed_slice(LAB_METRICS)]
static RUN: LabMetrics = LabMetrics {
    lab: LabId::Breaker,
    run,
};
