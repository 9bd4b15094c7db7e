//! The rate-limited third-party API and the note's clients against it (scenario
//! `retry-after`), on 127.0.0.1 in real time (4 s at the defaults, unscaled: `Retry-After`
//! counts whole seconds).
//!
//! The API answers 429 with `Retry-After` inside its window (the engine's
//! [`retry_after_s`]) and, outside it, enforces its documented limit with the engine's
//! [`TokenBucket`]. The clients are the note's retry ([`NoteRetry`]), ignoring the header
//! or honouring it behind one shared gate per client, as `engine::budget::retry_after`
//! simulates them.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use hyper::{Method, Request, StatusCode};

use crate::engine::budget::backoff::{NoteRetry, stream};
use crate::engine::budget::bucket::{self, BucketParams, BucketRun, TokenBucket};
use crate::engine::budget::retry_after::{self, RetryAfterParams, RetryAfterRun, retry_after_s};
use crate::engine::pyrandom::PyRandom;
use crate::live::budget::server::{self, CallAnswer};
use crate::live::http::{self, PooledClient};
use crate::live::loopback_server::LoopbackServer;

/// What the API counted.
#[derive(Debug, Default)]
pub struct ApiCounts {
    pub arrivals: AtomicU64,
    pub arrivals_in_window: AtomicU64,
    pub answered_429: AtomicU64,
}

/// The API's rules: a 429 window, and a documented limit (rate per s, burst) or none.
#[derive(Clone, Copy, Debug)]
pub struct ApiRules {
    pub window_start_ms: u64,
    pub window_end_ms: u64,
    pub limit: Option<(u64, u64)>,
}

/// Serves the API; its clock starts at `epoch`.
pub async fn serve_api(rules: ApiRules, epoch: Instant, counts: Arc<ApiCounts>) -> std::io::Result<LoopbackServer> {
    let limiter = Arc::new(Mutex::new(
        rules.limit.map(|(rate, burst)| TokenBucket::new(rate, burst)),
    ));
    server::serve(move |_request: Request<Incoming>| {
        let (limiter, counts) = (limiter.clone(), counts.clone());
        async move {
            let now = epoch.elapsed();
            counts.arrivals.fetch_add(1, Ordering::Relaxed);
            let mut retry_after =
                retry_after_s(now.as_secs_f64() * 1_000.0, rules.window_start_ms, rules.window_end_ms);
            if retry_after.is_some() {
                counts.arrivals_in_window.fetch_add(1, Ordering::Relaxed);
            } else if let Ok(mut guard) = limiter.lock()
                && let Some(bucket) = guard.as_mut()
                && let Err(wait_us) = bucket.try_acquire(now.as_micros() as u64)
            {
                retry_after = Some(wait_us.div_ceil(1_000_000).max(1));
            }
            match retry_after {
                Some(seconds) => {
                    counts.answered_429.fetch_add(1, Ordering::Relaxed);
                    let mut response = http::text(StatusCode::TOO_MANY_REQUESTS, "slow down\n");
                    response
                        .headers_mut()
                        .insert(hyper::header::RETRY_AFTER, seconds.into());
                    response
                }
                None => http::text(StatusCode::OK, "ok\n"),
            }
        }
    })
    .await
}

/// One client's shared state: its generator and its gate (ms since the run's start).
struct ClientState {
    rng: PyRandom,
    gate_ms: f64,
}

/// The client-side tallies of a window run.
#[derive(Debug, Default)]
struct WindowTally {
    calls: AtomicU64,
    succeeded: AtomicU64,
    gave_up: AtomicU64,
    exhausted: AtomicU64,
}

fn since_ms(epoch: Instant) -> f64 {
    epoch.elapsed().as_secs_f64() * 1_000.0
}

async fn sleep_until_ms(epoch: Instant, at_ms: f64) {
    tokio::time::sleep_until((epoch + Duration::from_secs_f64(at_ms.max(0.0) / 1_000.0)).into()).await;
}

