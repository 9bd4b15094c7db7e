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
use std::collections::{BTreeSet, BinaryHeap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

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
    /// Every live checkout below this number is settled here ([`BreakerFeed::settle`]).
    settled_below: usize,
    /// Settled checkouts from `settled_below` on, waiting for the ones before them.
    settled_above: BTreeSet<usize>,
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

    /// A copy of the breaker that has learnt the outcomes due by `t_s`; this one is left
    /// as it is, so that an ask at an earlier moment still finds it as the sim's was.
    fn learnt_by(&self, t_s: f64) -> Breaker {
        let mut breaker = self.breaker.clone();
        let upto_us = moment_us(t_s);
        let mut due: Vec<Due> = self
            .due
            .iter()
            .map(|Reverse(d)| *d)
            .filter(|d| d.due_us <= upto_us)
            .collect();
        due.sort();
        for outcome in due {
            breaker.record(outcome.due_us as f64 / 1e6, outcome.ok);
        }
        breaker
    }
}

/// A dependency's breaker and the outcomes on their way to it, shared by checkout-api
/// (which asks it for the live call) and the dependency's server (which asks it for the
/// stand-ins and the live call's retries, and queues every outcome as it plans them): the
/// stand-ins are the twin's own bookkeeping, not traffic the real service would see.
/// A dependency without a breaker has none: every ask is granted, outcomes are dropped.
///
/// A call asks only once the live checkouts before it have settled here (planned their
/// calls, so that their outcomes are queued, or made none), waiting at most
/// [`SETTLE_WAIT_MS`]: a payments call starts when its inventory call ends, so on a busy
/// machine the call of checkout N was sometimes planned before N - 1's, whose fast 503s,
/// due earlier, then reached the breaker after outcomes and asks that came later in sim
/// time (30 of 7,300 calls a run at a load average of 7, up to 124 drill ms late; one run
/// in 20 tripped in the onset's second, where the sim's window is one failure short).
#[derive(Clone, Debug, Default)]
pub struct BreakerFeed {
    state: Option<Arc<Shared>>,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<FeedState>,
    /// Told when a checkout settles.
    settled: Notify,
}

/// The longest a call waits for the checkouts before it to settle (drill ms): past it the
/// call asks anyway, so that a request that never comes (or a slow inventory call in a
/// brownout, 150 ms a timeout) holds up the next only this long, and the calls after that
/// one not at all (the wait gives it up, [`BreakerFeed::settled_before`]).
pub const SETTLE_WAIT_MS: f64 = 100.0;

impl BreakerFeed {
    /// `dep`'s feed: the register's breaker, or none.
    pub fn of(dep: OncallDep) -> Self {
        Self {
            state: dep.row().breaker.then(|| {
                Arc::new(Shared {
                    state: Mutex::new(FeedState {
                        breaker: Breaker::new(BreakerConfig::default()),
                        due: BinaryHeap::new(),
                        sent: 0,
                        settled_below: 0,
                        settled_above: BTreeSet::new(),
                    }),
                    settled: Notify::new(),
                })
            }),
        }
    }

