//! The live twin's drill clock: real time since the drill started, in drill seconds, and
//! drill milliseconds turned into real waits. One scale for everything (arrivals, answer
//! times, timeouts, the deadline, the levers' moments), so that the drill's shape does not
//! change with it, only its speed.

use std::time::{Duration, Instant};

/// A started drill clock.
#[derive(Clone, Copy, Debug)]
pub struct DrillClock {
    epoch: Instant,
    /// Real milliseconds a drill second lasts.
    ms_per_drill_s: f64,
}

impl DrillClock {
    /// A clock whose drill second 0 is `delay` from now (the servers start and warm
    /// their connections first); before it, the clock reads 0.
    pub fn start_after(delay: Duration, ms_per_drill_s: f64) -> Self {
        Self {
            epoch: Instant::now() + delay,
            ms_per_drill_s,
        }
    }

    /// Real milliseconds a drill second lasts (whole: the scale is set in whole ms).
    pub fn ms_per_drill_s(&self) -> u64 {
        self.ms_per_drill_s.round() as u64
    }

    /// Drill seconds since the start.
    pub fn now_s(&self) -> f64 {
        Instant::now().saturating_duration_since(self.epoch).as_secs_f64() * 1_000.0 / self.ms_per_drill_s
    }

    /// The real moment of drill second `t_s`.
    pub fn instant_at(&self, t_s: f64) -> Instant {
        self.epoch + Duration::from_secs_f64(t_s.max(0.0) * self.ms_per_drill_s / 1_000.0)
    }

    /// How long `drill_ms` drill milliseconds last in real time.
    pub fn real(&self, drill_ms: f64) -> Duration {
        Duration::from_secs_f64(drill_ms.max(0.0) / 1_000.0 * self.ms_per_drill_s / 1_000.0)
    }

    /// A real duration in drill milliseconds.
    pub fn drill_ms(&self, real: Duration) -> f64 {
        real.as_secs_f64() * 1_000.0 * 1_000.0 / self.ms_per_drill_s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drill_and_real_time_convert_both_ways() {
        let clock = DrillClock::start_after(Duration::ZERO, 80.0);
        assert_eq!(clock.real(1_000.0), Duration::from_millis(80));
        assert!((clock.drill_ms(Duration::from_millis(8)) - 100.0).abs() < 1e-9);
        assert_eq!(clock.instant_at(2.0) - clock.instant_at(1.0), Duration::from_millis(80));
    }
}
