//! Lab 3 on a virtual clock: a checkout page calls a soft dependency that browns out.
//!
//! The page calls at a fixed rate; inside the brownout window every call waits for the
//! full timeout and the page degrades. With the breaker on, outcomes reach the
//! [`Breaker`] only when the wait is over, and calls it refuses fail fast with no wait.
//! The arithmetic is the Atlas's `breaker_lab.py` (`now = i / rate`, the same
//! comparisons, the same percentile), so every parameter set gives its numbers.

use serde::Serialize;

use crate::engine::breaker::{Breaker, BreakerConfig, BreakerState, Transition};
use crate::engine::stats::atlas_percentile;

/// The inputs of one brownout run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrownoutParams {
    /// Calls per second the page makes.
    pub rate: u32,
    pub duration_s: f64,
    /// Per-call timeout; a call to the sick dependency waits this long.
    pub timeout_ms: f64,
    /// How long a call to the healthy dependency takes.
    pub healthy_ms: f64,
    /// The dependency hangs for `brownout_start_s <= t < brownout_end_s`.
    pub brownout_start_s: f64,
    pub brownout_end_s: f64,
    pub breaker: BreakerConfig,
}

impl Default for BrownoutParams {
    /// The Atlas's Lab 3 constants.
    fn default() -> Self {
        Self {
            rate: 100,
            duration_s: 60.0,
            timeout_ms: 200.0,
            healthy_ms: 40.0,
            brownout_start_s: 10.0,
            brownout_end_s: 40.0,
            breaker: BreakerConfig::default(),
        }
    }
}

impl BrownoutParams {
    pub fn timeout_s(&self) -> f64 {
        self.timeout_ms / 1000.0
    }

    pub fn healthy_s(&self) -> f64 {
        self.healthy_ms / 1000.0
    }

    /// Whether the dependency is sick at `now_s`.
    pub fn is_sick(&self, now_s: f64) -> bool {
        self.brownout_start_s <= now_s && now_s < self.brownout_end_s
    }

    /// How many calls the run makes: `int(rate * duration)`.
    pub fn total_calls(&self) -> u64 {
        (f64::from(self.rate) * self.duration_s) as u64
    }
}

/// What one caller saw in one second of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SecondStats {
    /// Calls made to the dependency.
    pub calls: u64,
    /// Calls made while the dependency was sick.
    pub sick_calls: u64,
    /// Page views served without the dependency's data.
    pub degraded: u64,
    /// Calls refused by an open breaker, with no wait.
    pub failed_fast: u64,
    /// Average calls waiting on the dependency over the second (Little's law: the
    /// waits started in that second, summed, per second).
    pub waiting: f64,
}

/// Totals for one caller, in the Atlas's summary row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallerSummary {
    pub calls: u64,
    pub sick_calls: u64,
    pub degraded: u64,
    pub p99_wait_ms: f64,
    /// Average calls stuck waiting during the brownout (Little's law).
    pub stuck: f64,
}

impl CallerSummary {
    /// The Atlas's summary line for a caller named `name`.
    pub fn atlas_line(&self, name: &str) -> String {
        format!(
            "{name:<13} calls={:5} to sick={:5} degraded={:5} p99 wait={:3.0} ms stuck={:4.1}",
            self.calls, self.sick_calls, self.degraded, self.p99_wait_ms, self.stuck
        )
    }
}

/// One caller's whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallerRun {
    pub summary: CallerSummary,
    /// One entry per started second of the run.
    pub per_second: Vec<SecondStats>,
    /// The breaker's transitions; empty for the timeout-only caller.
    pub transitions: Vec<Transition>,
}

/// Both callers of the Atlas's comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrownoutComparison {
    pub params: BrownoutParams,
    pub timeout_only: CallerRun,
    pub with_breaker: CallerRun,
}