    /// Asks at drill second `t_s` (a sim request's arrival) whether the call may be made,
    /// once the breaker has learnt the outcomes due by then; a half-open trial is taken.
    pub fn allow_at(&self, t_s: f64) -> bool {
        let Some(state) = &self.state else {
            return true;
        };
        let Ok(mut state) = state.state.lock() else {
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
        let Some(mut probe) = state.state.lock().ok().map(|state| state.learnt_by(from_s)) else {
            return true;
        };
        probe.state() == BreakerState::Open && !probe.allow(to_s)
    }

    /// Queues an application attempt's outcome for its sim moment: the sim request
    /// arrived at `arrived_s` and its attempts took `elapsed_ms`.
    pub fn push(&self, arrived_s: f64, elapsed_ms: f64, ok: bool) {
        let Some(state) = &self.state else {
            return;
        };
        if let Ok(mut state) = state.state.lock() {
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
        let state = state.state.lock().ok()?;
        // The sim's word at a second's end is its state after the last ask; an open
        // breaker whose period is over reads open until a request asks.
        Some(state.learnt_by(t_s).state())
    }

    /// Live checkout `request` has settled here: its call is planned (its outcomes
    /// queued), or it makes none. Said more than once, the same.
    pub fn settle(&self, request: usize) {
        let Some(shared) = &self.state else {
            return;
        };
        if let Ok(mut state) = shared.state.lock() {
            if request >= state.settled_below {
                state.settled_above.insert(request);
            }
            while let Some(next) = state.settled_above.first().copied()
                && next == state.settled_below
            {
                state.settled_above.pop_first();
                state.settled_below += 1;
            }
        }
        shared.settled.notify_waiters();
    }

    /// Settles `request` when the guard is dropped: on every way out of a call that
    /// does not reach the dependency.
    pub fn settle_on_drop(&self, request: usize) -> SettleOnDrop {
        SettleOnDrop {
            feed: self.clone(),
            request,
        }
    }

    /// Waits until every live checkout before `request` has settled, or `longest` (real).
    pub async fn settled_before(&self, request: usize, longest: Duration) {
        let Some(shared) = &self.state else {
            return;
        };
        let until = Instant::now() + longest;
        loop {
            let notified = shared.settled.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if shared.state.lock().map_or(true, |s| s.settled_below >= request) {
                return;
            }
            if tokio::time::timeout_at(until.into(), notified).await.is_err() {
                // A checkout before `request` that never settles (its request never came,
                // or its handler was dropped before its guard was made) is given up on
                // here, once: the calls after it wait for the ones after it, not for it.
                shared.give_up_before(request);
                return;
            }
        }
    }
}

impl Shared {
    /// Counts every checkout before `request` as settled, and those settled past it.
    fn give_up_before(&self, request: usize) {
        if let Ok(mut state) = self.state.lock() {
            state.settled_below = state.settled_below.max(request);
            let settled_below = state.settled_below;
            state.settled_above.retain(|&settled| settled >= settled_below);
            while let Some(next) = state.settled_above.first().copied()
                && next == state.settled_below
            {
                state.settled_above.pop_first();
                state.settled_below += 1;
            }
        }
        self.settled.notify_waiters();
    }
}

/// Settles a checkout on a feed when dropped ([`BreakerFeed::settle_on_drop`]).
pub struct SettleOnDrop {
    feed: BreakerFeed,
    request: usize,
}

impl Drop for SettleOnDrop {
    fn drop(&mut self) {
        self.feed.settle(self.request);
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
        let transitions = state.state.lock().expect("not poisoned").breaker.transitions().to_vec();
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

    #[tokio::test]
    async fn a_call_waits_for_the_checkouts_before_it_to_settle_and_no_longer_than_its_bound() {
        let feed = BreakerFeed::of(OncallDep::Payments);
        let long = Duration::from_secs(5);
        // Nothing before checkout 0: no wait.
        tokio::time::timeout(Duration::from_millis(100), feed.settled_before(0, long))
            .await
            .expect("nothing to wait for");
        feed.settle(1);
        let waiting = tokio::spawn({
            let feed = feed.clone();
            async move { feed.settled_before(2, long).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "checkout 0 has not settled");
        drop(feed.settle_on_drop(0));
        tokio::time::timeout(Duration::from_millis(500), waiting)
            .await
            .expect("0 and 1 settled")
            .expect("no panic");
        // Checkout 2 never settles: checkout 3 asks anyway after its bound.
        let started = Instant::now();
        feed.settled_before(3, Duration::from_millis(30)).await;
        assert!(started.elapsed() >= Duration::from_millis(30));
        // Given up on once, checkout 2 holds up no later call: 4 waits for 3 only.
        feed.settle(3);
        tokio::time::timeout(Duration::from_millis(100), feed.settled_before(4, long))
            .await
            .expect("checkout 2 was given up on, 3 settled");
        let waiting = tokio::spawn({
            let feed = feed.clone();
            async move { feed.settled_before(6, long).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "checkout 5 has not settled");
        feed.settle(5);
        feed.settle(4);
        tokio::time::timeout(Duration::from_millis(500), waiting)
            .await
            .expect("4 and 5 settled")
            .expect("no panic");
    }
}
