//! One dependency's breaker in the live twin, fed as the simulation feeds its own: every
//! application attempt's outcome (the live call's and its four stand-ins') waits in a
//! queue for its sim moment (its sim request's arrival plus its attempts' time,
//! `engine::oncall::sim::outcome_due_us`), and the breaker learns the outcomes due by a
//! moment, in the order of their moments, only when it is asked at that moment: the sim
//! request's arrival ([`BreakerFeed::allow_at`]), as the sim delivers what is due before
//! each request asks.
//!
//! Why a queue and not outcomes recorded as they come: the sim's breaker window in
//! payments-503 peaks one failure under its trip threshold (9 in 20 at 129 s, 8 in 20 in
//! the onset's second), so the order the window sees outcomes in decides whether it trips.
//! Live, the outcomes came in the machine's order: the live call's own when its answer
//! came (50 to 135 ms after the sim's moment on a loaded machine), the stand-ins' each
//! from a timer of its own (1 ms ticks, 12.5 drill ms, longer than the sim's 10 ms between
//! requests, so that outcomes a tick apart were recorded in any order). Two runs in 45
//! tripped in a second the sim does not and read 134 s and 136 s where the sim reads
//! 129 s. Kept in the queue, each outcome is recorded at its own sim moment, whatever
//! moment the machine got to it, and the breaker opens (and its open period counts) from
//! the sim's moment.
//!
//! The asks are the sim's too: the live call's first at checkout-api, the others (its
//! retries, and each stand-in's, at its own arrival) by the dependency when it plans the
//! call (`super::dependency`), in the sim's order, so that a half-open breaker's trial
//! calls are the sim's next requests, stand-ins included, not live calls only.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex};

use crate::engine::breaker::{Breaker, BreakerConfig, BreakerState};
use crate::engine::oncall::OncallDep;
use crate::engine::oncall::sim::{moment_us, outcome_due_us};

/// An application attempt's outcome waiting for its sim moment; `order` keeps outcomes
/// due at the same moment in the order they were planned, as the sim's heap does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Due {
    due_us: u64,
    order: u64,
    ok: bool,
}

#[derive(Debug)]
struct FeedState {
    breaker: Breaker,
    due: BinaryHeap<Reverse<Due>>,
    sent: u64,
}

impl FeedState {
    /// Records every outcome due by `upto_us`, soonest first, each at its own moment.
    fn deliver(&mut self, upto_us: u64) {
        while let Some(Reverse(outcome)) = self.due.peek().copied()
            && outcome.due_us <= upto_us
        {
            self.due.pop();
            self.breaker.record(outcome.due_us as f64 / 1e6, outcome.ok);
        }
    }
}

/// A dependency's breaker and the outcomes on their way to it, shared by checkout-api
/// (which asks it for the live call) and the dependency's server (which asks it for the
/// stand-ins and the live call's retries, and queues every outcome as it plans them): the
/// stand-ins are the twin's own bookkeeping, not traffic the real service would see.
/// A dependency without a breaker has none: every ask is granted, outcomes are dropped.
#[derive(Clone, Debug, Default)]
pub struct BreakerFeed {
    state: Option<Arc<Mutex<FeedState>>>,
}

impl BreakerFeed {
    /// `dep`'s feed: the register's breaker, or none.
    pub fn of(dep: OncallDep) -> Self {
        Self {
            state: dep.row().breaker.then(|| {
                Arc::new(Mutex::new(FeedState {
                    breaker: Breaker::new(BreakerConfig::default()),
                    due: BinaryHeap::new(),
                    sent: 0,
                }))
            }),
        }
    }

    /// Asks at drill second `t_s` (a sim request's arrival) whether the call may be made,
    /// once the breaker has learnt the outcomes due by then; a half-open trial is taken.
    pub fn allow_at(&self, t_s: f64) -> bool {
        let Some(state) = &self.state else {
            return true;
        };
        let Ok(mut state) = state.lock() else {
            return false;
        };
        state.deliver(moment_us(t_s));
        state.breaker.allow(t_s)
    }

