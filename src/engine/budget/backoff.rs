//! The resilience patterns note's retry, as its `RetryConfig` sets it up, and the other
//! sleeps the lab compares it with.
//!
//! The note's delay before retry `attempt` (0 = the first retry) is
//! `min(base * 2^attempt, cap)` moved by a uniform draw of up to ±25% of itself, with the
//! draw made as Python's `random.uniform(-range, range)` makes it, on the project's CPython
//! generator ([`PyRandom`]). Its retryable statuses are 429 and the 5xx it lists; anything
//! else (400, 401, 403, ...) fails at once. The note's "BAD" client sleeps a fixed second;
//! Lab 2's Full Jitter is [`crate::engine::retry::full_jitter_s`], used here as it is.

use crate::engine::pyrandom::PyRandom;
use crate::engine::retry::full_jitter_s;

/// The note's `RetryConfig` defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct NoteRetry {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    pub base_delay_ms: f64,
    pub max_delay_ms: f64,
    /// Share of the delay the draw may move it by, either way (0.25 = ±25%).
    pub jitter_factor: f64,
}

impl Default for NoteRetry {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            base_delay_ms: 100.0,
            max_delay_ms: 5_000.0,
            jitter_factor: 0.25,
        }
    }
}

/// The statuses the note's `RetryConfig` retries (`retryable_status_codes`).
pub const RETRYABLE_STATUSES: [u16; 5] = [429, 500, 502, 503, 504];

/// Whether the note's classification retries an answer with this status.
pub fn is_retryable(status: u16) -> bool {
    RETRYABLE_STATUSES.contains(&status)
}

impl NoteRetry {
    /// The delay before retry `attempt` (0 = the first retry), in ms: the note's
    /// `calculate_delay`, which returns seconds, times 1000.
    pub fn delay_ms(&self, rng: &mut PyRandom, attempt: u32) -> f64 {
        let capped = self.capped_ms(attempt);
        let range = capped * self.jitter_factor;
        (capped + rng.uniform(-range, range)).max(0.0)
    }

    /// `min(base * 2^attempt, cap)`: the delay before its jitter.
    pub fn capped_ms(&self, attempt: u32) -> f64 {
        (self.base_delay_ms * 2f64.powi(attempt as i32)).min(self.max_delay_ms)
    }
}

/// How a client sleeps between attempts in the herd scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sleep {
    /// The note's BAD example: `time.sleep(1)` whatever the attempt.
    FixedSecond,
    /// The note's backoff with ±25% jitter.
    PlusMinus25,
    /// Lab 2's Full Jitter: uniform in `[0, min(cap, base * 2^attempt))`.
    Full,
}

impl Sleep {
    pub const ALL: [Sleep; 3] = [Sleep::FixedSecond, Sleep::PlusMinus25, Sleep::Full];

    pub fn name(self) -> &'static str {
        match self {
            Sleep::FixedSecond => "fixed",
            Sleep::PlusMinus25 => "jitter25",
            Sleep::Full => "full",
        }
    }

    pub fn from_name(name: &str) -> Option<Sleep> {
        Sleep::ALL.into_iter().find(|sleep| sleep.name() == name)
    }

    /// The sleep before retry `attempt` (0 = the first retry), in ms. The jittered two use
    /// the note's base (100 ms) and cap (5 s), so that only the shape of the draw differs.
    pub fn delay_ms(self, retry: &NoteRetry, rng: &mut PyRandom, attempt: u32) -> f64 {
        match self {
            Sleep::FixedSecond => 1_000.0,
            Sleep::PlusMinus25 => retry.delay_ms(rng, attempt),
            Sleep::Full => {
                full_jitter_s(
                    rng,
                    attempt,
                    retry.base_delay_ms / 1_000.0,
                    retry.max_delay_ms / 1_000.0,
                ) * 1_000.0
            }
        }
    }
}

/// The generator of client (or request) `index` under `seed`: CPython's
/// `random.Random((seed << 32) | index)`, so that each client draws its own stream whatever
/// order a live run's tasks happen to run in.
pub fn stream(seed: u64, index: u32) -> PyRandom {
    PyRandom::new((u128::from(seed) << 32) | u128::from(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_delay_stays_within_a_quarter_of_the_doubling() {
        let retry = NoteRetry::default();
        let mut rng = PyRandom::new(42);
        for attempt in 0..8 {
            let capped = retry.capped_ms(attempt);
            let delay = retry.delay_ms(&mut rng, attempt);
            assert!((capped * 0.75..=capped * 1.25).contains(&delay), "{delay} for {capped}");
        }
        assert_eq!(retry.capped_ms(0), 100.0);
        assert_eq!(retry.capped_ms(1), 200.0);
        assert_eq!(retry.capped_ms(6), 5_000.0, "6,400 ms is capped at 5 s");
    }

    #[test]
    fn the_first_delay_is_pythons_uniform() {
        // python3 -c "import random; r=random.Random(42); print(100 + r.uniform(-25, 25))"
        let mut rng = PyRandom::new(42);
        let delay = NoteRetry::default().delay_ms(&mut rng, 0);
        assert_eq!(delay, 100.0 + (-25.0 + 50.0 * 0.6394267984578837));
    }

    #[test]
    fn only_429_and_the_listed_5xx_are_retried() {
        for status in [429, 500, 502, 503, 504] {
            assert!(is_retryable(status));
        }
        for status in [400, 401, 403, 404, 501] {
            assert!(!is_retryable(status));
        }
    }
}
