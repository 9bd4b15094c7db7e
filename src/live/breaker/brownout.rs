//! Lab 3 live: both checkout callers against ONE sick dependency, on 127.0.0.1.
//!
//! [`LiveBrownout`] is the handle the CLI and the TUI hold:
//!
//! - [`LiveBrownout::start`] binds the dependency, starts the timeout-only caller and the
//!   caller with the engine's breaker on one shared clock, and a sampler of calls in flight;
//! - [`LiveBrownout::configs`] is a `watch` sender: a new [`BreakerConfig`] reaches the
//!   running breaker (`Breaker::set_config`) before its next call (latest wins);
//! - [`LiveBrownout::set_override`] is "brown out now" / "heal" / "back to the schedule";
//! - [`LiveBrownout::take_samples`] gives a bounded receiver of one [`LiveSample`] per second
//!   (samples are dropped, not queued, when the receiver lags);
//! - [`LiveBrownout::finished`] waits for the schedule to end, [`LiveBrownout::shutdown`]
//!   stops everything early or late, leaves no task or socket, and returns the [`BrownoutRun`].
//!   Dropping the handle instead stops the tasks too, in the background, with no report.
//!
//! The report is the simulation's shapes ([`BrownoutComparison`]) filled with measurements,
//! plus the live-only numbers in [`LiveCaller`].

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, eyre};
use serde::Serialize;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

use crate::engine::breaker::{BreakerConfig, BreakerState};
use crate::engine::brownout::{BrownoutComparison, BrownoutParams, CallerRun, CallerSummary, SecondStats};
use crate::engine::fault::{FaultKind, FaultSchedule, ManualOverride};
use crate::engine::stats::atlas_percentile;
use crate::live::breaker::checkout::{self, Caller, Schedule, Tally, lock};
use crate::live::breaker::dependency::Dependency;

/// How often the calls in flight are sampled.
const SAMPLE_INTERVAL: Duration = Duration::from_millis(10);
/// Samples kept for a slow reader before new ones are dropped.
const SAMPLE_QUEUE: usize = 64;
/// Time between start-up and the first send, so setting up does not make it late.
const START_LEAD: Duration = Duration::from_millis(20);

/// One caller's second, as the TUI draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallerSample {
    /// Counts so far for calls sent in that second (late answers may still add degraded).
    pub stats: SecondStats,
    /// Calls in flight at the end of the second.
    pub in_flight: u64,
    /// The breaker's state at the end of the second; `None` for the timeout-only caller.
    pub breaker: Option<BreakerState>,
    /// Waits of the page views that ended during the second, in seconds: the TUI's rolling
    /// p99 needs every wait, not a per-second percentile (percentiles do not add up).
    pub waits_s: Vec<f64>,
}

/// Both callers' view of one finished second.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveSample {
    /// Which second of the run, from 0.
    pub second: usize,
    /// Whether the dependency was sick at the end of the second.
    pub sick: bool,
    pub timeout_only: CallerSample,
    pub with_breaker: CallerSample,
}

/// What only a live run has: how well the clock kept time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveCaller {
    pub p50_wait_ms: f64,
    /// Sends per second between the first and the last send.
    pub achieved_rate: f64,
    pub late_sends: u64,
    /// p99 and worst of how far behind its slot a send went out.
    pub late_p99_ms: f64,
    pub late_max_ms: f64,
    /// Average of the sampled in-flight gauge while the dependency was sick.
    pub in_flight_sick_avg: f64,
    pub timed_out: u64,
    /// p99 of `wait - timeout` over the calls that timed out (0 if none did).
    pub timeout_overshoot_p99_ms: f64,
    pub error_answers: u64,
    pub connect_failures: u64,
}

/// A finished live run: the simulation's report shapes plus the live-only numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrownoutRun {
    pub comparison: BrownoutComparison,
    pub timeout_only: LiveCaller,
    pub with_breaker: LiveCaller,
    /// Requests the dependency received from both callers.
    pub dependency_requests: u64,
}

/// The sampler's running sums for the in-flight average while sick.
#[derive(Debug, Default)]
struct SickGauge {
    sum: [f64; 2],
    samples: u64,
}

/// A running live brownout; see the module docs.
pub struct LiveBrownout {
    params: BrownoutParams,
    configs: watch::Sender<BreakerConfig>,
    faults: watch::Sender<FaultSchedule>,
    stop: watch::Sender<bool>,
    /// Counts callers whose schedule has ended.
    done: watch::Receiver<u8>,
    samples: Option<mpsc::Receiver<LiveSample>>,
    callers: [Arc<Caller>; 2],
    caller_tasks: Vec<JoinHandle<()>>,
    sampler: JoinHandle<SickGauge>,
    dependency: Dependency,
}

