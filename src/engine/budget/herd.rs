//! Scenario `herd`: clients that failed together retry together, or do not.
//!
//! `clients` clients each make a call at time 0, when the dependency has just gone down
//! for `outage_ms`; a failed call is answered at once. Each client sleeps and tries again
//! until a call lands after the outage (at most [`MAX_ATTEMPTS`] attempts). How they sleep
//! ([`Sleep`]): the note's BAD fixed second, the note's backoff with ±25% jitter, or Lab 2's
//! Full Jitter. The lesson's number is the peak: the most calls landing in one 10 ms slot
//! (`floor(t / 10 ms)`) once the dependency is back.
//!
//! Convention: client `c` draws from `backoff::stream(seed, c)`, one draw per sleep.

use serde::Serialize;

use crate::engine::budget::backoff::{NoteRetry, Sleep, stream};

/// Attempts a client makes at most (the first included).
pub const MAX_ATTEMPTS: u32 = 10;
/// The width of a slot of the peak.
pub const SLOT_MS: f64 = 10.0;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HerdParams {
    pub clients: u32,
    pub outage_ms: u64,
    pub seed: u64,
}

impl Default for HerdParams {
    fn default() -> Self {
        Self {
            clients: 1_000,
            outage_ms: 2_000,
            seed: 42,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HerdRun {
    pub sleep: &'static str,
    /// Most calls in one 10 ms slot after the outage, and when that slot begins.
    pub peak_per_10ms: u64,
    pub peak_at_ms: f64,
    /// Calls made in all, and clients that ran out of attempts inside the outage.
    pub attempts: u64,
    pub gave_up: u64,
    /// When each client's first call after the outage landed, for the chart.
    pub landed_ms: Vec<f64>,
}

/// The times of client `client`'s calls: the first at 0, then one after each sleep, until
/// one lands at or after `outage_ms`.
pub fn call_times_ms(p: &HerdParams, sleep: Sleep, client: u32) -> Vec<f64> {
    let retry = NoteRetry::default();
    let mut rng = stream(p.seed, client);
    let mut times = vec![0.0];
    let mut now_ms = 0.0;
    for attempt in 0..MAX_ATTEMPTS - 1 {
        if now_ms >= p.outage_ms as f64 {
            break;
        }
        now_ms += sleep.delay_ms(&retry, &mut rng, attempt);
        times.push(now_ms);
    }
    times
}

pub fn run(p: &HerdParams, sleep: Sleep) -> HerdRun {
    let mut slots: std::collections::BTreeMap<u64, u64> = std::collections::BTreeMap::new();
    let mut attempts = 0;
    let mut gave_up = 0;
    let mut landed_ms = Vec::new();
    for client in 0..p.clients {
        let times = call_times_ms(p, sleep, client);
        attempts += times.len() as u64;
        match times.last() {
            Some(&last) if last >= p.outage_ms as f64 => {
                landed_ms.push(last);
                *slots.entry((last / SLOT_MS).floor() as u64).or_default() += 1;
            }
            _ => gave_up += 1,
        }
    }
    // The earliest of the fullest slots.
    let (slot, peak) = slots.iter().fold(
        (0, 0),
        |best, (&slot, &count)| if count > best.1 { (slot, count) } else { best },
    );
    HerdRun {
        sleep: sleep.name(),
        peak_per_10ms: peak,
        peak_at_ms: slot as f64 * SLOT_MS,
        attempts,
        gave_up,
        landed_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_second_brings_every_client_back_in_one_slot() {
        let run = run(&HerdParams::default(), Sleep::FixedSecond);
        assert_eq!(run.peak_per_10ms, 1_000);
        assert_eq!(run.peak_at_ms, 2_000.0);
        assert_eq!(run.attempts, 3_000, "at 0, 1 s and 2 s");
    }

    #[test]
    fn jitter_spreads_the_return() {
        let p = HerdParams::default();
        let quarter = run(&p, Sleep::PlusMinus25);
        let full = run(&p, Sleep::Full);
        assert_eq!(quarter.peak_per_10ms, 22);
        assert_eq!(full.peak_per_10ms, 15);
        assert_eq!((quarter.gave_up, full.gave_up), (0, 0));
    }
}
