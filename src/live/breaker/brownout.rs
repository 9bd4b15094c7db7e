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

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, eyre};
use serde::Serialize;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

use crate::engine::breaker::{BreakerConfig, BreakerState};
use crate::engine::brownout::{
    BrownoutComparison, BrownoutParams, BrownoutRun, CallerRun, CallerSummary, LiveCaller, SecondStats,
};
use crate::engine::fault::{FaultKind, FaultSchedule, ManualOverride};
use crate::live::breaker::checkout::{self, Caller, Schedule, Tally, lock};
use crate::live::breaker::dependency::DependencyServer;

/// How often the calls in flight are sampled.
const SAMPLE_INTERVAL: Duration = Duration::from_millis(10);
/// Samples kept for a slow reader before new ones are dropped.
const SAMPLE_QUEUE: usize = 64;
/// Time between start-up and the first send, so setting up does not make it late.
const START_LEAD: Duration = Duration::from_millis(20);
/// How long past its timeout a second's last call may take before its sample goes out anyway.
const LATE_ANSWER_SLACK_S: f64 = 1.0;

/// One caller's second, as the TUI draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallerSample {
    /// Counts for the calls sent in that second, every one of them ended: a sample goes
    /// out once the second's last call has its answer or its timeout.
    pub stats: SecondStats,
    /// Calls in flight at the end of the second.
    pub in_flight: u64,
    /// The breaker's state at the end of the second; `None` for the timeout-only caller.
    pub breaker: Option<BreakerState>,
    /// Waits of the page views that ended since the previous sample, in seconds: the TUI's rolling
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
    dependency: DependencyServer,
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
        let dependency = DependencyServer::start(
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
        let sampler = tokio::spawn(sample(
            callers.clone(),
            start,
            faults_rx,
            stop_rx,
            samples_tx,
            (limit, schedule.timeout),
        ));
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
/// into the tallies (`SecondStats::waiting`) and emits one [`LiveSample`] per second, once
/// every call sent in that second has ended (about one timeout after the second).
async fn sample(
    callers: [Arc<Caller>; 2],
    start: Instant,
    faults: watch::Receiver<FaultSchedule>,
    stop: watch::Receiver<bool>,
    samples: mpsc::Sender<LiveSample>,
    (limit, timeout): (Duration, Duration),
) -> SickGauge {
    let mut gauge = SickGauge::default();
    let mut ticks = tokio::time::interval_at(start, SAMPLE_INTERVAL);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut second = 0usize;
    let mut sums = [0.0f64; 2];
    let mut count = 0u64;
    // Seconds closed whose calls may still be out, with whether the dependency was sick
    // at their end; offered in order once complete.
    let mut unsent: VecDeque<Closed> = VecDeque::new();
    let give_up_s = timeout.as_secs_f64() + LATE_ANSWER_SLACK_S;
    let max_ticks = (limit.as_secs_f64() / SAMPLE_INTERVAL.as_secs_f64()).ceil() as u64;
    for _ in 0..max_ticks {
        let now = ticks.tick().await;
        let now_s = (now - start).as_secs_f64();
        let this_second = now_s as usize;
        if this_second != second {
            unsent.push_back(close_second(
                &callers,
                second,
                sums,
                count,
                faults.borrow().is_sick(now_s),
            ));
            (second, sums, count) = (this_second, [0.0; 2], 0);
        }
        while let Some(closed) = unsent.front() {
            let complete = callers
                .iter()
                .all(|caller| lock(&caller.tally).second_complete(closed.second));
            if !complete && now_s < (closed.second + 1) as f64 + give_up_s {
                break;
            }
            if let Some(closed) = unsent.pop_front() {
                offer_second(&callers, &closed, &samples);
            }
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
    // Stopped: the callers have waited out their calls, so every second is as complete
    // as it will get.
    let sick = faults.borrow().is_sick(start.elapsed().as_secs_f64());
    unsent.push_back(close_second(&callers, second, sums, count, sick));
    for closed in unsent {
        offer_second(&callers, &closed, &samples);
    }
    gauge
}

/// A second that has ended, with what was true at its end, waiting for its calls to end.
struct Closed {
    second: usize,
    /// Whether the dependency was sick at the end of the second.
    sick: bool,
    in_flight: [u64; 2],
    breaker: [Option<BreakerState>; 2],
}

/// Stores the average in flight of `second` in both tallies and notes the end of the second.
fn close_second(callers: &[Arc<Caller>; 2], second: usize, sums: [f64; 2], count: u64, sick: bool) -> Closed {
    let closed = Closed {
        second,
        sick,
        in_flight: callers
            .each_ref()
            .map(|caller| caller.in_flight.load(Ordering::Relaxed)),
        breaker: callers
            .each_ref()
            .map(|caller| caller.breaker.as_ref().map(|breaker| lock(breaker).state())),
    };
    for (caller, sum) in callers.iter().zip(sums) {
        let mut tally = lock(&caller.tally);
        // Past the last second of the run (answers still arriving): nothing to store.
        if let Some(stats) = tally.per_second.get_mut(second)
            && count > 0
        {
            stats.waiting = sum / count as f64;
        }
    }
    closed
}

/// Offers a closed second to the TUI.
fn offer_second(callers: &[Arc<Caller>; 2], closed: &Closed, samples: &mpsc::Sender<LiveSample>) {
    let [timeout_only, with_breaker] = [0, 1].map(|index| {
        let caller = &callers[index];
        let mut tally = lock(&caller.tally);
        let waits_s = std::mem::take(&mut tally.recent_waits_s);
        let stats = tally.per_second.get(closed.second)?;
        Some(CallerSample {
            stats: stats.clone(),
            in_flight: closed.in_flight[index],
            breaker: closed.breaker[index],
            waits_s,
        })
    });
    if let (Some(timeout_only), Some(with_breaker)) = (timeout_only, with_breaker) {
        // A full queue means the reader lags: drop the sample rather than block sampling.
        let _ = samples.try_send(LiveSample {
            second: closed.second,
            sick: closed.sick,
            timeout_only,
            with_breaker,
        });
    }
}

/// Turns one caller's tally into the simulation's [`CallerRun`] and the live extras.
fn summarize(caller: &Caller, in_flight_sick_avg: f64) -> (CallerRun, LiveCaller) {
    let tally: Tally = std::mem::take(&mut *lock(&caller.tally));
    let span_s = tally.first_send_s.map_or(0.0, |first| tally.last_send_s - first);
    let achieved_rate = if span_s > 0.0 {
        (tally.sends.saturating_sub(1)) as f64 / span_s
    } else {
        0.0
    };
    let (transitions, transitions_not_kept) = caller.breaker.as_ref().map_or((Vec::new(), 0), |breaker| {
        let breaker = lock(breaker);
        (breaker.transitions().to_vec(), breaker.transitions_not_kept())
    });
    let run = CallerRun {
        summary: CallerSummary {
            calls: tally.calls,
            sick_calls: tally.sick_calls,
            degraded: tally.degraded,
            p99_wait_ms: tally.waits.quantile_ms(0.99),
            stuck: in_flight_sick_avg,
        },
        per_second: tally.per_second,
        transitions,
        transitions_not_kept,
    };
    let live = LiveCaller {
        p50_wait_ms: tally.waits.quantile_ms(0.5),
        achieved_rate,
        late_sends: tally.late_sends,
        late_p99_ms: tally.late.quantile_ms(0.99),
        late_max_ms: tally.late.max_ms(),
        in_flight_sick_avg,
        timed_out: tally.timed_out,
        timeout_overshoot_p99_ms: tally.timeout_overshoot.quantile_ms(0.99),
        error_answers: tally.error_answers,
        connect_failures: tally.connect_failures,
        not_sent: tally.not_sent,
    };
    (run, live)
}
