//! Scenario `duplicates`: payments commits a charge, then the connection drops before the
//! answer, and the client retries.
//!
//! Which orders meet the fault is decided per order by the seeded generator
//! ([`planned_drops`]): the live payments server and the simulation read the same plan, so
//! a live run counts exactly what the simulation predicts. The fault hits an order's first
//! attempt only (later attempts are answered). The client is the note's retry, and a
//! dropped connection is retryable (the note retries network errors), so every dropped
//! order is sent again:
//!
//! - without an idempotency key the second attempt is a second charge;
//! - with a key made once per order, outside the retry loop, payments finds the key and
//!   answers with the first charge's result: no second charge.

use serde::Serialize;

use crate::engine::pyrandom::PyRandom;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuplicatesParams {
    pub requests: u64,
    /// Share of orders whose first attempt commits and then drops, 0 to 1.
    pub drop_share: f64,
    pub idempotency_key: bool,
    pub seed: u64,
}

impl Default for DuplicatesParams {
    fn default() -> Self {
        Self {
            requests: 1_000,
            drop_share: 0.05,
            idempotency_key: false,
            seed: 42,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuplicatesRun {
    pub requests: u64,
    /// Orders whose first attempt committed the charge and then dropped the connection.
    pub dropped_after_commit: u64,
    /// Charges beyond one per order.
    pub duplicates: u64,
    pub charges: u64,
    pub attempts: u64,
}

/// Whether order `i` meets commit-then-drop: draw `i` of `random.Random(seed)` below the share.
pub fn planned_drops(seed: u64, requests: u64, drop_share: f64) -> Vec<bool> {
    let mut rng = PyRandom::new(u128::from(seed));
    (0..requests).map(|_| rng.random() < drop_share).collect()
}

/// What payments does with one attempt: a new charge, or the stored result of its key.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    /// Keys seen, each with the charge it made.
    keys: std::collections::HashMap<String, u64>,
    pub charges: u64,
}

impl Ledger {
    /// Charges for an attempt carrying `key` (or none); returns the charge's number and
    /// whether it is new (false: a replay of the key's first result).
    pub fn charge(&mut self, key: Option<&str>) -> (u64, bool) {
        if let Some(key) = key
            && let Some(&charge) = self.keys.get(key)
        {
            return (charge, false);
        }
        self.charges += 1;
        if let Some(key) = key {
            self.keys.insert(key.to_string(), self.charges);
        }
        (self.charges, true)
    }
}

/// The key a client makes once for order `order`, before its first attempt.
pub fn idempotency_key(order: u64) -> String {
    format!("order-{order}")
}

pub fn run(p: &DuplicatesParams) -> DuplicatesRun {
    let plan = planned_drops(p.seed, p.requests, p.drop_share);
    let mut ledger = Ledger::default();
    let mut attempts = 0;
    for (order, &drops) in plan.iter().enumerate() {
        let key = p.idempotency_key.then(|| idempotency_key(order as u64));
        attempts += 1;
        ledger.charge(key.as_deref());
        if drops {
            // The charge is committed; the answer is lost; the client tries again.
            attempts += 1;
            ledger.charge(key.as_deref());
        }
    }
    let dropped_after_commit = plan.iter().filter(|d| **d).count() as u64;
    DuplicatesRun {
        requests: p.requests,
        dropped_after_commit,
        duplicates: ledger.charges - p.requests,
        charges: ledger.charges,
        attempts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_key_every_drop_retried_is_a_second_charge() {
        for seed in [0, 1, 42, 99, 2026] {
            for share in [0.0, 0.05, 0.3, 1.0] {
                let p = DuplicatesParams {
                    seed,
                    drop_share: share,
                    ..DuplicatesParams::default()
                };
                let without = run(&p);
                assert_eq!(
                    without.duplicates, without.dropped_after_commit,
                    "seed {seed} share {share}"
                );
                let with = run(&DuplicatesParams {
                    idempotency_key: true,
                    ..p
                });
                assert_eq!(with.duplicates, 0);
                assert_eq!(with.dropped_after_commit, without.dropped_after_commit);
            }
        }
    }

    #[test]
    fn the_default_plan_drops_this_many() {
        let run = run(&DuplicatesParams::default());
        assert_eq!(run.dropped_after_commit, 41);
        assert_eq!(run.duplicates, 41);
        assert_eq!(run.charges, 1_041);
    }

    #[test]
    fn a_key_seen_before_replays_its_charge() {
        let mut ledger = Ledger::default();
        assert_eq!(ledger.charge(Some("a")), (1, true));
        assert_eq!(ledger.charge(Some("a")), (1, false));
        assert_eq!(ledger.charge(None), (2, true));
        assert_eq!(ledger.charge(None), (3, true));
        assert_eq!(ledger.charges, 3);
    }
}
