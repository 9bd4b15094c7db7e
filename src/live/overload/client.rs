//! Lab 4's live client: an open-loop load at the offered rate, each request under the
//! caller's timeout, optionally behind the engine's adaptive throttle.
//!
//! Requests are sent on an even schedule (request i at i / rate from the start, as in the
//! simulation); a late wake-up sends what is due at once rather than skipping it. What a
//! caller sees is counted here: an answer in time is goodput, a 503 is refused, no answer
//! within the timeout is a timeout (the request is dropped and its connection closed).

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::{Request, StatusCode, Uri};
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;

use crate::engine::overload::params::ClassPicker;
use crate::engine::overload::{AdaptiveThrottle, CriticalityMix};
use crate::engine::pyrandom::PyRandom;
use crate::live::http::{PooledClient, pooled_client};
use crate::live::overload::server::{CRITICALITY_HEADER, TIMEOUT_HEADER};

/// Most requests in flight at once; beyond it a request is counted as not sent (bounded
/// memory). Each one holds a connection whose client and server ends both live in this
/// process (about 50 KB with the server's queue entry, `benches/memory.sh`). The live
/// curve's heaviest point, 3 x 400/s at the 400 ms timeout, keeps about 480 out; 768 keeps
/// the worst run the flags allow (5,000/s, 600 s timeouts, one slow worker) near 45 MB,
/// where 20,000 took the run past the file limit and 500 MB.
const MAX_IN_FLIGHT: usize = 768;
/// The longest the load sleeps between looks at its settings and its stop switch.
const MAX_NAP: Duration = Duration::from_millis(50);

/// What the client sends; retune it with [`LiveClient::set`] (latest wins).
#[derive(Clone, Debug, PartialEq)]
pub struct ClientSettings {
    pub offered_per_s: f64,
    pub timeout: Duration,
    /// The throttle's K; `None` sends everything.
    pub throttle_k: Option<f64>,
    pub throttle_window_s: f64,
    pub mix: CriticalityMix,
    pub seed: u64,
}

/// What the callers saw since the last [`LiveClient::take_counts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientCounts {
    pub offered: u64,
    pub goodput: u64,
    pub refused: u64,
    pub timed_out: u64,
    pub throttled: u64,
    /// Connection errors and requests not sent because too many were in flight.
    pub failed: u64,
}

