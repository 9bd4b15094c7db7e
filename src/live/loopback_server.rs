//! A server on a free loopback port, for the labs whose servers run inside this process
//! (Lab 5's chain, the on-call drill's checkout-api and dependencies): bind 127.0.0.1:0,
//! run the one accept loop ([`http::serve_until`]) until stopped, then drain. Each caller
//! says how it treats a half-closed client and how long a stop waits, and nothing else.

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

use super::http::{self, ConnLimits, Connections, TextBody};

/// A running server: its address, and how to stop it.
pub struct LoopbackServer {
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<Arc<Connections>>,
    drain: Duration,
}

/// Serves `handle` on a free loopback port until [`LoopbackServer::stop`], which then gives
/// open connections `drain` to finish. `answers_half_closed` is [`ConnLimits`]' rule.
pub async fn serve_loopback<F, Fut>(handle: F, answers_half_closed: bool, drain: Duration) -> io::Result<LoopbackServer>
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
        ConnLimits::for_this_process(answers_half_closed),
    ));
    Ok(LoopbackServer {
        addr,
        stop,
        task,
        drain,
    })
}

impl LoopbackServer {
    /// Closes the listener, then gives open connections the server's drain time to finish.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        if let Ok(open) = self.task.await {
            let _ = http::drain(open, self.drain).await;
        }
    }
}
