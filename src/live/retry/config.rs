//! What a live retry chain counts: the [`ChainCounters`] and their [`ChainSnapshot`], and
//! each backoff sleep as drawn. What the chain is built with is plain data beside the
//! engine's (`engine::retry_chain`).
//!
//! A file of its own so that the hops (which count) and the chain (which wires the hops)
//! both import it and neither imports the other.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

/// One backoff sleep as drawn: which retry, how long, and the Full Jitter ceiling.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BackoffSleep {
    /// 1 is the first retry.
    pub attempt_index: u32,
    pub sleep_s: f64,
    pub ceiling_s: f64,
}

/// Live counters, written by the servers and the top client, readable at any time.
#[derive(Debug)]
pub struct ChainCounters {
    /// Requests each server received: front end first, database last. Entry k is also
    /// what layer k sent, so `received[0]` counts the top client's sends.
    pub received: Vec<AtomicU64>,
    /// Database attempts that answered 503.
    pub db_failed: AtomicU64,
    /// Database requests queued or in service right now, abandoned ones included.
    pub db_in_flight: AtomicU64,
    /// Database calls the back end gave up on (its timeout fired).
    pub db_timeouts: AtomicU64,
    /// Database requests refused at once because its backlog was full (metastable mode).
    pub db_refused: AtomicU64,
    /// Actions a steady load did not start because its in-flight limit was reached.
    pub actions_skipped: AtomicU64,
    /// Actions the top client started and finished.
    pub actions_started: AtomicU64,
    pub actions_done: AtomicU64,
    /// Actions that succeeded (within their deadline, when there is one).
    pub actions_ok: AtomicU64,
    /// Actions cut off by their deadline.
    pub actions_expired: AtomicU64,
    /// Retries the top client's budget refused.
    pub budget_refusals: AtomicU64,
    /// Database attempts made for actions that finished within their deadline, as the chain
    /// reported them back (`x-db-attempts`): the live ratio divides these by those actions,
    /// so attempts of actions still in flight never lift it past attempts^layers.
    pub db_attempts_of_finished: AtomicU64,
    /// The first backoff sleeps drawn, for checking them against Full Jitter's bounds.
    pub backoff_log: Mutex<Vec<BackoffSleep>>,
}

/// A copy of the counters at one moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ChainSnapshot {
    pub received: Vec<u64>,
    pub db_failed: u64,
    pub db_in_flight: u64,
    pub db_timeouts: u64,
    pub db_refused: u64,
    pub actions_skipped: u64,
    pub actions_started: u64,
    pub actions_done: u64,
    pub actions_ok: u64,
    pub actions_expired: u64,
    pub budget_refusals: u64,
    /// See [`ChainCounters::db_attempts_of_finished`].
    pub db_attempts_of_finished: u64,
}

impl ChainCounters {
    pub(crate) fn new(servers: usize) -> Self {
        Self {
            received: (0..servers).map(|_| AtomicU64::new(0)).collect(),
            db_failed: AtomicU64::new(0),
            db_in_flight: AtomicU64::new(0),
            db_timeouts: AtomicU64::new(0),
            db_refused: AtomicU64::new(0),
            actions_skipped: AtomicU64::new(0),
            actions_started: AtomicU64::new(0),
            actions_done: AtomicU64::new(0),
            actions_ok: AtomicU64::new(0),
            actions_expired: AtomicU64::new(0),
            budget_refusals: AtomicU64::new(0),
            db_attempts_of_finished: AtomicU64::new(0),
            backoff_log: Mutex::new(Vec::new()),
        }
    }

    pub fn snapshot(&self) -> ChainSnapshot {
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        ChainSnapshot {
            received: self.received.iter().map(load).collect(),
            db_failed: load(&self.db_failed),
            db_in_flight: load(&self.db_in_flight),
            db_timeouts: load(&self.db_timeouts),
            db_refused: load(&self.db_refused),
            actions_skipped: load(&self.actions_skipped),
            actions_started: load(&self.actions_started),
            actions_done: load(&self.actions_done),
            actions_ok: load(&self.actions_ok),
            actions_expired: load(&self.actions_expired),
            budget_refusals: load(&self.budget_refusals),
            db_attempts_of_finished: load(&self.db_attempts_of_finished),
        }
    }

    /// Database requests received so far.
    pub fn db_received(&self) -> u64 {
        self.received.last().map_or(0, |c| c.load(Ordering::Relaxed))
    }
}
