//! The one place Lab 5's servers meet `live::http`'s loopback server (bind 127.0.0.1:0,
//! the one accept loop, drain), with the lab's drain time and half-close rule. Every server of the lab (the chain's hops, the third-party API,
//! payments) starts here, so a change to the accept loop is a change to one call.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper::{Request, Response};

use crate::live::http::{self, TextBody};
use crate::live::loopback_server::{self, LoopbackServer};

/// How long a stopping server waits for its open connections (a hung hop's among them).
const DRAIN: Duration = Duration::from_millis(200);

/// Lab 5's servers take a half-close for a hang-up: the lab counts wasted work (a hop
/// still working for a caller whose deadline has passed), which needs a handler dropped
/// when its caller goes.
pub const ANSWERS_HALF_CLOSED: bool = false;

/// Serves `handle` on a free loopback port, Lab 5's way, until [`LoopbackServer::stop`].
pub async fn serve<F, Fut>(handle: F) -> io::Result<LoopbackServer>
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<TextBody>> + Send + 'static,
{
    loopback_server::serve_loopback(handle, ANSWERS_HALF_CLOSED, DRAIN).await
}

/// What a client saw of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallAnswer {
    /// A whole answer: status, `Retry-After` in seconds if any, body.
    Whole {
        status: u16,
        retry_after_s: Option<u64>,
        body: String,
    },
    /// The connection failed or closed before the answer was whole.
    Broken,
    /// No whole answer within the caller's time limit.
    TimedOut,
}

/// One call with the pooled client: `method` `path` on `addr` with `headers`, within `limit`.
pub async fn call(
    client: &http::PooledClient,
    addr: SocketAddr,
    method: hyper::Method,
    path: &str,
    headers: &[(&str, String)],
    limit: Duration,
) -> CallAnswer {
    let mut builder = Request::builder().method(method).uri(format!("http://{addr}{path}"));
    for (name, value) in headers {
        builder = builder.header(*name, value.as_str());
    }
    let Ok(request) = builder.body(Empty::<Bytes>::new()) else {
        return CallAnswer::Broken;
    };
    let exchange = async {
        let response = client.request(request).await.map_err(|_| ())?;
        let status = response.status().as_u16();
        let retry_after_s = response
            .headers()
            .get(hyper::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let body = response.into_body().collect().await.map_err(|_| ())?.to_bytes();
        Ok::<_, ()>(CallAnswer::Whole {
            status,
            retry_after_s,
            body: String::from_utf8_lossy(&body).into_owned(),
        })
    };
    match tokio::time::timeout(limit, exchange).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(())) => CallAnswer::Broken,
        Err(_) => CallAnswer::TimedOut,
    }
}

/// A header's value on a request, as text.
pub fn header<'a>(request: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    request.headers().get(name).and_then(|v| v.to_str().ok())
}

/// A query parameter of a request (`?order=7`), as text.
pub fn query<'a>(request: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    request
        .uri()
        .query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// How long payments stays silent after a commit-then-drop, far beyond [`ATTEMPT_LIMIT`].
pub const SILENCE: Duration = Duration::from_secs(2);
/// How long a lab client waits for one answer before it counts the attempt lost.
pub const ATTEMPT_LIMIT: Duration = Duration::from_millis(250);

/// Commit-then-drop as the client sees it: the work is done, and no answer comes; the
/// client's [`ATTEMPT_LIMIT`] ends the attempt and it hangs up. (A real reset cannot be
/// made from inside a hyper service; a body shorter than its Content-Length trips
/// hyper's own assertion.)
pub async fn dropped_answer() -> Response<TextBody> {
    tokio::time::sleep(SILENCE).await;
    http::text(hyper::StatusCode::OK, "too late\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_dropped_answer_never_arrives() {
        let served = serve(|request: Request<Incoming>| async move {
            if request.uri().path() == "/drop" {
                dropped_answer().await
            } else {
                http::text(hyper::StatusCode::OK, "ok")
            }
        })
        .await
        .expect("serve");
        let client = http::pooled_client();
        let limit = Duration::from_secs(2);
        let get = hyper::Method::GET;
        assert_eq!(
            call(&client, served.addr, get.clone(), "/drop", &[], ATTEMPT_LIMIT).await,
            CallAnswer::TimedOut
        );
        assert_eq!(
            call(&client, served.addr, get, "/ok?a=1", &[], limit).await,
            CallAnswer::Whole {
                status: 200,
                retry_after_s: None,
                body: "ok".into()
            }
        );
        served.stop().await;
    }
}
