//! Lab 3 on a virtual clock: checkout keeps calling a dependency it can do without while that dependency browns out.
//!
//! The page calls at a fixed rate; inside the brownout window every call waits for the
//! full timeout and the page degrades. With the breaker on, outcomes reach the
//! [`Breaker`] only when the wait is over, and calls it refuses fail fast with no wait.
//! The arithmetic is the Atlas's `breaker_lab.py` (`now = i / rate`, the same
//! comparisons, the same percentile), so every parameter set gives its numbers.

use std::collections::VecDeque;

use serde::Serialize;

use crate::engine::breaker::{Breaker, BreakerConfig, BreakerState, Transition};
use crate::engine::stats::atlas_percentile_counted;

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

/// One caller's whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallerRun {
    pub summary: CallerSummary,
    /// One entry per started second of the run.
    pub per_second: Vec<SecondStats>,
    /// The breaker's transitions; empty for the timeout-only caller. At most
    /// [`crate::engine::breaker::TRANSITION_LOG_LIMIT`]: the first ones.
    pub transitions: Vec<Transition>,
    /// Transitions after those, counted only (0 in every run the lesson and the app make).
    #[serde(skip_serializing_if = "is_zero")]
    pub transitions_not_kept: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
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
    // One loop, compiled twice: the caller without a breaker then carries no breaker or
    // queue checks on each of its calls (a third of the run's instructions before).
    if use_breaker {
        simulate_calls::<true>(params)
    } else {
        simulate_calls::<false>(params)
    }
}

fn simulate_calls<const WITH_BREAKER: bool>(params: &BrownoutParams) -> CallerRun {
    let timeout_s = params.timeout_s();
    let healthy_s = params.healthy_s();
    let rate = f64::from(params.rate);
    // Unused (and never allocating) without the breaker.
    let mut breaker = Breaker::new(params.breaker.clone());
    let mut pending = Pending::default();
    let total_calls = params.total_calls();
    // Every wait is one of three values, so they are counted rather than listed.
    let (mut waits_none, mut waits_healthy, mut waits_timeout) = (0u64, 0u64, 0u64);
    let seconds = params.duration_s.ceil().max(1.0) as usize;
    let mut per_second = vec![SecondStats::default(); seconds];
    let (mut calls, mut sick_calls, mut degraded) = (0u64, 0u64, 0u64);

    // Second s holds the calls s * rate .. (s + 1) * rate, and the last second any beyond:
    // the second `(i as f64 / rate) as usize` names, since for whole numbers below 2^53 the
    // quotient never rounds up to the next second. Walking the seconds spares a conversion
    // and a bounds check on every call: 1.14M to 0.85M instructions at the defaults (callgrind).
    let calls_per_second = u64::from(params.rate);
    for (index, second) in per_second.iter_mut().enumerate() {
        let first = index as u64 * calls_per_second;
        let end = if index + 1 == seconds {
            total_calls
        } else {
            (first + calls_per_second).min(total_calls)
        };
        for i in first..end {
            let now_s = i as f64 / rate;
            if WITH_BREAKER {
                // Outcomes arrive once their wait is over, in the order the calls were sent.
                pending.drain_due(now_s, |finish_s, ok| breaker.record(finish_s, ok));
                if !breaker.allow(now_s) {
                    degraded += 1;
                    waits_none += 1;
                    second.degraded += 1;
                    second.failed_fast += 1;
                    continue;
                }
            }
            let sick = params.is_sick(now_s);
            let wait_s = if sick { timeout_s } else { healthy_s };
            calls += 1;
            second.calls += 1;
            second.waiting += wait_s;
            if sick {
                waits_timeout += 1;
                sick_calls += 1;
                degraded += 1;
                second.sick_calls += 1;
                second.degraded += 1;
            } else {
                waits_healthy += 1;
            }
            if WITH_BREAKER {
                pending.push(i, now_s + wait_s, !sick);
            }
        }
    }

    let waits = [
        (0.0, waits_none),
        (healthy_s, waits_healthy),
        (timeout_s, waits_timeout),
    ];
    let p99_s = atlas_percentile_counted(&waits, 0.99);
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
        transitions: breaker.transitions().to_vec(),
        transitions_not_kept: breaker.transitions_not_kept(),
    }
}

/// Calls whose outcome the breaker has not seen yet, one queue per outcome.
///
/// A call's wait depends only on its outcome (the timeout when sick, the healthy latency
/// when not), so within one queue finish times rise with the send order and the calls due
/// at any moment are a prefix of each queue. Merging those prefixes by send order gives
/// exactly the Atlas's scan of one list, without rescanning every call in flight.
#[derive(Default)]
struct Pending {
    /// (send index, finish time) of calls that will succeed.
    ok: VecDeque<(u64, f64)>,
    /// (send index, finish time) of calls that will time out.
    failed: VecDeque<(u64, f64)>,
}

