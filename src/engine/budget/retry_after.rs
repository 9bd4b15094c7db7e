//! Scenario `retry-after`, first part: a window of 429s, and clients that ignore or honour
//! the `Retry-After` header.
//!
//! From `window_start_ms` to `window_end_ms` the API answers every call 429 with
//! `Retry-After` set to the whole seconds left in the window, rounded up (RFC 9110,
//! section 10.2.3: delay-seconds, counted from the response). Each of `clients` clients
//! makes `rate_per_s` calls a second with the note's retry (3 attempts, 100 ms doubling,
//! ±25%).
//!
//! - Ignoring, a client retries after its backoff alone, into the window.
//! - Honouring, the next attempt waits `max(backoff, Retry-After)`, and every call of that
//!   client waits behind one shared gate until the time the header named (SDKs keep one
//!   per client). A call whose deadline (`deadline_ms` after it began) would pass before it
//!   may go gives up at once and takes its fallback.
//!
//! Conventions: client `c` starts `c / (clients x rate)` s in, so the clients' calls
//! interleave evenly; each answer takes `api_latency_ms`; events at one instant run in the
//! order they were scheduled; client `c` draws from `backoff::stream(seed, c)`.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use serde::Serialize;

use crate::engine::budget::backoff::{NoteRetry, stream};
use crate::engine::pyrandom::PyRandom;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetryAfterParams {
    pub honour: bool,
    pub clients: u32,
    /// Calls per second each client makes.
    pub rate_per_s: u64,
    pub duration_ms: u64,
    pub window_start_ms: u64,
    pub window_end_ms: u64,
    /// How long a call may take from its start, retries and waits included.
    pub deadline_ms: u64,
    pub api_latency_ms: u64,
    pub seed: u64,
}

