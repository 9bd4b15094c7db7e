//! The steady load on checkout-api: a fifth of the simulation's (each request stands for
//! five, [`super::tally::STANDS_FOR`]), a request every twentieth of a drill second for
//! the whole drill, three in ten sheddable, each its own task, open loop (a
//! slow answer does not slow the arrivals, as real customers do not wait for each other).
//!
//! Bounded in count (8,400 requests) and in time: each request gives up at
//! [`REQUEST_LIMIT_MS`], and the whole load at the drill's end plus that limit.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::{Request, StatusCode};
use tokio::task::JoinSet;

use super::checkout::{BUSY_WORD, CHECKOUT_PATH, SHED_WORD, served_of};
use super::clock::DrillClock;
use super::dependency::WARM_PATH;
use super::tally::{DrillTally, LIVE_REQUESTS_PER_S, RequestEnd, StandIns};
use crate::engine::oncall::sim::{DRILL_S, SHEDDABLE_OF_TEN};
use crate::live::http::{self, PooledClient};

/// How long a customer waits for an answer (drill ms): past the deadline, with room for
/// an answer on its way; a request not answered by then is failed.
pub const REQUEST_LIMIT_MS: f64 = 4_000.0;
/// Connections opened to checkout-api before the drill, so that connecting is not the
/// first second's latency.
const WARM_CONNECTIONS: usize = 64;

/// Request `i`: how it ended, its drill ms, and (when checkout-api served it, well or
/// not) how its stand-ins ended.
async fn one(client: &PooledClient, addr: SocketAddr, i: usize, clock: DrillClock) -> (RequestEnd, f64, StandIns) {
    let start = Instant::now();
    let uri = format!("http://{addr}{CHECKOUT_PATH}?i={i}");
    let Ok(request) = Request::get(uri).body(Empty::<Bytes>::new()) else {
        return (RequestEnd::Failed, 0.0, None);
    };
    let exchange = async {
        let response = client.request(request).await.ok()?;
        let status = response.status();
        let body = response.into_body().collect().await.ok()?.to_bytes();
        let end = match status {
            StatusCode::OK => RequestEnd::Served,
            StatusCode::SERVICE_UNAVAILABLE if body.as_ref() == SHED_WORD.as_bytes() => RequestEnd::Shed,
            StatusCode::SERVICE_UNAVAILABLE if body.as_ref() == BUSY_WORD.as_bytes() => RequestEnd::Rejected,
            _ => RequestEnd::Failed,
        };
        Some((end, served_of(&body)))
    };
    let (end, stand_ins) = tokio::time::timeout(clock.real(REQUEST_LIMIT_MS), exchange)
        .await
        .ok()
        .flatten()
        .unwrap_or((RequestEnd::Failed, None));
    (end, clock.drill_ms(start.elapsed()), stand_ins)
}

/// Opens [`WARM_CONNECTIONS`] connections to checkout-api (and through it to each
/// dependency) before the drill starts.
pub async fn warm(client: &PooledClient, addr: SocketAddr) {
    let warms = (0..WARM_CONNECTIONS).map(|_| {
        let client = client.clone();
        tokio::spawn(async move {
            if let Ok(request) = Request::get(format!("http://{addr}{WARM_PATH}")).body(Empty::<Bytes>::new()) {
                let _ = tokio::time::timeout(std::time::Duration::from_secs(2), client.request(request)).await;
            }
        })
    });
    for warm in warms.collect::<Vec<_>>() {
        let _ = warm.await;
    }
}

/// Sends the drill's load to checkout-api at `addr` on `clock`, counting each request's
/// end in `tally`; returns when every request has ended.
pub async fn run(addr: SocketAddr, clock: DrillClock, tally: Arc<DrillTally>) {
    let client = http::pooled_client();
    // A set, not a list of handles: if the load is dropped (the app's drill ended early),
    // the requests under way are aborted with it, not left to run out their limit.
    let mut sent = JoinSet::new();
    for i in 0..DRILL_S * LIVE_REQUESTS_PER_S {
        let due = clock.instant_at(i as f64 / LIVE_REQUESTS_PER_S as f64);
        if due > Instant::now() {
            tokio::time::sleep_until(due.into()).await;
        }
        let (client, tally) = (client.clone(), tally.clone());
        sent.spawn(async move {
            let (end, took_ms, stand_ins) = one(&client, addr, i, clock).await;
            let sheddable = (i % LIVE_REQUESTS_PER_S) % 10 < SHEDDABLE_OF_TEN;
            tally.request(i / LIVE_REQUESTS_PER_S, end, sheddable, took_ms, stand_ins);
        });
        // The ended requests' slots freed as the load goes: memory stays at those in flight.
        while sent.try_join_next().is_some() {}
    }
    while sent.join_next().await.is_some() {}
}
