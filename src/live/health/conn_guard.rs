//! Connection limits for the health server: no client can starve `/livez` or hold shutdown.
//!
//! Lab 1's own rule is that health checks come first, so the server that teaches it must
//! not let other clients use up what a probe needs:
//!
//! - **Header and idle timeouts.** hyper's `header_read_timeout` only takes effect with a
//!   timer; with [`TokioTimer`] set, a client must send a whole request head within
//!   [`HEADER_READ_TIMEOUT`] of connecting or of its previous answer (hyper 1.x starts the
//!   same timer when a keep-alive connection goes idle, so it is the idle timeout too).
//! - **A connection cap below the file limit** ([`ConnLimits::for_this_process`]). At the
//!   cap, the oldest connection with no request in its handler is closed to make room for
//!   the new one (a probe opens a fresh connection); only when every connection is
//!   answering a request does the next one wait in the listen backlog.
//! - **Shutdown closes what is idle.** [`Connections::drain`] closes idle keep-alive
//!   connections at once and gives a connection that is still sending its request head
//!   [`CLOSE_WAIT`] before cutting it, counted in [`Connections::cut_mid_request`]; only
//!   requests already in a handler are waited for.
//! - **Half-closed clients are answered** (`half_close(true)`): a client that shuts its
//!   sending side after the request (`nc -N`) still reads the reply, as with Python's
//!   `http.server`.
//!
//! The accept loop itself is the one every lab server runs ([`http::serve_admitted`]);
//! [`Connections`] is its [`Admission`]: it makes room at the cap and serves each connection.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};

use crate::live::http::{self, Admission, TextBody};

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

/// How connections are limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnLimits {
    pub header_read_timeout: Duration,
    pub max_connections: usize,
}

impl ConnLimits {
    /// [`MAX_CONNECTIONS`], or fewer when the process's open-file limit is lower.
    pub fn for_this_process() -> Self {
        Self {
            header_read_timeout: HEADER_READ_TIMEOUT,
            max_connections: cap_below(open_file_limit()),
        }
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
struct Entry {
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
    open: BTreeMap<u64, Entry>,
    evicting: usize,
}

/// Every connection the server has open; returned by [`serve_until`] to drain them.
#[derive(Debug)]
pub struct Connections {
    registry: Mutex<Registry>,
    /// Wakes the accept loop and the drain when a connection closes.
    changed: Notify,
    draining: watch::Sender<bool>,
    max: usize,
    header_read_timeout: Duration,
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

/// Counts a request in its handler, however the handler ends.
struct Busy(Arc<AtomicU32>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Connections {
    fn new(limits: ConnLimits) -> Self {
        Self {
            registry: Mutex::new(Registry::default()),
            changed: Notify::new(),
            draining: watch::Sender::new(false),
            max: limits.max_connections.max(1),
            header_read_timeout: limits.header_read_timeout,
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
            Entry {
                busy: Arc::clone(&busy),
                evict: Arc::clone(&evict),
                evicting: false,
            },
        );
        (id, busy, evict)
    }

    /// Returns once a new connection may be accepted, closing the oldest idle one at the cap.
    async fn room(&self) {
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

/// Accepts connections on `listener` within `limits` and serves each with `service` until
/// `stop` completes; then drops the listener (new connections are refused from that
/// moment) and returns the open connections, to [`Connections::drain`] them.
pub async fn serve_until<S>(
    listener: TcpListener,
    service: S,
    stop: impl Future<Output = ()>,
    limits: ConnLimits,
) -> Arc<Connections>
where
    S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    http::serve_admitted(listener, service, stop, Arc::new(Connections::new(limits))).await
}

/// The shared accept loop waits for [`Connections::room`] and hands each connection here.
impl Admission for Arc<Connections> {
    fn room(&self) -> impl Future<Output = ()> + Send {
        Connections::room(self)
    }

    fn serve<S>(&self, stream: TcpStream, service: S)
    where
        S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Send + 'static,
        S::Future: Send + 'static,
    {
        spawn_connection(self, stream, service);
    }
}

fn spawn_connection<S>(connections: &Arc<Connections>, stream: TcpStream, service: S)
where
    S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Send + 'static,
    S::Future: Send + 'static,
{
    let (id, busy, evict) = connections.register();
    let open = Open(Arc::clone(connections), id);
    let counted = {
        let busy = Arc::clone(&busy);
        hyper::service::service_fn(move |request| {
            busy.fetch_add(1, Ordering::SeqCst);
            let guard = Busy(Arc::clone(&busy));
            let answer = service.call(request);
            async move {
                let _guard = guard;
                answer.await
            }
        })
    };
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(connections.header_read_timeout)
        .half_close(true)
        .serve_connection(TokioIo::new(stream), counted);
    let mut draining = connections.draining.subscribe();
    tokio::spawn(async move {
        let open = open;
        let mut connection = std::pin::pin!(connection);
        let evicted = tokio::select! {
            // A client that hangs up or times out is not the server's failure.
            _ = connection.as_mut() => return,
            () = evict.notified() => true,
            _ = draining.wait_for(|draining| *draining) => false,
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
    fn the_cap_stays_below_the_file_limit() {
        assert_eq!(cap_below(None), MAX_CONNECTIONS);
        assert_eq!(cap_below(Some(20_000)), MAX_CONNECTIONS);
        assert_eq!(cap_below(Some(200)), 136);
        assert_eq!(cap_below(Some(10)), 1);
    }
}