impl LiveBrownout {
    /// Starts the dependency (sick per `faults`, in seconds from now) and both callers.
    pub async fn start(params: BrownoutParams, faults: FaultSchedule) -> Result<LiveBrownout> {
        let start = Instant::now() + START_LEAD;
        let (faults_tx, faults_rx) = watch::channel(faults);
        let (configs_tx, configs_rx) = watch::channel(params.breaker.clone());
        let (stop_tx, stop_rx) = watch::channel(false);
        let (done_tx, done_rx) = watch::channel(0u8);
        let (samples_tx, samples_rx) = mpsc::channel(SAMPLE_QUEUE);
        let dependency = Dependency::start(
            start,
            Duration::from_secs_f64(params.healthy_s().max(0.0)),
            faults_rx.clone(),
        )
        .await?;
        let uri = format!("http://{}/recommendations", dependency.addr)
            .parse()
            .wrap_err("breaker lab: building the dependency's URI")?;
        let seconds = params.duration_s.ceil().max(1.0) as usize;
        let callers = [
            Arc::new(Caller::new(seconds, None)),
            Arc::new(Caller::new(seconds, Some(params.breaker.clone()))),
        ];
        let schedule = Schedule {
            start,
            rate: params.rate,
            total_calls: params.total_calls(),
            timeout: Duration::from_secs_f64(params.timeout_s().max(0.0)),
            uri,
        };
        let done_tx = Arc::new(done_tx);
        let caller_tasks = callers
            .iter()
            .map(|caller| {
                let run = checkout::run(
                    Arc::clone(caller),
                    schedule.clone(),
                    faults_rx.clone(),
                    configs_rx.clone(),
                    stop_rx.clone(),
                );
                let done_tx = Arc::clone(&done_tx);
                tokio::spawn(async move {
                    run.await;
                    done_tx.send_modify(|done| *done += 1);
                })
            })
            .collect();
        let limit = Duration::from_secs_f64(params.duration_s + params.timeout_s() + 60.0);
        let sampler = tokio::spawn(sample(callers.clone(), start, faults_rx, stop_rx, samples_tx, limit));
        Ok(LiveBrownout {
            params,
            configs: configs_tx,
            faults: faults_tx,
            stop: stop_tx,
            done: done_rx,
            samples: Some(samples_rx),
            callers,
            caller_tasks,
            sampler,
            dependency,
        })
    }

    /// The breaker's tuning: `send` a new config and the running breaker takes it.
    pub fn configs(&self) -> &watch::Sender<BreakerConfig> {
        &self.configs
    }

    /// `Some(Sick)`: brown out now; `Some(Healthy)`: heal; `None`: follow the window again.
    pub fn set_override(&self, manual: Option<ManualOverride>) {
        self.faults.send_modify(|schedule| schedule.manual = manual);
    }

    /// Changes what the sick dependency does (the TUI's fault key); the window is unchanged.
    pub fn set_fault_kind(&self, kind: FaultKind) {
        self.faults.send_modify(|schedule| schedule.kind = kind);
    }

    /// The per-second samples; `None` once taken.
    pub fn take_samples(&mut self) -> Option<mpsc::Receiver<LiveSample>> {
        self.samples.take()
    }

    /// Waits until both callers have sent their whole schedule and heard every answer.
    pub async fn finished(&mut self) {
        let _ = self.done.wait_for(|done| *done >= 2).await;
    }

    /// Stops the callers (calls still out end by their timeout), the sampler and the
    /// dependency (listener closed, connections drained), then reports what was measured.
    pub async fn shutdown(self) -> Result<BrownoutRun> {
        let _ = self.stop.send(true);
        for task in self.caller_tasks {
            task.await
                .map_err(|err| eyre!("breaker lab: a caller task failed: {err}"))?;
        }
        let gauge = self
            .sampler
            .await
            .map_err(|err| eyre!("breaker lab: the sampler task failed: {err}"))?;
        let dependency_requests = self.dependency.state.requests.load(Ordering::Relaxed);
        self.dependency.shutdown().await?;
        let [timeout_only, with_breaker] = self.callers;
        let sick_avg = |index: usize| {
            if gauge.samples == 0 {
                0.0
            } else {
                gauge.sum[index] / gauge.samples as f64
            }
        };
        let (timeout_run, timeout_live) = summarize(&timeout_only, sick_avg(0));
        let (breaker_run, breaker_live) = summarize(&with_breaker, sick_avg(1));
        Ok(BrownoutRun {
            comparison: BrownoutComparison {
                params: self.params,
                timeout_only: timeout_run,
                with_breaker: breaker_run,
            },
            timeout_only: timeout_live,
            with_breaker: breaker_live,
            dependency_requests,
        })
    }
}

/// Runs the whole schedule and reports it: what `run breaker --live` does.
pub async fn run(params: BrownoutParams, faults: FaultSchedule) -> Result<BrownoutRun> {
    let mut live = LiveBrownout::start(params, faults).await?;
    live.finished().await;
    live.shutdown().await
}

