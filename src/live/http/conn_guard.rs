//! Connection limits for every lab server: no client can starve a probe or hold shutdown.
//!
//! Lab 1's own rule is that health checks come first, so no server of the labs may let
//! some clients use up what a probe or the fleet's checks need (these were written for
//! `serve health`; [`crate::live::http::serve_until`] gives them to every server):
//!
//! - **Header and idle timeouts.** A client must send a whole request head within
//!   [`HEADER_READ_TIMEOUT`] of connecting or of its previous answer, or it is closed: one
//!   clock for silent, slowloris and idle keep-alive connections ([`idle_past`]).
//! - **A connection cap below the file limit** ([`ConnLimits::for_this_process`]). At the
//!   cap, the oldest connection with no request in its handler is closed to make room for
//!   the new one (a probe opens a fresh connection); only when every connection is
//!   answering a request does the next one wait in the listen backlog.
//! - **Shutdown closes what is idle.** [`Connections::drain`] closes idle keep-alive
//!   connections at once and gives a connection that is still sending its request head
//!   [`CLOSE_WAIT`] before cutting it, counted in [`Connections::cut_mid_request`]; only
//!   requests already in a handler are waited for.
//! - **Half-close is each server's choice** ([`ConnLimits::answer_half_closed`]): a server
//!   that answers a client that shut its sending side after the request (`nc -N`, as
//!   Python's `http.server` does) cannot tell that client from one that hung up, so its
//!   handler runs on after a caller has gone. Servers whose lab counts the work done for a
//!   caller that gave up (Lab 2's hops, Lab 3's dependency, Lab 4's service, Lab 5's
//!   chain) treat a half-close as a hang-up; each server writes its choice and the reason
//!   where it calls [`crate::live::http::serve_until`] (commit b255998 reverted the version that
//!   answered everywhere).
//! - **State-changing methods only from where the server is meant to be reached**
//!   ([`WriteGuard`]; [`loopback_guard`] for all but the room), checked here before the
//!   server's handler sees the request.
//!
//! The accept loop itself is [`crate::live::http::serve_until`]; [`Connections`] is what it keeps: it
//! makes room at the cap, serves each connection and drains them at the end.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::sync::{Notify, watch};

use crate::live::http::body::{TextBody, text};
use crate::live::http::loopback_guard;

/// Time a client has to send a whole request head, from connecting or from its last answer.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// The most connections the server keeps open, whatever the file limit allows.
pub const MAX_CONNECTIONS: usize = 1_024;
/// File descriptors kept free below the limit: the runtime, the listener, stdio, the log.
const FD_RESERVE: u64 = 64;
/// At shutdown, how long a connection with no request in a handler may take to close itself.
pub const CLOSE_WAIT: Duration = Duration::from_millis(100);
/// How often a full server looks again for a connection it may close.
const FULL_RECHECK: Duration = Duration::from_millis(20);

/// A server's own rule for who may send a state-changing request: `Err(reason)` refuses it.
pub type OwnWriteRule = Arc<dyn Fn(&HeaderMap) -> Result<(), &'static str> + Send + Sync>;

/// Who may send a request whose method may change state (RFC 9110 section 9.2.1: anything
/// but GET, HEAD, OPTIONS and TRACE); the accept loop answers 403 to anyone else.
#[derive(Clone)]
pub enum WriteGuard {
    /// Host, and Origin if sent, name this machine ([`loopback_guard::check_admin`]).
    Loopback,
    /// The server's own rule: the room, which a `--lan` host serves to other machines,
    /// names the origins of its own page.
    Own(OwnWriteRule),
}

impl std::fmt::Debug for WriteGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WriteGuard::Loopback => "Loopback",
            WriteGuard::Own(_) => "Own",
        })
    }
}

impl WriteGuard {
    fn check(&self, headers: &HeaderMap) -> Result<(), &'static str> {
        match self {
            WriteGuard::Loopback => loopback_guard::check_admin(headers),
            WriteGuard::Own(rule) => rule(headers),
        }
    }
}

/// How connections are limited.
#[derive(Clone, Debug)]
pub struct ConnLimits {
    pub header_read_timeout: Duration,
    pub max_connections: usize,
    /// Answer a client that shuts its sending side after the request (`nc -N`). The price:
    /// a client that hangs up entirely looks the same until the answer is written, so its
    /// request stays in the handler until then. Each server chooses (module comment).
    pub answer_half_closed: bool,
    pub writes: WriteGuard,
}

impl ConnLimits {
    /// [`MAX_CONNECTIONS`], or fewer when the process's open-file limit is lower, with
    /// the server's choice for half-closed clients and the loopback write guard.
    pub fn for_this_process(answer_half_closed: bool) -> Self {
        Self {
            header_read_timeout: HEADER_READ_TIMEOUT,
            max_connections: cap_below(open_file_limit()),
            answer_half_closed,
            writes: WriteGuard::Loopback,
        }
    }