impl Default for RetryAfterParams {
    fn default() -> Self {
        Self {
            honour: true,
            clients: 10,
            rate_per_s: 10,
            duration_ms: 4_000,
            window_start_ms: 1_000,
            window_end_ms: 3_000,
            deadline_ms: 1_000,
            api_latency_ms: 5,
            seed: 42,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RetryAfterRun {
    pub calls: u64,
    /// Attempts that reached the API, and those inside the 429 window.
    pub arrivals: u64,
    pub arrivals_in_window: u64,
    pub answered_429: u64,
    pub succeeded: u64,
    /// Calls that gave up at once because their deadline would pass first (fallback).
    pub gave_up_for_deadline: u64,
    /// Calls whose every attempt got a 429.
    pub exhausted: u64,
}

/// The `Retry-After` the API sends for a call arriving at `at_ms`, in whole seconds: the
/// rest of the window rounded up; `None` outside the window (the call is answered 200).
pub fn retry_after_s(at_ms: f64, window_start_ms: u64, window_end_ms: u64) -> Option<u64> {
    let inside = at_ms >= window_start_ms as f64 && at_ms < window_end_ms as f64;
    inside.then(|| ((window_end_ms as f64 - at_ms) / 1_000.0).ceil().max(1.0) as u64)
}

/// When client `client`'s call `index` begins, in ms.
pub fn call_at_ms(p: &RetryAfterParams, client: u32, index: u64) -> f64 {
    let spacing_ms = 1_000.0 / p.rate_per_s.max(1) as f64;
    f64::from(client) * spacing_ms / f64::from(p.clients.max(1)) + index as f64 * spacing_ms
}

#[derive(Clone, Copy, Debug)]
enum RetryAfterEvent {
    Begin {
        call: usize,
    },
    Send {
        call: usize,
        attempt: u32,
    },
    Answer {
        call: usize,
        attempt: u32,
        retry_after_s: Option<u64>,
    },
}

struct Scheduled {
    at_ms: f64,
    seq: u64,
    event: RetryAfterEvent,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    /// Reversed, so that the max-heap pops the earliest event (then the first scheduled).
    fn cmp(&self, other: &Self) -> Ordering {
        other.at_ms.total_cmp(&self.at_ms).then(other.seq.cmp(&self.seq))
    }
}

/// One client's calls on the virtual clock.
struct Client<'a> {
    p: &'a RetryAfterParams,
    retry: NoteRetry,
    rng: PyRandom,
    queue: BinaryHeap<Scheduled>,
    seq: u64,
    /// When this client's calls may go again (honouring only).
    gate_ms: f64,
    /// Each call's start.
    begun_ms: Vec<f64>,
    /// When each attempt reached the API, for the app's chart.
    arrivals_ms: Vec<f64>,
    run: RetryAfterRun,
}

impl Client<'_> {
    fn schedule(&mut self, at_ms: f64, event: RetryAfterEvent) {
        self.seq += 1;
        self.queue.push(Scheduled {
            at_ms,
            seq: self.seq,
            event,
        });
    }

    /// Sends `attempt` of `call` at `earliest_ms`, behind the gate if it honours, or gives up.
    fn try_send(&mut self, call: usize, attempt: u32, earliest_ms: f64) {
        if !self.p.honour {
            self.schedule(earliest_ms, RetryAfterEvent::Send { call, attempt });
            return;
        }
        let send_ms = earliest_ms.max(self.gate_ms);
        if send_ms > self.begun_ms[call] + self.p.deadline_ms as f64 {
            self.run.gave_up_for_deadline += 1;
        } else {
            self.schedule(send_ms, RetryAfterEvent::Send { call, attempt });
        }
    }

    fn handle(&mut self, now_ms: f64, event: RetryAfterEvent) {
        match event {
            RetryAfterEvent::Begin { call } => {
                self.run.calls += 1;
                self.try_send(call, 0, now_ms);
            }
            RetryAfterEvent::Send { call, attempt } => {
                // The gate may have moved since this send was scheduled.
                if self.p.honour && self.gate_ms > now_ms {
                    self.try_send(call, attempt, now_ms);
                    return;
                }
                self.run.arrivals += 1;
                self.arrivals_ms.push(now_ms);
                let retry_after_s = retry_after_s(now_ms, self.p.window_start_ms, self.p.window_end_ms);
                if retry_after_s.is_some() {
                    self.run.arrivals_in_window += 1;
                }
                let answer_ms = now_ms + self.p.api_latency_ms as f64;
                self.schedule(
                    answer_ms,
                    RetryAfterEvent::Answer {
                        call,
                        attempt,
                        retry_after_s,
                    },
                );
            }
            RetryAfterEvent::Answer {
                call,
                attempt,
                retry_after_s,
            } => {
                let Some(retry_after_s) = retry_after_s else {
                    self.run.succeeded += 1;
                    return;
                };
                self.run.answered_429 += 1;
                if self.p.honour {
                    self.gate_ms = self.gate_ms.max(now_ms + retry_after_s as f64 * 1_000.0);
                }
                if attempt + 1 >= self.retry.max_attempts {
                    self.run.exhausted += 1;
                    return;
                }
                let backoff_ms = self.retry.delay_ms(&mut self.rng, attempt);
                self.try_send(call, attempt + 1, now_ms + backoff_ms);
            }
        }
    }
}

fn run_client(p: &RetryAfterParams, client: u32) -> (RetryAfterRun, Vec<f64>) {
    let mut c = Client {
        p,
        retry: NoteRetry::default(),
        rng: stream(p.seed, client),
        queue: BinaryHeap::new(),
        seq: 0,
        gate_ms: 0.0,
        begun_ms: Vec::new(),
        arrivals_ms: Vec::new(),
        run: RetryAfterRun::default(),
    };
    for index in 0.. {
        let at_ms = call_at_ms(p, client, index);
        if at_ms >= p.duration_ms as f64 {
            break;
        }
        c.begun_ms.push(at_ms);
        c.schedule(at_ms, RetryAfterEvent::Begin { call: index as usize });
    }
    while let Some(next) = c.queue.pop() {
        c.handle(next.at_ms, next.event);
    }
    (c.run, c.arrivals_ms)
}

/// Every client's calls; the clients share nothing but the API's window.
pub fn run(p: &RetryAfterParams) -> RetryAfterRun {
    run_with_arrivals(p).0
}

/// [`run`], and when each attempt reached the API (every client's, in no order), which the
/// app's chart counts per time slot.
pub fn run_with_arrivals(p: &RetryAfterParams) -> (RetryAfterRun, Vec<f64>) {
    let mut total = RetryAfterRun::default();
    let mut arrivals_ms = Vec::new();
    for client in 0..p.clients {
        let (r, arrived_ms) = run_client(p, client);
        arrivals_ms.extend(arrived_ms);
        total.calls += r.calls;
        total.arrivals += r.arrivals;
        total.arrivals_in_window += r.arrivals_in_window;
        total.answered_429 += r.answered_429;
        total.succeeded += r.succeeded;
        total.gave_up_for_deadline += r.gave_up_for_deadline;
        total.exhausted += r.exhausted;
    }
    (total, arrivals_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_the_rest_of_the_window_rounded_up() {
        assert_eq!(retry_after_s(999.9, 1_000, 3_000), None);
        assert_eq!(retry_after_s(1_000.0, 1_000, 3_000), Some(2));
        assert_eq!(retry_after_s(1_010.0, 1_000, 3_000), Some(2));
        assert_eq!(retry_after_s(2_000.0, 1_000, 3_000), Some(1));
        assert_eq!(retry_after_s(2_999.0, 1_000, 3_000), Some(1));
        assert_eq!(retry_after_s(3_000.0, 1_000, 3_000), None);
    }

    #[test]
    fn honouring_cuts_arrivals_in_the_window_by_more_than_90_percent() {
        let honour = run(&RetryAfterParams::default());
        let ignore = run(&RetryAfterParams {
            honour: false,
            ..RetryAfterParams::default()
        });
        assert_eq!(honour.calls, 400);
        assert_eq!(ignore.calls, 400);
        assert_eq!(ignore.arrivals_in_window, 559);
        assert_eq!(honour.arrivals_in_window, 10, "one 429 per client closes its gate");
        assert!(honour.arrivals_in_window * 10 <= ignore.arrivals_in_window);
        assert_eq!(honour.gave_up_for_deadline, 110);
        assert_eq!(ignore.gave_up_for_deadline, 0, "the note's loop knows no deadline");
    }

    #[test]
    fn the_cut_holds_for_other_seeds() {
        for seed in [0, 1, 7, 1234] {
            let at = |honour| {
                run(&RetryAfterParams {
                    honour,
                    seed,
                    ..RetryAfterParams::default()
                })
                .arrivals_in_window
            };
            assert!(at(true) * 10 <= at(false), "seed {seed}");
        }
    }
}
