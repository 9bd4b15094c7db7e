//! Lab 1's live server: `resilience-lab serve health`, a drop-in for the Atlas's `health_server.py`.
//!
//! Every answer about health comes from the engine's [`HealthModel`], fed the seconds
//! elapsed since start from `tokio::time::Instant`; this module only adds sockets, the
//! slow `/work` endpoint, the exercises' database switch and the ordered shutdown:
//! SIGTERM fails readiness at once, requests are still served for `deregister_s`, then
//! the listener closes and in-flight work drains until `grace_s` after the SIGTERM.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use tokio::net::TcpListener;
use tokio::signal::unix::{SignalKind, signal};
use tokio::time::Instant;

use crate::engine::health::{HealthConfig, HealthModel, Reply, abandon_line};
use crate::live::database_client::{self, DatabaseClient};
use crate::live::health::lifecycle_out::LifecycleOut;
use crate::live::health::log_queue::{self, LogQueue};
use crate::live::http::ConnLimits;
use crate::live::http::conn_guard;
use crate::live::http::{self, TextBody};

/// `serve health` answers a client that half-closes after its request (`nc -N`), as the
/// Atlas's Python server does: Lab 1 counts in-flight requests at shutdown, not work done
/// for a caller that gave up, and a learner's shell tools must get their answer.
pub const ANSWERS_HALF_CLOSED: bool = true;

/// Where the server writes one line per request (`GET /livez`), as the Python server's
/// `log_message` does on stderr: a queue that never blocks a handler.
pub type RequestLog = LogQueue;

/// The admin paths that flip the pretend shared database (POST only).
pub const DATABASE_DOWN_PATH: &str = "/admin/database/down";
pub const DATABASE_UP_PATH: &str = "/admin/database/up";

/// What every connection task shares.
struct HealthShared {
    /// The one health state machine; a mutex because SIGTERM and requests both touch it.
    model: Mutex<HealthModel>,
    /// Time zero of the model: the model speaks in seconds since start.
    started: Instant,
    /// `/work` requests running now: what the grace period would abandon.
    in_flight: AtomicU32,
    log: RequestLog,
    /// The fleet lab's real database, when `--database-port` names one.
    database: Option<DatabaseClient>,
}

impl HealthShared {
    fn now_s(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// The model, even if a request task panicked while holding it (the state is plain data).
    fn model(&self) -> std::sync::MutexGuard<'_, HealthModel> {
        self.model.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Decrements the in-flight count however the request ends, including a client hang-up
/// that drops the handler mid-sleep.
struct InFlight<'a>(&'a AtomicU32);

impl<'a> InFlight<'a> {
    fn enter(count: &'a AtomicU32) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Self(count)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn reply(code: u16, body: &str) -> Response<TextBody> {
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    http::text(status, format!("{body}\n"))
}

fn model_reply(answer: Reply) -> Response<TextBody> {
    reply(answer.code, answer.body)
}

async fn handle(shared: Arc<HealthShared>, request: Request<Incoming>) -> Response<TextBody> {
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str()).to_string();
    shared.log.push(format!("{} {}", request.method(), target));
    // A POST from a foreign Host or Origin never gets here: every server's accept loop
    // refuses it (`live::http::loopback_guard`).
    let path = request.uri().path();
    match (request.method(), path) {
        (&Method::POST, DATABASE_DOWN_PATH) => {
            shared.model().set_database_up(false);
            reply(200, "database down")
        }
        (&Method::POST, DATABASE_UP_PATH) => {
            shared.model().set_database_up(true);
            reply(200, "database up")
        }
        (_, DATABASE_DOWN_PATH | DATABASE_UP_PATH) => reply(405, "method not allowed"),
        (&Method::GET | &Method::HEAD, "/work") => {
            let work_s = shared.model().config.work_s;
            let _in_flight = InFlight::enter(&shared.in_flight);
            tokio::time::sleep(Duration::from_secs_f64(work_s)).await;
            reply(200, "done")
        }
        (&Method::GET, database_client::API_PATH) if shared.database.is_some() => {
            let _in_flight = InFlight::enter(&shared.in_flight);
            match &shared.database {
                Some(database) => database.api().await,
                None => reply(404, "not found"),
            }
        }
        (&Method::GET | &Method::HEAD, _) => {
            let asks = database_client::checks_database(&shared.model().config, path);
            if let (true, Some(database)) = (asks, &shared.database) {
                let up = database.up().await;
                shared.model().set_database_up(up);
            }
            let now_s = shared.now_s();
            model_reply(shared.model().respond(path, now_s))
        }
        _ => reply(405, "method not allowed"),
    }
}

/// How the server ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeOutcome {
    /// 0 when every in-flight request finished, 1 when the grace period cut them off.
    pub exit_code: i32,
    /// `/work` requests still running when the grace period ran out.
    pub abandoned: u32,
}

