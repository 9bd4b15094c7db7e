//! How many requests per second the live Lab 2 chain sustains end to end on loopback,
//! against a single hyper server and a bare three-hop hyper chain built the same way
//! (same `serve_until`, same pooled client), all measured in one run on one runtime.
//!
//! Run: `cargo bench --bench live_chain` (prints one line per setup and the ratios).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper::{Request, StatusCode, Uri};
use resilience_lab::engine::retry_chain::ChainConfig;
use resilience_lab::live::http::{self, PooledClient};
use resilience_lab::live::retry::chain::LiveChain;
use tokio::sync::watch;

/// Requests in flight at once, from the load's side.
const CONCURRENCY: usize = 32;
/// Requests per measurement (bounded in count) ...
const REQUESTS: u64 = 20_000;
/// ... and a time limit per measurement (bounded in time).
const TIME_LIMIT: Duration = Duration::from_secs(30);
/// Measurements per setup; the best is reported (the machine is shared).
const ROUNDS: usize = 3;

async fn get_ok(client: &PooledClient, uri: &Uri) -> bool {
    let Ok(request) = Request::get(uri.clone()).body(Empty::<Bytes>::new()) else {
        return false;
    };
    match client.request(request).await {
        Ok(response) => {
            let ok = response.status() == StatusCode::OK;
            response.into_body().collect().await.is_ok() && ok
        }
        Err(_) => false,
    }
}

/// A bare hop: answers 200, or forwards once to `next` and relays its status.
async fn start_bare(next: Option<SocketAddr>, stop: watch::Receiver<bool>) -> SocketAddr {
    let listener = http::bind_loopback(0).await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let client = http::pooled_client();
    let next: Option<Uri> = next.map(|a| format!("http://{a}/").parse().expect("uri"));
    let service = hyper::service::service_fn(move |_request: Request<Incoming>| {
        let (client, next) = (client.clone(), next.clone());
        async move {
            let ok = match &next {
                Some(uri) => get_ok(&client, uri).await,
                None => true,
            };
            let code = if ok {
                StatusCode::OK
            } else {
                StatusCode::SERVICE_UNAVAILABLE
            };
            Ok::<_, Infallible>(http::text(code, "ok\n"))
        }
    });
    let mut stop = stop;
    tokio::spawn(async move {
        let graceful = http::serve_until(
            listener,
            service,
            async move {
                let _ = stop.wait_for(|s| *s).await;
            },
            // As Lab 2's hops do (`live::retry::chain::ANSWERS_HALF_CLOSED`).
            http::ConnLimits::for_this_process(false),
        )
        .await;
        http::drain(graceful, Duration::from_secs(3)).await;
    });
    addr
}

/// Runs `send` REQUESTS times with CONCURRENCY in flight; requests per second.
async fn measure<F, Fut>(send: F) -> f64
where
    F: Fn() -> Fut + Clone + Send + 'static,
    Fut: Future<Output = bool> + Send,
{
    let remaining = Arc::new(AtomicU64::new(REQUESTS));
    let done = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..CONCURRENCY {
        let (send, remaining, done) = (send.clone(), Arc::clone(&remaining), Arc::clone(&done));
        workers.spawn(async move {
            while start.elapsed() < TIME_LIMIT
                && remaining
                    .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
                    .is_ok()
            {
                assert!(send().await, "a benchmark request failed");
                done.fetch_add(1, Ordering::Relaxed);
            }
        });
    }
    while workers.join_next().await.is_some() {}
    done.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
}

async fn get_ok_owned(client: PooledClient, uri: Uri) -> bool {
    get_ok(&client, &uri).await
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let (stop, stop_rx) = watch::channel(false);
        let single = start_bare(None, stop_rx.clone()).await;
        let db = start_bare(None, stop_rx.clone()).await;
        let back = start_bare(Some(db), stop_rx.clone()).await;
        let front = start_bare(Some(back), stop_rx.clone()).await;
        let client = http::pooled_client();
        let single_uri: Uri = format!("http://{single}/").parse().expect("uri");
        let front_uri: Uri = format!("http://{front}/").parse().expect("uri");

        let chain = LiveChain::start(ChainConfig::counting(3, 0.0, 42))
            .await
            .expect("chain");
        let top = chain.top_client();
        // Rounds interleave the setups, so a neighbour's burst on the shared cores hits all three.
        let mut best = [0.0_f64; 3];
        for _ in 0..ROUNDS {
            let (c, u) = (client.clone(), single_uri.clone());
            best[0] = best[0].max(measure(move || get_ok_owned(c.clone(), u.clone())).await);
            let (c, u) = (client.clone(), front_uri.clone());
            best[1] = best[1].max(measure(move || get_ok_owned(c.clone(), u.clone())).await);
            let t = Arc::clone(&top);
            best[2] = best[2].max(
                measure(move || {
                    let t = Arc::clone(&t);
                    async move { t.action(&[4, 4, 4], None).await }
                })
                .await,
            );
        }
        let [single_rps, bare_rps, lab_rps] = best;
        for (label, rps) in [
            ("single hyper server (1 hop)", single_rps),
            ("bare three-hop hyper chain", bare_rps),
            ("lab chain, attempts 4,4,4 at p = 0", lab_rps),
        ] {
            println!("{label:<44} {rps:>9.0} requests/s (best of {ROUNDS} x {REQUESTS})");
        }
        chain.shutdown().await.expect("lab chain drains");
        let _ = stop.send(true);
        println!(
            "lab chain / bare chain = {:.0}% (target >= 60%); lab chain / single server = {:.0}%; \
             bare chain / single server = {:.0}%",
            100.0 * lab_rps / bare_rps,
            100.0 * lab_rps / single_rps,
            100.0 * bare_rps / single_rps
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    });
}
