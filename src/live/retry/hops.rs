//! The hops of Lab 2's live chain: the front and back ends, the database, the top client.
//!
//! Every layer runs `retry_loop`, the engine's loop rule: attempt `i` goes out only
//! while `i < attempts`, and at the top client only if [`Budget::admit`] agrees. Between
//! attempts a layer sleeps Full Jitter ([`full_jitter_s`]) from its own seeded stream.
//! [`crate::live::retry::chain`] wires these into a running chain; what they count is in
//! [`crate::live::retry::config`].

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper::header::HeaderValue;
use hyper::{Request, StatusCode, Uri};
use tokio::sync::{Notify, Semaphore};
use tokio::time::Instant;

use crate::engine::pyrandom::PyRandom;
use crate::engine::retry::{Budget, DB_BACKLOG, full_jitter_ceiling_s, full_jitter_s};
use crate::engine::retry_chain::BackoffConfig;
use crate::live::http::{self, PooledClient, TextBody};
use crate::live::retry::config::{BackoffSleep, ChainCounters};

/// The header that carries the attempts of this layer and the ones below, e.g. `4,4`.
pub const ATTEMPTS_HEADER: &str = "x-attempts";

/// How many backoff sleeps the chain remembers for inspection (bounded memory).
const BACKOFF_LOG_LIMIT: usize = 4_096;

/// One layer's Full Jitter source: the engine's formula over its own seeded stream.
pub struct LayerBackoff {
    pub(crate) config: BackoffConfig,
    pub(crate) rng: Mutex<PyRandom>,
    pub(crate) counters: Arc<ChainCounters>,
}

impl LayerBackoff {
    pub(crate) fn new(config: BackoffConfig, seed: u128, counters: Arc<ChainCounters>) -> Self {
        Self {
            config,
            rng: Mutex::new(PyRandom::new(seed)),
            counters,
        }
    }

    /// Sleeps before attempt `attempt_index` (1 = first retry): Full Jitter with the retry
    /// number counted from 0, so the first retry waits up to `base`, the next up to 2 x base.
    pub(crate) async fn before_attempt(&self, attempt_index: u32) {
        if self.config.base_ms <= 0.0 || attempt_index == 0 {
            return;
        }
        let (base_s, cap_s) = (self.config.base_ms / 1e3, self.config.cap_ms / 1e3);
        let retry = attempt_index - 1;
        let sleep_s = {
            let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
            full_jitter_s(&mut rng, retry, base_s, cap_s)
        };
        if let Ok(mut log) = self.counters.backoff_log.lock()
            && log.len() < BACKOFF_LOG_LIMIT
        {
            log.push(BackoffSleep {
                attempt_index,
                sleep_s,
                ceiling_s: full_jitter_ceiling_s(retry, base_s, cap_s),
            });
        }
        tokio::time::sleep(Duration::from_secs_f64(sleep_s)).await;
    }
}

/// The one retry loop every layer runs, the engine's rule: attempt `i` goes out only while
/// `i < attempts` and `admit(i)` agrees (the budget at the top client, always true below).
pub(crate) async fn retry_loop<Fut>(
    attempts: u32,
    mut admit: impl FnMut(u32) -> bool,
    backoff: &LayerBackoff,
    mut send: impl FnMut() -> Fut,
) -> bool
where
    Fut: Future<Output = bool>,
{
    for attempt_index in 0..attempts {
        if !admit(attempt_index) {
            return false;
        }
        backoff.before_attempt(attempt_index).await;
        if send().await {
            return true;
        }
    }
    false
}

/// What one call to the layer below came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CallOutcome {
    Ok,
    Failed,
    TimedOut,
}

