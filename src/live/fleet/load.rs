//! The clients: requests to the Service at the model's steady rate, bounded in count and
//! time, on pooled keep-alive connections ([`http::pooled_client`]), as a real client
//! library sends them. A fresh connection per request cost 571 us of CPU against 206 us
//! pooled (issue 27 item 13): at `--load-per-s 200 --time-scale 0.1` (2,000 real requests/s)
//! that alone used more than one of the machine's cores, and the replicas' probes timed out
//! for want of CPU. What a closed Service means to a client is kept: a refused connect is
//! `refused`, and a kept connection's answer that no endpoint is left is `refused` too.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::engine::fleet::{FleetParams, RequestOutcome};
use crate::live::database_client::API_PATH;
use crate::live::fleet::recorder::Recorder;
use crate::live::fleet::service::NO_ENDPOINT_BODY;
use crate::live::http::{self, GetOutcome, PooledClient};

/// The longest a client waits for one answer (real time): a bound, not a lesson.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(10);
/// Most requests out at once: one beyond it fails at once, unsent. A request out holds a
/// connection to the Service (both ends in this process) and one from the Service to a
/// replica (about 70 KB here, `benches/memory.sh`); the flags allow 2,000 real requests/s
/// into a black hole for 10 s each, 20,000 out, past the file limit. The scenarios' 10 to
/// 30 requests/s never come near.
const MAX_IN_FLIGHT: usize = 512;

/// When request `index` is sent, in model seconds, as the simulation sends it.
pub fn send_time_s(params: &FleetParams, index: u64) -> f64 {
    params.load_start_s + index as f64 / params.load_per_s
}

/// How many requests a run sends: those due before its end (as the simulation counts, in ms).
pub fn request_count(params: &FleetParams) -> u64 {
    if params.load_per_s <= 0.0 {
        return 0;
    }
    let end_ms = (params.duration_s * 1e3).round() as u64;
    let mut count = 0;
    while ((send_time_s(params, count) * 1e3).round() as u64) < end_ms {
        count += 1;
    }
    count
}

fn classify(answer: Option<GetOutcome>) -> RequestOutcome {
    match answer {
        Some(GetOutcome::Refused) => RequestOutcome::Refused,
        Some(GetOutcome::Answered { code: 200, body }) if body == "ok\n" => RequestOutcome::Ok,
        Some(GetOutcome::Answered { code: 200, body }) if body == "degraded\n" => RequestOutcome::Degraded,
        Some(GetOutcome::Answered { body, .. }) if body == NO_ENDPOINT_BODY => RequestOutcome::Refused,
        _ => RequestOutcome::Failed,
    }
}

/// One GET of the API through the pool: a connect the Service refused reads as `Refused`,
/// as a fresh connection's would.
async fn get_pooled(client: &PooledClient, service: SocketAddr) -> GetOutcome {
    use http_body_util::BodyExt;
    let Ok(uri) = format!("http://{service}{API_PATH}").parse::<hyper::Uri>() else {
        return GetOutcome::Failed("bad Service address".into());
    };
    match client.get(uri).await {
        Ok(response) => {
            let code = response.status().as_u16();
            match response.into_body().collect().await {
                Ok(body) => GetOutcome::Answered {
                    code,
                    body: String::from_utf8_lossy(&body.to_bytes()).into_owned(),
                },
                Err(err) => GetOutcome::Failed(err.to_string()),
            }
        }
        Err(err) if err.is_connect() => GetOutcome::Refused,
        Err(err) => GetOutcome::Failed(err.to_string()),
    }
}