    /// The same limits with a server's own write rule in place of the loopback one.
    pub fn with_writes(self, writes: WriteGuard) -> Self {
        Self { writes, ..self }
    }
}

/// The connection cap for a soft open-file limit (None: unknown).
pub fn cap_below(file_limit: Option<u64>) -> usize {
    let room = file_limit.map_or(MAX_CONNECTIONS as u64, |limit| limit.saturating_sub(FD_RESERVE));
    usize::try_from(room)
        .unwrap_or(MAX_CONNECTIONS)
        .clamp(1, MAX_CONNECTIONS)
}

/// The line the server prints on exit when it cut connections that had not sent a whole request.
pub fn cut_line(cut: u64) -> String {
    format!("closed {cut} connection(s) that had not sent a whole request")
}

/// The soft `RLIMIT_NOFILE` of this process.
fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One open connection, as the accept loop sees it.
#[derive(Debug)]
struct OpenConnection {
    /// Requests in its handler right now (0 or 1 for HTTP/1.1).
    busy: Arc<AtomicU32>,
    /// Told to close to make room.
    evict: Arc<Notify>,
    evicting: bool,
}

#[derive(Debug, Default)]
struct Registry {
    next_id: u64,
    /// By id, i.e. in accept order: the first idle one is the oldest.
    open: BTreeMap<u64, OpenConnection>,
    evicting: usize,
}

/// Every connection the server has open; returned by [`crate::live::http::serve_until`] to drain them.
#[derive(Debug)]
pub struct Connections {
    registry: Mutex<Registry>,
    /// Wakes the accept loop and the drain when a connection closes.
    changed: Notify,
    draining: watch::Sender<bool>,
    max: usize,
    header_read_timeout: Duration,
    answer_half_closed: bool,
    writes: WriteGuard,
    cut_mid_request: AtomicU64,
    evicted: AtomicU64,
}

/// Removes its connection from the registry however the connection task ends.
struct Open(Arc<Connections>, u64);

impl Drop for Open {
    fn drop(&mut self) {
        let mut registry = lock(&self.0.registry);
        if registry.open.remove(&self.1).is_some_and(|entry| entry.evicting) {
            registry.evicting -= 1;
        }
        drop(registry);
        self.0.changed.notify_waiters();
    }
}

/// Counts a request in its handler, however the handler ends; the connection's idle time
/// starts again from its answer.
struct InHandler(Arc<AtomicU32>, Arc<Mutex<Instant>>);

impl Drop for InHandler {
    fn drop(&mut self) {
        *lock(&self.1) = Instant::now();
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Completes once the connection has had no request in its handler for `timeout` since it
/// opened or since its last answer: a client that sends no whole request head in that time
/// (silent, slowloris, an idle keep-alive) is closed.
///
/// Kept here rather than with hyper's own `header_read_timeout`: with a timer set on the
/// connection, Lab 3's slow answers (160 ms) arrived past its callers' 200 ms timeout
/// (`tests/live_breaker.rs`, `callers_classify_each_fault`: 32 of 50 timed out).
async fn idle_past(busy: &AtomicU32, idle_since: &Mutex<Instant>, timeout: Duration) {
    loop {
        let due = *lock(idle_since) + timeout;
        tokio::time::sleep_until(due.into()).await;
        if busy.load(Ordering::SeqCst) == 0 && lock(idle_since).elapsed() >= timeout {
            return;
        }
        if busy.load(Ordering::SeqCst) > 0 {
            // Answering: look again one timeout later (the answer resets the clock).
            tokio::time::sleep(timeout).await;
        }
    }
}

impl Connections {
    pub(crate) fn new(limits: ConnLimits) -> Self {
        Self {
            registry: Mutex::new(Registry::default()),
            changed: Notify::new(),
            draining: watch::Sender::new(false),
            max: limits.max_connections.max(1),
            header_read_timeout: limits.header_read_timeout,
            answer_half_closed: limits.answer_half_closed,
            writes: limits.writes,
            cut_mid_request: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
        }
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        lock(&self.registry).open.len()
    }

    /// Connections closed at shutdown while they were still sending a request head.
    pub fn cut_mid_request(&self) -> u64 {
        self.cut_mid_request.load(Ordering::Relaxed)
    }

    /// Idle connections closed to make room at the cap.
    pub fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
    }

    fn register(&self) -> (u64, Arc<AtomicU32>, Arc<Notify>) {
        let mut registry = lock(&self.registry);
        let id = registry.next_id;
        registry.next_id += 1;
        let (busy, evict) = (Arc::new(AtomicU32::new(0)), Arc::new(Notify::new()));
        registry.open.insert(
            id,
            OpenConnection {
                busy: Arc::clone(&busy),
                evict: Arc::clone(&evict),
                evicting: false,
            },
        );
        (id, busy, evict)
    }

    /// Returns once a new connection may be accepted, closing the oldest idle one at the cap.
    pub(crate) async fn room(&self) {
        loop {
            let notified = self.changed.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            {
                let mut registry = lock(&self.registry);
                if registry.open.len() < self.max {
                    return;
                }
                if registry.evicting == 0
                    && let Some(entry) = registry
                        .open
                        .values_mut()
                        .find(|entry| !entry.evicting && entry.busy.load(Ordering::SeqCst) == 0)
                {
                    entry.evicting = true;
                    entry.evict.notify_one();
                    registry.evicting += 1;
                    self.evicted.fetch_add(1, Ordering::Relaxed);
                }
            }
            // A handler finishing does not notify: look again shortly in case all were busy.
            let _ = tokio::time::timeout(FULL_RECHECK, notified).await;
        }
    }

    /// Tells every connection to close (idle ones at once, ones in a handler after their
    /// answer) and waits up to `deadline` for all of them; false if time ran out.
    pub async fn drain(&self, deadline: Duration) -> bool {
        self.draining.send_replace(true);
        let all_closed = async {
            loop {
                let notified = self.changed.notified();
                let mut notified = std::pin::pin!(notified);
                notified.as_mut().enable();
                if lock(&self.registry).open.is_empty() {
                    return;
                }
                notified.await;
            }
        };
        tokio::time::timeout(deadline, all_closed).await.is_ok()
    }
}

/// Whether `method` may change state: RFC 9110 section 9.2.1 names GET, HEAD, OPTIONS and
/// TRACE safe; every other method is guarded.
fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE)
}