/// GETs `/` on the next hop with the attempts of the layers below; reads the whole body so
/// the keep-alive connection goes back to the pool.
pub(crate) async fn call_below(
    client: &PooledClient,
    uri: &Uri,
    attempts_below: &HeaderValue,
    timeout: Option<Duration>,
    db_attempts: &AtomicU64,
) -> CallOutcome {
    let request = Request::get(uri.clone())
        .header(ATTEMPTS_HEADER, attempts_below.clone())
        .body(Empty::<Bytes>::new());
    let Ok(request) = request else {
        return CallOutcome::Failed;
    };
    // Whether the answer's report was counted: a timeout after it (while the body is read)
    // must not count the call a second time.
    let reported = AtomicBool::new(false);
    let exchange = async {
        match client.request(request).await {
            Ok(response) => {
                reported.store(true, Ordering::Relaxed);
                let ok = response.status() == StatusCode::OK;
                // What the chain below made of this call at the database, reported back.
                let below = response
                    .headers()
                    .get(DB_ATTEMPTS_HEADER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
                db_attempts.fetch_add(below, Ordering::Relaxed);
                match response.into_body().collect().await {
                    Ok(_) if ok => CallOutcome::Ok,
                    _ => CallOutcome::Failed,
                }
            }
            Err(_) => CallOutcome::Failed,
        }
    };
    match timeout {
        // Dropping the exchange closes its connection: the callee sees a hang-up, nothing more.
        // A call cut off by the timeout was still made: only the back end has a timeout, and
        // its call is one database attempt, which the answer would have reported. Counting it
        // here puts it with its action's finished attempts ("so far"), not with those in flight.
        Some(limit) => tokio::time::timeout(limit, exchange).await.unwrap_or_else(|_| {
            if !reported.load(Ordering::Relaxed) {
                db_attempts.fetch_add(1, Ordering::Relaxed);
            }
            CallOutcome::TimedOut
        }),
        None => exchange.await,
    }
}

/// The response header in which each hop reports the database attempts its request caused.
pub(crate) const DB_ATTEMPTS_HEADER: &str = "x-db-attempts";

/// `response` with `attempts` reported in [`DB_ATTEMPTS_HEADER`].
fn reporting(mut response: hyper::Response<TextBody>, attempts: u64) -> hyper::Response<TextBody> {
    response
        .headers_mut()
        .insert(DB_ATTEMPTS_HEADER, HeaderValue::from(attempts));
    response
}

pub(crate) fn attempts_value(attempts: &[u32]) -> HeaderValue {
    let list: Vec<String> = attempts.iter().map(u32::to_string).collect();
    HeaderValue::from_str(&list.join(",")).unwrap_or_else(|_| HeaderValue::from_static("1"))
}

/// Reads `x-attempts`; a missing or malformed header means one attempt at every layer.
pub(crate) fn parse_attempts(request: &Request<Incoming>) -> Vec<u32> {
    request
        .headers()
        .get(ATTEMPTS_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|text| {
            text.split(',')
                .filter_map(|item| item.trim().parse::<u32>().ok())
                .map(|a| a.clamp(1, 10))
                .collect()
        })
        .unwrap_or_default()
}

/// A front end or back end: retries the next hop `attempts[0]` times.
pub(crate) struct Forwarder {
    /// Index into `received`.
    pub(crate) index: usize,
    pub(crate) next: Uri,
    pub(crate) client: PooledClient,
    pub(crate) counters: Arc<ChainCounters>,
    /// The back end's timeout on the database; None for hops that wait.
    pub(crate) timeout: Option<Duration>,
    pub(crate) backoff: LayerBackoff,
}

impl Forwarder {
    pub(crate) async fn handle(self: Arc<Self>, request: Request<Incoming>) -> hyper::Response<TextBody> {
        self.counters.received[self.index].fetch_add(1, Ordering::Relaxed);
        let attempts = parse_attempts(&request);
        let mine = attempts.first().copied().unwrap_or(1);
        let below = attempts_value(attempts.get(1..).unwrap_or(&[]));
        let db_attempts = AtomicU64::new(0);
        let ok = retry_loop(
            mine,
            |_| true,
            &self.backoff,
            || async {
                match call_below(&self.client, &self.next, &below, self.timeout, &db_attempts).await {
                    CallOutcome::Ok => true,
                    CallOutcome::Failed => false,
                    CallOutcome::TimedOut => {
                        self.counters.db_timeouts.fetch_add(1, Ordering::Relaxed);
                        false
                    }
                }
            },
        )
        .await;
        let response = if ok {
            http::text(StatusCode::OK, "ok\n")
        } else {
            http::text(StatusCode::SERVICE_UNAVAILABLE, "failed\n")
        };
        reporting(response, db_attempts.load(Ordering::Relaxed))
    }
}

/// Counts the database's background work, so shutdown can wait for it to end.
#[derive(Debug, Default)]
pub(crate) struct WorkTracker {
    pub(crate) running: AtomicUsize,
    pub(crate) idle: Notify,
}

/// Decrements the tracker however the work ends.
pub(crate) struct WorkGuard(Arc<WorkTracker>, Arc<ChainCounters>);

impl Drop for WorkGuard {
    fn drop(&mut self) {
        self.1.db_in_flight.fetch_sub(1, Ordering::Relaxed);
        if self.0.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// The database: fails each attempt with probability `p`, or every attempt in an outage.
pub(crate) struct ChainDatabase {
    pub(crate) counters: Arc<ChainCounters>,
    /// `p` as f64 bits, so a slider can move it while the chain runs.
    pub(crate) p_bits: AtomicU64,
    pub(crate) rng: Mutex<PyRandom>,
    /// Slots and service time, in the metastable mode.
    pub(crate) capacity: Option<(Arc<Semaphore>, Duration)>,
    /// Milliseconds after `epoch` until which every attempt fails (the trigger).
    pub(crate) outage_until_ms: AtomicU64,
    pub(crate) epoch: Instant,
    pub(crate) work: Arc<WorkTracker>,
}

impl ChainDatabase {
    /// One failure draw, the sim's rule: fail when `random() < p` (an outage fails all).
    pub(crate) fn draw_ok(&self) -> bool {
        let p = f64::from_bits(self.p_bits.load(Ordering::Relaxed));
        // Drawn even in an outage, so the stream stays aligned with the number of attempts.
        let draw = self.rng.lock().unwrap_or_else(|e| e.into_inner()).random();
        let outage = self.epoch.elapsed().as_millis() < u128::from(self.outage_until_ms.load(Ordering::Relaxed));
        !outage && draw >= p
    }

    pub(crate) async fn handle(self: Arc<Self>, _request: Request<Incoming>) -> hyper::Response<TextBody> {
        let index = self.counters.received.len() - 1;
        self.counters.received[index].fetch_add(1, Ordering::Relaxed);
        let ok = match &self.capacity {
            None => self.draw_ok(),
            Some((slots, service)) => {
                // Taken in one step, so that two handlers at once cannot both pass the limit.
                let admitted = self
                    .counters
                    .db_in_flight
                    .fetch_update(Ordering::AcqRel, Ordering::Acquire, |queued| {
                        (queued < DB_BACKLOG).then_some(queued + 1)
                    })
                    .is_ok();
                if !admitted {
                    self.counters.db_refused.fetch_add(1, Ordering::Relaxed);
                    self.counters.db_failed.fetch_add(1, Ordering::Relaxed);
                    return reporting(http::text(StatusCode::SERVICE_UNAVAILABLE, "db backlog full\n"), 1);
                }
                let (slots, service) = (Arc::clone(slots), *service);
                self.work.running.fetch_add(1, Ordering::AcqRel);
                let guard = WorkGuard(Arc::clone(&self.work), Arc::clone(&self.counters));
                let db = Arc::clone(&self);
                // Its own task: if the caller hangs up, hyper drops this handler, but the
                // database carries on with the request, as a real one would.
                let work = tokio::spawn(async move {
                    let _guard = guard;
                    let Ok(_slot) = slots.acquire().await else {
                        return false; // shutting down
                    };
                    tokio::time::sleep(service).await;
                    db.draw_ok()
                });
                work.await.unwrap_or(false)
            }
        };
        let response = if ok {
            http::text(StatusCode::OK, "ok\n")
        } else {
            self.counters.db_failed.fetch_add(1, Ordering::Relaxed);
            http::text(StatusCode::SERVICE_UNAVAILABLE, "db failed\n")
        };
        reporting(response, 1)
    }
}

/// The browser code: the budget lives here and nowhere else.
pub struct TopClient {
    pub(crate) client: PooledClient,
    pub(crate) entry: Uri,
    pub(crate) counters: Arc<ChainCounters>,
    /// None: no budget. Shared by every action this client runs, as Google's budget is.
    pub(crate) budget: Mutex<Option<Budget>>,
    pub(crate) backoff: LayerBackoff,
}

impl TopClient {
    /// Replaces the budget (0 removes it), starting its counts afresh.
    pub fn set_budget(&self, ratio: f64) {
        *self.budget.lock().unwrap_or_else(|e| e.into_inner()) = (ratio > 0.0).then(|| Budget::new(ratio));
    }

    pub(crate) fn admit(&self, attempt_index: u32) -> bool {
        let mut budget = self.budget.lock().unwrap_or_else(|e| e.into_inner());
        match budget.as_mut() {
            Some(budget) => {
                let admitted = budget.admit(attempt_index);
                if !admitted {
                    self.counters.budget_refusals.fetch_add(1, Ordering::Relaxed);
                }
                admitted
            }
            None => true,
        }
    }

    /// One user action with per-layer `attempts` (top first); true on success within
    /// `deadline`. Cutting it off hangs up on the front end, which cancels the chain below.
    pub async fn action(&self, attempts: &[u32], deadline: Option<Duration>) -> bool {
        self.counters.actions_started.fetch_add(1, Ordering::Relaxed);
        let mine = attempts.first().copied().unwrap_or(1);
        let below = attempts_value(attempts.get(1..).unwrap_or(&[]));
        let db_attempts = AtomicU64::new(0);
        let run = retry_loop(
            mine,
            |i| self.admit(i),
            &self.backoff,
            || async { call_below(&self.client, &self.entry, &below, None, &db_attempts).await == CallOutcome::Ok },
        );
        let finished = |ok: bool| {
            let attempts = db_attempts.load(Ordering::Relaxed);
            self.counters
                .db_attempts_of_finished
                .fetch_add(attempts, Ordering::Relaxed);
            ok
        };
        let ok = match deadline {
            Some(limit) => match tokio::time::timeout(limit, run).await {
                Ok(ok) => finished(ok),
                Err(_) => {
                    self.counters.actions_expired.fetch_add(1, Ordering::Relaxed);
                    false
                }
            },
            None => finished(run.await),
        };
        if ok {
            self.counters.actions_ok.fetch_add(1, Ordering::Relaxed);
        }
        self.counters.actions_done.fetch_add(1, Ordering::Relaxed);
        ok
    }
}
