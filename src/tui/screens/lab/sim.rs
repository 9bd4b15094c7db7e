//! What a lab screen shows: the engines run on the sliders' values (the simulated clock).
//!
//! Everything here is recomputed from scratch on every slider change; the engines are fast
//! enough that one keypress costs well under a frame (see `benches/render.rs`).

use crate::content::params::{self, RetrySettings};
use crate::content::{LabFile, LabId};
use crate::engine::brownout::{self, BrownoutComparison, BrownoutParams};
use crate::engine::health::{self, DriverRun};
use crate::engine::retry::{
    self, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S, ATLAS_JITTER_SEED, Policy, ScenarioResult, full_jitter_ceiling_s,
};
use crate::tui::slider::Slider;

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
    match lab.lab {
        LabId::Retry => LabResults::Retry(compute_retry(lab, sliders, CURVE_ACTIONS_MAX)),
        LabId::Breaker => LabResults::Breaker(brownout::compare(&breaker_params(lab, sliders))),
        LabId::Health => LabResults::Health(health::simulate_driver(
            &params::health_config(lab, sliders),
            SIM_HEALTH_PORT,
        )),
    }
}

/// The brownout parameters the sliders describe. The sliders' ranges always make at least
/// one call; a lab file that does not is refused by `resilience-lab check`, so fall back to
/// the Atlas's run.
pub fn breaker_params(lab: &LabFile, sliders: &[Slider]) -> BrownoutParams {
    params::brownout_params(lab, sliders).unwrap_or_default()
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
pub fn compute_retry(lab: &LabFile, sliders: &[Slider], curve_actions_max: u64) -> RetryResults {
    let RetrySettings {
        layered,
        p,
        budget,
        actions,
        seed,
    } = params::retry_settings(lab, sliders);
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
