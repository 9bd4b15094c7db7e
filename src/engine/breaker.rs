//! A count-based circuit breaker: closed, open, half-open, closed again.
//!
//! This is the one breaker of the project. The Lab 3 simulation feeds it virtual time;
//! the live lab feeds it seconds elapsed on a real clock. Its logic is the Atlas's:
//! the window counts call outcomes while closed, a failure rate at or above the
//! threshold (once `min_calls` outcomes are in) opens it, after `open_s` the next call
//! moves it to half-open, where `trial_calls` trial calls decide: one failure reopens
//! it, all of them succeeding closes it.
//!
//! How many calls half-open lets through is a choice ([`HalfOpenAdmission`]): the Atlas's
//! `trial_calls` in all (the default), one probe at a time, or, as the resilience patterns
//! note's `CircuitBreaker` does despite its docstring, every call until a result decides.

use std::collections::VecDeque;
use std::fmt;

use serde::Serialize;

/// The three states of a breaker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakerState {
    /// Calls flow; outcomes are counted.
    Closed,
    /// Calls fail at once, without being made.
    Open,
    /// A few trial calls decide whether to close or reopen.
    HalfOpen,
}

impl BreakerState {
    pub fn name(self) -> &'static str {
        match self {
            BreakerState::Closed => "closed",
            BreakerState::Open => "open",
            BreakerState::HalfOpen => "half_open",
        }
    }
}

impl fmt::Display for BreakerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The breaker's tuning, as the Atlas and Resilience4j name it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BreakerConfig {
    /// How many recent outcomes the failure rate is computed over.
    pub window: usize,
    /// Outcomes needed before the breaker may open at all.
    pub min_calls: usize,
    /// Failure ratio (0.5 = 50%) at or above which the breaker opens.
    pub threshold: f64,
    /// How long the breaker stays open before it lets trial calls through.
    pub open_s: f64,
    /// Trial calls allowed in half-open; all must succeed to close.
    pub trial_calls: u32,
}

impl Default for BreakerConfig {
    /// The Atlas's Lab 3 settings.
    fn default() -> Self {
        Self {
            window: 20,
            min_calls: 10,
            threshold: 0.5,
            open_s: 5.0,
            trial_calls: 3,
        }
    }
}

/// How many calls a half-open breaker lets through before their results decide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HalfOpenAdmission {
    /// `trial_calls` calls in each half-open period, the Atlas's breaker (and Resilience4j's).
    #[default]
    TrialCalls,
    /// At most this many calls in flight at once; the breaker still closes after
    /// `trial_calls` successes. `InFlight(1)` is the one probe the note's docstring promises.
    InFlight(u32),
    /// Every call, as the note's `CircuitBreaker.call` does: nothing limits half-open, so all
    /// callers reach the dependency until the first failure reopens it.
    Unlimited,
}

/// One change of state, with the time it happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Transition {
    pub t_s: f64,
    pub from: BreakerState,
    pub to: BreakerState,
}

impl fmt::Display for Transition {
    /// The Atlas's log line, e.g. `t=10.29s closed -> open`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={:5.2}s {} -> {}", self.t_s, self.from, self.to)
    }
}

/// A count-based circuit breaker driven by the caller's clock.
#[derive(Clone, Debug)]
pub struct Breaker {
    config: BreakerConfig,
    state: BreakerState,
    /// Outcomes of recent calls while closed, oldest first (true = success).
    results: VecDeque<bool>,
    /// The failures among `results`, kept as outcomes enter and leave the window so that
    /// recording a call costs the same whatever the window's size.
    failures: usize,
    /// When the breaker last opened; the open period counts from here.
    opened_at_s: f64,
    /// Trial calls let through in the current half-open period.
    trials: u32,
    /// Trial calls that succeeded in the current half-open period.
    trial_successes: u32,
    /// How many calls half-open admits ([`Breaker::with_half_open_admission`]).
    half_open_admission: HalfOpenAdmission,
    /// Trial calls admitted and not yet recorded, for [`HalfOpenAdmission::InFlight`].
    trials_in_flight: u32,
    /// The first [`TRANSITION_LOG_LIMIT`] state changes, oldest first.
    transitions: Vec<Transition>,
    /// State changes after the log was full: counted, not kept.
    transitions_not_kept: u64,
}

