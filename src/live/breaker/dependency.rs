//! Lab 3's dependency: a hyper server on 127.0.0.1 that falls sick on the engine's schedule.
//!
//! Healthy, it answers 200 after `healthy_ms`. When [`FaultSchedule::fault_at`] says so it
//! hangs (holds the request until the caller gives up or the server stops), answers slowly,
//! answers 500 at once, or closes its listener so that connections are refused, and reopens
//! on the same port when the fault ends. The schedule arrives through a `watch` channel, so
//! a manual "brown out now" takes effect on the next request.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, bail};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::engine::fault::{FaultKind, FaultSchedule};
use crate::live::http::{ConnLimits, TextBody, bind_loopback, drain, serve_until, text};

/// The dependency takes a half-close for a hang-up: its `hang` fault holds a request until
/// the caller gives up, and Lab 3 counts what is held; a server that answered half-closed
/// clients could not see the caller go.
pub const ANSWERS_HALF_CLOSED: bool = false;

/// How often the accept loop looks at the schedule again for the `refuse` fault.
const FAULT_POLL: Duration = Duration::from_millis(5);
/// How long the server waits for open connections to finish when it closes.
const DRAIN_DEADLINE: Duration = Duration::from_secs(2);
/// Attempts to rebind the port after a `refuse` fault (10 ms apart).
const REBIND_ATTEMPTS: u32 = 200;

/// What the request handlers share; its strong count tells how many connections live.
#[derive(Debug)]
pub struct DependencyState {
    /// Time zero of the fault schedule.
    clock_start: Instant,
    healthy: Duration,
    faults: watch::Receiver<FaultSchedule>,
    /// Flips to true once, when the server is told to stop: releases held requests.
    stop: watch::Receiver<bool>,
    /// Requests received, for tests and the TUI.
    pub requests: AtomicU64,
    /// Requests the `errors` fault has seen, numbering them for `errors_request`.
    error_candidates: AtomicU64,
    /// Requests being held by the `hang` fault right now.
    pub held: AtomicU64,
}

impl DependencyState {
    fn elapsed_s(&self) -> f64 {
        self.clock_start.elapsed().as_secs_f64()
    }

    fn fault_now(&self) -> Option<FaultKind> {
        self.faults.borrow().fault_at(self.elapsed_s())
    }

    /// Told to stop, or the [`DependencyServer`] was dropped without `shutdown`: stop either way.
    fn stopping(&self) -> bool {
        *self.stop.borrow() || self.stop.has_changed().is_err()
    }

    async fn answer(self: Arc<Self>) -> Response<TextBody> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let schedule = self.faults.borrow().clone();
        match schedule.fault_at(self.elapsed_s()) {
            None => {
                tokio::time::sleep(self.healthy).await;
                text(StatusCode::OK, "recommendations\n")
            }
            Some(FaultKind::Slow) => {
                tokio::time::sleep(self.healthy + Duration::from_secs_f64(schedule.slow_extra_ms.max(0.0) / 1000.0))
                    .await;
                text(StatusCode::OK, "recommendations, late\n")
            }
            Some(FaultKind::Errors) => {
                let index = self.error_candidates.fetch_add(1, Ordering::Relaxed);
                if schedule.errors_request(index) {
                    text(StatusCode::INTERNAL_SERVER_ERROR, "error\n")
                } else {
                    tokio::time::sleep(self.healthy).await;
                    text(StatusCode::OK, "recommendations\n")
                }
            }
            Some(FaultKind::Hang) => {
                self.held.fetch_add(1, Ordering::Relaxed);
                // Decrements `held` however this ends, including when hyper drops the future.
                let _guard = HeldGuard(&self.held);
                // Held even past the end of the window, as in the simulation, where a call
                // sent while sick waits the full timeout. hyper drops this future when the
                // caller's timeout closes the connection, so only waiting callers are held;
                // the stop signal releases the rest.
                let mut stop = self.stop.clone();
                let _ = stop.wait_for(|stopped| *stopped).await;
                text(StatusCode::SERVICE_UNAVAILABLE, "held, then released\n")
            }
            // A request on a connection opened just before the listener closed.
            Some(FaultKind::Refuse) => text(StatusCode::SERVICE_UNAVAILABLE, "closing\n"),
        }
    }
}