impl Pending {
    fn push(&mut self, index: u64, finish_s: f64, ok: bool) {
        let queue = if ok { &mut self.ok } else { &mut self.failed };
        queue.push_back((index, finish_s));
    }

    /// Hands each call finished by `now_s` to `on_due` as (finish time, ok), in the order
    /// the calls were sent: the two queue fronts are merged by send index, with no list built.
    fn drain_due(&mut self, now_s: f64, mut on_due: impl FnMut(f64, bool)) {
        let due_front =
            |queue: &VecDeque<(u64, f64)>| queue.front().copied().filter(|&(_, finish_s)| finish_s <= now_s);
        loop {
            let next_ok = match (due_front(&self.ok), due_front(&self.failed)) {
                (None, None) => return,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some((ok_index, _)), Some((failed_index, _))) => ok_index < failed_index,
            };
            let queue = if next_ok { &mut self.ok } else { &mut self.failed };
            if let Some((_, finish_s)) = queue.pop_front() {
                on_due(finish_s, next_ok);
            }
        }
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

// ---- A live run's result (live/breaker/brownout.rs makes it; the printer reads it) ----

/// Most calls one caller keeps out at once, like a page's connection pool: a call due
/// beyond it is not sent and degrades at once (counted in `Tally::not_sent` of `live/breaker/checkout.rs`). Each call
/// out holds a connection, whose client and server ends both live in this process (about
/// 50 KB, `benches/memory.sh`). The lesson's 100 calls/s x 200 ms keeps 20 out; the
/// sliders' widest, 500/s x 2 s, would keep 1,000 per caller (70 MB for the run); the
/// flags' widest, 10,000/s x 60 s, 600,000. At 256 a caller, the worst run stays near
/// 40 MB.
pub const MAX_CALLS_IN_FLIGHT: usize = 256;

/// What only a live run has: how well the clock kept time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveCaller {
    pub p50_wait_ms: f64,
    /// Sends per second between the first and the last send.
    pub achieved_rate: f64,
    pub late_sends: u64,
    /// p99 and worst of how far behind its slot a send went out.
    pub late_p99_ms: f64,
    pub late_max_ms: f64,
    /// Average of the sampled in-flight gauge while the dependency was sick.
    pub in_flight_sick_avg: f64,
    pub timed_out: u64,
    /// p99 of `wait - timeout` over the calls that timed out (0 if none did).
    pub timeout_overshoot_p99_ms: f64,
    pub error_answers: u64,
    pub connect_failures: u64,
    /// Calls not sent because [`MAX_CALLS_IN_FLIGHT`] were out (degraded at once).
    pub not_sent: u64,
}

/// A finished live run: the simulation's report shapes plus the live-only numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrownoutRun {
    pub comparison: BrownoutComparison,
    pub timeout_only: LiveCaller,
    pub with_breaker: LiveCaller,
    /// Requests the dependency received from both callers.
    pub dependency_requests: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loop puts call i in second i / rate (whole numbers); the simulation's clock says
    /// `i as f64 / rate`. They agree at every second's edge, up to the largest run the lab
    /// allows (10,000 calls/s for 3,600 s) and past it.
    #[test]
    fn a_calls_second_by_whole_numbers_is_the_second_of_its_time() {
        for rate in [1u64, 3, 7, 100, 333, 9_999, 10_000, 20_000] {
            for second in [0u64, 1, 2, 59, 1_799, 3_599, 3_600, 1 << 20] {
                for i in [second * rate, (second + 1) * rate - 1] {
                    assert_eq!((i as f64 / rate as f64) as u64, i / rate, "call {i} at rate {rate}");
                }
            }
        }
    }

    #[test]
    fn atlas_defaults_give_the_published_rows() {
        let run = compare(&BrownoutParams::default());
        let [t, b] = [&run.timeout_only.summary, &run.with_breaker.summary];
        assert_eq!((t.calls, t.sick_calls, t.degraded), (6000, 3000, 3000));
        assert_eq!((t.p99_wait_ms.round(), (t.stuck * 10.0).round()), (200.0, 200.0));
        assert_eq!((b.calls, b.sick_calls, b.degraded), (2911, 44, 3133));
        assert_eq!((b.p99_wait_ms.round(), (b.stuck * 10.0).round()), (40.0, 3.0));
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