/// One call of a client with the note's retry; returns when it succeeded, if it did, in ms.
async fn one_call(
    p: &RetryAfterParams,
    api: SocketAddr,
    client: &PooledClient,
    state: &Mutex<ClientState>,
    epoch: Instant,
    tally: &WindowTally,
) -> Option<f64> {
    let retry = NoteRetry::default();
    let begun_ms = since_ms(epoch);
    let mut earliest_ms = begun_ms;
    let mut attempt = 0;
    tally.calls.fetch_add(1, Ordering::Relaxed);
    loop {
        if p.honour {
            let gate_ms = state.lock().map_or(0.0, |s| s.gate_ms);
            let send_ms = earliest_ms.max(gate_ms);
            if send_ms > begun_ms + p.deadline_ms as f64 {
                tally.gave_up.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            sleep_until_ms(epoch, send_ms).await;
            // The gate may have moved while this call waited.
            if state.lock().is_ok_and(|s| s.gate_ms > since_ms(epoch)) {
                earliest_ms = since_ms(epoch);
                continue;
            }
        } else {
            sleep_until_ms(epoch, earliest_ms).await;
        }
        let answer = server::call(client, api, Method::GET, "/", &[], Duration::from_secs(5)).await;
        let now_ms = since_ms(epoch);
        match answer {
            CallAnswer::Whole { status: 200, .. } => {
                tally.succeeded.fetch_add(1, Ordering::Relaxed);
                return Some(now_ms - begun_ms);
            }
            CallAnswer::Whole {
                status: 429,
                retry_after_s,
                ..
            } => {
                let backoff_ms = {
                    let Ok(mut s) = state.lock() else { return None };
                    if p.honour {
                        let until = now_ms + retry_after_s.unwrap_or(0) as f64 * 1_000.0;
                        s.gate_ms = s.gate_ms.max(until);
                    }
                    if attempt + 1 >= retry.max_attempts {
                        tally.exhausted.fetch_add(1, Ordering::Relaxed);
                        return None;
                    }
                    retry.delay_ms(&mut s.rng, attempt)
                };
                earliest_ms = now_ms + backoff_ms;
                attempt += 1;
            }
            _ => return None,
        }
    }
}

/// A window run live: what the clients and the API counted, and each success's time.
pub async fn run_window(p: &RetryAfterParams) -> std::io::Result<(RetryAfterRun, Vec<f64>)> {
    let epoch = Instant::now();
    let counts = Arc::new(ApiCounts::default());
    let rules = ApiRules {
        window_start_ms: p.window_start_ms,
        window_end_ms: p.window_end_ms,
        limit: None,
    };
    let api = serve_api(rules, epoch, counts.clone()).await?;
    let tally = Arc::new(WindowTally::default());
    let params = Arc::new(p.clone());
    let mut tasks = Vec::new();
    for c in 0..p.clients {
        let state = Arc::new(Mutex::new(ClientState {
            rng: stream(p.seed, c),
            gate_ms: 0.0,
        }));
        let client = http::pooled_client();
        for index in 0.. {
            let at_ms = retry_after::call_at_ms(p, c, index);
            if at_ms >= p.duration_ms as f64 {
                break;
            }
            let (state, client, tally, params, addr) =
                (state.clone(), client.clone(), tally.clone(), params.clone(), api.addr);
            tasks.push(tokio::spawn(async move {
                sleep_until_ms(epoch, at_ms).await;
                one_call(&params, addr, &client, &state, epoch, &tally).await
            }));
        }
    }
    let mut done_ms = Vec::new();
    for task in tasks {
        if let Ok(Some(ms)) = task.await {
            done_ms.push(ms);
        }
    }
    api.stop().await;
    let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
    Ok((
        RetryAfterRun {
            calls: load(&tally.calls),
            arrivals: load(&counts.arrivals),
            arrivals_in_window: load(&counts.arrivals_in_window),
            answered_429: load(&counts.answered_429),
            succeeded: load(&tally.succeeded),
            gave_up_for_deadline: load(&tally.gave_up),
            exhausted: load(&tally.exhausted),
        },
        done_ms,
    ))
}

/// The bucket part live: evenly spaced calls, the client's bucket or none, the API's limit.
pub async fn run_bucket(p: &BucketParams) -> std::io::Result<BucketRun> {
    let epoch = Instant::now();
    let counts = Arc::new(ApiCounts::default());
    let rules = ApiRules {
        window_start_ms: 0,
        window_end_ms: 0,
        limit: Some((p.api_limit_per_s, p.api_burst)),
    };
    let api = serve_api(rules, epoch, counts.clone()).await?;
    let client = http::pooled_client();
    let mut own = TokenBucket::new(p.bucket_rate_per_s, p.bucket_burst);
    let mut run = BucketRun {
        calls: 0,
        api_429s: 0,
        local_rejections: 0,
        answered_200: 0,
    };
    let mut tasks = Vec::new();
    for index in 0.. {
        let at_us = bucket::call_at_us(index, p.demand_per_s);
        if at_us >= p.duration_ms * 1_000 {
            break;
        }
        tokio::time::sleep_until((epoch + Duration::from_micros(at_us)).into()).await;
        run.calls += 1;
        if p.token_bucket && own.try_acquire(epoch.elapsed().as_micros() as u64).is_err() {
            run.local_rejections += 1;
            continue;
        }
        let (client, addr) = (client.clone(), api.addr);
        tasks.push(tokio::spawn(async move {
            server::call(&client, addr, Method::GET, "/", &[], Duration::from_secs(5)).await
        }));
    }
    for task in tasks {
        match task.await {
            Ok(CallAnswer::Whole { status: 200, .. }) => run.answered_200 += 1,
            Ok(CallAnswer::Whole { status: 429, .. }) => run.api_429s += 1,
            _ => {}
        }
    }
    api.stop().await;
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// curl (written by others) honours Retry-After with --retry; the lab's honouring
    /// client waits the same. Skipped where curl is not installed.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn curl_and_the_honouring_client_wait_what_the_header_says() {
        if std::process::Command::new("curl").arg("--version").output().is_err() {
            eprintln!("curl is not installed: skipped");
            return;
        }
        // A window from 0 to 1.5 s: a call at once is told Retry-After: 2.
        let epoch = Instant::now();
        let rules = ApiRules {
            window_start_ms: 0,
            window_end_ms: 1_500,
            limit: None,
        };
        let api = serve_api(rules, epoch, Arc::new(ApiCounts::default()))
            .await
            .expect("serve");
        let url = format!("http://{}/", api.addr);
        // The body goes to a file of the test's own (curl could not write /dev/null here).
        let body = std::env::temp_dir().join(format!("resilience-lab-curl-{}.txt", std::process::id()));
        let body_arg = body.clone();
        let args = [
            "-s",
            "-w",
            "%{http_code} %{time_total}",
            "--retry",
            "2",
            "--max-time",
            "10",
        ];
        // time_total covers curl's last transfer only; the wait is the whole process's time.
        let curl_began = Instant::now();
        let curl = tokio::task::spawn_blocking(move || {
            std::process::Command::new("curl")
                .args(args)
                .arg("-o")
                .arg(body_arg)
                .arg(url)
                .output()
        });
        let output = tokio::time::timeout(Duration::from_secs(15), curl)
            .await
            .expect("curl ends")
            .expect("curl's task")
            .expect("curl runs");
        let curl_s = curl_began.elapsed().as_secs_f64();
        api.stop().await;
        let _ = std::fs::remove_file(&body);
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        let (code, _last_transfer_s) = text.split_once(' ').unwrap_or_else(|| {
            panic!(
                "curl {:?} printed {text:?}; {}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
        });
        assert_eq!(code, "200", "{text}");
        // Without the header curl would wait 1 s; a process start costs a little on top.
        assert!((1.9..2.9).contains(&curl_s), "curl waited {curl_s} s");

        let ours = RetryAfterParams {
            clients: 1,
            rate_per_s: 1,
            duration_ms: 1_000,
            window_start_ms: 0,
            window_end_ms: 1_500,
            deadline_ms: 5_000,
            ..RetryAfterParams::default()
        };
        let (run, done_ms) = run_window(&ours).await.expect("the client runs");
        assert_eq!((run.calls, run.succeeded, run.answered_429), (1, 1, 1));
        let ours_s = done_ms[0] / 1_000.0;
        assert!((1.9..2.5).contains(&ours_s), "the lab's client waited {ours_s} s");
        assert!((ours_s - curl_s).abs() < 0.6, "curl {curl_s} s, ours {ours_s} s");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn honouring_cuts_arrivals_in_the_window_live() {
        let ignoring = RetryAfterParams {
            honour: false,
            ..RetryAfterParams::default()
        };
        let honouring = RetryAfterParams::default();
        let (ignore, honour) = tokio::join!(run_window(&ignoring), run_window(&honouring));
        let (ignore, honour) = (ignore.expect("runs").0, honour.expect("runs").0);
        assert!(
            honour.arrivals_in_window * 10 <= ignore.arrivals_in_window,
            "{honour:?} {ignore:?}"
        );
        let bucket = run_bucket(&BucketParams::default()).await.expect("runs");
        assert_eq!(bucket.api_429s, 0, "{bucket:?}");
    }
}
