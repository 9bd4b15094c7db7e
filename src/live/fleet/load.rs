//! The clients: requests to the Service at the model's steady rate, each on a fresh
//! connection (so a closed Service is a refused connection), bounded in count and time.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::engine::fleet::{FleetParams, Outcome};
use crate::live::database_client::API_PATH;
use crate::live::fleet::recorder::Recorder;
use crate::live::fleet::service::NO_ENDPOINT_BODY;
use crate::live::http::{self, GetOutcome};

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

fn classify(answer: Option<GetOutcome>) -> Outcome {
    match answer {
        Some(GetOutcome::Refused) => Outcome::Refused,
        Some(GetOutcome::Answered { code: 200, body }) if body == "ok\n" => Outcome::Ok,
        Some(GetOutcome::Answered { code: 200, body }) if body == "degraded\n" => Outcome::Degraded,
        Some(GetOutcome::Answered { body, .. }) if body == NO_ENDPOINT_BODY => Outcome::Refused,
        _ => Outcome::Failed,
    }
}

/// Sends the run's requests to `service`, then waits for the last answers.
pub async fn run(service: SocketAddr, params: Arc<FleetParams>, recorder: Arc<Recorder>, stop: watch::Receiver<bool>) {
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
            recorder.request(sent_s, Outcome::Failed);
            continue;
        }
        let recorder = Arc::clone(&recorder);
        requests.spawn(async move {
            let answer = tokio::time::timeout(CLIENT_TIMEOUT, http::get_once(service, API_PATH)).await;
            recorder.request(sent_s, classify(answer.ok()));
        });
    }
    while requests.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fleet::{Scenario, simulate};

    #[test]
    fn the_live_load_sends_as_many_requests_as_the_simulation() {
        for scenario in Scenario::ALL {
            let params = FleetParams::scenario(scenario);
            assert_eq!(
                request_count(&params),
                simulate(&params).requests.total(),
                "{scenario:?}"
            );
        }
    }

    #[test]
    fn answers_are_classified_by_code_and_body() {
        let answered = |code, body: &str| {
            Some(GetOutcome::Answered {
                code,
                body: body.to_string(),
            })
        };
        assert_eq!(classify(answered(200, "ok\n")), Outcome::Ok);
        assert_eq!(classify(answered(200, "degraded\n")), Outcome::Degraded);
        assert_eq!(classify(answered(503, NO_ENDPOINT_BODY)), Outcome::Refused);
        assert_eq!(classify(answered(502, "failed: endpoint\n")), Outcome::Failed);
        assert_eq!(classify(Some(GetOutcome::Refused)), Outcome::Refused);
        assert_eq!(classify(None), Outcome::Failed);
    }
}
