//! Lab 4's live server: worker slots as timers, the engine's [`ServerCore`] deciding.
//!
//! A request's handler offers it to the core. Started or later taken from the queue, the
//! request is served by a worker task that holds its slot for the service time whether or
//! not the caller is still there (the server cannot know: that is the wasted work), then
//! hands the slot to the next queued request. Refused requests get a 503 with a
//! Retry-After at once. The caller's timeout travels in a header only so that the server
//! can count the work it did too late; no rule looks at it.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, RETRY_AFTER};
use hyper::{Request, Response, StatusCode};
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::engine::overload::{Admission, Entry, RequestClass, RequestCriticality, ServerCore, ServerPolicy};
use crate::live::http::{ConnLimits, TextBody, bind_loopback, drain, serve_until, text};

/// The service takes a half-close for a hang-up: Lab 4 counts the work a worker does for
/// a client that has already timed out (goodput against throughput), which needs the
/// handler dropped when its client goes (b255998: both live comparisons failed while it
/// answered half-closed clients).
pub const ANSWERS_HALF_CLOSED: bool = false;

/// The header carrying the caller's timeout in milliseconds.
pub const TIMEOUT_HEADER: &str = "x-client-timeout-ms";
/// The header carrying the request's criticality (CRITICAL_PLUS ... SHEDDABLE).
pub const CRITICALITY_HEADER: &str = "x-criticality";
/// How long the server waits for open connections when it stops.
const DRAIN_DEADLINE: Duration = Duration::from_secs(2);

/// What the server counted since the last [`LiveServer::take_counts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerCounts {
    pub served: u64,
    /// Served after the caller's timeout had passed.
    pub wasted: u64,
    pub refused: u64,
}

/// How a queued request's handler learns its fate.
#[derive(Debug)]
enum QueueVerdict {
    Served,
    Shed,
}

/// What the core holds per request.
#[derive(Debug)]
struct Waiter {
    tx: oneshot::Sender<QueueVerdict>,
    arrived: Instant,
    timeout: Duration,
}

struct ServerShared {
    core: Mutex<ServerCore<Waiter>>,
    counts: Mutex<ServerCounts>,
    service: Duration,
    start: Instant,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicked worker cannot leave the counts half-written; keep serving.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl ServerShared {
    fn now_s(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> Response<TextBody> {
        let header = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok());
        let timeout_ms = header(TIMEOUT_HEADER)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(u64::MAX / 4);
        let criticality = header(CRITICALITY_HEADER)
            .and_then(|name| RequestCriticality::ALL.into_iter().find(|c| c.name() == name))
            .unwrap_or(RequestCriticality::Critical);
        let (tx, rx) = oneshot::channel();
        let entry = Entry {
            arrived_s: self.now_s(),
            class: RequestClass {
                criticality,
                ..RequestClass::PLAIN
            },
            payload: Waiter {
                tx,
                arrived: Instant::now(),
                timeout: Duration::from_millis(timeout_ms),
            },
        };
        let admission = lock(&self.core).arrive(entry);
        match admission {
            Admission::Start(entry) => {
                tokio::spawn(Arc::clone(&self).work(entry));
            }
            Admission::Queued => {}
            Admission::Refused { retry_after_s, .. } => {
                lock(&self.counts).refused += 1;
                return shed(retry_after_s);
            }
        }
        match rx.await {
            Ok(QueueVerdict::Served) => text(StatusCode::OK, "ok\n"),
            Ok(QueueVerdict::Shed) | Err(_) => shed(1.0),
        }
    }

    /// One worker slot: serves `entry`, then whatever the core hands it next.
    ///
    /// Back-to-back requests end on a fixed grid (the previous end + the service time):
    /// a timer that wakes a millisecond late does not make every later request late too,
    /// so the pool keeps its rate of workers / service time.
    async fn work(self: Arc<Self>, mut entry: Entry<Waiter>) {
        let mut expired = Vec::new();
        let mut done_at = Instant::now() + self.service;
        loop {
            tokio::time::sleep_until(done_at).await;
            done_at += self.service;
            {
                let mut counts = lock(&self.counts);
                counts.served += 1;
                if entry.payload.arrived.elapsed() > entry.payload.timeout {
                    counts.wasted += 1;
                }
            }
            let class = entry.class;
            let _ = entry.payload.tx.send(QueueVerdict::Served);
            let next = lock(&self.core).finish(class, self.now_s(), &mut expired);
            if !expired.is_empty() {
                lock(&self.counts).refused += expired.len() as u64;
                for dropped in expired.drain(..) {
                    let _ = dropped.payload.tx.send(QueueVerdict::Shed);
                }
            }
            match next {
                Some(taken) => entry = taken,
                None => break,
            }
        }
    }
}

/// A 503 with the core's Retry-After in whole seconds.
fn shed(retry_after_s: f64) -> Response<TextBody> {
    let mut response = text(StatusCode::SERVICE_UNAVAILABLE, "overloaded\n");
    let seconds = format!("{}", retry_after_s.ceil().max(1.0) as u64);
    if let Ok(value) = HeaderValue::from_str(&seconds) {
        response.headers_mut().insert(RETRY_AFTER, value);
    }
    response
}

/// The running server: its address, its counters and its stop switch.
pub struct LiveServer {
    pub addr: SocketAddr,
    shared: Arc<ServerShared>,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl LiveServer {
    /// Binds 127.0.0.1 on a free port and serves with `workers` slots of `service`.
    pub async fn start(workers: u32, service: Duration, policy: ServerPolicy) -> Result<LiveServer> {
        let listener = bind_loopback(0).await.wrap_err("binding Lab 4's server on 127.0.0.1")?;
        let addr = listener.local_addr().wrap_err("reading Lab 4's server address")?;
        let shared = Arc::new(ServerShared {
            core: Mutex::new(ServerCore::new(workers, service.as_secs_f64(), policy)),
            counts: Mutex::new(ServerCounts::default()),
            service,
            start: Instant::now(),
        });
        let (stop, mut stop_rx) = watch::channel(false);
        let for_service = Arc::clone(&shared);
        let service_fn = hyper::service::service_fn(move |request: Request<Incoming>| {
            let shared = Arc::clone(&for_service);
            async move { Ok::<_, Infallible>(shared.handle(request).await) }
        });
        let task = tokio::spawn(async move {
            let graceful = serve_until(
                listener,
                service_fn,
                async move {
                    let _ = stop_rx.wait_for(|stopped| *stopped).await;
                },
                ConnLimits::for_this_process(ANSWERS_HALF_CLOSED),
            )
            .await;
            let _ = drain(graceful, DRAIN_DEADLINE).await;
        });
        Ok(LiveServer {
            addr,
            shared,
            stop,
            task,
        })
    }

    /// Changes the shedding rules from the next arrival on.
    pub fn set_policy(&self, policy: ServerPolicy) {
        lock(&self.shared.core).set_policy(policy);
    }

    /// Queue length, the wait a new arrival would have, busy slots.
    pub fn queue(&self) -> (u64, f64, u32) {
        let core = lock(&self.shared.core);
        (core.queue_len() as u64, core.expected_wait_s(), core.busy())
    }

    /// The counts since the last call, reset to zero.
    pub fn take_counts(&self) -> ServerCounts {
        std::mem::take(&mut *lock(&self.shared.counts))
    }

    /// Stops listening, answers whatever still waits with a 503 and drains connections.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for waiting in lock(&self.shared.core).drain() {
            let _ = waiting.payload.tx.send(QueueVerdict::Shed);
        }
        let _ = self.task.await;
    }
}