/// Sends the run's requests to `service`, then waits for the last answers.
pub async fn run(service: SocketAddr, params: Arc<FleetParams>, recorder: Arc<Recorder>, stop: watch::Receiver<bool>) {
    let client = http::pooled_client();
    let mut requests = JoinSet::new();
    for index in 0..request_count(&params) {
        let sent_s = send_time_s(&params, index);
        tokio::time::sleep_until(recorder.clock.at(sent_s)).await;
        if *stop.borrow() {
            break;
        }
        // Reap finished ones as we go, so the set holds only what is in flight.
        while requests.try_join_next().is_some() {}
        if requests.len() >= MAX_IN_FLIGHT {
            // The client's pool is exhausted: the user sees a failure at once.
            recorder.request(sent_s, RequestOutcome::Failed);
            continue;
        }
        let recorder = Arc::clone(&recorder);
        let client = client.clone();
        requests.spawn(async move {
            let answer = tokio::time::timeout(CLIENT_TIMEOUT, get_pooled(&client, service)).await;
            recorder.request(sent_s, classify(answer.ok()));
        });
    }
    while requests.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fleet::{FleetScenario, simulate};

    #[test]
    fn the_live_load_sends_as_many_requests_as_the_simulation() {
        for scenario in FleetScenario::ALL {
            let params = FleetParams::scenario(scenario);
            assert_eq!(
                request_count(&params),
                simulate(&params).requests.total(),
                "{scenario:?}"
            );
        }
    }

    #[tokio::test]
    async fn the_load_reuses_its_connections_and_still_counts_refusals() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        // A Service stand-in that counts the connections it accepts and answers "ok".
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let service = listener.local_addr().expect("addr");
        let accepted = Arc::new(AtomicUsize::new(0));
        let counting = Arc::clone(&accepted);
        let server = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                counting.fetch_add(1, Ordering::SeqCst);
                let answer = hyper::service::service_fn(|_request| async {
                    Ok::<_, std::convert::Infallible>(http::text(hyper::StatusCode::OK, "ok\n"))
                });
                tokio::spawn(
                    hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), answer),
                );
            }
        });
        let mut params = FleetParams::atlas();
        // 100 requests, 2 ms apart in real time.
        (
            params.load_start_s,
            params.load_per_s,
            params.duration_s,
            params.time_scale,
        ) = (0.0, 50.0, 2.0, 0.1);
        let clock = crate::live::fleet::replica::Clock {
            started: tokio::time::Instant::now(),
            scale: params.time_scale,
        };
        let recorder = Arc::new(Recorder::new(&params, clock, None));
        let (_stop, stopped) = watch::channel(false);
        run(service, Arc::new(params.clone()), Arc::clone(&recorder), stopped).await;
        let requests = recorder.finish(&params).requests;
        assert_eq!(requests.ok, 100, "{requests:?}");
        // A connection per request was 100; a pool needs one per request in flight at once.
        let connections = accepted.load(Ordering::SeqCst);
        assert!(connections <= 10, "{connections} connections for 100 requests");
        server.abort();
        // A Service whose listener is closed is still a refusal through the pool.
        let (_stop, stopped) = watch::channel(false);
        let recorder = Arc::new(Recorder::new(
            &params,
            crate::live::fleet::replica::Clock {
                started: tokio::time::Instant::now(),
                scale: params.time_scale,
            },
            None,
        ));
        let closed = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("addr");
        run(closed, Arc::new(params.clone()), Arc::clone(&recorder), stopped).await;
        assert_eq!(recorder.finish(&params).requests.refused, 100);
    }

    #[test]
    fn answers_are_classified_by_code_and_body() {
        let answered = |code, body: &str| {
            Some(GetOutcome::Answered {
                code,
                body: body.to_string(),
            })
        };
        assert_eq!(classify(answered(200, "ok\n")), RequestOutcome::Ok);
        assert_eq!(classify(answered(200, "degraded\n")), RequestOutcome::Degraded);
        assert_eq!(classify(answered(503, NO_ENDPOINT_BODY)), RequestOutcome::Refused);
        assert_eq!(classify(answered(502, "failed: endpoint\n")), RequestOutcome::Failed);
        assert_eq!(classify(Some(GetOutcome::Refused)), RequestOutcome::Refused);
        assert_eq!(classify(None), RequestOutcome::Failed);
    }
}
