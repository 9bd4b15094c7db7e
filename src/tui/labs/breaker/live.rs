//! Lab 3's live part: a run of `live::breaker::runner` driven from the lab screen.
//!
//! [`BreakerLive`] holds the run's handle; the breaker sliders, the "brown out now / heal"
//! switch and the fault kind retune the run through its `watch` (latest wins), and each
//! second's [`LiveSample`] arrives as an event on the app's queue. [`BreakerSeries`] is the
//! pure part: it folds the samples into what the view draws (chart series, the
//! Hystrix-style summary), so it can be tested and snapshotted without a socket.

use crate::content::LabId;
use crate::engine::breaker::{BreakerState, Transition};
use crate::engine::brownout::{BrownoutComparison, BrownoutParams};
use crate::engine::fault::{FaultKind, FaultSchedule, ManualOverride};
use crate::engine::stats::atlas_percentile;
use crate::live::breaker::brownout::{CallerSample, LiveSample};
use crate::live::breaker::runner::{self, BreakerControl};
use crate::live::run::{BreakerEvent, LabBody, LabEvent};
use crate::tui::frame::live::{LiveCtx, LivePart, Runs, runs_methods};
use crate::tui::labs::breaker::run::breaker_params;
use crate::tui::log;
use crate::tui::msg::{LiveMsg, Msg};

/// Seconds the Hystrix-style summary looks back over (Hystrix's default rolling window).
pub const ROLLING_WINDOW_S: usize = 10;

/// Which caller of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    TimeoutOnly,
    WithBreaker,
}

impl Side {
    pub fn of(self, sample: &LiveSample) -> &CallerSample {
        match self {
            Side::TimeoutOnly => &sample.timeout_only,
            Side::WithBreaker => &sample.with_breaker,
        }
    }
}

/// The Hystrix-style line of one caller over the last [`ROLLING_WINDOW_S`] seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct RollingSummary {
    /// `None` for the caller without a breaker.
    pub state: Option<BreakerState>,
    /// Calls that failed (timed out, errored, refused) per 100 calls made.
    pub error_pct: f64,
    /// Calls made to the dependency per second (refused-by-breaker page views excluded).
    pub calls_per_s: f64,
    /// Page views the breaker refused per second (they fail fast, waiting 0).
    pub short_circuited_per_s: f64,
    /// p99 of the page views' waits that ended in the window, in milliseconds.
    pub p99_ms: f64,
}

/// What a live Lab 3 run has shown so far: pure data, folded from samples.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakerSeries {
    /// The parameters the run started with (the charts' time axis and scales).
    pub params: BrownoutParams,
    pub fault: FaultKind,
    /// One sample per second, ordered by second; a dropped sample leaves a gap.
    pub samples: Vec<LiveSample>,
    /// The measured comparison, once the run has ended.
    pub measured: Option<BrownoutComparison>,
    /// Whether the run is still going (the app clears it on stop and on the report).
    pub running: bool,
}

impl BreakerSeries {
    pub fn new(params: BrownoutParams, fault: FaultKind) -> Self {
        Self {
            params,
            fault,
            samples: Vec::new(),
            measured: None,
            running: true,
        }
    }

    /// Adds a sample in order of its second; a second seen twice keeps the later sample.
    pub fn push(&mut self, sample: LiveSample) {
        match self.samples.binary_search_by_key(&sample.second, |s| s.second) {
            Ok(at) => self.samples[at] = sample,
            Err(at) => self.samples.insert(at, sample),
        }
        // Only the rolling window reads the waits: older samples let theirs go, so a long
        // run holds a window's worth of waits, not every wait of the run.
        let keep_from = self.elapsed_s().saturating_sub(ROLLING_WINDOW_S);
        for old in self.samples.iter_mut().take_while(|s| s.second < keep_from) {
            for caller in [&mut old.timeout_only, &mut old.with_breaker] {
                if !caller.waits_s.is_empty() {
                    caller.waits_s = Vec::new();
                }
            }
        }
    }

    /// Seconds measured so far (the last sample's second + 1).
    pub fn elapsed_s(&self) -> usize {
        self.samples.last().map_or(0, |s| s.second + 1)
    }

