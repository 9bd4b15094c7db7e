//! Scenario `half-open`: how many calls a half-open breaker lets reach a dependency that
//! is still sick.
//!
//! The note's `CircuitBreaker` promises one probe in half-open, but its `call` checks
//! nothing in that state: every caller goes through until a result decides, and it needs
//! `success_threshold` (3) successes to close. Callers make `rate_per_s` calls a second,
//! evenly, through one shared breaker that has just opened at time 0; the dependency still
//! hangs, so each call fails when its `timeout_ms` runs out. After `cooldown_s` the breaker
//! half-opens; the first failure (one timeout later) reopens it. The lesson's number is the
//! calls that reach the dependency in the first second after the cooldown.
//!
//! The breaker is the project's one [`Breaker`], with the note's variant as its
//! [`HalfOpenAdmission::Unlimited`] (`half_open_limit` 0) or at most `half_open_limit`
//! calls in flight. Conventions: at one instant results are recorded before a new call
//! asks; a late failure while open is ignored (the project's breaker; the note's would
//! restart its cooldown, which comes after the second counted here).

use std::collections::VecDeque;

use serde::Serialize;

use crate::engine::breaker::{Breaker, BreakerConfig, HalfOpenAdmission};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HalfOpenParams {
    /// 0: every call (the note's breaker); N: at most N calls in flight.
    pub half_open_limit: u32,
    pub rate_per_s: u64,
    pub timeout_ms: u64,
    pub cooldown_s: f64,
    pub success_threshold: u32,
}

impl Default for HalfOpenParams {
    fn default() -> Self {
        Self {
            half_open_limit: 0,
            rate_per_s: 100,
            timeout_ms: 200,
            cooldown_s: 30.0,
            success_threshold: 3,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HalfOpenRun {
    /// Calls that reached the dependency in the second after the cooldown.
    pub half_open_calls_first_s: u64,
    /// Calls made in that second, admitted or not.
    pub calls_first_s: u64,
    /// When the breaker reopened after its first half-open failure, in s.
    pub reopened_at_s: Option<f64>,
}

/// The admission rule `half_open_limit` stands for.
pub fn admission(half_open_limit: u32) -> HalfOpenAdmission {
    match half_open_limit {
        0 => HalfOpenAdmission::Unlimited,
        limit => HalfOpenAdmission::InFlight(limit),
    }
}

/// A breaker open at time 0 with the note's cooldown and success threshold (the live run
/// starts from the same one).
pub fn opened_breaker(p: &HalfOpenParams) -> Breaker {
    let config = BreakerConfig {
        window: 5,
        min_calls: 5,
        threshold: 0.5,
        open_s: p.cooldown_s,
        trial_calls: p.success_threshold,
    };
    let mut breaker = Breaker::new(config).with_half_open_admission(admission(p.half_open_limit));
    // The note's failure_threshold: five failures open it.
    for _ in 0..5 {
        breaker.record(0.0, false);
    }
    breaker
}

pub fn run(p: &HalfOpenParams) -> HalfOpenRun {
    let mut breaker = opened_breaker(p);
    // Whole microseconds, so that "at the same instant" is exact.
    let spacing_us = 1_000_000 / p.rate_per_s.max(1);
    let cooldown_us = (p.cooldown_s * 1e6).round() as u64;
    let end_us = cooldown_us + 1_000_000;
    let timeout_us = p.timeout_ms * 1_000;
    let mut pending: VecDeque<u64> = VecDeque::new();
    let mut admitted_first_s = 0;
    let mut calls_first_s = 0;
    let mut reopened_at_s = None;
    let mut now_us = 0;
    while now_us < end_us {
        while pending.front().is_some_and(|&due| due <= now_us) {
            let due = pending.pop_front().unwrap_or(now_us);
            let was = breaker.state();
            breaker.record(due as f64 / 1e6, false);
            if reopened_at_s.is_none() && was != breaker.state() {
                reopened_at_s = Some(due as f64 / 1e6);
            }
        }
        let in_second = now_us >= cooldown_us;
        if in_second {
            calls_first_s += 1;
        }
        if breaker.allow(now_us as f64 / 1e6) {
            pending.push_back(now_us + timeout_us);
            if in_second {
                admitted_first_s += 1;
            }
        }
        now_us += spacing_us;
    }
    HalfOpenRun {
        half_open_calls_first_s: admitted_first_s,
        calls_first_s,
        reopened_at_s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_breaker_lets_20_through_one_probe_lets_1() {
        let note = run(&HalfOpenParams::default());
        assert_eq!(note.half_open_calls_first_s, 20, "30.00 s to 30.19 s, one every 10 ms");
        assert_eq!(note.calls_first_s, 100);
        assert_eq!(note.reopened_at_s, Some(30.2));
        let probe = run(&HalfOpenParams {
            half_open_limit: 1,
            ..HalfOpenParams::default()
        });
        assert_eq!(probe.half_open_calls_first_s, 1);
    }

    #[test]
    fn a_longer_timeout_lets_more_through() {
        let slow = run(&HalfOpenParams {
            timeout_ms: 500,
            ..HalfOpenParams::default()
        });
        assert_eq!(slow.half_open_calls_first_s, 50);
    }
}
