//! Scenario `herd` live: clients that failed together call a dependency on 127.0.0.1 at
//! the times the engine's sleeps give them (`engine::budget::herd::call_times_ms`: a fixed
//! second, the note's ±25% jitter or Lab 2's full jitter, each client's own seeded stream);
//! the dependency answers 503 until the outage ends and stamps every arrival after it, so
//! the peak per 10 ms is counted where the calls land, not where they were meant to.
//!
//! Real time, unscaled: a 10 ms slot is 10 real ms, and the run lasts the outage plus the
//! slowest client's return (about 3 s at the defaults).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper::{Method, StatusCode};

use crate::engine::budget::backoff::Sleep;
use crate::engine::budget::herd::{HerdParams, HerdRun, call_times_ms};
use crate::live::budget::server;
use crate::live::http;

/// The slot the peak is counted in, as the simulation's.
const SLOT_MS: f64 = 10.0;

/// How long one call may take before the client stops waiting for it.
const CALL_LIMIT: Duration = Duration::from_secs(5);

/// Runs the herd with `sleep` live and counts the returns after the outage.
pub async fn run_herd(p: &HerdParams, sleep: Sleep) -> std::io::Result<HerdRun> {
    let epoch = Instant::now();
    let outage_ms = p.outage_ms as f64;
    let landed: Arc<Mutex<Vec<f64>>> = Arc::new(Mutex::new(Vec::new()));
    let stamps = landed.clone();
    let api = server::serve(move |_request| {
        let stamps = stamps.clone();
        async move {
            let at_ms = epoch.elapsed().as_secs_f64() * 1_000.0;
            if at_ms < outage_ms {
                return http::text(StatusCode::SERVICE_UNAVAILABLE, "still down\n");
            }
            if let Ok(mut list) = stamps.lock() {
                list.push(at_ms);
            }
            http::text(StatusCode::OK, "back\n")
        }
    })
    .await?;
    let client = http::pooled_client();
    let mut tasks = Vec::new();
    let mut attempts = 0;
    let mut gave_up = 0;
    for c in 0..p.clients {
        let times = call_times_ms(p, sleep, c);
        attempts += times.len() as u64;
        // A client whose last call still falls in the outage gives up, as in the simulation.
        if times.last().is_none_or(|&last| last < outage_ms) {
            gave_up += 1;
        }
        let (client, addr) = (client.clone(), api.addr);
        tasks.push(tokio::spawn(async move {
            for at_ms in times {
                tokio::time::sleep_until((epoch + Duration::from_secs_f64(at_ms / 1_000.0)).into()).await;
                let _ = server::call(&client, addr, Method::GET, "/", &[], CALL_LIMIT).await;
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    api.stop().await;
    let landed_ms = landed.lock().map(|list| list.clone()).unwrap_or_default();
    let mut slots: std::collections::BTreeMap<u64, u64> = std::collections::BTreeMap::new();
    for at_ms in &landed_ms {
        *slots.entry((at_ms / SLOT_MS).floor() as u64).or_default() += 1;
    }
    let (slot, peak) = slots.iter().fold(
        (0, 0),
        |best, (&slot, &count)| if count > best.1 { (slot, count) } else { best },
    );
    Ok(HerdRun {
        sleep: sleep.name(),
        peak_per_10ms: peak,
        peak_at_ms: slot as f64 * SLOT_MS,
        attempts,
        gave_up,
        landed_ms,
    })
}
