//! Lab 3's live caller: a checkout page that calls the dependency on a fixed schedule.
//!
//! Call `i` is due at `start + i / rate`; a late slot is sent late and counted, never
//! dropped. Each call is its own task under `tokio::time::timeout`, so a hung call never
//! holds up the schedule. With a breaker, the page asks the engine's [`Breaker`] before
//! each call (seconds elapsed since `start`) and tells it the outcome when the wait ends;
//! refused calls degrade at once with a wait of 0, as in the simulation.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use http_body_util::BodyExt;
use hyper::{StatusCode, Uri};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::engine::breaker::{Breaker, BreakerConfig};
use crate::engine::brownout::{MAX_CALLS_IN_FLIGHT, SecondStats};
use crate::engine::fault::FaultSchedule;
use crate::live::breaker::wait_histogram::WaitHistogram;
use crate::live::http::{PooledClient, pooled_client};

/// A send more than this after its slot counts as late (the timer's grain is 1 ms).
pub const LATE_AFTER: Duration = Duration::from_millis(2);
/// Extra time allowed for calls still out when the caller stops, beyond their timeout.
const FINISH_SLACK: Duration = Duration::from_secs(1);
/// Most waits kept for the next sample (the TUI's rolling p99). The sampler takes them once
/// a second's calls have all ended, up to a timeout later, and a reader that lags (or none,
/// on the command line) leaves up to 64 samples queued: at 10,000 page views/s and 60 s
/// timeouts that was 10 MB a caller, and 64 samples of 2,048 waits are 1 MB. The sliders'
/// widest (500/s, 2 s) makes about 1,500 between two samples; the run's own percentiles
/// come from the histogram, which keeps every wait.
const RECENT_WAITS_LIMIT: usize = 2_048;

/// Locks a mutex even if a task panicked while holding it: counters stay readable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Everything one caller counted; shared by its call tasks and read by the sampler.
#[derive(Debug, Default)]
pub struct Tally {
    /// One entry per started second of the run, by send time.
    pub per_second: Vec<SecondStats>,
    /// Wait of every page view (0 for a fail-fast): counts per value, constant memory.
    pub waits: WaitHistogram,
    /// Waits of the page views that ended since the sampler last took them, in seconds
    /// (the first [`RECENT_WAITS_LIMIT`] of them).
    pub recent_waits_s: Vec<f64>,
    pub calls: u64,
    pub sick_calls: u64,
    pub degraded: u64,
    /// Page views attempted: calls made plus calls the breaker refused.
    pub sends: u64,
    /// Sends more than [`LATE_AFTER`] behind their slot.
    pub late_sends: u64,
    /// How far behind its slot each send went out (0 when on time).
    pub late: WaitHistogram,
    pub first_send_s: Option<f64>,
    pub last_send_s: f64,
    /// `wait - timeout` of every call that timed out.
    pub timeout_overshoot: WaitHistogram,
    pub timed_out: u64,
    /// Calls answered with a non-200 status (the `errors` fault).
    pub error_answers: u64,
    /// Calls that failed before an answer (refused, reset).
    pub connect_failures: u64,
    /// Calls not sent because [`MAX_CALLS_IN_FLIGHT`] were out: degraded at once.
    pub not_sent: u64,
    /// Calls still out, by the second they were sent in: a second's sample waits for its
    /// calls to end, so that it counts every one of them.
    pub pending: Vec<u32>,
}

impl Tally {
    fn second(&mut self, t_s: f64) -> &mut SecondStats {
        let index = self.second_index(t_s);
        &mut self.per_second[index]
    }

    fn second_index(&self, t_s: f64) -> usize {
        let last = self.per_second.len().saturating_sub(1);
        (t_s.max(0.0) as usize).min(last)
    }

    fn record_wait_s(&mut self, wait_s: f64) {
        self.waits.record_s(wait_s);
        if self.recent_waits_s.len() < RECENT_WAITS_LIMIT {
            self.recent_waits_s.push(wait_s);
        }
    }

    /// Whether every call sent in `second` has ended.
    pub fn second_complete(&self, second: usize) -> bool {
        self.pending.get(second).is_none_or(|&out| out == 0)
    }
}

/// One caller: its counters, its in-flight gauge and, optionally, its breaker.
#[derive(Debug)]
pub struct Caller {
    pub tally: Mutex<Tally>,
    /// Calls sent and not yet answered, errored or timed out: sampled, not computed.
    pub in_flight: AtomicU64,
    pub breaker: Option<Mutex<Breaker>>,
}

impl Caller {
    /// A caller for a run of `seconds` whole seconds, with a breaker when `breaker` is given.
    pub fn new(seconds: usize, breaker: Option<BreakerConfig>) -> Self {
        Self {
            tally: Mutex::new(Tally {
                per_second: vec![SecondStats::default(); seconds.max(1)],
                pending: vec![0; seconds.max(1)],
                ..Tally::default()
            }),
            in_flight: AtomicU64::new(0),
            breaker: breaker.map(|config| Mutex::new(Breaker::new(config))),
        }
    }
}

/// What a caller needs to run its schedule.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// Time zero shared with the dependency and the other caller.
    pub start: Instant,
    pub rate: u32,
    pub total_calls: u64,
    pub timeout: Duration,
    pub uri: Uri,
}