/// State changes a breaker keeps in its log. A breaker with `open_s` 0 in front of a hung
/// dependency changes state on nearly every call: the flags' longest run (10,000 calls/s for
/// an hour) made 57 million changes and took 8 GB to log and print them. The lesson's runs
/// make a few dozen; the app's sliders at most a few hundred.
pub const TRANSITION_LOG_LIMIT: usize = 10_000;

impl Breaker {
    pub fn new(config: BreakerConfig) -> Self {
        Self {
            config,
            state: BreakerState::Closed,
            results: VecDeque::new(),
            failures: 0,
            opened_at_s: 0.0,
            trials: 0,
            trial_successes: 0,
            half_open_admission: HalfOpenAdmission::TrialCalls,
            trials_in_flight: 0,
            transitions: Vec::new(),
            transitions_not_kept: 0,
        }
    }

    /// The same breaker with another rule for how many calls half-open admits.
    pub fn with_half_open_admission(mut self, admission: HalfOpenAdmission) -> Self {
        self.half_open_admission = admission;
        self
    }

    pub fn state(&self) -> BreakerState {
        self.state
    }

    pub fn config(&self) -> &BreakerConfig {
        &self.config
    }

    /// Retunes a running breaker; the window shrinks at once if it is now smaller.
    pub fn set_config(&mut self, config: BreakerConfig) {
        while self.results.len() > config.window {
            self.forget_oldest();
        }
        self.config = config;
    }

    /// The state changes so far, oldest first: all of them, or the first
    /// [`TRANSITION_LOG_LIMIT`] (see [`Breaker::transitions_not_kept`]).
    pub fn transitions(&self) -> &[Transition] {
        &self.transitions
    }

    /// State changes made after the log held [`TRANSITION_LOG_LIMIT`].
    pub fn transitions_not_kept(&self) -> u64 {
        self.transitions_not_kept
    }

    /// Failure ratio of the outcomes now in the window (0 when it is empty).
    pub fn failure_rate(&self) -> f64 {
        if self.results.is_empty() {
            return 0.0;
        }
        self.failures as f64 / self.results.len() as f64
    }

    /// Drops the oldest outcome from the window, and from the failure count.
    fn forget_oldest(&mut self) {
        if self.results.pop_front() == Some(false) {
            self.failures -= 1;
        }
    }

    /// Empties the window.
    fn clear_window(&mut self) {
        self.results.clear();
        self.failures = 0;
    }

    fn move_to(&mut self, now_s: f64, to: BreakerState) {
        if self.transitions.len() < TRANSITION_LOG_LIMIT {
            self.transitions.push(Transition {
                t_s: now_s,
                from: self.state,
                to,
            });
        } else {
            self.transitions_not_kept += 1;
        }
        self.state = to;
    }

    /// Asks whether a call may be made at `now_s`; false means fail fast.
    pub fn allow(&mut self, now_s: f64) -> bool {
        if self.state == BreakerState::Open && now_s - self.opened_at_s >= self.config.open_s {
            self.move_to(now_s, BreakerState::HalfOpen);
            self.trials = 0;
            self.trial_successes = 0;
            self.trials_in_flight = 0;
        }
        match self.state {
            BreakerState::Closed => true,
            BreakerState::Open => false,
            BreakerState::HalfOpen => {
                let admitted = match self.half_open_admission {
                    HalfOpenAdmission::TrialCalls => self.trials < self.config.trial_calls,
                    HalfOpenAdmission::InFlight(limit) => self.trials_in_flight < limit,
                    HalfOpenAdmission::Unlimited => true,
                };
                if admitted {
                    self.trials += 1;
                    self.trials_in_flight += 1;
                }
                admitted
            }
        }
    }

