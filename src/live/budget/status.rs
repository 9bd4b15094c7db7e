//! Scenario `status` live: an API that answers every attempt with the same status, and the
//! note's client (`engine::budget::backoff::NoteRetry`) classifying it or retrying
//! everything, over real sockets. The server counts the attempts that reach it.
//!
//! The backoff sleeps are the engine's own draws (each call's seeded stream), time scaled
//! [`STATUS_SCALE`] so that 1,000 calls that retry take a fraction of a second; the counts
//! do not depend on the scale, and `backoff_ms_per_request` is reported in model ms.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hyper::{Method, StatusCode};

use crate::engine::budget::backoff::{NoteRetry, is_retryable, stream};
use crate::engine::budget::status::{StatusParams, StatusRun};
use crate::live::budget::server::{self, CallAnswer};
use crate::live::http;

/// Model ms per real ms of a backoff sleep: the note's 100 and 200 ms sleep 10 and 20 ms.
pub const STATUS_SCALE: f64 = 10.0;

/// Calls in flight at once: enough to keep both cores busy, few enough for the accept loop.
const CONCURRENCY: usize = 64;

/// How long one attempt may take before it counts as broken.
const ATTEMPT_LIMIT: Duration = Duration::from_secs(2);

/// Runs `p.requests` calls against a live API answering `p.status` and counts them.
pub async fn run_status(p: &StatusParams) -> std::io::Result<StatusRun> {
    let arrived = Arc::new(AtomicU64::new(0));
    let counted = arrived.clone();
    let code = StatusCode::from_u16(p.status).unwrap_or(StatusCode::BAD_REQUEST);
    let api = server::serve(move |_request| {
        let counted = counted.clone();
        async move {
            counted.fetch_add(1, Ordering::Relaxed);
            http::text(code, "the same answer every time\n")
        }
    })
    .await?;
    let permits = Arc::new(tokio::sync::Semaphore::new(CONCURRENCY));
    let client = http::pooled_client();
    let retry = NoteRetry::default();
    let mut tasks = Vec::new();
    for call in 0..p.requests {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            break;
        };
        let (client, addr, retry, p) = (client.clone(), api.addr, retry.clone(), p.clone());
        tasks.push(tokio::spawn(async move {
            let _permit = permit;
            let mut rng = stream(p.seed, call as u32);
            let mut slept_model_ms = 0.0;
            let mut attempts = 0u32;
            loop {
                attempts += 1;
                let answer = server::call(&client, addr, Method::GET, "/", &[], ATTEMPT_LIMIT).await;
                let status = match answer {
                    CallAnswer::Whole { status, .. } => status,
                    CallAnswer::Broken | CallAnswer::TimedOut => 599,
                };
                let retried = p.retry_client_errors || is_retryable(status);
                if (200..300).contains(&status) || !retried || attempts >= retry.max_attempts {
                    break;
                }
                let delay_ms = retry.delay_ms(&mut rng, attempts - 1);
                slept_model_ms += delay_ms;
                tokio::time::sleep(Duration::from_secs_f64(delay_ms / STATUS_SCALE / 1_000.0)).await;
            }
            (attempts, slept_model_ms)
        }));
    }
    let mut slept_model_ms = 0.0;
    for task in tasks {
        if let Ok((_, slept)) = task.await {
            slept_model_ms += slept;
        }
    }
    api.stop().await;
    // What reached the server, not what the clients believe they sent.
    let attempts = arrived.load(Ordering::Relaxed);
    let requests = p.requests.max(1);
    Ok(StatusRun {
        attempts,
        attempts_per_request: attempts as f64 / requests as f64,
        pointless_attempts: if is_retryable(p.status) {
            0
        } else {
            attempts.saturating_sub(p.requests)
        },
        backoff_ms_per_request: slept_model_ms / requests as f64,
    })
}
