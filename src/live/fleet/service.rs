//! The Service: a proxy on 127.0.0.1 that forwards each request to a ready endpoint, as
//! the endpoint table stood `routing_delay_s` ago, and refuses connections (its listener
//! closed) while no endpoint is ready, unless it fails open.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::engine::fleet::{FleetParams, pick_endpoint};
use crate::live::database_client::API_PATH;
use crate::live::fleet::recorder::Endpoint;
use crate::live::fleet::replica::until_stopped;
use crate::live::http::{self, PooledClient, TextBody};

/// The body of the Service's answer when its last endpoint left mid-connection: the
/// client counts it as refused, as it would have been a moment later.
pub const NO_ENDPOINT_BODY: &str = "refused: no ready endpoint\n";
/// The bound on one forwarded request (the model's requests take far less).
const FORWARD_TIMEOUT: Duration = Duration::from_secs(30);

/// Replays the endpoint table to the Service `delay` late, in order.
pub async fn route_with_delay(
    mut table: watch::Receiver<Vec<Endpoint>>,
    view: watch::Sender<Vec<Endpoint>>,
    delay: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut pending: VecDeque<(Instant, Vec<Endpoint>)> = VecDeque::new();
    loop {
        let due = pending.front().map(|(at, _)| *at);
        tokio::select! {
            changed = table.changed() => {
                if changed.is_err() {
                    return;
                }
                let snapshot = table.borrow_and_update().clone();
                pending.push_back((Instant::now() + delay, snapshot));
            }
            () = async { tokio::time::sleep_until(due.unwrap_or_else(Instant::now)).await }, if due.is_some() => {
                if let Some((_, snapshot)) = pending.pop_front() {
                    let _ = view.send(snapshot);
                }
            }
            () = until_stopped(&mut stop) => return,
        }
    }
}

/// The slots a request may go to: the ready ones, else (failing open) every running one.
fn candidates(view: &[Endpoint], fail_open: bool) -> Vec<usize> {
    let ready: Vec<usize> = (0..view.len())
        .filter(|&i| view[i].ready && view[i].addr.is_some())
        .collect();
    if ready.is_empty() && fail_open {
        return (0..view.len()).filter(|&i| view[i].addr.is_some()).collect();
    }
    ready
}

struct Proxy {
    params: Arc<FleetParams>,
    view: watch::Receiver<Vec<Endpoint>>,
    turn: Mutex<u64>,
    in_flight: Vec<AtomicUsize>,
    client: PooledClient,
}

/// Counts a forwarded request in its endpoint's in-flight total however it ends.
struct InFlightGuard<'a>(&'a AtomicUsize);

impl Drop for InFlightGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn forward(proxy: Arc<Proxy>) -> Response<TextBody> {
    let (slot, addr) = {
        let view = proxy.view.borrow();
        let candidates = candidates(&view, proxy.params.fail_open);
        let mut turn = proxy.turn.lock().unwrap_or_else(PoisonError::into_inner);
        let picked = pick_endpoint(&candidates, proxy.params.balancing, &mut turn, |slot| {
            proxy.in_flight[slot].load(Ordering::SeqCst)
        });
        match picked.and_then(|slot| Some((slot, view[slot].addr?))) {
            Some(pair) => {
                // Counted under the lock, as the engine counts a pick at once: two requests
                // arriving together must not both see the same replica idle.
                proxy.in_flight[pair.0].fetch_add(1, Ordering::SeqCst);
                pair
            }
            None => return http::text(StatusCode::SERVICE_UNAVAILABLE, NO_ENDPOINT_BODY),
        }
    };
    let _counted = InFlightGuard(&proxy.in_flight[slot]);
    let Ok(request) = Request::get(format!("http://{addr}{API_PATH}")).body(Empty::<Bytes>::new()) else {
        return http::text(StatusCode::BAD_GATEWAY, "failed: bad endpoint\n");
    };
    let exchange = async {
        let response = proxy.client.request(request).await.ok()?;
        let status = response.status();
        let body = response.into_body().collect().await.ok()?.to_bytes();
        Some((status, body))
    };
    match tokio::time::timeout(FORWARD_TIMEOUT, exchange).await {
        Ok(Some((status, body))) => http::text(status, body),
        _ => http::text(StatusCode::BAD_GATEWAY, "failed: endpoint\n"),
    }
}

fn routable(view: &[Endpoint], fail_open: bool) -> bool {
    !candidates(view, fail_open).is_empty()
}

/// The Service takes a half-close for a hang-up: a load client that gave up must cancel
/// the request the Service forwards, as a caller's timeout frees the replica in the
/// simulation, or a black-holed replica would hold forwarded requests the model has freed.
pub const ANSWERS_HALF_CLOSED: bool = false;

/// Serves the Service on 127.0.0.1:`port` (fixed, so clients keep one address) until
/// `stop`: the listener exists only while an endpoint can take traffic.
pub async fn serve(
    port: u16,
    params: Arc<FleetParams>,
    mut view: watch::Receiver<Vec<Endpoint>>,
    mut stop: watch::Receiver<bool>,
) {
    let proxy = Arc::new(Proxy {
        in_flight: (0..params.replicas).map(|_| AtomicUsize::new(0)).collect(),
        params: Arc::clone(&params),
        view: view.clone(),
        turn: Mutex::new(0),
        client: http::pooled_client(),
    });
    loop {
        // Closed: connections are refused until an endpoint is routable again.
        while !routable(&view.borrow_and_update(), params.fail_open) {
            tokio::select! {
                changed = view.changed() => if changed.is_err() { return },
                () = until_stopped(&mut stop) => return,
            }
        }
        let listener = match http::bind_loopback(port).await {
            Ok(listener) => listener,
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(2)).await;
                continue;
            }
        };
        let service = {
            let proxy = Arc::clone(&proxy);
            hyper::service::service_fn(move |_request: Request<Incoming>| {
                let proxy = Arc::clone(&proxy);
                async move { Ok::<_, Infallible>(forward(proxy).await) }
            })
        };
        let (mut stop_here, mut view_here, fail_open) = (stop.clone(), view.clone(), params.fail_open);
        let unroutable_or_stopped = async move {
            let unroutable = async {
                // A closed view (the runner gone) ends the Service as a stop does.
                while view_here.changed().await.is_ok() {
                    if !routable(&view_here.borrow_and_update(), fail_open) {
                        return;
                    }
                }
            };
            tokio::select! {
                () = until_stopped(&mut stop_here) => {}
                () = unroutable => {}
            }
        };
        // The one accept loop of every server; connections open when the listener closes
        // finish on their own tasks (their answer says no endpoint is left).
        let limits = http::ConnLimits::for_this_process(ANSWERS_HALF_CLOSED);
        let _open = http::serve_until(listener, service, unroutable_or_stopped, limits).await;
        let ended = view.has_changed().is_err() || stop.has_changed().is_err() || *stop.borrow();
        if ended {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, SocketAddr};

    #[test]
    fn only_ready_endpoints_are_candidates_unless_the_service_fails_open() {
        let addr = Some(SocketAddr::from((Ipv4Addr::LOCALHOST, 1)));
        let view = [
            Endpoint { addr, ready: false },
            Endpoint {
                addr: None,
                ready: false,
            },
            Endpoint { addr, ready: true },
        ];
        assert_eq!(candidates(&view, false), [2]);
        let none_ready = [view[0], view[1]];
        assert!(candidates(&none_ready, false).is_empty());
        assert_eq!(candidates(&none_ready, true), [0]);
    }
}
