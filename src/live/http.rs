//! Loopback HTTP plumbing the live labs share: the one accept loop, one-off requests, a
//! pooled client.
//!
//! Every lab server (`serve health`, `serve database`, the retry hops, the breaker's
//! dependency, the overload service, the fleet's Service, Lab 5's servers, the room, and
//! any new one) runs [`serve_until`], so each rule below holds for all of them at once:
//!
//! - a header timeout that is also the idle timeout of a keep-alive connection and a cap on
//!   open connections below the process's file limit ([`conn_guard`]);
//! - whether a client that half-closes after its request is answered or taken for gone is
//!   the one thing each server chooses ([`ConnLimits::answer_half_closed`], with the reason
//!   written at the call);
//! - a request with a method that may change state (anything but GET, HEAD, OPTIONS and
//!   TRACE, RFC 9110 section 9.2.1) is answered 403 unless its Host, and Origin if sent,
//!   name this machine: a web page must not flip a learner's database ([`loopback_guard`];
//!   the room, served to a LAN, brings its own rule: [`WriteGuard::Own`]);
//! - closing the listener and draining open connections are two steps, in that order, as
//!   Lab 1 teaches: [`serve_until`] returns when its `stop` completes, [`drain`] follows.
//!
//! A new server needs only this:
//!
//! ```ignore
//! let listener = http::bind_loopback(0).await?;
//! // Answer half-closed clients: nothing here counts work done after a caller has gone.
//! let limits = http::ConnLimits::for_this_process(true);
//! let open = http::serve_until(listener, service, stop, limits).await; // a hyper Service
//! http::drain(open, Duration::from_secs(1)).await;
//! ```

pub mod body;
pub mod conn_guard;
pub mod loopback_guard;

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper::service::Service;
use hyper::{Method, Request, Response};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::{TcpListener, TcpStream};

pub use body::{TextBody, text};
pub use conn_guard::{ConnLimits, Connections, WriteGuard};

/// Binds `127.0.0.1:port`; port 0 picks a free port (read it back with `local_addr`).
pub async fn bind_loopback(port: u16) -> io::Result<TcpListener> {
    TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await
}

/// Accepts connections on `listener` and serves each with `service` within `limits` until
/// `stop` completes; then drops the listener (new connections are refused from that
/// moment) and returns the connections still open, to [`drain`] them. Every lab server
/// runs this one loop (see the module's comment); `limits` is where it says how it treats
/// a half-closed client and why.
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
    let connections = Arc::new(Connections::new(limits));
    let mut stop = std::pin::pin!(stop);
    loop {
        tokio::select! {
            // Checked first: once stop is due, no further connection is taken.
            biased;
            () = stop.as_mut() => break,
            () = connections.room() => {}
        }
        tokio::select! {
            biased;
            () = stop.as_mut() => break,
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else {
                    // Out of file descriptors or a reset before accept: back off a moment.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                conn_guard::spawn_connection(&connections, stream, service.clone());
            }
        }
    }
    drop(listener);
    connections
}

/// Closes every connection [`serve_until`] left open (idle ones at once, requests in a
/// handler after their answer) and waits up to `deadline`; false if time ran out.
pub async fn drain(connections: Arc<Connections>, deadline: Duration) -> bool {
    connections.drain(deadline).await
}

/// What a one-off GET saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GetOutcome {
    /// The server answered: status code and body.
    Answered { code: u16, body: String },
    /// Nothing listens on the port: `curl` prints 000.
    Refused,
    /// Connected, but the exchange failed (reset, closed mid-response).
    Failed(String),
}

impl GetOutcome {
    /// The status code as `curl -w %{http_code}` shows it: 0 when there was no answer.
    pub fn code(&self) -> u16 {
        match self {
            GetOutcome::Answered { code, .. } => *code,
            GetOutcome::Refused | GetOutcome::Failed(_) => 0,
        }
    }
}

/// GETs `path` on a fresh connection to `addr`, as `curl` does for each probe.
pub async fn get_once(addr: SocketAddr, path: &str) -> GetOutcome {
    request_once(addr, Method::GET, path).await
}