    /// `(second, value)` points of one caller's series, for a chart.
    pub fn points(&self, caller: Side, pick: fn(&CallerSample) -> f64) -> Vec<(f64, f64)> {
        self.samples
            .iter()
            .map(|s| (s.second as f64, pick(caller.of(s))))
            .collect()
    }

    /// The breaker's transitions as the samples saw them: one per change of the state at the
    /// end of a second (the measured log replaces it once the run ends).
    pub fn transitions(&self) -> Vec<Transition> {
        if let Some(measured) = &self.measured {
            return measured.with_breaker.transitions.clone();
        }
        let mut state = BreakerState::Closed;
        let mut out = Vec::new();
        for sample in &self.samples {
            let now = sample.with_breaker.breaker.unwrap_or(BreakerState::Closed);
            if now != state {
                out.push(Transition {
                    t_s: (sample.second + 1) as f64,
                    from: state,
                    to: now,
                });
                state = now;
            }
        }
        out
    }

    /// The seconds the dependency was measured sick, for the band. A sample says whether it
    /// was sick at the END of its second, i.e. at the start of the next one: second 9 of a
    /// window starting at 10 s reports sick, and it is second 10 that was.
    pub fn sick_seconds(&self) -> Vec<usize> {
        self.samples.iter().filter(|s| s.sick).map(|s| s.second + 1).collect()
    }

    /// The Hystrix-style summary of `caller` over the last [`ROLLING_WINDOW_S`] seconds.
    pub fn rolling(&self, caller: Side) -> RollingSummary {
        let from = self.elapsed_s().saturating_sub(ROLLING_WINDOW_S);
        let window: Vec<&CallerSample> = self
            .samples
            .iter()
            .filter(|s| s.second >= from)
            .map(|s| caller.of(s))
            .collect();
        let seconds = window.len().max(1) as f64;
        let calls: u64 = window.iter().map(|s| s.stats.calls).sum();
        let short: u64 = window.iter().map(|s| s.stats.failed_fast).sum();
        // Degraded counts refused page views too; what failed among calls made is the rest.
        let failed: u64 = window
            .iter()
            .map(|s| s.stats.degraded.saturating_sub(s.stats.failed_fast))
            .sum();
        let mut waits: Vec<f64> = window.iter().flat_map(|s| s.waits_s.iter().copied()).collect();
        waits.sort_by(f64::total_cmp);
        RollingSummary {
            state: window.last().and_then(|s| s.breaker),
            error_pct: if calls == 0 {
                0.0
            } else {
                failed as f64 * 100.0 / calls as f64
            },
            calls_per_s: calls as f64 / seconds,
            short_circuited_per_s: short as f64 / seconds,
            p99_ms: atlas_percentile(&waits, 0.99) * 1000.0,
        }
    }
}

/// Lab 3's live part: the run, what it showed, and the switch on the dependency.
#[derive(Debug)]
pub struct BreakerLive {
    pub runs: Runs<BreakerControl>,
    /// What the last (or current) run showed.
    pub series: Option<BreakerSeries>,
    /// `None`: the scheduled window decides; `Some`: the learner's hand does.
    pub manual: Option<ManualOverride>,
    /// The fault the next run starts with (and `f` gives the running one).
    pub fault: FaultKind,
    /// One line for the live screen: a note, or why a run failed.
    pub status: Option<String>,
}

impl Default for BreakerLive {
    fn default() -> Self {
        Self {
            runs: Runs::default(),
            series: None,
            manual: None,
            fault: FaultKind::Hang,
            status: None,
        }
    }
}

impl BreakerLive {
    /// Sends the switch and the fault to the running run.
    fn send_control(&self) {
        if let Some(run) = self.runs.current() {
            let (manual, fault) = (self.manual, self.fault);
            run.retune_with(|control| {
                control.manual = manual;
                control.fault = fault;
            });
        }
    }

    /// Stops the current run, if any (true then); the series stops counting as running.
    fn stop_run(&mut self) -> bool {
        let stopped = self.runs.stop();
        if stopped && let Some(series) = &mut self.series {
            series.running = false;
        }
        stopped
    }
}

