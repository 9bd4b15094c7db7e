//! checkout-api's workers on the drill clock, held as the simulation holds them: a worker
//! taken by a request that was sent at drill time `t` is busy until the request ends, and
//! never past `t` plus the inbound deadline; a request sent at `t` finds free every worker
//! whose hold ended at or before `t`.
//!
//! Why not a semaphore released when the handler returns: the handler of a request that
//! ran into its deadline returns a few real ms after it (the timer's tick, the answer's
//! way out, a loaded machine), and the request sent at that very drill moment, which the
//! sim lets in, found every worker still taken (measured in receipt-store-storm: after
//! each trough the first 5 to 25 checkouts of the second were turned away where the sim
//! turns away none, the dependency saw fewer calls than its limit, the storm's four-second
//! cycle grew a fifth second, and the runbook's lever met the storm in another phase,
//! restored 2 s early).

use std::sync::Mutex;

/// One worker's hold: the request holding it and the drill second the hold ends.
#[derive(Clone, Copy, Debug)]
struct Hold {
    request: usize,
    until_s: f64,
}

/// A worker taken by a request, to be given back with [`CheckoutWorkers::release`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerSlot {
    index: usize,
    request: usize,
}

/// A fixed number of workers and their holds.
pub struct CheckoutWorkers {
    holds: Mutex<Vec<Option<Hold>>>,
    /// The longest a hold lasts: the inbound deadline, in drill seconds.
    longest_hold_s: f64,
}

impl CheckoutWorkers {
    pub fn new(workers: usize, longest_hold_s: f64) -> Self {
        Self {
            holds: Mutex::new(vec![None; workers]),
            longest_hold_s,
        }
    }

    /// A worker for request number `request`, sent at drill second `sent_s`; None when
    /// every worker is held past that moment.
    pub fn take(&self, request: usize, sent_s: f64) -> Option<WorkerSlot> {
        let mut holds = self.holds.lock().ok()?;
        let index = holds.iter().position(|h| h.is_none_or(|h| h.until_s <= sent_s))?;
        holds[index] = Some(Hold {
            request,
            until_s: sent_s + self.longest_hold_s,
        });
        Some(WorkerSlot { index, request })
    }

    /// The request of `slot` ended at drill second `ended_s`: its hold ends then, if
    /// before its deadline (a worker given to another request since is left alone).
    pub fn release(&self, slot: WorkerSlot, ended_s: f64) {
        if let Ok(mut holds) = self.holds.lock()
            && let Some(hold) = holds[slot.index].as_mut()
            && hold.request == slot.request
        {
            hold.until_s = hold.until_s.min(ended_s);
        }
    }

    /// Workers held at drill second `now_s`.
    pub fn busy_at(&self, now_s: f64) -> usize {
        self.holds
            .lock()
            .map(|holds| holds.iter().flatten().filter(|h| h.until_s > now_s).count())
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_held_to_the_deadline_is_free_at_that_moment() {
        let workers = CheckoutWorkers::new(1, 2.0);
        let first = workers.take(0, 111.0).expect("a free worker");
        assert_eq!(workers.take(1, 112.5), None);
        assert_eq!(workers.busy_at(112.9), 1);
        // The handler has not returned yet, and the request sent at 113.0 gets the worker.
        assert!(workers.take(2, 113.0).is_some());
        // The first request's late end does not shorten the second's hold.
        workers.release(first, 113.01);
        assert_eq!(workers.busy_at(113.5), 1);
    }

    #[test]
    fn a_request_that_ends_early_gives_its_worker_back_then() {
        let workers = CheckoutWorkers::new(1, 2.0);
        let slot = workers.take(0, 10.0).expect("a free worker");
        workers.release(slot, 10.3);
        assert!(workers.take(1, 10.3).is_some());
    }
}