/// Runs the page once, with or without the breaker.
pub fn simulate(params: &BrownoutParams, use_breaker: bool) -> CallerRun {
    let timeout_s = params.timeout_s();
    let healthy_s = params.healthy_s();
    let rate = f64::from(params.rate);
    let mut breaker = use_breaker.then(|| Breaker::new(params.breaker.clone()));
    // Calls whose outcome the breaker has not seen yet: (finish time, ok), in send order.
    let mut pending: Vec<(f64, bool)> = Vec::new();
    let total_calls = params.total_calls();
    let mut waits_s = Vec::with_capacity(total_calls as usize);
    let seconds = params.duration_s.ceil().max(1.0) as usize;
    let mut per_second = vec![SecondStats::default(); seconds];
    let (mut calls, mut sick_calls, mut degraded) = (0u64, 0u64, 0u64);

    for i in 0..total_calls {
        let now_s = i as f64 / rate;
        let second = &mut per_second[(now_s as usize).min(seconds - 1)];
        if let Some(breaker) = breaker.as_mut() {
            // Outcomes arrive once their wait is over, in the order the calls were sent.
            pending.retain(|&(finish_s, ok)| {
                let done = finish_s <= now_s;
                if done {
                    breaker.record(finish_s, ok);
                }
                !done
            });
        }
        let sick = params.is_sick(now_s);
        if let Some(breaker) = breaker.as_mut()
            && !breaker.allow(now_s)
        {
            degraded += 1;
            waits_s.push(0.0);
            second.degraded += 1;
            second.failed_fast += 1;
            continue;
        }
        let wait_s = if sick { timeout_s } else { healthy_s };
        calls += 1;
        second.calls += 1;
        waits_s.push(wait_s);
        second.waiting += wait_s;
        if sick {
            sick_calls += 1;
            degraded += 1;
            second.sick_calls += 1;
            second.degraded += 1;
        }
        if breaker.is_some() {
            pending.push((now_s + wait_s, !sick));
        }
    }

    waits_s.sort_by(f64::total_cmp);
    let p99_s = atlas_percentile(&waits_s, 0.99);
    let stuck = sick_calls as f64 * timeout_s / (params.brownout_end_s - params.brownout_start_s);
    CallerRun {
        summary: CallerSummary {
            calls,
            sick_calls,
            degraded,
            p99_wait_ms: p99_s * 1000.0,
            stuck,
        },
        per_second,
        transitions: breaker.map(|b| b.transitions().to_vec()).unwrap_or_default(),
    }
}

/// Runs the Atlas's comparison: timeout only, then timeout plus breaker.
pub fn compare(params: &BrownoutParams) -> BrownoutComparison {
    BrownoutComparison {
        params: params.clone(),
        timeout_only: simulate(params, false),
        with_breaker: simulate(params, true),
    }
}

/// The breaker's state at `t_s`, read from its transitions.
pub fn state_at(transitions: &[Transition], t_s: f64) -> BreakerState {
    transitions
        .iter()
        .take_while(|transition| transition.t_s <= t_s)
        .last()
        .map_or(BreakerState::Closed, |transition| transition.to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atlas_defaults_give_the_published_rows() {
        let run = compare(&BrownoutParams::default());
        assert_eq!(
            run.timeout_only.summary.atlas_line("timeout only"),
            "timeout only  calls= 6000 to sick= 3000 degraded= 3000 p99 wait=200 ms stuck=20.0"
        );
        assert_eq!(
            run.with_breaker.summary.atlas_line("with breaker"),
            "with breaker  calls= 2911 to sick=   44 degraded= 3133 p99 wait= 40 ms stuck= 0.3"
        );
        assert_eq!(run.with_breaker.transitions.len(), 13);
    }

    #[test]
    fn per_second_series_add_up_to_the_totals() {
        let run = simulate(&BrownoutParams::default(), true);
        let calls: u64 = run.per_second.iter().map(|s| s.calls).sum();
        let degraded: u64 = run.per_second.iter().map(|s| s.degraded).sum();
        assert_eq!(calls, run.summary.calls);
        assert_eq!(degraded, run.summary.degraded);
        assert_eq!(run.per_second.len(), 60);
    }

    #[test]
    fn state_is_read_from_transitions() {
        let run = simulate(&BrownoutParams::default(), true);
        assert_eq!(state_at(&run.transitions, 5.0), BreakerState::Closed);
        assert_eq!(state_at(&run.transitions, 12.0), BreakerState::Open);
        assert_eq!(state_at(&run.transitions, 15.3), BreakerState::HalfOpen);
        assert_eq!(state_at(&run.transitions, 50.0), BreakerState::Closed);
    }
}
