//! Lab 3 live in the terminal app: a [`LiveBrownout`] run driven from the lab screen.
//!
//! The run lives in its own task ([`spawn`]); the app talks to it only through channels,
//! as DESIGN.md asks: the breaker sliders travel through a `watch` of [`BreakerConfig`]
//! (latest wins), the "brown out now / heal" switch and the fault kind through a `watch`
//! of [`Control`], and the per-second [`LiveSample`]s come back through a bounded `mpsc`
//! the app drains on every frame tick. [`BreakerSeries`] is the pure part: it folds the
//! samples into what the view draws (chart series, the Hystrix-style summary), so it can be
//! tested and snapshotted without a socket.

use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use crate::engine::breaker::{BreakerConfig, BreakerState, Transition};
use crate::engine::brownout::{BrownoutComparison, BrownoutParams};
use crate::engine::fault::{FaultKind, FaultSchedule, ManualOverride};
use crate::engine::stats::atlas_percentile;
use crate::live::brownout::{CallerSample, LiveBrownout, LiveSample};

/// Seconds the Hystrix-style summary looks back over (Hystrix's default rolling window).
pub const ROLLING_WINDOW_S: usize = 10;

/// Samples the app has not drained yet before the run's forwarder drops new ones.
const SAMPLE_QUEUE: usize = 64;

/// Which caller of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    TimeoutOnly,
    WithBreaker,
}

impl Caller {
    pub fn of(self, sample: &LiveSample) -> &CallerSample {
        match self {
            Caller::TimeoutOnly => &sample.timeout_only,
            Caller::WithBreaker => &sample.with_breaker,
        }
    }
}

/// The switch on the dependency, as the keys set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    /// `None`: the scheduled window decides; `Some`: the learner's hand does.
    pub manual: Option<ManualOverride>,
    pub fault: FaultKind,
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
    pub fn points(&self, caller: Caller, pick: fn(&CallerSample) -> f64) -> Vec<(f64, f64)> {
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
    pub fn rolling(&self, caller: Caller) -> RollingSummary {
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

/// A running (or ending) live run, as the app holds it.
pub struct BreakerRun {
    configs: watch::Sender<BreakerConfig>,
    control: watch::Sender<Control>,
    stop: watch::Sender<bool>,
    samples: mpsc::Receiver<LiveSample>,
    report: oneshot::Receiver<Result<crate::live::brownout::LiveRun, String>>,
    task: JoinHandle<()>,
}

/// Starts `params` against a dependency sick per `faults` in a task of its own.
/// Must be called inside a tokio runtime.
pub fn spawn(params: BrownoutParams, faults: FaultSchedule) -> BreakerRun {
    let (configs, mut configs_rx) = watch::channel(params.breaker.clone());
    let (control, mut control_rx) = watch::channel(Control {
        manual: faults.manual,
        fault: faults.kind,
    });
    let (stop, mut stop_rx) = watch::channel(false);
    let (samples_tx, samples) = mpsc::channel(SAMPLE_QUEUE);
    let (report_tx, report) = oneshot::channel();
    let task = tokio::spawn(async move {
        let result = async {
            let mut live = LiveBrownout::start(params, faults).await?;
            let mut from_run = live.take_samples().expect("a fresh run has its samples");
            loop {
                // The handlers may use `live` again: select! drops the branch futures first.
                tokio::select! {
                    _ = stop_rx.wait_for(|stopped| *stopped) => break,
                    changed = configs_rx.changed() => {
                        if changed.is_err() { break }
                        let _ = live.configs().send(configs_rx.borrow_and_update().clone());
                    }
                    changed = control_rx.changed() => {
                        if changed.is_err() { break }
                        let control = *control_rx.borrow_and_update();
                        live.set_override(control.manual);
                        live.set_fault_kind(control.fault);
                    }
                    Some(sample) = from_run.recv() => {
                        // A full queue means the app lags: drop, do not block the run.
                        let _ = samples_tx.try_send(sample);
                    }
                    () = live.finished() => break,
                }
            }
            let run = live.shutdown().await;
            // The sampler's last second is sent during shutdown.
            while let Ok(sample) = from_run.try_recv() {
                let _ = samples_tx.try_send(sample);
            }
            run
        }
        .await;
        let _ = report_tx.send(result.map_err(|error| format!("{error:#}")));
    });
    BreakerRun {
        configs,
        control,
        stop,
        samples,
        report,
        task,
    }
}

/// What one poll of a run brought.
#[derive(Debug, Default)]
pub struct Polled {
    pub samples: Vec<LiveSample>,
    /// The run ended: its measured report, or why it failed.
    pub report: Option<Result<crate::live::brownout::LiveRun, String>>,
}

impl BreakerRun {
    /// Retunes the running breaker (latest wins).
    pub fn set_config(&self, config: BreakerConfig) {
        self.configs.send_if_modified(|current| {
            let changed = *current != config;
            *current = config;
            changed
        });
    }

    pub fn set_control(&self, control: Control) {
        let _ = self.control.send(control);
    }

    /// Takes what arrived since the last poll, without waiting.
    pub fn poll(&mut self) -> Polled {
        let mut polled = Polled::default();
        while let Ok(sample) = self.samples.try_recv() {
            polled.samples.push(sample);
        }
        if let Ok(report) = self.report.try_recv() {
            polled.report = Some(report);
        }
        polled
    }

    /// Asks the run to stop; the task shuts the lab down and ends on its own.
    pub fn stop(self) -> JoinHandle<()> {
        let _ = self.stop.send(true);
        self.task
    }
}

/// Waits for stopping tasks, at most `deadline` in all; returns how many were aborted.
pub async fn join_all(tasks: Vec<JoinHandle<()>>, deadline: Duration) -> usize {
    let until = tokio::time::Instant::now() + deadline;
    let mut aborted = 0;
    for mut task in tasks {
        if tokio::time::timeout_at(until, &mut task).await.is_err() {
            task.abort();
            let _ = task.await;
            aborted += 1;
        }
    }
    aborted
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
        let calls = series.points(Caller::TimeoutOnly, |s| s.stats.calls as f64);
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
        assert_eq!(series.rolling(Caller::TimeoutOnly).p99_ms, 200.0);
        assert_eq!(series.rolling(Caller::TimeoutOnly).error_pct, 50.0);
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
        let rolling = series.rolling(Caller::WithBreaker);
        assert_eq!(rolling.state, Some(BreakerState::Open));
        assert_eq!(rolling.error_pct, 50.0, "only the last 10 s count");
        assert_eq!(rolling.calls_per_s, 80.0);
        assert_eq!(rolling.short_circuited_per_s, 20.0);
        assert_eq!(rolling.p99_ms, 200.0);
        assert_eq!(series.rolling(Caller::TimeoutOnly).state, None);
        let empty = BreakerSeries::new(BrownoutParams::default(), FaultKind::Hang);
        assert_eq!(empty.rolling(Caller::TimeoutOnly).error_pct, 0.0);
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
