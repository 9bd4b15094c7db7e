//! Scenario `half-open` live: callers through the project's one breaker
//! (`engine::budget::half_open::opened_breaker`, the same `HalfOpenAdmission`) against a
//! dependency on 127.0.0.1 that still hangs; the dependency counts the calls that reach it.
//!
//! Time shifted, not scaled: the breaker's clock starts [`LEAD_S`] before its cooldown ends
//! (nothing happens while it is open, so the 30 s are skipped), and the second after the
//! cooldown runs in real time at the scenario's own rate and timeout.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper::{Method, StatusCode};

use crate::engine::breaker::BreakerState;
use crate::engine::budget::half_open::{HalfOpenParams, HalfOpenRun, opened_breaker};
use crate::live::budget::server::{self, CallAnswer};
use crate::live::http;

/// Real seconds the run starts before the cooldown ends.
pub const LEAD_S: f64 = 0.3;

/// How long the sick dependency holds a call (longer than any timeout the scenario allows).
const HANG: Duration = Duration::from_secs(11);

/// Runs the second after the cooldown live and counts what reached the dependency.
pub async fn run_half_open(p: &HalfOpenParams) -> std::io::Result<HalfOpenRun> {
    let epoch = Instant::now();
    // The breaker's clock: model seconds, LEAD_S before the cooldown ends at the start.
    let start_s = (p.cooldown_s - LEAD_S).max(0.0);
    let model_s = move || start_s + epoch.elapsed().as_secs_f64();
    let first_s = Arc::new(AtomicU64::new(0));
    let counted = first_s.clone();
    let (cooldown_s, end_s) = (p.cooldown_s, p.cooldown_s + 1.0);
    let api = server::serve(move |_request| {
        let counted = counted.clone();
        async move {
            let at_s = model_s();
            if (cooldown_s..end_s).contains(&at_s) {
                counted.fetch_add(1, Ordering::Relaxed);
            }
            tokio::time::sleep(HANG).await;
            http::text(StatusCode::OK, "too late\n")
        }
    })
    .await?;
    let breaker = Arc::new(Mutex::new(opened_breaker(p)));
    let reopened_s: Arc<Mutex<Option<f64>>> = Arc::new(Mutex::new(None));
    let client = http::pooled_client();
    let timeout = Duration::from_millis(p.timeout_ms);
    let spacing_s = 1.0 / p.rate_per_s.max(1) as f64;
    let mut calls_first_s = 0;
    let mut tasks = Vec::new();
    // The calls the simulation makes: one every `spacing_s` from the start to a second past
    // the cooldown, each at its own instant.
    let mut index = 0u64;
    loop {
        let at_s = start_s + index as f64 * spacing_s;
        if at_s >= end_s {
            break;
        }
        index += 1;
        tokio::time::sleep_until((epoch + Duration::from_secs_f64(at_s - start_s)).into()).await;
        if at_s >= cooldown_s {
            calls_first_s += 1;
        }
        let admitted = breaker.lock().map(|mut b| b.allow(model_s())).unwrap_or(false);
        if !admitted {
            continue;
        }
        let (client, addr, breaker, reopened_s) = (client.clone(), api.addr, breaker.clone(), reopened_s.clone());
        tasks.push(tokio::spawn(async move {
            let answer = server::call(&client, addr, Method::GET, "/", &[], timeout).await;
            let ok = matches!(answer, CallAnswer::Whole { status: 200, .. });
            let now_s = model_s();
            if let Ok(mut b) = breaker.lock() {
                let was = b.state();
                b.record(now_s, ok);
                if was == BreakerState::HalfOpen
                    && b.state() != was
                    && let Ok(mut first) = reopened_s.lock()
                {
                    first.get_or_insert(now_s);
                }
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    api.stop().await;
    let reopened_at_s = reopened_s.lock().ok().and_then(|first| *first);
    Ok(HalfOpenRun {
        half_open_calls_first_s: first_s.load(Ordering::Relaxed),
        calls_first_s,
        reopened_at_s,
    })
}
