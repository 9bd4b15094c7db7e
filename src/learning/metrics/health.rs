//! Lab 1's named numbers (`health.` metrics), and its row in [`super::LAB_METRICS`]: the single server and the fleet (its second page).

use crate::content::params::fleet as fleet_params;
use crate::content::params::{self, Values};
use crate::content::{LabFile, LabId};
use crate::engine::fleet::{self, FleetRun};
use crate::engine::health::{self, DriverRun, WorkOutcome};

use super::registry::{LAB_METRICS, LabMetrics, Metric};

/// The names of the Atlas schedule's `/readyz` probes, in its order (metric
/// `health.readyz_<name>_code`).
const READYZ_PROBES: [&str; 4] = ["warmup", "ready", "draining", "stopped"];

fn readyz_metric(name: &str) -> String {
    format!("health.readyz_{name}_code")
}

/// When the probe behind a `health.readyz_*_code` metric goes out in the Atlas schedule
/// (`health::readyz_moments`): the moment a live check of that metric waits for.
pub fn readyz_moment(metric: &str) -> Option<health::ProbeMoment> {
    let index = READYZ_PROBES.iter().position(|name| readyz_metric(name) == metric)?;
    health::readyz_moments().get(index).copied()
}

/// Whether the request sent after SIGTERM was served (1) or not (0).
pub const HEALTH_LATE_REQUEST_DONE: &str = "health.late_request_done";
/// The simulated server's exit code.
pub const HEALTH_EXIT_CODE: &str = "health.exit_code";

/// The Atlas driver's observations of Lab 1 as metrics `health.readyz_warmup_code` and so on.
pub fn health_metrics(run: &DriverRun) -> Vec<Metric> {
    let mut metrics = Vec::new();
    let readyz: Vec<u16> = run
        .probes
        .iter()
        .filter(|p| p.path == "/readyz")
        .map(|p| p.code)
        .collect();
    for (name, code) in READYZ_PROBES.iter().zip(&readyz) {
        metrics.push((readyz_metric(name), f64::from(*code)));
    }
    if let Some(livez) = run.probes.iter().find(|p| p.path == "/livez") {
        metrics.push(("health.livez_code".to_string(), f64::from(livez.code)));
    }
    let late_done = run.work.get(1).is_some_and(|w| *w == WorkOutcome::Done);
    metrics.push((HEALTH_LATE_REQUEST_DONE.to_string(), f64::from(u8::from(late_done))));
    metrics.push((HEALTH_EXIT_CODE.to_string(), f64::from(run.exit_code)));
    metrics
}

/// The metric of probe `index` of `run` (its place in `run.probes`), as [`health_metrics`]
/// names them: the nth `/readyz` probe is the nth of [`READYZ_PROBES`], the first `/livez`
/// is `health.livez_code`. A view masking a probe's code asks this.
pub fn health_probe_metric(run: &DriverRun, index: usize) -> Option<String> {
    let probe = run.probes.get(index)?;
    let before = run.probes.get(..index)?.iter().filter(|p| p.path == probe.path).count();
    match probe.path.as_str() {
        "/readyz" => READYZ_PROBES.get(before).map(|name| readyz_metric(name)),
        "/livez" if before == 0 => Some("health.livez_code".to_string()),
        _ => None,
    }
}

/// Lab 1's fleet view as metrics `fleet.restarts`, `fleet.requests.refused` and so on
/// (the fields of `run fleet --json`, under `fleet.`).
pub fn fleet_metrics(run: &FleetRun) -> Vec<Metric> {
    let mut metrics = vec![
        ("fleet.restarts".to_string(), f64::from(run.total_restarts())),
        ("fleet.no_ready_endpoint_s".to_string(), run.no_ready_endpoint_s),
    ];
    let totals = &run.requests;
    for (name, count) in [
        ("ok", totals.ok),
        ("degraded", totals.degraded),
        ("failed", totals.failed),
        ("refused", totals.refused),
    ] {
        metrics.push((format!("fleet.requests.{name}"), count as f64));
    }
    if let Some(first_s) = run.first_restart_s() {
        metrics.push(("fleet.first_restart_s".to_string(), first_s));
    }
    metrics
}

/// Lab 1 at `values` (the lab file's defaults for any name `values` does not give).
fn run(lab: &LabFile, values: &dyn Values) -> Vec<Metric> {
    let mut metrics = health_metrics(&health::simulate_driver(
        &params::health_config(lab, values),
        health::SIM_DRIVER_PORT,
    ));
    metrics.extend(fleet_metrics(&fleet::simulate(&fleet_params::clamped(lab, values))));
    metrics
}

#[linkme::distributed_slice(LAB_METRICS)]
static RUN: LabMetrics = LabMetrics {
    lab: LabId::Health,
    run,
};