impl LivePart for BreakerLive {
    fn start(&mut self, ctx: &LiveCtx) -> bool {
        let events = match self.runs.sender(ctx, LabId::Breaker) {
            Ok(events) => events,
            Err(why) => {
                self.status = Some(why.into());
                return true;
            }
        };
        let params = breaker_params(ctx.lab, ctx.sliders);
        // A class's lab file may offer fewer faults: start on one it offers.
        let offered = ctx.lab.fault_kinds();
        if !offered.contains(&self.fault) {
            self.fault = offered[0];
        }
        let faults = FaultSchedule::window(self.fault, params.brownout_start_s, params.brownout_end_s);
        self.manual = None;
        log::line(&format!("lab 3 live: start {params:?}"));
        self.series = Some(BreakerSeries::new(params.clone(), self.fault));
        self.runs.begin(runner::spawn(params, faults, events));
        self.status = None;
        true
    }

    fn retune(&mut self, ctx: &LiveCtx) -> bool {
        let params = breaker_params(ctx.lab, ctx.sliders);
        if let (Some(run), Some(series)) = (self.runs.current(), &self.series) {
            let breaker = params.breaker.clone();
            run.retune_with(|control| control.breaker = breaker);
            let mut started = series.params.clone();
            started.breaker = params.breaker.clone();
            self.status = (started != params)
                .then(|| "rate, duration, timeouts and the brownout apply on the next start (s)".into());
        }
        true
    }

    fn key(&mut self, msg: Msg, ctx: &LiveCtx) -> Option<bool> {
        let Msg::Live(msg) = msg else { return None };
        match msg {
            LiveMsg::BrownOut => {
                if !self.runs.running() {
                    self.status = Some("b acts on a running lab: start one with s".into());
                    return Some(true);
                }
                let sick_now = match self.manual {
                    Some(ManualOverride::Sick) => true,
                    Some(ManualOverride::Healthy) => false,
                    None => self
                        .series
                        .as_ref()
                        .and_then(|s| s.samples.last())
                        .is_some_and(|s| s.sick),
                };
                self.manual = Some(if sick_now {
                    ManualOverride::Healthy
                } else {
                    ManualOverride::Sick
                });
                self.send_control();
                Some(true)
            }
            LiveMsg::CycleFault => {
                let offered = ctx.lab.fault_kinds();
                self.fault = next_fault(self.fault, &offered);
                self.send_control();
                if let Some(series) = &mut self.series
                    && self.runs.running()
                {
                    series.fault = self.fault;
                }
                Some(true)
            }
            _ => Some(false),
        }
    }

    fn on_event(&mut self, event: LabEvent) -> bool {
        if !self.runs.is_current(&event) {
            return false;
        }
        let LabBody::Breaker(event) = *event.body else {
            return false;
        };
        match event {
            BreakerEvent::Sample(sample) => {
                if let Some(series) = &mut self.series {
                    series.push(sample);
                }
            }
            BreakerEvent::Done(report) => {
                // The task is ending: keep its handle so quitting still waits for it.
                self.stop_run();
                match report {
                    Ok(comparison) => {
                        if let Some(series) = &mut self.series {
                            series.measured = Some(comparison);
                        }
                    }
                    Err(error) => self.status = Some(format!("the live run failed: {error}")),
                }
            }
        }
        true
    }

    runs_methods!("stopped early: no measured rows for a partial run");
}

/// The fault after `kind` among those the lab file offers (never empty: see `fault_kinds`).
pub fn next_fault(kind: FaultKind, offered: &[FaultKind]) -> FaultKind {
    match offered.iter().position(|k| *k == kind) {
        Some(at) => offered[(at + 1) % offered.len()],
        None => offered[0],
    }
}