/// How long past the exit deadline the last lines may take to be written: they are said at
/// the deadline itself when the grace period ran out; a stdout that takes longer loses them.
const LAST_LINES_WAIT: Duration = Duration::from_millis(100);

/// Hands one lifecycle line to its writer thread: a blocked stdout must not hold the drain.
fn say(out: &mut LifecycleOut, line: &str) {
    out.say(line);
}

/// Binds 127.0.0.1:`port` for the server; a port in use is the caller's mistake to fix with `--port`.
pub async fn bind(port: u16) -> std::io::Result<TcpListener> {
    http::bind_loopback(port).await
}

/// Serves `listener` until SIGTERM and the ordered shutdown after it, writing the
/// server's lines (`listening on ...`, `stopped listening`, `drained, exiting` or the
/// abandon line) to `out`, which never waits on its reader. Returns the exit code the
/// process should end with, by the exit deadline whatever stdout does.
pub async fn serve(
    config: HealthConfig,
    listener: TcpListener,
    out: &mut LifecycleOut,
    log: RequestLog,
) -> Result<ServeOutcome> {
    serve_with_database(config, listener, out, log, None).await
}

/// [`serve`], with the health handlers and `GET /api` asking a real database.
pub async fn serve_with_database(
    config: HealthConfig,
    listener: TcpListener,
    out: &mut LifecycleOut,
    log: RequestLog,
    database: Option<DatabaseClient>,
) -> Result<ServeOutcome> {
    // Installed before "listening" goes out: a driver may send SIGTERM as soon as it reads it.
    let mut sigterm = signal(SignalKind::terminate()).wrap_err("installing the SIGTERM handler")?;
    let port = listener.local_addr().wrap_err("reading the bound address")?.port();
    let shared = Arc::new(HealthShared {
        model: Mutex::new(HealthModel::new(config)),
        started: Instant::now(),
        in_flight: AtomicU32::new(0),
        log,
        database,
    });

    let service = {
        let shared = Arc::clone(&shared);
        hyper::service::service_fn(move |request| {
            let shared = Arc::clone(&shared);
            async move { Ok::<_, Infallible>(handle(shared, request).await) }
        })
    };

    // The stop signal for the accept loop: SIGTERM, then the deregistration delay. The
    // exit deadline is computed from the same SIGTERM instant, by the model.
    let (deadline_tx, deadline_rx) = tokio::sync::oneshot::channel::<Instant>();
    let stop = {
        let shared = Arc::clone(&shared);
        async move {
            // A failed signal stream yields None: then only a kill ends the server.
            if sigterm.recv().await.is_none() {
                std::future::pending::<()>().await;
            }
            let (stop_s, exit_s) = {
                let mut model = shared.model();
                model.begin_drain(shared.now_s());
                (
                    model.stop_listening_at_s().unwrap_or_default(),
                    model.exit_deadline_s().unwrap_or_default(),
                )
            };
            let at = |seconds: f64| shared.started + Duration::from_secs_f64(seconds.max(0.0));
            let _ = deadline_tx.send(at(exit_s));
            // Never past the exit deadline, even when grace_s < deregister_s.
            tokio::time::sleep_until(at(stop_s.min(exit_s))).await;
        }
    };

    say(out, &format!("listening on 127.0.0.1:{port}"));
    let connections = http::serve_until(
        listener,
        service,
        stop,
        ConnLimits::for_this_process(ANSWERS_HALF_CLOSED),
    )
    .await;
    say(out, "stopped listening");

    let exit_deadline = deadline_rx.await.unwrap_or_else(|_| Instant::now());
    let drained = connections
        .drain(exit_deadline.saturating_duration_since(Instant::now()))
        .await;
    let abandoned = shared.in_flight.load(Ordering::SeqCst);
    // Only when something was lost, so that a clean run prints the Atlas's lines alone.
    let cut = connections.cut_mid_request();
    if cut > 0 {
        say(out, &conn_guard::cut_line(cut));
    }
    let dropped = shared.log.dropped();
    if dropped > 0 {
        say(out, &log_queue::dropped_line(dropped));
    }
    let outcome = if drained || abandoned == 0 {
        say(out, "drained, exiting");
        ServeOutcome {
            exit_code: 0,
            abandoned: 0,
        }
    } else {
        say(out, &abandon_line(abandoned));
        ServeOutcome {
            exit_code: 1,
            abandoned,
        }
    };
    // The lines get what is left of the grace period (and a moment for the last one), no more.
    out.written_by(exit_deadline.max(Instant::now()) + LAST_LINES_WAIT)
        .await;
    Ok(outcome)
}
