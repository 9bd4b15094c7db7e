//! Percentiles of a live run's waits in constant memory.
//!
//! Lab 3 live used to keep every wait of every page view to sort them at the end, which
//! grows with the run. An HDR histogram keeps counts per value range instead: three
//! significant digits (a 200 ms timeout reads 200.0 ms, give or take 0.1 ms), from 1 us
//! to an hour, in about 200 KB whatever the number of calls.

use hdrhistogram::Histogram;

/// Waits from 1 us to an hour are told apart; longer ones count as an hour.
const MAX_US: u64 = 3_600_000_000;
const SIGNIFICANT_DIGITS: u8 = 3;

/// Durations in seconds, recorded to the microsecond.
#[derive(Clone, Debug)]
pub struct WaitHistogram(Histogram<u64>);

impl Default for WaitHistogram {
    fn default() -> Self {
        Self(Histogram::new_with_bounds(1, MAX_US, SIGNIFICANT_DIGITS).expect("constant bounds are valid"))
    }
}

impl WaitHistogram {
    /// Records one duration; negative ones count as 0 and overlong ones as the maximum.
    pub fn record_s(&mut self, seconds: f64) {
        let us = (seconds.max(0.0) * 1e6).round() as u64;
        self.0.saturating_record(us.min(MAX_US));
    }

    pub fn len(&self) -> u64 {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The `q` quantile in milliseconds (0 when nothing was recorded), as the Atlas's
    /// `sorted(waits)[int(len * q) - 1]` reads it, to the histogram's precision.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.0.is_empty() {
            return 0.0;
        }
        let len = self.0.len();
        // The Atlas takes element int(len * q) - 1 (the last when that is below 0): the
        // value with int(len * q) values at or below it.
        let rank = ((len as f64 * q) as u64).clamp(1, len);
        let quantile = rank as f64 / len as f64;
        self.0.value_at_quantile(quantile) as f64 / 1e3
    }

    /// The longest duration recorded, in milliseconds.
    pub fn max_ms(&self) -> f64 {
        self.0.max() as f64 / 1e3
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::atlas_percentile;

    #[test]
    fn quantiles_match_the_sorted_list_to_three_digits() {
        let waits_s: Vec<f64> = (0..6_000)
            .map(|i| {
                if i % 10 == 0 {
                    0.2
                } else {
                    0.04 + f64::from(i % 7) * 1e-3
                }
            })
            .collect();
        let mut histogram = WaitHistogram::default();
        for &wait in &waits_s {
            histogram.record_s(wait);
        }
        let mut sorted = waits_s.clone();
        sorted.sort_by(f64::total_cmp);
        for q in [0.5, 0.9, 0.99] {
            let exact_ms = atlas_percentile(&sorted, q) * 1e3;
            let read_ms = histogram.quantile_ms(q);
            assert!(
                (read_ms - exact_ms).abs() <= exact_ms * 1e-3,
                "q {q}: {read_ms} vs {exact_ms}"
            );
        }
        assert!((histogram.max_ms() - 200.0).abs() < 0.2);
        assert_eq!(histogram.len(), 6_000);
    }

    #[test]
    fn an_empty_histogram_reads_zero_and_odd_values_are_clamped() {
        let mut histogram = WaitHistogram::default();
        assert_eq!(histogram.quantile_ms(0.99), 0.0);
        histogram.record_s(-1.0);
        histogram.record_s(1e9);
        assert_eq!(histogram.len(), 2);
        assert!(histogram.max_ms() >= 3_599_000_000.0 / 1e3);
    }
}
