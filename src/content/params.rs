//! The one map from a parameter's name (a slider in a lab file, a flag on the command line,
//! a check's own settings) to the engine's parameters.
//!
//! Every source of values implements [`Values`]; a name it does not give takes the lab
//! file's default (which `--content` may have changed for a class). The app's sliders, the
//! CLI's flags and the checks all resolve through the functions here, so the engines see
//! the same parameters whichever way a run was asked for.
//!
//! Lab 2's `actions`: one fallback, the lab file's default (10,000 as shipped, the
//! Atlas's). The app always has the slider, so the fallback only serves sources without
//! it; a live counting run caps its own actions (`live::retry::runner::LIVE_ACTIONS_MAX`).

pub mod budget;

use crate::content::lab::LabFile;
use crate::engine::breaker::BreakerConfig;
use crate::engine::brownout::BrownoutParams;
use crate::engine::health::HealthConfig;
use crate::engine::overload::{Dependency, OverloadParams, Policy, Scenario};
use crate::error::UsageError;

pub use crate::content::values::{Defaults, Values};

/// A check's own values as a source of a lab's parameters.
impl Values for [(String, f64)] {
    fn value(&self, name: &str) -> Option<f64> {
        self.iter().find(|(key, _)| key == name).map(|(_, value)| *value)
    }
}

/// The default of parameter `name` in a lab file (present: `check` insists on it).
pub fn default_of(lab: &LabFile, name: &str) -> f64 {
    lab.parameters
        .iter()
        .find(|spec| spec.name == name)
        .map_or(0.0, |spec| spec.default)
}

/// `name` from `values`, else the lab file's default.
pub fn value(lab: &LabFile, values: &(impl Values + ?Sized), name: &str) -> f64 {
    values.value(name).unwrap_or_else(|| default_of(lab, name))
}

/// A whole-number parameter (attempts, actions, seeds), rounded as the sliders step.
fn whole(lab: &LabFile, values: &(impl Values + ?Sized), name: &str) -> u64 {
    value(lab, values, name).round() as u64
}

// ---------------------------------------------------------------- Lab 1: health

/// The health server's settings. The database switches (`--liveness-checks-db`,
/// `--readiness-checks-db`, keys `1`/`2`) are not sliders: they start off, and callers that
/// have them set them on the result.
pub fn health_config(lab: &LabFile, values: &(impl Values + ?Sized)) -> HealthConfig {
    HealthConfig {
        warmup_s: value(lab, values, "warmup_s"),
        deregister_s: value(lab, values, "deregister_s"),
        grace_s: value(lab, values, "grace_s"),
        work_s: value(lab, values, "work_s"),
        liveness_checks_db: false,
        readiness_checks_db: false,
    }
}

/// How often the live screen probes, in seconds: never faster than 10 Hz, whatever a
/// facilitator's lab file says.
pub fn probe_period_s(lab: &LabFile, values: &(impl Values + ?Sized)) -> f64 {
    value(lab, values, "probe_period_s").max(0.1)
}

// ---------------------------------------------------------------- Lab 2: retry

/// The names of the attempts per layer, top layer first.
pub const ATTEMPT_NAMES: [&str; 3] = ["attempts_client", "attempts_frontend", "attempts_backend"];

/// Lab 2's settings: attempts per layer (the layered policy A), p, budget, actions, seed.
#[derive(Clone, Debug, PartialEq)]
pub struct RetrySettings {
    /// Attempts per layer, top layer first (policies B and C use the top one).
    pub layered: Vec<u32>,
    pub p: f64,
    /// The retry budget's ratio for policy C.
    pub budget: f64,
    pub actions: u64,
    pub seed: u64,
}

/// The lab file's attempts per layer, top layer first: the Atlas's 4,4,4 as shipped.
pub fn layered_defaults(lab: &LabFile) -> Vec<u32> {
    retry_settings(lab, &Defaults).layered
}

pub fn retry_settings(lab: &LabFile, values: &(impl Values + ?Sized)) -> RetrySettings {
    RetrySettings {
        layered: ATTEMPT_NAMES
            .iter()
            .map(|name| whole(lab, values, name) as u32)
            .collect(),
        p: value(lab, values, "p"),
        budget: value(lab, values, "budget"),
        actions: whole(lab, values, "actions"),
        seed: whole(lab, values, "seed"),
    }
}

// ---------------------------------------------------------------- Lab 3: breaker

/// The brownout's window: `brownout_start_s` and either `brownout_end_s` (the CLI's
/// `--brownout-s START,END`) or `brownout_length_s` (the sliders).
fn brownout_window_s(lab: &LabFile, values: &(impl Values + ?Sized)) -> (f64, f64) {
    match (values.value("brownout_start_s"), values.value("brownout_end_s")) {
        (Some(start_s), Some(end_s)) => (start_s, end_s),
        _ => match (values.value("brownout_start_s"), values.value("brownout_length_s")) {
            (Some(start_s), Some(length_s)) => (start_s, start_s + length_s),
            _ => {
                let start_s = default_of(lab, "brownout_start_s");
                (start_s, start_s + default_of(lab, "brownout_length_s"))
            }
        },
    }
}

