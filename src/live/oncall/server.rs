//! Where the drill's servers (checkout-api and its four dependencies) meet `live::http`'s
//! loopback server: the drill's drain time and half-close rule, and a query helper.

use std::future::Future;
use std::io;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::{Request, Response};

use crate::live::http::TextBody;
use crate::live::loopback_server::{self, LoopbackServer};

/// How long a stopping server waits for its open connections: a hung dependency's answer
/// is not worth waiting for once the drill is over.
const DRAIN: Duration = Duration::from_millis(200);

/// A caller that hung up is gone: its attempt was counted when it arrived, and nothing
/// the server does afterwards is measured, so a half-closed client is taken for gone.
const ANSWERS_HALF_CLOSED: bool = false;

/// Serves `handle` on a free loopback port, the drill's way, until [`LoopbackServer::stop`].
pub async fn serve<F, Fut>(handle: F) -> io::Result<LoopbackServer>
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<TextBody>> + Send + 'static,
{
    loopback_server::serve_loopback(handle, ANSWERS_HALF_CLOSED, DRAIN).await
}

/// A query parameter of a request (`?i=7`), as text.
pub fn query<'a>(request: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    request
        .uri()
        .query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}
