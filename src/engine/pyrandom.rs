//! A random number generator that returns what CPython's `random.Random` returns.
//!
//! The Atlas publishes its lab outputs from Python's `random` module. To reproduce those
//! numbers to the digit, the simulations draw from the same Mersenne Twister stream,
//! seeded the way CPython seeds it from an integer, and turn two 32-bit outputs into a
//! 53-bit float the way CPython's `random()` does.

use rand_mt::Mt;

/// CPython-compatible `random.Random(seed)` for integer seeds.
#[derive(Clone, Debug)]
pub struct PyRandom {
    twister: Mt,
}

impl PyRandom {
    /// Seeds like `random.Random(seed)` with a non-negative integer seed.
    ///
    /// CPython splits the seed into 32-bit words, least significant first, and feeds
    /// them to the Mersenne Twister's `init_by_array`; a seed of 0 is the key `[0]`.
    pub fn new(seed: u128) -> Self {
        let mut key = Vec::with_capacity(4);
        let mut rest = seed;
        loop {
            key.push((rest & 0xFFFF_FFFF) as u32);
            rest >>= 32;
            if rest == 0 {
                break;
            }
        }
        Self {
            twister: Mt::new_with_key(key),
        }
    }

    /// A float in [0, 1) with 53 random bits, exactly as `random.random()`.
    pub fn random(&mut self) -> f64 {
        let high_27_bits = self.twister.next_u32() >> 5;
        let low_26_bits = self.twister.next_u32() >> 6;
        (f64::from(high_27_bits) * 67_108_864.0 + f64::from(low_26_bits)) / 9_007_199_254_740_992.0
    }

    /// A float between `low` and `high`, exactly as `random.uniform(low, high)`.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.random()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_cpython_first_draws_for_seed_42() {
        // python3 -c "import random; r=random.Random(42); print(r.random(), r.random())"
        let mut rng = PyRandom::new(42);
        assert_eq!(rng.random(), 0.6394267984578837);
        assert_eq!(rng.random(), 0.025010755222666936);
    }
}
