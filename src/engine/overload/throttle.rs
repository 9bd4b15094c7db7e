//! Client-side adaptive throttling (Google SRE book, "Handling Overload"), written once.
//!
//! The client counts, over a sliding window, the requests its application tried and the
//! ones the backend accepted. While requests stay under K x accepts it sends everything;
//! above that it refuses a new request locally, without a round trip, with probability
//! `max(0, (requests - K x accepts) / (requests + 1))`. K = 2 is the book's choice;
//! K = 1.1 protects the backend harder and wastes more during a short blip.

use std::collections::VecDeque;

/// The probability of a local rejection given the window's counts.
///
/// With K = 2, 3,000 requests and 1,000 accepts give 1,000 / 3,001: about one in three.
pub fn reject_probability(requests: u64, accepts: u64, k: f64) -> f64 {
    let requests = requests as f64;
    ((requests - k * accepts as f64) / (requests + 1.0)).max(0.0)
}

/// The window's counts, kept per whole second so the memory is bounded by the window.
#[derive(Clone, Debug)]
pub struct AdaptiveThrottle {
    k: f64,
    window_s: f64,
    /// (second, requests, accepts), oldest first.
    buckets: VecDeque<(i64, u64, u64)>,
    requests: u64,
    accepts: u64,
}

impl AdaptiveThrottle {
    /// `window_s`: how far back the counts reach (the book uses two minutes).
    pub fn new(k: f64, window_s: f64) -> Self {
        Self {
            k,
            window_s: window_s.max(1.0),
            buckets: VecDeque::new(),
            requests: 0,
            accepts: 0,
        }
    }

    pub fn k(&self) -> f64 {
        self.k
    }

    /// Changes K from now on (live retuning); the counts stay.
    pub fn set_k(&mut self, k: f64) {
        self.k = k;
    }

    /// Requests and accepts in the window as of the last call.
    pub fn counts(&self) -> (u64, u64) {
        (self.requests, self.accepts)
    }

    fn bucket(&mut self, now_s: f64) -> &mut (i64, u64, u64) {
        let second = now_s.floor() as i64;
        let oldest_kept = second - self.window_s.ceil() as i64 + 1;
        while let Some(&(s, requests, accepts)) = self.buckets.front() {
            if s >= oldest_kept {
                break;
            }
            self.requests -= requests;
            self.accepts -= accepts;
            self.buckets.pop_front();
        }
        if self.buckets.back().is_none_or(|b| b.0 != second) {
            self.buckets.push_back((second, 0, 0));
        }
        self.buckets.back_mut().expect("pushed above")
    }

    /// The rejection probability now, before counting a new request.
    pub fn probability(&mut self, now_s: f64) -> f64 {
        self.bucket(now_s);
        reject_probability(self.requests, self.accepts, self.k)
    }

    /// Counts a request the application tries at `now_s` and decides it: true means
    /// refuse it locally. `draw` is a uniform number in [0, 1) from the caller's generator.
    pub fn try_request(&mut self, now_s: f64, draw: f64) -> bool {
        let p = self.probability(now_s);
        self.bucket(now_s).1 += 1;
        self.requests += 1;
        draw < p
    }

    /// Counts an answer the backend accepted (not an overload refusal, not a timeout).
    pub fn accepted(&mut self, now_s: f64) {
        self.bucket(now_s).2 += 1;
        self.accepts += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lessons_arithmetic() {
        assert_eq!(reject_probability(3_000, 1_000, 2.0), 1_000.0 / 3_001.0);
        assert_eq!(
            reject_probability(1_500, 1_000, 2.0),
            0.0,
            "under K x accepts: send all"
        );
        // K = 1.1: the cutoff is 1,100, so far more is refused locally.
        assert_eq!(reject_probability(3_000, 1_000, 1.1), 1_900.0 / 3_001.0);
    }

    #[test]
    fn counts_slide_out_of_the_window() {
        let mut throttle = AdaptiveThrottle::new(2.0, 2.0);
        for _ in 0..3_000 {
            throttle.try_request(0.5, 1.0);
        }
        for _ in 0..1_000 {
            throttle.accepted(0.5);
        }
        assert_eq!(throttle.probability(1.5), 1_000.0 / 3_001.0);
        assert_eq!(throttle.probability(2.0), 0.0, "two seconds later the window is empty");
        assert_eq!(throttle.counts(), (0, 0));
    }
}