    /// Whether every ask from `from_s` to `to_s` is refused for sure: the breaker is open
    /// and stays open until after `to_s` (outcomes that come meanwhile are ignored by an
    /// open breaker). Nothing is taken or learnt.
    pub fn refuses_all(&self, from_s: f64, to_s: f64) -> bool {
        let Some(state) = &self.state else {
            return false;
        };
        let Ok(mut state) = state.lock() else {
            return true;
        };
        state.deliver(moment_us(from_s));
        let mut probe = state.breaker.clone();
        probe.state() == BreakerState::Open && !probe.allow(to_s)
    }

    /// Queues an application attempt's outcome for its sim moment: the sim request
    /// arrived at `arrived_s` and its attempts took `elapsed_ms`.
    pub fn push(&self, arrived_s: f64, elapsed_ms: f64, ok: bool) {
        let Some(state) = &self.state else {
            return;
        };
        if let Ok(mut state) = state.lock() {
            state.sent += 1;
            let order = state.sent;
            state.due.push(Reverse(Due {
                due_us: outcome_due_us(arrived_s, elapsed_ms),
                order,
                ok,
            }));
        }
    }

    /// The breaker's state at drill second `t_s` with the outcomes due by then, for the
    /// screen: learnt by a copy, so that an ask at an earlier moment still finds the
    /// breaker as the sim's was then. None without a breaker.
    pub fn state_at(&self, t_s: f64) -> Option<BreakerState> {
        let state = self.state.as_ref()?;
        let state = state.lock().ok()?;
        let mut copy = FeedState {
            breaker: state.breaker.clone(),
            due: state.due.clone(),
            sent: state.sent,
        };
        copy.deliver(moment_us(t_s));
        // The sim's word at a second's end is its state after the last ask; an open
        // breaker whose period is over reads open until a request asks.
        Some(copy.breaker.state())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_reach_the_breaker_in_the_order_of_their_moments_not_of_their_coming() {
        let feed = BreakerFeed::of(OncallDep::Payments);
        // Ten successes then ten failures in sim time, queued in the reverse order: learnt
        // in the order they came, the window's last ten would be successes.
        for k in (0..20).rev() {
            feed.push(100.0 + f64::from(k) * 0.01, 10.0, k < 10);
        }
        assert_eq!(feed.state_at(100.05), Some(BreakerState::Closed), "nothing due yet");
        // At 100.2 s all 20 are due: 10 failures in 20 trip it (threshold 50%), at the
        // moment of the 20th, 100.2 s (plus the 10 ms), not at the moment of the ask.
        assert!(!feed.allow_at(100.3));
        let Some(state) = &feed.state else {
            panic!("payments has a breaker");
        };
        let transitions = state.lock().expect("not poisoned").breaker.transitions().to_vec();
        assert_eq!(transitions.len(), 1);
        assert!((transitions[0].t_s - 100.2).abs() < 1e-6, "{:?}", transitions[0]);
    }

    #[test]
    fn an_ask_learns_only_what_is_due_by_its_own_moment() {
        let feed = BreakerFeed::of(OncallDep::Payments);
        for k in 0..20 {
            feed.push(200.0, 100.0 + f64::from(k), false);
        }
        // Due from 200.1 s: an ask at the sim request's arrival before it is granted even
        // if the machine got to it later, and the one after it is refused.
        assert!(feed.allow_at(200.09));
        assert!(feed.refuses_all(200.2, 204.0), "open, and for 5 s");
        assert!(!feed.refuses_all(200.2, 205.2), "half-open by then");
        assert!(!feed.allow_at(200.2));
        // No breaker (receipt-store): every ask granted.
        let none = BreakerFeed::of(OncallDep::ReceiptStore);
        none.push(1.0, 1.0, false);
        assert!(none.allow_at(2.0) && none.state_at(2.0).is_none());
    }
}
