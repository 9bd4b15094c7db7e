//! Lab 4: overload, goodput and load shedding, on a virtual clock.
//!
//! - [`shed`]: the server's worker slots, queue and shedding rules ([`ServerCore`]), shared
//!   with the live loopback server so a policy means the same in both modes.
//! - [`throttle`]: the client-side adaptive throttle ([`AdaptiveThrottle`]).
//! - [`params`] and [`scenario`]: the inputs, the policies the curve compares, the named
//!   scenarios with the lesson's numbers.
//! - [`sim`]: the queueing run, second by second ([`run`]); its module docs write down the
//!   conventions (event order at one instant, when the queue is sampled, what counts as
//!   wasted) that make the lesson's arithmetic come out to the digit.
//! - [`metastable`]: the retry loop that outlives its trigger (Bronson et al.).
//! - [`sweep`]: goodput against offered load for each policy; [`recompute`] is what a
//!   slider step costs (the run plus every policy's curve), [`recompute_after`] keeps the
//!   curves when only the offered load or the policy moved.
//! - [`pages_per_core_per_s`]: why a degraded page raises capacity.

pub mod metastable;
pub mod params;
pub mod scenario;
pub mod shed;
pub mod sim;
pub mod throttle;

pub use params::{Arrivals, BulkheadDependency, CriticalityMix, OverloadParams, SheddingPolicy};
pub use scenario::OverloadScenario;
pub use shed::{
    Admission, Discipline, Entry, RequestClass, RequestCriticality, RequestRefusal, ServerCore, ServerPolicy,
};
pub use sim::{OverloadRun, Second, Totals, run};

pub use throttle::{AdaptiveThrottle, reject_probability};

use serde::Serialize;

/// The sweep's offered loads, as multiples of the pool's capacity: dense around the
/// knee, sparse far past it (a run's cost grows with the load).
pub const SWEEP_FRACTIONS: [f64; 9] = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0];

/// One point of a goodput curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    pub offered_per_s: f64,
    pub goodput_per_s: f64,
}

/// Goodput against offered load under one policy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Curve {
    pub policy: SheddingPolicy,
    pub points: Vec<CurvePoint>,
}

/// The offered loads a sweep visits at these settings.
pub fn sweep_offered(params: &OverloadParams) -> Vec<f64> {
    let capacity = params.capacity_per_s();
    SWEEP_FRACTIONS.iter().map(|f| (f * capacity).round()).collect()
}

/// One point of a curve: goodput (mean over the run) at `offered_per_s` under `policy`.
/// Points are independent, so a caller may compute them on several threads.
pub fn sweep_point(params: &OverloadParams, policy: SheddingPolicy, offered_per_s: f64) -> CurvePoint {
    let at = OverloadParams {
        offered_per_s,
        policy,
        trace_at_s: None,
        ..params.clone()
    };
    CurvePoint {
        offered_per_s,
        goodput_per_s: run(&at).totals.goodput_per_s,
    }
}

/// Goodput at each of `offered` under `policy`, other settings as given.
pub fn sweep_at(params: &OverloadParams, policy: SheddingPolicy, offered: &[f64]) -> Curve {
    let points = offered.iter().map(|&o| sweep_point(params, policy, o)).collect();
    Curve { policy, points }
}

/// One point of the live goodput curve (live/overload/runner.rs measures it) with the
/// simulation at the same settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ComparedPoint {
    pub offered_per_s: f64,
    pub live_goodput_per_s: f64,
    pub sim_goodput_per_s: f64,
}

/// The goodput curve of every policy in [`SheddingPolicy::ALL`] at these settings.
pub fn sweep(params: &OverloadParams) -> Vec<Curve> {
    let offered = sweep_offered(params);
    SheddingPolicy::ALL
        .iter()
        .map(|&policy| sweep_at(params, policy, &offered))
        .collect()
}

/// What the lab screen shows for one set of slider values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recompute {
    pub run: OverloadRun,
    pub curves: Vec<Curve>,
}