/// Serves one accepted connection with `service` on a task of its own, registered in
/// `connections` until it closes.
pub(crate) fn spawn_connection<S>(connections: &Arc<Connections>, stream: TcpStream, service: S)
where
    S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Send + 'static,
    S::Future: Send + 'static,
{
    let (id, busy, evict) = connections.register();
    let open = Open(Arc::clone(connections), id);
    let idle_since = Arc::new(Mutex::new(Instant::now()));
    let counted = {
        let busy = Arc::clone(&busy);
        let idle_since = Arc::clone(&idle_since);
        let writes = connections.writes.clone();
        hyper::service::service_fn(move |request: Request<Incoming>| {
            busy.fetch_add(1, Ordering::SeqCst);
            let guard = InHandler(Arc::clone(&busy), Arc::clone(&idle_since));
            // A foreign page's POST never reaches the handler: refused before it is called.
            let refused = changes_state(request.method())
                .then(|| writes.check(request.headers()).err())
                .flatten();
            let answer = refused.is_none().then(|| service.call(request));
            async move {
                let _guard = guard;
                match (answer, refused) {
                    (Some(answer), _) => answer.await,
                    (None, reason) => Ok(text(
                        StatusCode::FORBIDDEN,
                        format!("{}\n", reason.unwrap_or(loopback_guard::FOREIGN_HOST)),
                    )),
                }
            }
        })
    };
    let connection = http1::Builder::new()
        .half_close(connections.answer_half_closed)
        .serve_connection(TokioIo::new(stream), counted);
    let mut draining = connections.draining.subscribe();
    let header_read_timeout = connections.header_read_timeout;
    tokio::spawn(async move {
        let open = open;
        let mut connection = std::pin::pin!(connection);
        let evicted = tokio::select! {
            // A client that hangs up or times out is not the server's failure.
            _ = connection.as_mut() => return,
            () = evict.notified() => true,
            _ = draining.wait_for(|draining| *draining) => false,
            // Silent, slow or idle past the header timeout: closed like an evicted one.
            () = idle_past(&busy, &idle_since, header_read_timeout) => true,
        };
        connection.as_mut().graceful_shutdown();
        if busy.load(Ordering::SeqCst) > 0 {
            // Its request is being answered: let it finish; keep-alive is off now.
            let _ = connection.await;
        } else if !evicted && tokio::time::timeout(CLOSE_WAIT, connection.as_mut()).await.is_err() {
            // An idle keep-alive connection closes at once; this one was mid-request-head.
            open.0.cut_mid_request.fetch_add(1, Ordering::Relaxed);
        }
        // An evicted connection is simply dropped: the client sees the close at once.
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_safe_methods_skip_the_loopback_guard() {
        for safe in [Method::GET, Method::HEAD, Method::OPTIONS, Method::TRACE] {
            assert!(!changes_state(&safe), "{safe}");
        }
        for unsafe_method in [Method::POST, Method::PUT, Method::DELETE, Method::PATCH] {
            assert!(changes_state(&unsafe_method), "{unsafe_method}");
        }
    }

    #[test]
    fn the_cap_stays_below_the_file_limit() {
        assert_eq!(cap_below(None), MAX_CONNECTIONS);
        assert_eq!(cap_below(Some(20_000)), MAX_CONNECTIONS);
        assert_eq!(cap_below(Some(200)), 136);
        assert_eq!(cap_below(Some(10)), 1);
    }
}