/// POSTs an empty body to `path` on a fresh connection (the lab servers' admin switches).
pub async fn post_once(addr: SocketAddr, path: &str) -> GetOutcome {
    request_once(addr, Method::POST, path).await
}

/// One request with an empty body on a fresh connection to `addr`.
pub async fn request_once(addr: SocketAddr, method: Method, path: &str) -> GetOutcome {
    let stream = match TcpStream::connect(addr).await {
        Ok(stream) => stream,
        Err(err) if err.kind() == io::ErrorKind::ConnectionRefused => return GetOutcome::Refused,
        Err(err) => return GetOutcome::Failed(err.to_string()),
    };
    let (mut sender, connection) = match hyper::client::conn::http1::handshake(TokioIo::new(stream)).await {
        Ok(pair) => pair,
        Err(err) => return GetOutcome::Failed(err.to_string()),
    };
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let request = match Request::builder()
        .method(method)
        .uri(path)
        .header(hyper::header::HOST, addr.to_string())
        .body(Empty::<Bytes>::new())
    {
        Ok(request) => request,
        // A path that is not a valid URI is the caller's bad input, not a panic.
        Err(err) => return GetOutcome::Failed(err.to_string()),
    };
    match sender.send_request(request).await {
        Ok(response) => {
            let code = response.status().as_u16();
            match response.into_body().collect().await {
                Ok(body) => GetOutcome::Answered {
                    code,
                    body: String::from_utf8_lossy(&body.to_bytes()).into_owned(),
                },
                Err(err) => GetOutcome::Failed(err.to_string()),
            }
        }
        Err(err) => GetOutcome::Failed(err.to_string()),
    }
}

/// Idle connections a pooled client keeps to one server.
const POOL_MAX_IDLE_PER_HOST: usize = 64;
/// Bytes a pooled client's connection reads into at a time. The lab servers answer a few
/// hundred bytes at most; hyper's default (8 KB, grown adaptively) costs 8 KB per open
/// connection, and the load loops hold hundreds at once. A longer answer still arrives
/// whole, in more reads.
const CLIENT_READ_BUF_BYTES: usize = 1_024;

/// How long a pooled connection may sit idle before the client stops reusing it: well below
/// the servers' idle timeout ([`conn_guard::HEADER_READ_TIMEOUT`], 5 s), so the client never
/// sends on a connection the server is closing at that moment (a request lost to a race,
/// not to the lab's fault). hyper-util checks it at checkout, no timer needed.
pub const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(2);

/// A keep-alive client for load: connections to each hop are pooled and reused.
pub type PooledClient = Client<HttpConnector, Empty<Bytes>>;

/// A pooled HTTP/1.1 client with Nagle off, for the live labs' request loops.
pub fn pooled_client() -> PooledClient {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    // Idle connections keep their buffers; after a burst, keeping a few is enough.
    Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(POOL_MAX_IDLE_PER_HOST)
        .pool_idle_timeout(POOL_IDLE_TIMEOUT)
        .http1_read_buf_exact_size(CLIENT_READ_BUF_BYTES)
        .build(connector)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::StatusCode;

    #[tokio::test]
    async fn serves_until_stopped_then_refuses() {
        let listener = bind_loopback(0).await.expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("bound address");
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let service = hyper::service::service_fn(|_request: Request<Incoming>| async {
            Ok::<_, Infallible>(text(StatusCode::OK, "hello\n"))
        });
        let server = tokio::spawn(serve_until(
            listener,
            service,
            async {
                let _ = stop_rx.await;
            },
            ConnLimits::for_this_process(true),
        ));
        assert_eq!(
            get_once(addr, "/").await,
            GetOutcome::Answered {
                code: 200,
                body: "hello\n".into()
            }
        );
        stop_tx.send(()).expect("server is running");
        let open = server.await.expect("server task");
        assert!(drain(open, Duration::from_secs(1)).await);
        assert_eq!(get_once(addr, "/").await, GetOutcome::Refused);
    }
}
