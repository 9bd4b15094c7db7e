//! Payments on 127.0.0.1 with commit-then-drop and idempotency keys (scenario
//! `duplicates`). Commit-then-drop commits the charge and then sends nothing
//! ([`server::dropped_answer`]). The orders that meet the fault come from the engine's
//! [`planned_drops`], the same plan the simulation counts, so the live run's duplicates
//! are the simulation's exactly. The charges are the engine's [`Ledger`].

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::{Method, Request, StatusCode};

use crate::engine::budget::backoff::{NoteRetry, stream};
use crate::engine::budget::duplicates::{DuplicatesParams, DuplicatesRun, Ledger, idempotency_key, planned_drops};
use crate::live::budget::server::{self, CallAnswer};
use crate::live::http;

/// The header a client sends its key in (the IETF draft's name, as Stripe and others use).
pub const IDEMPOTENCY_HEADER: &str = "idempotency-key";
/// Orders in flight at once.
const CONCURRENCY: usize = 32;

#[derive(Default)]
struct Payments {
    ledger: Ledger,
    seen: HashSet<u64>,
}

/// Charges `requests` orders against a live payments server and counts what it did.
pub async fn run_duplicates(p: &DuplicatesParams) -> std::io::Result<DuplicatesRun> {
    let plan = Arc::new(planned_drops(p.seed, p.requests, p.drop_share));
    let state = Arc::new(Mutex::new(Payments::default()));
    let attempts = Arc::new(AtomicU64::new(0));
    let dropped = Arc::new(AtomicU64::new(0));
    let (server_state, server_plan, server_attempts, server_dropped) =
        (state.clone(), plan.clone(), attempts.clone(), dropped.clone());
    let served = server::serve(move |request: Request<Incoming>| {
        let order = server::query(&request, "order").and_then(|v| v.parse::<u64>().ok());
        let key = server::header(&request, IDEMPOTENCY_HEADER).map(str::to_string);
        let (state, plan, attempts, dropped) = (
            server_state.clone(),
            server_plan.clone(),
            server_attempts.clone(),
            server_dropped.clone(),
        );
        async move {
            let Some(order) = order else {
                return http::text(StatusCode::BAD_REQUEST, "order=N is required\n");
            };
            attempts.fetch_add(1, Ordering::Relaxed);
            let (first, charge) = match state.lock() {
                Ok(mut s) => (s.seen.insert(order), s.ledger.charge(key.as_deref()).0),
                Err(_) => return http::text(StatusCode::INTERNAL_SERVER_ERROR, "ledger\n"),
            };
            if first && plan.get(order as usize).copied().unwrap_or(false) {
                dropped.fetch_add(1, Ordering::Relaxed);
                return server::dropped_answer().await;
            }
            http::text(StatusCode::OK, format!("charge {charge}\n"))
        }
    })
    .await?;
    let permits = Arc::new(tokio::sync::Semaphore::new(CONCURRENCY));
    let client = http::pooled_client();
    let mut tasks = Vec::new();
    for order in 0..p.requests {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            break;
        };
        let (client, addr, with_key, seed) = (client.clone(), served.addr, p.idempotency_key, p.seed);
        tasks.push(tokio::spawn(async move {
            let _permit = permit;
            // Made once, outside the retry loop: every attempt carries the same key.
            let headers: Vec<(&str, String)> = if with_key {
                vec![(IDEMPOTENCY_HEADER, idempotency_key(order))]
            } else {
                Vec::new()
            };
            let retry = NoteRetry::default();
            let mut rng = stream(seed, order as u32);
            for attempt in 0..retry.max_attempts {
                let path = format!("/charge?order={order}");
                let answer = server::call(&client, addr, Method::POST, &path, &headers, server::ATTEMPT_LIMIT).await;
                if matches!(answer, CallAnswer::Whole { status: 200, .. }) {
                    return;
                }
                tokio::time::sleep(Duration::from_secs_f64(retry.delay_ms(&mut rng, attempt) / 1_000.0)).await;
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    served.stop().await;
    let charges = state.lock().map_or(0, |s| s.ledger.charges);
    Ok(DuplicatesRun {
        requests: p.requests,
        dropped_after_commit: dropped.load(Ordering::Relaxed),
        duplicates: charges.saturating_sub(p.requests),
        charges,
        attempts: attempts.load(Ordering::Relaxed),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn live_duplicates_are_the_simulations_exactly() {
        for key in [false, true] {
            let p = DuplicatesParams {
                requests: 300,
                drop_share: 0.1,
                idempotency_key: key,
                seed: 7,
            };
            let live = run_duplicates(&p).await.expect("payments runs");
            let sim = crate::engine::budget::duplicates::run(&p);
            assert_eq!(live, sim, "key {key}");
        }
    }
}
