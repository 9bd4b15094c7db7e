//! The fault schedule of Lab 3's dependency: what is wrong with it, and when.
//!
//! Pure data and arithmetic: the live dependency server asks [`FaultSchedule::fault_at`]
//! with seconds elapsed on its clock, a simulation could ask with virtual seconds, and the
//! TUI's "brown out now" / "heal" buttons set the manual override. The kind names
//! (`hang`, `slow`, `errors`, `refuse`) are the ones the CLI, the TUI and the lab file use.

use std::fmt;

use serde::Serialize;

/// What the sick dependency does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// Accepts the request and never answers: the caller's timeout ends the wait.
    Hang,
    /// Answers, but `slow_extra_ms` later than a healthy call.
    Slow,
    /// Answers at once with 500 for a share `error_ratio` of the requests.
    Errors,
    /// Closes its listener: connections are refused.
    Refuse,
}

impl FaultKind {
    /// Every kind, in the order menus list them.
    pub const ALL: [FaultKind; 4] = [FaultKind::Hang, FaultKind::Slow, FaultKind::Errors, FaultKind::Refuse];

    /// The name used on the command line, in the TUI and in lab files.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Hang => "hang",
            FaultKind::Slow => "slow",
            FaultKind::Errors => "errors",
            FaultKind::Refuse => "refuse",
        }
    }

    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A hand on the switch: overrides the scheduled window until cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ManualOverride {
    /// "Brown out now": the fault applies whatever the window says.
    Sick,
    /// "Heal": the dependency is healthy whatever the window says.
    Healthy,
}

/// One fault kind over one window `[start_s, end_s)`, plus an optional manual override.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FaultSchedule {
    pub kind: FaultKind,
    pub start_s: f64,
    pub end_s: f64,
    /// Latency added to a healthy answer by the `slow` fault.
    pub slow_extra_ms: f64,
    /// Share of requests (0 to 1) the `errors` fault answers with 500.
    pub error_ratio: f64,
    /// When set, replaces the window (the TUI's buttons).
    pub manual: Option<ManualOverride>,
}

/// Latency the `slow` fault adds by default: above healthy, below the default timeout,
/// so the lesson is "slow is not failed" (a count-based breaker does not see it).
pub const DEFAULT_SLOW_EXTRA_MS: f64 = 120.0;

impl FaultSchedule {
    /// `kind` over `[start_s, end_s)`, with the default slow latency and every request erroring.
    pub fn window(kind: FaultKind, start_s: f64, end_s: f64) -> Self {
        Self {
            kind,
            start_s,
            end_s,
            slow_extra_ms: DEFAULT_SLOW_EXTRA_MS,
            error_ratio: 1.0,
            manual: None,
        }
    }

    /// Whether the dependency is sick at `now_s` (the override wins over the window).
    pub fn is_sick(&self, now_s: f64) -> bool {
        match self.manual {
            Some(ManualOverride::Sick) => true,
            Some(ManualOverride::Healthy) => false,
            None => self.start_s <= now_s && now_s < self.end_s,
        }
    }

    /// The fault in force at `now_s`; `None` means healthy.
    pub fn fault_at(&self, now_s: f64) -> Option<FaultKind> {
        self.is_sick(now_s).then_some(self.kind)
    }

    /// Whether the `errors` fault fails the request numbered `index` (0, 1, 2, ... among
    /// the requests it has seen): spreads `error_ratio` evenly, with no randomness, so
    /// ratio 0.5 fails every second request and 1.0 fails all.
    pub fn errors_request(&self, index: u64) -> bool {
        let ratio = self.error_ratio.clamp(0.0, 1.0);
        ((index + 1) as f64 * ratio).floor() > (index as f64 * ratio).floor()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in FaultKind::ALL {
            assert_eq!(FaultKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(FaultKind::from_name("flaky"), None);
    }

    #[test]
    fn window_is_half_open_and_override_wins() {
        let mut schedule = FaultSchedule::window(FaultKind::Hang, 10.0, 40.0);
        assert_eq!(schedule.fault_at(9.99), None);
        assert_eq!(schedule.fault_at(10.0), Some(FaultKind::Hang));
        assert_eq!(schedule.fault_at(40.0), None);
        schedule.manual = Some(ManualOverride::Healthy);
        assert_eq!(schedule.fault_at(20.0), None);
        schedule.manual = Some(ManualOverride::Sick);
        assert_eq!(schedule.fault_at(50.0), Some(FaultKind::Hang));
    }

    #[test]
    fn error_ratio_is_spread_evenly() {
        let mut schedule = FaultSchedule::window(FaultKind::Errors, 0.0, 1.0);
        schedule.error_ratio = 0.5;
        let failed = (0..100).filter(|&i| schedule.errors_request(i)).count();
        assert_eq!(failed, 50);
        schedule.error_ratio = 1.0;
        assert!((0..10).all(|i| schedule.errors_request(i)));
        schedule.error_ratio = 0.0;
        assert!(!(0..10).any(|i| schedule.errors_request(i)));
    }
}
