//! A token bucket, the note's `TokenBucketLimiter`, in whole micro-tokens and microseconds.
//!
//! The bucket starts full, refills `rate_per_s` tokens a second up to `capacity`, and each
//! request takes one token; without one the request is refused, with the wait until the
//! next token (the note's `retry_after`). Counting in integers (a token is 1,000,000 units,
//! time is in µs) keeps "exactly one token left" exact, so a run's 429s do not depend on
//! rounding. The lab uses it twice: as the client's own limiter (the note's 10 per second,
//! burst 20) and as the third-party API's documented limit.

/// Units in one token.
const UNITS: u64 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenBucket {
    rate_per_s: u64,
    capacity: u64,
    /// Tokens now, in [`UNITS`] (rate_per_s tokens a second is rate_per_s units a µs).
    units: u64,
    last_us: u64,
}

impl TokenBucket {
    /// A full bucket at time 0.
    pub fn new(rate_per_s: u64, capacity: u64) -> Self {
        Self {
            rate_per_s,
            capacity,
            units: capacity * UNITS,
            last_us: 0,
        }
    }

    fn refill(&mut self, now_us: u64) {
        let elapsed_us = now_us.saturating_sub(self.last_us);
        self.units = (self.units + self.rate_per_s.saturating_mul(elapsed_us)).min(self.capacity * UNITS);
        self.last_us = self.last_us.max(now_us);
    }

    /// Takes a token at `now_us`, or says how many µs until one is there.
    pub fn try_acquire(&mut self, now_us: u64) -> Result<(), u64> {
        self.refill(now_us);
        if self.units >= UNITS {
            self.units -= UNITS;
            Ok(())
        } else {
            let deficit = UNITS - self.units;
            Err(deficit.div_ceil(self.rate_per_s.max(1)))
        }
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BucketParams {
    /// Calls per second the application wants to make to the API.
    pub demand_per_s: u64,
    pub duration_ms: u64,
    /// Whether the client's own bucket runs before each call.
    pub token_bucket: bool,
    pub bucket_rate_per_s: u64,
    pub bucket_burst: u64,
    /// The API's documented limit: a sustained rate and a burst.
    pub api_limit_per_s: u64,
    pub api_burst: u64,
}

impl Default for BucketParams {
    fn default() -> Self {
        Self {
            demand_per_s: 30,
            duration_ms: 4_000,
            token_bucket: true,
            bucket_rate_per_s: 10,
            bucket_burst: 20,
            api_limit_per_s: 15,
            api_burst: 20,
        }
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BucketRun {
    pub calls: u64,
    /// Answers of 429 from the API.
    pub api_429s: u64,
    /// Calls the client's bucket refused before sending (they take their fallback).
    pub local_rejections: u64,
    pub answered_200: u64,
}

/// When call `index` of `demand_per_s` evenly spaced calls goes out, in µs.
pub fn call_at_us(index: u64, demand_per_s: u64) -> u64 {
    index * 1_000_000 / demand_per_s.max(1)
}

/// The calls of one run, each once (no retries: the limiter alone is compared).
pub fn run(p: &BucketParams) -> BucketRun {
    let mut client = TokenBucket::new(p.bucket_rate_per_s, p.bucket_burst);
    let mut api = TokenBucket::new(p.api_limit_per_s, p.api_burst);
    let mut run = BucketRun {
        calls: 0,
        api_429s: 0,
        local_rejections: 0,
        answered_200: 0,
    };
    let end_us = p.duration_ms * 1_000;
    for index in 0.. {
        let at_us = call_at_us(index, p.demand_per_s);
        if at_us >= end_us {
            break;
        }
        run.calls += 1;
        if p.token_bucket && client.try_acquire(at_us).is_err() {
            run.local_rejections += 1;
            continue;
        }
        match api.try_acquire(at_us) {
            Ok(()) => run.answered_200 += 1,
            Err(_) => run.api_429s += 1,
        }
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_refills_and_says_how_long_to_wait() {
        let mut bucket = TokenBucket::new(10, 2);
        assert_eq!(bucket.try_acquire(0), Ok(()));
        assert_eq!(bucket.try_acquire(0), Ok(()));
        assert_eq!(bucket.try_acquire(0), Err(100_000), "a token every 100 ms");
        assert_eq!(bucket.try_acquire(60_000), Err(40_000));
        assert_eq!(bucket.try_acquire(100_000), Ok(()));
        assert_eq!(
            bucket.try_acquire(10_000_000),
            Ok(()),
            "refilled to its capacity, no more"
        );
        assert_eq!(bucket.try_acquire(10_000_000), Ok(()));
        assert!(bucket.try_acquire(10_000_000).is_err());
    }

    #[test]
    fn under_80_percent_of_the_limit_no_429() {
        let with = run(&BucketParams::default());
        assert_eq!(with.api_429s, 0);
        assert_eq!((with.calls, with.local_rejections, with.answered_200), (120, 61, 59));
        let without = run(&BucketParams {
            token_bucket: false,
            ..BucketParams::default()
        });
        assert_eq!((without.api_429s, without.answered_200), (41, 79));
    }
}