/// Samples both in-flight gauges every [`SAMPLE_INTERVAL`], writes each second's average
/// into the tallies (`SecondStats::waiting`) and emits one [`LiveSample`] per second.
async fn sample(
    callers: [Arc<Caller>; 2],
    start: Instant,
    faults: watch::Receiver<FaultSchedule>,
    stop: watch::Receiver<bool>,
    samples: mpsc::Sender<LiveSample>,
    limit: Duration,
) -> SickGauge {
    let mut gauge = SickGauge::default();
    let mut ticks = tokio::time::interval_at(start, SAMPLE_INTERVAL);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut second = 0usize;
    // How many of each caller's waits earlier samples carried.
    let mut waits_sent = [0usize; 2];
    let mut sums = [0.0f64; 2];
    let mut count = 0u64;
    let max_ticks = (limit.as_secs_f64() / SAMPLE_INTERVAL.as_secs_f64()).ceil() as u64;
    for _ in 0..max_ticks {
        let now = ticks.tick().await;
        let now_s = (now - start).as_secs_f64();
        let this_second = now_s as usize;
        if this_second != second {
            close_second(&callers, second, sums, count, &faults, now_s, &samples, &mut waits_sent);
            (second, sums, count) = (this_second, [0.0; 2], 0);
        }
        // Stopped, or the handle was dropped without `shutdown`.
        if *stop.borrow() || stop.has_changed().is_err() {
            break;
        }
        let in_flight = callers
            .each_ref()
            .map(|caller| caller.in_flight.load(Ordering::Relaxed) as f64);
        sums[0] += in_flight[0];
        sums[1] += in_flight[1];
        count += 1;
        if faults.borrow().is_sick(now_s) {
            gauge.sum[0] += in_flight[0];
            gauge.sum[1] += in_flight[1];
            gauge.samples += 1;
        }
    }
    close_second(
        &callers,
        second,
        sums,
        count,
        &faults,
        start.elapsed().as_secs_f64(),
        &samples,
        &mut waits_sent,
    );
    gauge
}

/// Stores the average in flight of `second` and offers the second to the TUI.
#[allow(clippy::too_many_arguments)]
fn close_second(
    callers: &[Arc<Caller>; 2],
    second: usize,
    sums: [f64; 2],
    count: u64,
    faults: &watch::Receiver<FaultSchedule>,
    now_s: f64,
    samples: &mpsc::Sender<LiveSample>,
    waits_sent: &mut [usize; 2],
) {
    let [timeout_only, with_breaker] = [0, 1].map(|index| {
        let caller = &callers[index];
        let mut tally = lock(&caller.tally);
        let waits_s = tally.waits_s.get(waits_sent[index]..).unwrap_or_default().to_vec();
        waits_sent[index] = tally.waits_s.len();
        let Some(stats) = tally.per_second.get_mut(second) else {
            // Past the last second of the run (answers still arriving): nothing to store.
            return None;
        };
        if count > 0 {
            stats.waiting = sums[index] / count as f64;
        }
        Some(CallerSample {
            stats: stats.clone(),
            in_flight: caller.in_flight.load(Ordering::Relaxed),
            breaker: caller.breaker.as_ref().map(|breaker| lock(breaker).state()),
            waits_s,
        })
    });
    if let (Some(timeout_only), Some(with_breaker)) = (timeout_only, with_breaker) {
        // A full queue means the reader lags: drop the sample rather than block sampling.
        let _ = samples.try_send(LiveSample {
            second,
            sick: faults.borrow().is_sick(now_s),
            timeout_only,
            with_breaker,
        });
    }
}

/// Turns one caller's tally into the simulation's [`CallerRun`] and the live extras.
fn summarize(caller: &Caller, in_flight_sick_avg: f64) -> (CallerRun, LiveCaller) {
    let tally: Tally = std::mem::take(&mut *lock(&caller.tally));
    let mut waits_s = tally.waits_s;
    waits_s.sort_by(f64::total_cmp);
    let mut overshoot_s = tally.timeout_overshoot_s;
    overshoot_s.sort_by(f64::total_cmp);
    let mut late_s = tally.late_s;
    late_s.sort_by(f64::total_cmp);
    let span_s = tally.first_send_s.map_or(0.0, |first| tally.last_send_s - first);
    let achieved_rate = if span_s > 0.0 {
        (tally.sends.saturating_sub(1)) as f64 / span_s
    } else {
        0.0
    };
    let transitions = caller
        .breaker
        .as_ref()
        .map(|breaker| lock(breaker).transitions().to_vec())
        .unwrap_or_default();
    let run = CallerRun {
        summary: CallerSummary {
            calls: tally.calls,
            sick_calls: tally.sick_calls,
            degraded: tally.degraded,
            p99_wait_ms: atlas_percentile(&waits_s, 0.99) * 1000.0,
            stuck: in_flight_sick_avg,
        },
        per_second: tally.per_second,
        transitions,
    };
    let live = LiveCaller {
        p50_wait_ms: atlas_percentile(&waits_s, 0.5) * 1000.0,
        achieved_rate,
        late_sends: tally.late_sends,
        late_p99_ms: atlas_percentile(&late_s, 0.99) * 1000.0,
        late_max_ms: late_s.last().copied().unwrap_or(0.0) * 1000.0,
        in_flight_sick_avg,
        timed_out: tally.timed_out,
        timeout_overshoot_p99_ms: atlas_percentile(&overshoot_s, 0.99) * 1000.0,
        error_answers: tally.error_answers,
        connect_failures: tally.connect_failures,
    };
    (run, live)
}
