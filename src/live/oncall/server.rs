//! Where the drill's servers (checkout-api and its four dependencies) meet `live::http`'s
//! one accept loop: bind 127.0.0.1:0, serve until stopped, drain.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::{Request, Response};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::live::http::{self, TextBody};

/// How long a stopping server waits for its open connections: a hung dependency's answer
/// is not worth waiting for once the drill is over.
const DRAIN: Duration = Duration::from_millis(200);

/// A caller that hung up is gone: its attempt was counted when it arrived, and nothing
/// the server does afterwards is measured, so a half-closed client is taken for gone.
const ANSWERS_HALF_CLOSED: bool = false;

/// A running server: its address, and how to stop it.
pub struct DrillServer {
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<Arc<http::Connections>>,
}

/// Serves `handle` on a free loopback port until [`DrillServer::stop`].
pub async fn serve<F, Fut>(handle: F) -> io::Result<DrillServer>
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<TextBody>> + Send + 'static,
{
    let listener = http::bind_loopback(0).await?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = oneshot::channel::<()>();
    let service = hyper::service::service_fn(move |request| {
        let answer = handle(request);
        async move { Ok::<_, Infallible>(answer.await) }
    });
    let task = tokio::spawn(http::serve_until(
        listener,
        service,
        async {
            let _ = stopped.await;
        },
        http::ConnLimits::for_this_process(ANSWERS_HALF_CLOSED),
    ));
    Ok(DrillServer { addr, stop, task })
}

impl DrillServer {
    /// Closes the listener, then gives open connections [`DRAIN`] to finish.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        if let Ok(open) = self.task.await {
            let _ = http::drain(open, DRAIN).await;
        }
    }
}

/// A query parameter of a request (`?i=7`), as text.
pub fn query<'a>(request: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    request
        .uri()
        .query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}