#[cfg(test)]
#[test]
fn faults_cycle_through_what_the_lab_offers() {
    use FaultKind::{Errors, Hang, Refuse, Slow};
    assert_eq!(next_fault(Hang, &FaultKind::ALL), Slow);
    assert_eq!(next_fault(Refuse, &FaultKind::ALL), Hang);
    assert_eq!(next_fault(Errors, &[Hang, Errors]), Hang);
    assert_eq!(
        next_fault(Slow, &[Hang, Errors]),
        Hang,
        "a fault the lab does not offer moves to its first"
    );
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::engine::brownout::SecondStats;

    /// A hand-built sample: `calls` made, `failed` of them failed, `fast` refused at once.
    pub fn sample(second: usize, calls: u64, failed: u64, fast: u64, state: BreakerState) -> LiveSample {
        let caller = |breaker| CallerSample {
            stats: SecondStats {
                calls,
                sick_calls: failed,
                degraded: failed + fast,
                failed_fast: fast,
                waiting: failed as f64 * 0.2,
            },
            in_flight: failed / 5,
            breaker,
            waits_s: (0..calls).map(|i| if i < failed { 0.2 } else { 0.04 }).collect(),
        };
        LiveSample {
            second,
            sick: failed > 0,
            timeout_only: caller(None),
            with_breaker: caller(Some(state)),
        }
    }

    #[test]
    fn samples_fold_in_order_and_replace_a_repeated_second() {
        let mut series = BreakerSeries::new(BrownoutParams::default(), FaultKind::Hang);
        series.push(sample(2, 100, 0, 0, BreakerState::Closed));
        series.push(sample(0, 100, 0, 0, BreakerState::Closed));
        series.push(sample(2, 90, 0, 0, BreakerState::Closed));
        assert_eq!(series.elapsed_s(), 3);
        let calls = series.points(Side::TimeoutOnly, |s| s.stats.calls as f64);
        assert_eq!(calls, vec![(0.0, 100.0), (2.0, 90.0)], "a gap stays a gap");
    }

    #[test]
    fn only_the_rolling_window_keeps_its_waits() {
        let mut series = BreakerSeries::new(BrownoutParams::default(), FaultKind::Hang);
        for second in 0..300 {
            series.push(sample(second, 100, 50, 0, BreakerState::Closed));
        }
        let kept: usize = series.samples.iter().map(|s| s.timeout_only.waits_s.len()).sum();
        assert_eq!(kept, ROLLING_WINDOW_S * 100, "waits kept after 300 s of 100 calls/s");
        assert_eq!(series.rolling(Side::TimeoutOnly).p99_ms, 200.0);
        assert_eq!(series.rolling(Side::TimeoutOnly).error_pct, 50.0);
    }

    #[test]
    fn rolling_summary_covers_the_last_ten_seconds() {
        let mut series = BreakerSeries::new(BrownoutParams::default(), FaultKind::Hang);
        // 5 healthy seconds, then 10 with half the calls failing and 20 refused per second.
        for second in 0..5 {
            series.push(sample(second, 100, 0, 0, BreakerState::Closed));
        }
        for second in 5..15 {
            series.push(sample(second, 80, 40, 20, BreakerState::Open));
        }
        let rolling = series.rolling(Side::WithBreaker);
        assert_eq!(rolling.state, Some(BreakerState::Open));
        assert_eq!(rolling.error_pct, 50.0, "only the last 10 s count");
        assert_eq!(rolling.calls_per_s, 80.0);
        assert_eq!(rolling.short_circuited_per_s, 20.0);
        assert_eq!(rolling.p99_ms, 200.0);
        assert_eq!(series.rolling(Side::TimeoutOnly).state, None);
        let empty = BreakerSeries::new(BrownoutParams::default(), FaultKind::Hang);
        assert_eq!(empty.rolling(Side::TimeoutOnly).error_pct, 0.0);
    }

    #[test]
    fn transitions_follow_the_sampled_states() {
        let mut series = BreakerSeries::new(BrownoutParams::default(), FaultKind::Hang);
        for (second, state) in [
            BreakerState::Closed,
            BreakerState::Open,
            BreakerState::Open,
            BreakerState::HalfOpen,
            BreakerState::Closed,
        ]
        .into_iter()
        .enumerate()
        {
            series.push(sample(second, 10, 0, 0, state));
        }
        let to: Vec<(f64, BreakerState)> = series.transitions().iter().map(|t| (t.t_s, t.to)).collect();
        assert_eq!(
            to,
            vec![
                (2.0, BreakerState::Open),
                (4.0, BreakerState::HalfOpen),
                (5.0, BreakerState::Closed)
            ]
        );
    }
}