/// The brownout run's parameters; refused when they make no call at all.
pub fn brownout_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> Result<BrownoutParams, UsageError> {
    let (brownout_start_s, brownout_end_s) = brownout_window_s(lab, values);
    let params = BrownoutParams {
        rate: whole(lab, values, "rate") as u32,
        duration_s: value(lab, values, "duration_s"),
        timeout_ms: value(lab, values, "timeout_ms"),
        healthy_ms: value(lab, values, "healthy_ms"),
        brownout_start_s,
        brownout_end_s,
        breaker: BreakerConfig {
            window: whole(lab, values, "window") as usize,
            min_calls: whole(lab, values, "min_calls") as usize,
            threshold: value(lab, values, "threshold"),
            open_s: value(lab, values, "open_s"),
            trial_calls: whole(lab, values, "trial_calls") as u32,
        },
    };
    if params.total_calls() == 0 {
        return Err(UsageError(format!(
            "--rate {} with --duration-s {} makes no call; allowed: rate x duration of at least 1",
            params.rate, params.duration_s
        )));
    }
    Ok(params)
}

// ---- Lab 4 (overload) ------------------------------------------------------------------

/// Lab 4's run at `values`: the scenario of the chosen policy (its traffic mix and length),
/// with the eight sliders' values on top.
pub fn overload_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> OverloadParams {
    let policy_index = value(lab, values, "policy")
        .round()
        .clamp(0.0, (Policy::ALL.len() - 1) as f64) as usize;
    let policy = Policy::ALL[policy_index];
    let scenario = Scenario::ALL
        .into_iter()
        .find(|scenario| scenario.policy() == policy && scenario.params().dependency.is_none())
        .unwrap_or(Scenario::Fifo);
    OverloadParams {
        offered_per_s: value(lab, values, "offered_per_s"),
        workers: value(lab, values, "workers").round().max(1.0) as u32,
        service_ms: value(lab, values, "service_ms"),
        client_timeout_ms: value(lab, values, "client_timeout_ms"),
        policy,
        age_cap_ms: value(lab, values, "age_cap_ms"),
        admission_limit: value(lab, values, "admission_limit").round().max(1.0) as u32,
        throttle_k: value(lab, values, "throttle_k"),
        ..scenario.params()
    }
}

/// The bulkhead case at `values`: dependency X (100 calls/s, 2 s per call) beside the
/// other traffic, with X's own pool of 40 of the workers.
pub fn overload_bulkhead_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> OverloadParams {
    OverloadParams {
        policy: Policy::Fifo,
        dependency: Scenario::Bulkhead.params().dependency,
        ..overload_params(lab, values)
    }
}

/// A hanging dependency called 100 times a second with a 500 ms timeout and no pool of
/// its own: the timeout alone caps the slots the calls hold.
pub fn overload_hang_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> OverloadParams {
    OverloadParams {
        policy: Policy::Fifo,
        dependency: Some(Dependency {
            calls_per_s: 100.0,
            latency_ms: 1_000_000.0,
            timeout_ms: 500.0,
            pool: None,
        }),
        ..overload_params(lab, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};

    #[test]
    fn unnamed_values_take_the_lab_files_defaults() {
        let content = Content::load(None).expect("embedded content loads");
        let retry = content.lab(LabId::Retry);
        let settings = retry_settings(retry, &Defaults);
        assert_eq!(settings.layered, vec![4, 4, 4]);
        assert_eq!(
            settings.actions, 10_000,
            "the one fallback for actions is the lab file's"
        );
        let named: &[(&str, f64)] = &[("p", 0.3), ("attempts_frontend", 1.0)];
        let settings = retry_settings(retry, named);
        assert_eq!((settings.p, settings.layered.clone()), (0.3, vec![4, 1, 4]));
    }

    #[test]
    fn a_brownout_window_comes_from_an_end_or_a_length() {
        let content = Content::load(None).expect("embedded content loads");
        let breaker = content.lab(LabId::Breaker);
        let by_end: &[(&str, f64)] = &[("brownout_start_s", 2.0), ("brownout_end_s", 8.0)];
        let by_length: &[(&str, f64)] = &[("brownout_start_s", 2.0), ("brownout_length_s", 6.0)];
        let window = |values: &[(&str, f64)]| {
            let params = brownout_params(breaker, values).expect("calls");
            (params.brownout_start_s, params.brownout_end_s)
        };
        assert_eq!(window(by_end), (2.0, 8.0));
        assert_eq!(window(by_length), (2.0, 8.0));
        let defaults = brownout_params(breaker, &Defaults).expect("calls");
        assert_eq!(
            defaults,
            BrownoutParams::default(),
            "the lab file as shipped is the Atlas's run"
        );
        let none: &[(&str, f64)] = &[("rate", 0.0)];
        assert!(brownout_params(breaker, none).is_err());
    }
}