/// Decrements the held-requests counter however the held request ends.
struct HeldGuard<'a>(&'a AtomicU64);

impl Drop for HeldGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A running dependency server.
pub struct DependencyServer {
    pub addr: SocketAddr,
    pub state: Arc<DependencyState>,
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<()>>,
}

impl DependencyServer {
    /// Binds 127.0.0.1 on an ephemeral port and serves until [`DependencyServer::shutdown`].
    /// `clock_start` is time zero of `faults`; `healthy` is the latency of a healthy answer.
    pub async fn start(
        clock_start: Instant,
        healthy: Duration,
        faults: watch::Receiver<FaultSchedule>,
    ) -> Result<DependencyServer> {
        let listener = bind_loopback(0)
            .await
            .wrap_err("breaker lab: binding the dependency on 127.0.0.1")?;
        let addr = listener
            .local_addr()
            .wrap_err("breaker lab: reading the dependency's port")?;
        let (stop_tx, stop_rx) = watch::channel(false);
        let state = Arc::new(DependencyState {
            clock_start,
            healthy,
            faults,
            stop: stop_rx,
            requests: AtomicU64::new(0),
            error_candidates: AtomicU64::new(0),
            held: AtomicU64::new(0),
        });
        let task = tokio::spawn(serve_with_faults(listener, addr, Arc::clone(&state)));
        Ok(DependencyServer {
            addr,
            state,
            stop: stop_tx,
            task,
        })
    }

    /// Closes the listener, releases held requests, drains connections; the accept loop ends.
    pub async fn shutdown(self) -> Result<()> {
        let _ = self.stop.send(true);
        self.task
            .await
            .wrap_err("breaker lab: the dependency's server task failed")?
    }
}

/// The accept loop: serve while the fault is not `refuse`, close the listener while it is.
async fn serve_with_faults(first: TcpListener, addr: SocketAddr, state: Arc<DependencyState>) -> Result<()> {
    let mut listener = Some(first);
    // Bounded in time by the stop signal; every pass either serves or waits out a refusal.
    while !state.stopping() {
        let current = match listener.take() {
            Some(current) => current,
            None => rebind(addr).await?,
        };
        let service_state = Arc::clone(&state);
        let service = hyper::service::service_fn(move |_request: Request<Incoming>| {
            let state = Arc::clone(&service_state);
            async move { Ok::<_, Infallible>(state.answer().await) }
        });
        let watch_state = Arc::clone(&state);
        let limits = ConnLimits::for_this_process(ANSWERS_HALF_CLOSED);
        let graceful = serve_until(
            current,
            service,
            async move {
                while !watch_state.stopping() && watch_state.fault_now() != Some(FaultKind::Refuse) {
                    tokio::time::sleep(FAULT_POLL).await;
                }
            },
            limits,
        )
        .await;
        // Listener dropped: new connections are refused. Keep-alive connections close too,
        // or a pooled caller would never see the refusal.
        drain(graceful, DRAIN_DEADLINE).await;
        while !state.stopping() && state.fault_now() == Some(FaultKind::Refuse) {
            tokio::time::sleep(FAULT_POLL).await;
        }
    }
    Ok(())
}

/// Binds the same port again after a refusal (SO_REUSEADDR: TIME_WAIT sockets do not block it).
async fn rebind(addr: SocketAddr) -> Result<TcpListener> {
    for _ in 0..REBIND_ATTEMPTS {
        let socket = TcpSocket::new_v4().wrap_err("breaker lab: creating the dependency's socket")?;
        socket
            .set_reuseaddr(true)
            .wrap_err("breaker lab: setting SO_REUSEADDR on the dependency's socket")?;
        if socket.bind(addr).is_ok()
            && let Ok(listener) = socket.listen(1024)
        {
            return Ok(listener);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    bail!("breaker lab: could not bind {addr} again after the refuse fault")
}
