//! Lab 4's named numbers (`overload.` metrics), and its row in [`super::LAB_METRICS`]: the run, its bulkhead and hang cases and the metastable model.

use crate::content::params::{self, Values};
use crate::content::{LabFile, LabId};

use super::registry::{LAB_METRICS, LabMetrics, Metric};

/// Lab 4 at `values`: the run, the bulkhead case (`overload.bulkhead.*`), the hanging
/// dependency capped by its timeout (`overload.hang.*`), and the paper's metastable model
/// (its own numbers, which the sliders do not move).
fn overload_all_metrics(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<Metric> {
    use crate::engine::overload::{self, metastable};
    let mut all = overload_metrics(&overload::run(&params::overload_params(lab, values)));
    for case in SlotsCase::ALL {
        all.extend(overload_case_metrics(case, &overload::run(&case.params(lab, values))));
    }
    all.extend(overload_metastable_metrics(&metastable::run(
        &metastable::MetastableParams::default(),
    )));
    all
}

/// Lab 4's cases beside the run at the sliders, which the slots view draws: the bulkhead
/// (X's 100 calls/s beside the rest) and the hanging dependency capped by its timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotsCase {
    Bulkhead,
    Hang,
}

impl SlotsCase {
    pub const ALL: [SlotsCase; 2] = [SlotsCase::Bulkhead, SlotsCase::Hang];

    /// Its metrics' prefix, in place of the run's `overload.`.
    pub fn prefix(self) -> &'static str {
        match self {
            SlotsCase::Bulkhead => "overload.bulkhead.",
            SlotsCase::Hang => "overload.hang.",
        }
    }

    /// The case whose number `metric` is, if it is one's.
    pub fn of_metric(metric: &str) -> Option<SlotsCase> {
        SlotsCase::ALL
            .into_iter()
            .find(|case| metric.starts_with(case.prefix()))
    }

    /// Its run's parameters at `values`.
    pub fn params(self, lab: &LabFile, values: &(impl Values + ?Sized)) -> crate::engine::overload::OverloadParams {
        match self {
            SlotsCase::Bulkhead => params::overload_bulkhead_params(lab, values),
            SlotsCase::Hang => params::overload_hang_params(lab, values),
        }
    }

    /// The name of its metric `field`: `overload.bulkhead.free_for_rest`.
    pub fn metric(self, field: &str) -> String {
        format!("{}{field}", self.prefix())
    }
}

/// The metrics of `case`'s run: a run's ([`overload_metrics`]) under the case's prefix.
pub fn overload_case_metrics(case: SlotsCase, run: &crate::engine::overload::OverloadRun) -> Vec<Metric> {
    overload_metrics(run)
        .into_iter()
        .map(|(name, value)| (name.replacen("overload.", case.prefix(), 1), value))
        .collect()
}

/// A queueing run of Lab 4 as metrics `overload.queue_len_at_2_s` and so on.
pub fn overload_metrics(run: &crate::engine::overload::OverloadRun) -> Vec<Metric> {
    let mut metrics = Vec::new();
    if let Some(two) = run.seconds.iter().find(|s| s.t_s == 2.0) {
        metrics.push(("overload.queue_len_at_2_s".to_string(), two.queue_len as f64));
        metrics.push(("overload.queue_wait_at_2_s".to_string(), two.queue_wait_s));
    }
    let t = &run.totals;
    metrics.push(("overload.goodput_per_s".to_string(), t.goodput_per_s));
    metrics.push(("overload.max_queue_len".to_string(), t.max_queue_len as f64));
    // After the queue has filled: seconds 3 on, where the shares are steady.
    let steady = run.seconds.get(2..).unwrap_or(&[]);
    let offered: u64 = steady.iter().map(|s| s.offered).sum();
    let refused: u64 = steady.iter().map(|s| s.refused).sum();
    if offered > 0 {
        metrics.push((
            "overload.refused_share_steady".to_string(),
            refused as f64 / offered as f64,
        ));
    }
    if let Some(last) = run.seconds.last() {
        metrics.push(("overload.x_busy_end".to_string(), f64::from(last.x_busy)));
        metrics.push((
            "overload.free_for_rest".to_string(),
            f64::from(run.params.workers.saturating_sub(last.x_busy)),
        ));
    }
    if let Some(p) = t.throttle_probability {
        metrics.push(("overload.throttle_probability".to_string(), p));
    }
    metrics
}

/// Lab 4's metastable model as metrics `overload.metastable.db_load_end_per_s` and so on.
pub fn overload_metastable_metrics(run: &crate::engine::overload::metastable::MetastableRun) -> Vec<Metric> {
    vec![
        (
            "overload.metastable.db_load_end_per_s".to_string(),
            run.db_load_end_per_s,
        ),
        (
            "overload.metastable.goodput_after_per_s".to_string(),
            run.goodput_after_per_s,
        ),
        (
            "overload.metastable.stable_below_per_s".to_string(),
            run.stable_below_per_s,
        ),
        ("overload.metastable.retry_room_per_s".to_string(), run.retry_room_per_s),
    ]
}

/// Lab 4 at `values` (the lab file's defaults for any name `values` does not give).
fn run(lab: &LabFile, values: &dyn Values) -> Vec<Metric> {
    overload_all_metrics(lab, values)
}

#[linkme::distributed_slice(LAB_METRICS)]
static RUN: LabMetrics = LabMetrics {
    lab: LabId::Overload,
    run,
};