    /// Records the outcome of a call that was allowed, when it becomes known at `now_s`.
    pub fn record(&mut self, now_s: f64, ok: bool) {
        match self.state {
            // A late result of a call made before the breaker opened: ignored.
            BreakerState::Open => {}
            BreakerState::HalfOpen => {
                self.trials_in_flight = self.trials_in_flight.saturating_sub(1);
                if ok {
                    self.trial_successes += 1;
                    if self.trial_successes == self.config.trial_calls {
                        self.move_to(now_s, BreakerState::Closed);
                        self.clear_window();
                    }
                } else {
                    self.move_to(now_s, BreakerState::Open);
                    self.opened_at_s = now_s;
                }
            }
            BreakerState::Closed => {
                self.results.push_back(ok);
                if !ok {
                    self.failures += 1;
                }
                if self.results.len() > self.config.window {
                    self.forget_oldest();
                }
                if self.results.len() >= self.config.min_calls
                    && self.failures as f64 / self.results.len() as f64 >= self.config.threshold
                {
                    self.move_to(now_s, BreakerState::Open);
                    self.opened_at_s = now_s;
                    self.clear_window();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breaker() -> Breaker {
        Breaker::new(BreakerConfig {
            window: 4,
            min_calls: 4,
            threshold: 0.5,
            open_s: 1.0,
            trial_calls: 2,
        })
    }

    #[test]
    fn opens_only_once_min_calls_are_in() {
        let mut b = breaker();
        for t in 0..3 {
            assert!(b.allow(f64::from(t)));
            b.record(f64::from(t), false);
            assert_eq!(b.state(), BreakerState::Closed, "3 outcomes are below min_calls");
        }
        b.record(3.0, true);
        assert_eq!(b.state(), BreakerState::Open, "3 failures in 4 is 75% >= 50%");
        assert!(!b.allow(3.5), "open fails fast");
    }

    #[test]
    fn half_open_trials_close_or_reopen() {
        let mut b = breaker();
        for t in 0..4 {
            b.record(f64::from(t), false);
        }
        assert!(b.allow(4.0), "open_s has passed: first trial");
        assert_eq!(b.state(), BreakerState::HalfOpen);
        assert!(b.allow(4.0));
        assert!(!b.allow(4.0), "only two trials");
        b.record(4.1, false);
        assert_eq!(b.state(), BreakerState::Open);
        assert!(b.allow(5.1));
        b.record(5.2, true);
        assert_eq!(b.state(), BreakerState::HalfOpen);
        b.record(5.3, true);
        assert_eq!(b.state(), BreakerState::Closed);
        let log: Vec<String> = b.transitions().iter().map(ToString::to_string).collect();
        assert_eq!(
            log,
            [
                "t= 3.00s closed -> open",
                "t= 4.00s open -> half_open",
                "t= 4.10s half_open -> open",
                "t= 5.10s open -> half_open",
                "t= 5.30s half_open -> closed",
            ]
        );
    }

    #[test]
    fn half_open_admits_by_its_rule() {
        let opened = || {
            let mut b = breaker();
            for t in 0..4 {
                b.record(f64::from(t), false);
            }
            b
        };
        let admitted = |mut b: Breaker| (0..50).filter(|_| b.allow(4.0)).count();
        assert_eq!(admitted(opened()), 2, "the Atlas's trial_calls");
        assert_eq!(
            admitted(opened().with_half_open_admission(HalfOpenAdmission::InFlight(1))),
            1
        );
        assert_eq!(
            admitted(opened().with_half_open_admission(HalfOpenAdmission::Unlimited)),
            50
        );
        // One probe at a time: each success frees the slot; trial_calls (2) successes close it.
        let mut b = opened().with_half_open_admission(HalfOpenAdmission::InFlight(1));
        assert!(b.allow(4.0));
        assert!(!b.allow(4.0));
        b.record(4.1, true);
        assert!(b.allow(4.1), "the slot is free again");
        b.record(4.2, true);
        assert_eq!(b.state(), BreakerState::Closed);
    }

    #[test]
    fn late_results_while_open_are_ignored() {
        let mut b = breaker();
        for t in 0..4 {
            b.record(f64::from(t), false);
        }
        b.record(3.5, true);
        assert_eq!(b.state(), BreakerState::Open);
        assert_eq!(b.transitions().len(), 1);
    }

    #[test]
    fn the_log_keeps_the_first_changes_and_counts_the_rest() {
        // open_s 0 against a dependency that always fails: two changes per trial call.
        let mut b = Breaker::new(BreakerConfig {
            window: 1,
            min_calls: 1,
            threshold: 0.5,
            open_s: 0.0,
            trial_calls: 1,
        });
        let calls = TRANSITION_LOG_LIMIT as u32;
        for i in 0..calls {
            let now_s = f64::from(i) * 1e-3;
            if b.allow(now_s) {
                b.record(now_s, false);
            }
        }
        // The first failure opens it; each later call half-opens and reopens it.
        let changes = 1 + 2 * u64::from(calls - 1);
        assert_eq!(b.transitions().len(), TRANSITION_LOG_LIMIT);
        assert_eq!(b.transitions_not_kept(), changes - TRANSITION_LOG_LIMIT as u64);
        assert_eq!(b.transitions()[0].to, BreakerState::Open);
        assert_eq!(b.state(), BreakerState::Open, "the state is still tracked past the log");
    }
}