/// How a single call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CallEnding {
    Ok,
    ErrorAnswer,
    ConnectFailure,
    TimedOut,
}

/// Sends the whole schedule, then waits for the calls still out; returns early (after the
/// calls still out end) when `stop` turns true. Retunes the breaker when `configs` changes.
pub async fn run(
    caller: Arc<Caller>,
    schedule: Schedule,
    faults: watch::Receiver<FaultSchedule>,
    mut configs: watch::Receiver<BreakerConfig>,
    mut stop: watch::Receiver<bool>,
) {
    let client = pooled_client();
    let mut calls_out = JoinSet::new();
    let rate = f64::from(schedule.rate.max(1));
    for i in 0..schedule.total_calls {
        let due = schedule.start + Duration::from_secs_f64(i as f64 / rate);
        tokio::select! {
            biased;
            _ = stop.wait_for(|stopped| *stopped) => break,
            () = tokio::time::sleep_until(due) => {}
        }
        // Reap finished calls so the set holds only the ones still out.
        while calls_out.try_join_next().is_some() {}
        if configs.has_changed().unwrap_or(false)
            && let Some(breaker) = &caller.breaker
        {
            let config = configs.borrow_and_update().clone();
            lock(breaker).set_config(config);
        }
        let sent = Instant::now();
        let send_s = (sent - schedule.start).as_secs_f64();
        let late_s = sent.saturating_duration_since(due).as_secs_f64();
        let sick = faults.borrow().is_sick(send_s);
        // Checked before the breaker is asked: a half-open breaker counts the calls it
        // lets through as trials and waits for their outcomes.
        let pool_full = calls_out.len() >= MAX_CALLS_IN_FLIGHT;
        let allowed = !pool_full
            && caller
                .breaker
                .as_ref()
                .is_none_or(|breaker| lock(breaker).allow(send_s));
        {
            let mut tally = lock(&caller.tally);
            tally.sends += 1;
            tally.first_send_s.get_or_insert(send_s);
            tally.last_send_s = send_s;
            tally.late.record_s(late_s);
            if late_s > LATE_AFTER.as_secs_f64() {
                tally.late_sends += 1;
            }
            if pool_full {
                tally.not_sent += 1;
            }
            if !allowed {
                tally.degraded += 1;
                tally.record_wait_s(0.0);
                let second = tally.second(send_s);
                second.degraded += 1;
                second.failed_fast += 1;
                continue;
            }
            tally.calls += 1;
            let second = tally.second(send_s);
            second.calls += 1;
            if sick {
                second.sick_calls += 1;
                tally.sick_calls += 1;
            }
            let index = tally.second_index(send_s);
            tally.pending[index] += 1;
        }
        caller.in_flight.fetch_add(1, Ordering::Relaxed);
        calls_out.spawn(call(
            Arc::clone(&caller),
            client.clone(),
            schedule.uri.clone(),
            schedule.timeout,
            schedule.start,
            sent,
        ));
    }
    // Every call ends by its own timeout; the slack only guards against a stuck runtime.
    let deadline = Instant::now() + schedule.timeout + FINISH_SLACK;
    while let Ok(Some(_)) = tokio::time::timeout_at(deadline, calls_out.join_next()).await {}
    calls_out.shutdown().await;
}

/// One call: GET under the timeout, then the wait, the outcome and the breaker's record.
async fn call(caller: Arc<Caller>, client: PooledClient, uri: Uri, timeout: Duration, start: Instant, sent: Instant) {
    let exchange = async {
        let response = client.get(uri).await.map_err(|_| CallEnding::ConnectFailure)?;
        let status = response.status();
        // The page has its answer once the whole body is in.
        response
            .into_body()
            .collect()
            .await
            .map_err(|_| CallEnding::ConnectFailure)?;
        if status == StatusCode::OK {
            Ok(())
        } else {
            Err(CallEnding::ErrorAnswer)
        }
    };
    let outcome = match tokio::time::timeout(timeout, exchange).await {
        Ok(Ok(())) => CallEnding::Ok,
        Ok(Err(outcome)) => outcome,
        Err(_elapsed) => CallEnding::TimedOut,
    };
    let done = Instant::now();
    let wait_s = (done - sent).as_secs_f64();
    let ok = outcome == CallEnding::Ok;
    if let Some(breaker) = &caller.breaker {
        lock(breaker).record((done - start).as_secs_f64(), ok);
    }
    caller.in_flight.fetch_sub(1, Ordering::Relaxed);
    let mut tally = lock(&caller.tally);
    tally.record_wait_s(wait_s);
    match outcome {
        CallEnding::Ok => {}
        CallEnding::ErrorAnswer => tally.error_answers += 1,
        CallEnding::ConnectFailure => tally.connect_failures += 1,
        CallEnding::TimedOut => {
            tally.timed_out += 1;
            tally.timeout_overshoot.record_s(wait_s - timeout.as_secs_f64());
        }
    }
    let send_s = (sent - start).as_secs_f64();
    if !ok {
        tally.degraded += 1;
        tally.second(send_s).degraded += 1;
    }
    let index = tally.second_index(send_s);
    tally.pending[index] = tally.pending[index].saturating_sub(1);
}
