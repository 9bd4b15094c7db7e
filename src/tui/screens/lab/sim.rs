//! What a lab screen shows: the engines run on the sliders' values (the simulated clock).
//!
//! Everything here is recomputed from scratch on every slider change; the engines are fast
//! enough that one keypress costs well under a frame (see `benches/render.rs`).

use crate::cli::{BreakerArgs, HealthServerArgs, ModeArgs};
use crate::commands::{brownout_params, health_config};
use crate::content::LabFile;
use crate::engine::brownout::{self, BrownoutComparison, BrownoutParams};
use crate::engine::health::{self, DriverRun};
use crate::engine::retry::{
    self, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S, ATLAS_JITTER_SEED, Policy, ScenarioResult, full_jitter_ceiling_s,
};
use crate::tui::slider::{Slider, value_of};

/// Points of the amplification curve: p = 0, 0.05, ..., 1.
pub const CURVE_POINTS: usize = 21;

/// Actions per point of the amplification curve, at most: the Atlas's 10,000, so the curve
/// agrees with the rows at the default; larger runs (the slider goes to 100,000) would
/// cost more than a frame for 21 x 3 runs, and the curve shows a shape, not a digit.
pub const CURVE_ACTIONS_MAX: u64 = 10_000;

/// Full Jitter attempts shown (0 to 5), as in the Atlas.
pub const JITTER_ATTEMPTS: u32 = 6;

/// The port the simulated health driver prints (nothing listens: it is the simulation).
const SIM_HEALTH_PORT: u16 = 18080;

/// Lab 2's results at the sliders' values.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryResults {
    /// The A, B and C rows at the current p: label and result.
    pub rows: Vec<(String, ScenarioResult)>,
    /// Database attempts per action against p, for A, B and C: (p, attempts).
    pub curve: Vec<Vec<(f64, f64)>>,
    /// Actions each curve point ran (fewer than the rows' when the slider asks for many).
    pub curve_actions: u64,
    /// Full Jitter sleeps of attempts 0..5 (seed 7, base 0.1 s, cap 2 s).
    pub sleeps_s: Vec<f64>,
    /// The ceiling of each of those sleeps.
    pub ceilings_s: Vec<f64>,
}

/// What one lab screen shows.
#[derive(Clone, Debug, PartialEq)]
pub enum LabResults {
    Health(DriverRun),
    Retry(RetryResults),
    Breaker(BrownoutComparison),
}

/// Runs the lab `lab` on the sliders' values.
pub fn compute(lab: &LabFile, sliders: &[Slider]) -> LabResults {
    match lab.id.as_str() {
        "retry" => LabResults::Retry(compute_retry(sliders, CURVE_ACTIONS_MAX)),
        "breaker" => LabResults::Breaker(brownout::compare(&breaker_params(lab, sliders))),
        _ => LabResults::Health(health::simulate_driver(
            &health_config(lab, &health_args(sliders)),
            SIM_HEALTH_PORT,
        )),
    }
}

const SIM: ModeArgs = ModeArgs {
    sim: true,
    live: false,
    json: false,
};

fn health_args(sliders: &[Slider]) -> HealthServerArgs {
    HealthServerArgs {
        port: SIM_HEALTH_PORT,
        warmup_s: value_of(sliders, "warmup_s"),
        deregister_s: value_of(sliders, "deregister_s"),
        grace_s: value_of(sliders, "grace_s"),
        work_s: value_of(sliders, "work_s"),
        liveness_checks_db: false,
        readiness_checks_db: false,
    }
}

/// The brownout parameters the sliders describe, through the CLI's own defaults logic.
pub fn breaker_params(lab: &LabFile, sliders: &[Slider]) -> BrownoutParams {
    let whole = |name| value_of(sliders, name).map(|value| value.round() as u64);
    let brownout_s = value_of(sliders, "brownout_start_s")
        .zip(value_of(sliders, "brownout_length_s"))
        .map(|(start_s, length_s)| (start_s, start_s + length_s));
    let args = BreakerArgs {
        mode: SIM,
        rate: whole("rate"),
        duration_s: value_of(sliders, "duration_s"),
        timeout_ms: value_of(sliders, "timeout_ms"),
        healthy_ms: value_of(sliders, "healthy_ms"),
        brownout_s,
        window: whole("window"),
        min_calls: whole("min_calls"),
        threshold: value_of(sliders, "threshold"),
        open_s: value_of(sliders, "open_s"),
        trial_calls: whole("trial_calls"),
        fault: None,
    };
    // The sliders' ranges always make at least one call; a lab file that does not is
    // refused by `resilience-lab check`, so fall back to the Atlas's run.
    brownout_params(lab, &args).unwrap_or_default()
}

/// The p-curve: database attempts per action of A, B and C at each of [`CURVE_POINTS`] values
/// of p from 0 to 1, in order of p.
///
/// The points are independent runs (each seeds its own generator), so they are shared out
/// over the machine's cores, interleaved because high p costs more draws: on two cores the
/// full 10,000-action curve then fits in one frame.
fn curve_points(layered: &[u32], budget: f64, actions: u64, seed: u64) -> Vec<(f64, Vec<f64>)> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, CURVE_POINTS);
    let point = |index: usize| {
        let p = index as f64 / (CURVE_POINTS - 1) as f64;
        let per_policy = retry::compare_policies(layered, p, budget, actions, seed)
            .into_iter()
            .map(|(_, result)| result.db_attempts_per_action)
            .collect();
        (index, p, per_policy)
    };
    let mut points: Vec<(usize, f64, Vec<f64>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|first| scope.spawn(move || (first..CURVE_POINTS).step_by(threads).map(point).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    points.sort_by_key(|(index, _, _)| *index);
    points.into_iter().map(|(_, p, per_policy)| (p, per_policy)).collect()
}

/// Lab 2's rows, curve and jitter, with at most `curve_actions_max` actions per curve point.
pub fn compute_retry(sliders: &[Slider], curve_actions_max: u64) -> RetryResults {
    let whole = |name: &str, fallback: f64| value_of(sliders, name).unwrap_or(fallback).round();
    let layered: Vec<u32> = ["attempts_client", "attempts_frontend", "attempts_backend"]
        .iter()
        .map(|name| whole(name, 4.0) as u32)
        .collect();
    let p = value_of(sliders, "p").unwrap_or(1.0);
    let budget = value_of(sliders, "budget").unwrap_or(0.1);
    let actions = whole("actions", 10_000.0) as u64;
    let seed = whole("seed", 42.0) as u64;
    let rows = retry::compare_policies(&layered, p, budget, actions, seed)
        .into_iter()
        .map(|(policy, result)| (policy.label(&layered, budget), result))
        .collect();
    let curve_actions = actions.min(curve_actions_max);
    let mut curve = vec![Vec::with_capacity(CURVE_POINTS); Policy::ALL.len()];
    for (p, per_policy) in curve_points(&layered, budget, curve_actions, seed) {
        for (index, attempts_per_action) in per_policy.into_iter().enumerate() {
            curve[index].push((p, attempts_per_action));
        }
    }
    RetryResults {
        rows,
        curve,
        curve_actions,
        sleeps_s: retry::jitter_sleeps_s(
            ATLAS_JITTER_SEED,
            JITTER_ATTEMPTS,
            ATLAS_JITTER_BASE_S,
            ATLAS_JITTER_CAP_S,
        ),
        ceilings_s: (0..JITTER_ATTEMPTS)
            .map(|attempt| full_jitter_ceiling_s(attempt, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S))
            .collect(),
    }
}
