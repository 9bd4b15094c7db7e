//! Scenario `status`: answers that will not change (400, 401, 403), retried or not.
//!
//! Every attempt of every call gets the same status. The note's client classifies: it
//! retries 429 and the 5xx it lists, and gives up at once on anything else; the note's own
//! MUST NOT says never to retry 400, 401 or 403. A client that retries every failure (its
//! BAD example's habit) makes all 3 attempts, and sleeps its backoff between them, for an
//! answer that was never going to change.

use serde::Serialize;

use crate::engine::budget::backoff::{NoteRetry, is_retryable, stream};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatusParams {
    pub status: u16,
    pub requests: u64,
    /// Retry every failure, classified or not.
    pub retry_client_errors: bool,
    pub seed: u64,
}

impl Default for StatusParams {
    fn default() -> Self {
        Self {
            status: 400,
            requests: 1_000,
            retry_client_errors: false,
            seed: 42,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatusRun {
    pub attempts: u64,
    pub attempts_per_request: f64,
    /// Attempts after the first on a status the classification does not retry.
    pub pointless_attempts: u64,
    /// Mean time a call spent sleeping between its attempts, in ms.
    pub backoff_ms_per_request: f64,
}

/// The statuses the scenario offers.
pub const STATUSES: [u16; 8] = [400, 401, 403, 429, 500, 502, 503, 504];

pub fn run(p: &StatusParams) -> StatusRun {
    let retry = NoteRetry::default();
    let retried = p.retry_client_errors || is_retryable(p.status);
    let per_call = if retried { retry.max_attempts } else { 1 };
    let mut sleep_ms = 0.0;
    for call in 0..p.requests {
        let mut rng = stream(p.seed, call as u32);
        for attempt in 0..per_call - 1 {
            sleep_ms += retry.delay_ms(&mut rng, attempt);
        }
    }
    let attempts = p.requests * u64::from(per_call);
    let pointless = if is_retryable(p.status) {
        0
    } else {
        attempts - p.requests
    };
    StatusRun {
        attempts,
        attempts_per_request: attempts as f64 / p.requests.max(1) as f64,
        pointless_attempts: pointless,
        backoff_ms_per_request: sleep_ms / p.requests.max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_400_is_tried_once_or_three_times() {
        for status in [400, 401, 403] {
            let classified = run(&StatusParams {
                status,
                ..StatusParams::default()
            });
            assert_eq!(classified.attempts_per_request, 1.0);
            assert_eq!(classified.pointless_attempts, 0);
            assert_eq!(classified.backoff_ms_per_request, 0.0);
            let everything = run(&StatusParams {
                status,
                retry_client_errors: true,
                ..StatusParams::default()
            });
            assert_eq!(everything.attempts_per_request, 3.0);
            assert_eq!(everything.pointless_attempts, 2_000);
            // 100 ms and 200 ms, each ±25%: between 225 and 375 ms a call.
            assert!((225.0..=375.0).contains(&everything.backoff_ms_per_request));
        }
    }

    #[test]
    fn a_503_is_retried_either_way() {
        let run = run(&StatusParams {
            status: 503,
            ..StatusParams::default()
        });
        assert_eq!(run.attempts_per_request, 3.0);
        assert_eq!(run.pointless_attempts, 0);
    }
}
