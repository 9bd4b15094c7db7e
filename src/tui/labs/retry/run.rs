//! Lab 2's simulated run at the sliders: the A, B and C rows, the p-curve and the Full
//! Jitter sleeps.
//!
//! A slider change recomputes what it can affect: the rows at the new values, and the
//! p-curve only when something other than p moved (the curve spans every p already), so a
//! step of p costs the three rows, well under a frame (see `benches/render.rs`).
//!
//! On screen the curve's 63 runs do not fit the frame after a step with the rows (issue 27
//! item 12): [`recompute_retry`] gives the rows and leaves the curve to [`finish_pending`],
//! which the event loop calls once the input has gone quiet, so a burst of steps draws its
//! rows at once and computes the curve once, a frame later.

use crate::content::LabFile;
use crate::content::params::{self, RetrySettings};
use crate::engine::retry::{
    self, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S, ATLAS_JITTER_SEED, RetryPolicy, ScenarioResult,
};
use crate::tui::slider::Slider;

/// Points of the amplification curve: p = 0, 0.05, ..., 1.
pub const CURVE_POINTS: usize = 21;

/// Actions per point of the amplification curve, at most. The curve shows a shape, not a
/// digit (the rows above it give the digits, at the slider's actions), and its 21 x 3 runs
/// must fit one frame on this project's 2-core machine, whose two cores together do little
/// more than one (two threads of the same work take twice as long as one): at the Atlas's
/// 10,000 a step of the attempts took 19.7 ms (`cargo bench --bench render`), at 5,000
/// 10.3 ms. Its points at p = 0 and 1 are exact at any count.
pub const CURVE_ACTIONS_MAX: u64 = 5_000;

/// Full Jitter attempts shown (0 to 5), as in the Atlas.
pub const JITTER_ATTEMPTS: u32 = retry::ATLAS_JITTER_ATTEMPTS;

/// Lab 2's results at the sliders' values.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryResults {
    /// The A, B and C rows at the current p: label and result.
    pub rows: Vec<(String, ScenarioResult)>,
    /// Database attempts per action against p, for A, B and C: (p, attempts).
    pub curve: Vec<Vec<(f64, f64)>>,
    /// Actions each curve point ran (fewer than the rows' when the slider asks for many).
    pub curve_actions: u64,
    /// The settings the curve was computed at, to reuse it while only p changes.
    pub curve_key: CurveKey,
    /// The settings the sliders ask the curve for, while `curve` is still an older one's:
    /// [`finish_pending`] computes it (the screen says the curve is updating).
    pub curve_wanted: Option<CurveKey>,
    /// Full Jitter sleeps of attempts 0..5 (seed 7, base 0.1 s, cap 2 s).
    pub sleeps_s: Vec<f64>,
    /// The ceiling of each of those sleeps.
    pub ceilings_s: Vec<f64>,
}

/// Everything the p-curve depends on: Lab 2's settings but p.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveKey {
    pub layered: Vec<u32>,
    pub budget: f64,
    pub actions: u64,
    pub seed: u64,
}

/// Lab 2 for the next frame: the rows at the sliders, the p-curve of `previous` kept while
/// only p moved, and a curve whose settings moved left to [`finish_pending`].
pub fn recompute_retry(lab: &LabFile, sliders: &[Slider], previous: &RetryResults) -> RetryResults {
    let (rows, key) = retry_rows(lab, sliders, CURVE_ACTIONS_MAX);
    let curve_wanted = (key != previous.curve_key).then_some(key);
    RetryResults {
        rows,
        curve_wanted,
        ..previous.clone()
    }
}

/// Whether `results` wait for the p-curve, left out of the last recompute.
pub fn pending(results: &RetryResults) -> bool {
    results.curve_wanted.is_some()
}

/// Does the work [`recompute_retry`] left (the p-curve at the settings it was asked for);
/// true if there was some.
pub fn finish_pending(retry: &mut RetryResults) -> bool {
    let Some(key) = retry.curve_wanted.take() else {
        return false;
    };
    retry.curve = curve_of(&key);
    retry.curve_actions = key.actions;
    retry.curve_key = key;
    true
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

#[cfg(test)]
thread_local! {
    /// p-curves computed on this thread: the tests count the recomputes of a burst.
    static CURVES_COMPUTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// p-curves computed so far on this thread.
#[cfg(test)]
pub(crate) fn curves_computed() -> usize {
    CURVES_COMPUTED.with(std::cell::Cell::get)
}

/// The p-curve at `key`'s settings, one series per policy.
fn curve_of(key: &CurveKey) -> Vec<Vec<(f64, f64)>> {
    #[cfg(test)]
    CURVES_COMPUTED.with(|count| count.set(count.get() + 1));
    let mut curve = vec![Vec::with_capacity(CURVE_POINTS); RetryPolicy::ALL.len()];
    for (p, per_policy) in curve_points(&key.layered, key.budget, key.actions, key.seed) {
        for (index, attempts_per_action) in per_policy.into_iter().enumerate() {
            curve[index].push((p, attempts_per_action));
        }
    }
    curve
}

/// Lab 2's A, B and C rows at the sliders, and the settings their p-curve is computed at
/// (at most `curve_actions_max` actions per point).
fn retry_rows(lab: &LabFile, sliders: &[Slider], curve_actions_max: u64) -> (Vec<(String, ScenarioResult)>, CurveKey) {
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
    let key = CurveKey {
        layered,
        budget,
        actions: actions.min(curve_actions_max),
        seed,
    };
    (rows, key)
}

/// Lab 2's rows, curve and jitter, with at most `curve_actions_max` actions per curve point.
pub fn compute_retry(lab: &LabFile, sliders: &[Slider], curve_actions_max: u64) -> RetryResults {
    compute_retry_after(lab, sliders, curve_actions_max, None)
}

/// [`compute_retry`], taking the curve from `previous` when it was computed at the same
/// settings but p.
pub fn compute_retry_after(
    lab: &LabFile,
    sliders: &[Slider],
    curve_actions_max: u64,
    previous: Option<&RetryResults>,
) -> RetryResults {
    let (rows, curve_key) = retry_rows(lab, sliders, curve_actions_max);
    let curve = match previous.filter(|previous| previous.curve_key == curve_key) {
        Some(previous) => previous.curve.clone(),
        None => curve_of(&curve_key),
    };
    RetryResults {
        rows,
        curve,
        curve_actions: curve_key.actions,
        curve_key,
        curve_wanted: None,
        sleeps_s: retry::jitter_sleeps_s(
            ATLAS_JITTER_SEED,
            JITTER_ATTEMPTS,
            ATLAS_JITTER_BASE_S,
            ATLAS_JITTER_CAP_S,
        ),
        ceilings_s: retry::atlas_jitter_ceilings_s(),
    }
}
