//! Loopback HTTP plumbing the live labs share: bind, serve with a graceful drain, GET.
//!
//! Servers are HTTP/1.1 with keep-alive, each connection watched by hyper-util's
//! [`GracefulShutdown`] so that closing the listener and draining in-flight requests are
//! two separate steps, in that order, as Lab 1 teaches. The accept loop is written once
//! ([`serve_admitted`]); what differs per server (limits, timeouts) is its [`Admission`].

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpStream};

/// The body every lab server answers with.
pub type TextBody = Full<Bytes>;

/// Binds `127.0.0.1:port`; port 0 picks a free port (read it back with `local_addr`).
pub async fn bind_loopback(port: u16) -> io::Result<TcpListener> {
    TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await
}

/// A plain-text response with a status code.
pub fn text(code: StatusCode, body: impl Into<Bytes>) -> Response<TextBody> {
    let mut response = Response::new(Full::new(body.into()));
    *response.status_mut() = code;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain"),
    );
    response
}

/// How the one accept loop ([`serve_admitted`]) takes in and serves each connection: the
/// plain servers watch every connection for a graceful drain ([`GracefulShutdown`]); the
/// health server adds limits and timeouts (`live::health::conn_guard`).
pub trait Admission {
    /// Completes once another connection may be accepted (at once when nothing is limited).
    fn room(&self) -> impl Future<Output = ()> + Send;

    /// Serves one accepted connection with `service` on a task of its own.
    fn serve<S>(&self, stream: TcpStream, service: S)
    where
        S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Send + 'static,
        S::Future: Send + 'static;
}

impl Admission for GracefulShutdown {
    fn room(&self) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }

    fn serve<S>(&self, stream: TcpStream, service: S)
    where
        S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Send + 'static,
        S::Future: Send + 'static,
    {
        let connection = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
        let watched = self.watch(connection);
        tokio::spawn(async move {
            // A client that hangs up mid-request is not the server's failure.
            let _ = watched.await;
        });
    }
}

/// Accepts connections on `listener` and serves each with `service` until `stop`
/// completes; then drops the listener (new connections are refused from that moment)
/// and returns the watcher of the connections still open, to drain them.
pub async fn serve_until<S>(listener: TcpListener, service: S, stop: impl Future<Output = ()>) -> GracefulShutdown
where
    S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    serve_admitted(listener, service, stop, GracefulShutdown::new()).await
}

/// The accept loop every lab server runs: waits for `admission`'s room, accepts, and hands
/// the connection to `admission` with a clone of `service`, until `stop` completes; then
/// drops the listener (new connections are refused from that moment) and returns
/// `admission`, which holds the connections still open, to drain them.
pub async fn serve_admitted<S, A>(listener: TcpListener, service: S, stop: impl Future<Output = ()>, admission: A) -> A
where
    S: Service<Request<Incoming>, Response = Response<TextBody>, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
    A: Admission,
{
    let mut stop = std::pin::pin!(stop);
    loop {
        tokio::select! {
            // Checked first: once stop is due, no further connection is taken.
            biased;
            () = stop.as_mut() => break,
            () = admission.room() => {}
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
                admission.serve(stream, service.clone());
            }
        }
    }
    drop(listener);
    admission
}

/// Waits up to `deadline` for the watched connections to finish; false if time ran out.
pub async fn drain(graceful: GracefulShutdown, deadline: Duration) -> bool {
    tokio::time::timeout(deadline, graceful.shutdown()).await.is_ok()
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

/// A keep-alive client for load: connections to each hop are pooled and reused.
pub type PooledClient = Client<HttpConnector, Empty<Bytes>>;

/// A pooled HTTP/1.1 client with Nagle off, for the live labs' request loops.
pub fn pooled_client() -> PooledClient {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    // Idle connections keep their buffers; after a burst, keeping a few is enough.
    Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(POOL_MAX_IDLE_PER_HOST)
        .http1_read_buf_exact_size(CLIENT_READ_BUF_BYTES)
        .build(connector)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn serves_until_stopped_then_refuses() {
        let listener = bind_loopback(0).await.expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("bound address");
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let service = hyper::service::service_fn(|_request: Request<Incoming>| async {
            Ok::<_, Infallible>(text(StatusCode::OK, "hello\n"))
        });
        let server = tokio::spawn(serve_until(listener, service, async {
            let _ = stop_rx.await;
        }));
        assert_eq!(
            get_once(addr, "/").await,
            GetOutcome::Answered {
                code: 200,
                body: "hello\n".into()
            }
        );
        stop_tx.send(()).expect("server is running");
        let graceful = server.await.expect("server task");
        assert!(drain(graceful, Duration::from_secs(1)).await);
        assert_eq!(get_once(addr, "/").await, GetOutcome::Refused);
    }
}