struct ClientShared {
    counts: Mutex<ClientCounts>,
    throttle: Mutex<Option<(AdaptiveThrottle, PyRandom)>>,
    start: Instant,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The running load.
pub struct LiveClient {
    shared: Arc<ClientShared>,
    settings: watch::Sender<ClientSettings>,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl LiveClient {
    /// Starts sending to `uri` on 127.0.0.1 at once.
    pub fn start(uri: Uri, settings: ClientSettings) -> LiveClient {
        let shared = Arc::new(ClientShared {
            counts: Mutex::new(ClientCounts::default()),
            throttle: Mutex::new(throttle_of(&settings)),
            start: Instant::now(),
        });
        let (settings_tx, settings_rx) = watch::channel(settings);
        let (stop, stop_rx) = watch::channel(false);
        let task = tokio::spawn(load(Arc::clone(&shared), uri, settings_rx, stop_rx));
        LiveClient {
            shared,
            settings: settings_tx,
            stop,
            task,
        }
    }

    /// New settings from the next request on; a new K keeps the throttle's counts.
    pub fn set(&self, settings: ClientSettings) {
        {
            let mut throttle = lock(&self.shared.throttle);
            match (throttle.as_mut(), settings.throttle_k) {
                (Some((t, _)), Some(k)) => t.set_k(k),
                (_, None) => *throttle = None,
                (None, Some(_)) => *throttle = throttle_of(&settings),
            }
        }
        let _ = self.settings.send(settings);
    }

    /// The counts since the last call, reset to zero.
    pub fn take_counts(&self) -> ClientCounts {
        std::mem::take(&mut *lock(&self.shared.counts))
    }

    /// The throttle's rejection probability now, if it is on.
    pub fn throttle_probability(&self) -> Option<f64> {
        let now_s = self.shared.start.elapsed().as_secs_f64();
        lock(&self.shared.throttle).as_mut().map(|(t, _)| t.probability(now_s))
    }

    /// Stops sending and waits for the requests in flight (each ends by its timeout).
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

fn throttle_of(settings: &ClientSettings) -> Option<(AdaptiveThrottle, PyRandom)> {
    settings.throttle_k.map(|k| {
        (
            AdaptiveThrottle::new(k, settings.throttle_window_s),
            PyRandom::new(u128::from(settings.seed)),
        )
    })
}

async fn load(
    shared: Arc<ClientShared>,
    uri: Uri,
    mut settings_rx: watch::Receiver<ClientSettings>,
    mut stop_rx: watch::Receiver<bool>,
) {
    let client = pooled_client();
    let mut current = settings_rx.borrow_and_update().clone();
    let mut picker = ClassPicker::new(current.mix);
    let mut in_flight = JoinSet::new();
    // Requests are due at base + i / rate; a retune starts a new base at that moment.
    let mut base = Instant::now();
    let mut sent_since_base: u64 = 0;
    loop {
        if *stop_rx.borrow() {
            break;
        }
        if settings_rx.has_changed().unwrap_or(false) {
            current = settings_rx.borrow_and_update().clone();
            picker = ClassPicker::new(current.mix);
            base = Instant::now();
            sent_since_base = 0;
        }
        let gap_s = 1.0 / current.offered_per_s.max(1e-3);
        let due = base + Duration::from_secs_f64(sent_since_base as f64 * gap_s);
        let now = Instant::now();
        if due > now {
            let nap = (due - now).min(MAX_NAP);
            tokio::select! {
                () = tokio::time::sleep(nap) => {}
                _ = stop_rx.changed() => {}
            }
            continue;
        }
        sent_since_base += 1;
        while in_flight.try_join_next().is_some() {}
        let now_s = shared.start.elapsed().as_secs_f64();
        lock(&shared.counts).offered += 1;
        let throttled = lock(&shared.throttle)
            .as_mut()
            .is_some_and(|(throttle, rng)| throttle.try_request(now_s, rng.random()));
        if throttled {
            lock(&shared.counts).throttled += 1;
            continue;
        }
        if in_flight.len() >= MAX_IN_FLIGHT {
            lock(&shared.counts).failed += 1;
            continue;
        }
        let criticality = picker.next();
        let request = Request::builder()
            .uri(uri.clone())
            .header(TIMEOUT_HEADER, current.timeout.as_millis().to_string())
            .header(CRITICALITY_HEADER, criticality.name())
            .body(Empty::<Bytes>::new());
        let Ok(request) = request else {
            lock(&shared.counts).failed += 1;
            continue;
        };
        in_flight.spawn(call(Arc::clone(&shared), client.clone(), request, current.timeout));
    }
    let deadline = Instant::now() + current.timeout + Duration::from_secs(1);
    while let Ok(Some(_)) = tokio::time::timeout_at(deadline, in_flight.join_next()).await {}
    in_flight.shutdown().await;
}

/// One caller: the request under its timeout, counted by what it saw.
async fn call(shared: Arc<ClientShared>, client: PooledClient, request: Request<Empty<Bytes>>, timeout: Duration) {
    let exchange = async {
        let response = client.request(request).await.ok()?;
        let status = response.status();
        response.into_body().collect().await.ok()?;
        Some(status)
    };
    let seen = tokio::time::timeout(timeout, exchange).await;
    let now_s = shared.start.elapsed().as_secs_f64();
    let mut counts = lock(&shared.counts);
    match seen {
        Ok(Some(StatusCode::OK)) => {
            counts.goodput += 1;
            drop(counts);
            if let Some((throttle, _)) = lock(&shared.throttle).as_mut() {
                throttle.accepted(now_s);
            }
        }
        Ok(Some(_)) => counts.refused += 1,
        Ok(None) => counts.failed += 1,
        Err(_elapsed) => counts.timed_out += 1,
    }
}