/// A slider step: the run at the current settings and every policy's curve.
pub fn recompute(params: &OverloadParams) -> Recompute {
    Recompute {
        run: run(params),
        curves: sweep(params),
    }
}

/// Whether two settings give the same curves: the sweep visits its own offered loads and
/// every policy, so only the offered load, the policy and the trace may differ.
pub fn same_sweep(a: &OverloadParams, b: &OverloadParams) -> bool {
    let neutral = |p: &OverloadParams| OverloadParams {
        offered_per_s: 0.0,
        policy: SheddingPolicy::Fifo,
        trace_at_s: None,
        ..p.clone()
    };
    neutral(a) == neutral(b)
}

/// A slider step after `previous`: the run always, the curves only if a setting they
/// depend on changed (dragging the offered load or switching the policy costs one run).
pub fn recompute_after(previous: &Recompute, params: &OverloadParams) -> Recompute {
    if same_sweep(&previous.run.params, params) {
        Recompute {
            run: run(params),
            curves: previous.curves.clone(),
        }
    } else {
        recompute(params)
    }
}

/// Pages one core serves per second when a page costs `cpu_ms` of CPU.
///
/// A full page (12 backend calls, 40 ms) gives 25; a degraded one (3 calls, 10 ms) 100:
/// four times as many pages per core.
pub fn pages_per_core_per_s(cpu_ms: f64) -> f64 {
    1_000.0 / cpu_ms.max(1e-9)
}

/// The pool's capacity the screen's sweep simulates at most: above it the sweep runs a
/// smaller pool with the same ratios (offered / capacity, timeout / service time, queue
/// limits / workers) and scales counts back, so a slider step stays within a frame.
pub const SCREEN_SWEEP_CAPACITY_PER_S: f64 = 200.0;

/// `params` with the pool shrunk to about [`SCREEN_SWEEP_CAPACITY_PER_S`], and the factor
/// its rates are to be multiplied by to read at the full pool's scale.
pub fn scaled_for_sweep(params: &OverloadParams) -> (OverloadParams, f64) {
    let capacity = params.capacity_per_s();
    if capacity <= SCREEN_SWEEP_CAPACITY_PER_S || params.workers <= 2 {
        return (params.clone(), 1.0);
    }
    let workers = ((f64::from(params.workers) * SCREEN_SWEEP_CAPACITY_PER_S / capacity).round() as u32).max(2);
    let shrink = f64::from(workers) / f64::from(params.workers);
    let small = OverloadParams {
        workers,
        admission_limit: ((f64::from(params.admission_limit) * shrink).round() as u32).max(1),
        health_checks_per_s: params.health_checks_per_s * shrink,
        dependency: params.dependency.as_ref().map(|d| BulkheadDependency {
            calls_per_s: d.calls_per_s * shrink,
            pool: d.pool.map(|pool| ((f64::from(pool) * shrink).round() as u32).max(1)),
            ..d.clone()
        }),
        ..params.clone()
    };
    let factor = capacity / small.capacity_per_s();
    (small, factor)
}

/// Every policy's curve as the lab screen draws it: swept on the shrunk pool of
/// [`scaled_for_sweep`], read back at the full scale (a shape to compare the policies by;
/// the current point is always the exact run).
pub fn screen_sweep(params: &OverloadParams) -> Vec<Curve> {
    let (small, factor) = scaled_for_sweep(params);
    let mut curves = sweep(&small);
    for point in curves.iter_mut().flat_map(|curve| curve.points.iter_mut()) {
        point.offered_per_s *= factor;
        point.goodput_per_s *= factor;
    }
    curves
}

/// The lab screen's slider step: the exact run always; the curves from `previous` when
/// only the offered load or the policy moved ([`same_sweep`]), else [`screen_sweep`].
pub fn screen_recompute_after(previous: Option<&Recompute>, params: &OverloadParams) -> Recompute {
    let curves = match previous {
        Some(previous) if same_sweep(&previous.run.params, params) => previous.curves.clone(),
        _ => screen_sweep(params),
    };
    Recompute {
        run: run(params),
        curves,
    }
}
