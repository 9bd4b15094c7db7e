//! Lab 2 live in the terminal app: the retry chain driven from the lab screen.
//!
//! Two runs, never at once on one chain (the chain's author asks not to mix a counting run
//! and a steady load): a **counting run** of at most [`LIVE_ACTIONS_MAX`] actions with the
//! sliders' p, attempts and budget, and the **metastable** run (a steady load on a chain
//! whose database has a capacity, a trigger that fails the database for
//! [`TRIGGER_LENGTH`], goodput over time). Each runs in its own task ([`spawn_counting`],
//! [`spawn_metastable`]); the app reads the chain's atomic counters on every frame tick and
//! folds them into [`RetrySeries`], the pure part the view draws. Load and policy changes
//! reach the steady load through a `watch` (latest wins).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

use crate::engine::retry::{Policy, ScenarioResult};
use crate::live::metastable::{LoadSettings, MetastableConfig};
use crate::live::retry_chain::{ChainConfig, ChainCounters, ChainSnapshot, LiveChain};

/// Most actions a live counting run makes: at p = 1 with 4 x 4 x 4 attempts an action is
/// 84 HTTP requests, so 2,000 actions already take tens of seconds on a debug build.
pub const LIVE_ACTIONS_MAX: u64 = 2_000;
/// Actions of a counting run in flight at once.
pub const COUNTING_CONCURRENCY: usize = 8;
/// How long the trigger (`g`) fails every database attempt.
pub const TRIGGER_LENGTH: Duration = Duration::from_secs(10);
/// The steady load's ends and step (actions per second), and its start.
pub const LOAD_MAX_PER_S: f64 = 800.0;
pub const LOAD_STEP_PER_S: f64 = 40.0;
/// The longest a steady load runs before it stops by itself: every load loop is bounded.
pub const LOAD_TIME_LIMIT: Duration = Duration::from_secs(600);
/// Width of one point of the charts: two frame ticks, so a short counting run still draws
/// a line (rates are per second whatever the width).
pub const POINT_S: f64 = 0.5;

/// Which live view of Lab 2 shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RetryView {
    #[default]
    Counting,
    Metastable,
}

/// One point of the charts: rates over the interval that ends at `t_s`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatePoint {
    /// Seconds since the run started, at the end of the interval.
    pub t_s: f64,
    /// Requests each server received per second: front end first, database last.
    pub received_per_s: Vec<f64>,
    pub db_per_s: f64,
    /// Actions that succeeded per second (goodput).
    pub ok_per_s: f64,
    /// Actions that ended, successes among them (0 when none ended).
    pub success_ratio: f64,
    /// Share of database requests that were retries rather than an action's first try.
    pub retry_ratio: f64,
    pub db_in_flight: u64,
}

/// Rates between two snapshots `dt_s` apart.
pub fn rate_point(before: &ChainSnapshot, after: &ChainSnapshot, t_s: f64, dt_s: f64) -> RatePoint {
    let dt_s = dt_s.max(1e-3);
    let delta = |a: u64, b: u64| a.saturating_sub(b);
    let received: Vec<u64> = after
        .received
        .iter()
        .enumerate()
        .map(|(index, now)| delta(*now, before.received.get(index).copied().unwrap_or(0)))
        .collect();
    let db = received.last().copied().unwrap_or(0);
    let started = delta(after.actions_started, before.actions_started);
    let done = delta(after.actions_done, before.actions_done);
    let ok = delta(after.actions_ok, before.actions_ok);
    RatePoint {
        t_s,
        received_per_s: received.iter().map(|n| *n as f64 / dt_s).collect(),
        db_per_s: db as f64 / dt_s,
        ok_per_s: ok as f64 / dt_s,
        success_ratio: if done == 0 { 0.0 } else { ok as f64 / done as f64 },
        // An action's first try reaches the database once; everything beyond is a retry.
        retry_ratio: if db == 0 {
            0.0
        } else {
            db.saturating_sub(started) as f64 / db as f64
        },
        db_in_flight: after.db_in_flight,
    }
}

/// What a live Lab 2 run has shown so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetrySeries {
    pub view: RetryView,
    /// The policy the run uses (kept here: `o` may pick another for the next run).
    pub policy: Option<Policy>,
    pub policy_label: String,
    /// Attempts per layer of the run, top first.
    pub attempts: Vec<u32>,
    pub p: f64,
    /// Actions a counting run makes (0 for the metastable run).
    pub actions: u64,
    /// The counters now, and when (seconds since the run started).
    pub latest: ChainSnapshot,
    pub latest_s: f64,
    /// The snapshot that opened the current point.
    pub point_start: ChainSnapshot,
    pub point_start_s: f64,
    pub points: Vec<RatePoint>,
    /// `[start, end)` of each trigger, in seconds since the run started.
    pub triggers: Vec<(f64, f64)>,
    /// The counting run's result once it ended.
    pub result: Option<ScenarioResult>,
    pub finished: bool,
}

impl RetrySeries {
    /// Takes the counters at `now_s`; closes a point every [`POINT_S`]. Returns whether
    /// anything shown changed.
    pub fn observe(&mut self, now_s: f64, snapshot: ChainSnapshot) -> bool {
        let changed = snapshot != self.latest;
        if now_s - self.point_start_s >= POINT_S {
            self.close_point(now_s, &snapshot);
            self.latest = snapshot;
            self.latest_s = now_s;
            return true;
        }
        self.latest = snapshot;
        self.latest_s = now_s;
        changed
    }

    /// Ends the current point at `now_s` with the rates since it opened, and opens the next.
    fn close_point(&mut self, now_s: f64, snapshot: &ChainSnapshot) {
        let span_s = now_s - self.point_start_s;
        self.points.push(rate_point(&self.point_start, snapshot, now_s, span_s));
        self.point_start = snapshot.clone();
        self.point_start_s = now_s;
    }

    /// The run ended: closes the last, partial point so that a run shorter than a point
    /// still shows its rates.
    pub fn close(&mut self, now_s: f64, snapshot: ChainSnapshot) {
        if now_s - self.point_start_s > 0.05 && snapshot != self.point_start {
            self.close_point(now_s, &snapshot);
        }
        self.latest = snapshot;
        self.latest_s = now_s;
    }

    /// The per-hop rates to draw on the chain's arrows: the last closed point's.
    pub fn hop_rates(&self) -> Vec<f64> {
        self.points
            .last()
            .map_or_else(|| vec![0.0; self.latest.received.len()], |p| p.received_per_s.clone())
    }

    /// Database requests per action so far (the amplification the lab counts).
    pub fn db_per_action(&self) -> f64 {
        let db = self.latest.received.last().copied().unwrap_or(0);
        if self.latest.actions_done == 0 {
            0.0
        } else {
            db as f64 / self.latest.actions_done as f64
        }
    }
}

/// The chain's counters, once it is up (binding takes a moment).
type CountersSlot = oneshot::Receiver<Arc<ChainCounters>>;

/// A running live Lab 2 run, as the app holds it.
pub struct RetryRun {
    pub view: RetryView,
    counters: Option<Arc<ChainCounters>>,
    counters_slot: Option<CountersSlot>,
    started: std::time::Instant,
    load: Option<watch::Sender<LoadSettings>>,
    /// Bumped by each trigger: a watch of a count, so a trigger is never lost to "latest wins".
    trigger: Option<watch::Sender<u32>>,
    stop: watch::Sender<bool>,
    report: oneshot::Receiver<Result<Option<ScenarioResult>, String>>,
    task: JoinHandle<()>,
}

/// Starts a counting run: `actions` actions (capped at [`LIVE_ACTIONS_MAX`]) on a fresh chain.
pub fn spawn_counting(attempts: Vec<u32>, p: f64, budget: f64, actions: u64, seed: u64) -> RetryRun {
    let (counters_tx, counters_slot) = oneshot::channel();
    let (stop, mut stop_rx) = watch::channel(false);
    let (report_tx, report) = oneshot::channel();
    let actions = actions.min(LIVE_ACTIONS_MAX);
    let task = tokio::spawn(async move {
        let result = async {
            let chain = LiveChain::start(ChainConfig::counting(attempts.len(), p, seed)).await?;
            let _ = counters_tx.send(chain.counters());
            let result = tokio::select! {
                result = chain.run_actions(&attempts, budget, actions, COUNTING_CONCURRENCY) => Some(result),
                // Dropping the run aborts its workers; the chain then drains below.
                _ = stop_rx.wait_for(|stopped| *stopped) => None,
            };
            chain.shutdown().await?;
            Ok::<_, color_eyre::Report>(result)
        }
        .await;
        let _ = report_tx.send(result.map_err(|error| format!("{error:#}")));
    });
    RetryRun {
        view: RetryView::Counting,
        counters: None,
        counters_slot: Some(counters_slot),
        started: std::time::Instant::now(),
        load: None,
        trigger: None,
        stop,
        report,
        task,
    }
}

/// Starts the metastable run: a capacity-bound chain and a steady load until stopped.
pub fn spawn_metastable(config: MetastableConfig, settings: LoadSettings) -> RetryRun {
    let (counters_tx, counters_slot) = oneshot::channel();
    let (stop, mut stop_rx) = watch::channel(false);
    let (report_tx, report) = oneshot::channel();
    let (load, mut load_rx) = watch::channel(settings);
    let (trigger, mut trigger_rx) = watch::channel(0u32);
    let task = tokio::spawn(async move {
        let result = async {
            let chain = LiveChain::start(config.chain_config(config.layered.len())).await?;
            let _ = counters_tx.send(chain.counters());
            let steady = chain.start_load(load_rx.borrow_and_update().clone());
            let limit = tokio::time::sleep(LOAD_TIME_LIMIT);
            let mut limit = std::pin::pin!(limit);
            loop {
                tokio::select! {
                    _ = stop_rx.wait_for(|stopped| *stopped) => break,
                    () = &mut limit => break,
                    changed = load_rx.changed() => {
                        if changed.is_err() { break }
                        steady.set(load_rx.borrow_and_update().clone());
                    }
                    changed = trigger_rx.changed() => {
                        if changed.is_err() { break }
                        trigger_rx.borrow_and_update();
                        chain.trigger_outage(TRIGGER_LENGTH);
                    }
                }
            }
            steady.stop().await;
            chain.shutdown().await?;
            Ok::<_, color_eyre::Report>(None)
        }
        .await;
        let _ = report_tx.send(result.map_err(|error| format!("{error:#}")));
    });
    RetryRun {
        view: RetryView::Metastable,
        counters: None,
        counters_slot: Some(counters_slot),
        started: std::time::Instant::now(),
        load: Some(load),
        trigger: Some(trigger),
        stop,
        report,
        task,
    }
}

/// The steady load's settings for a policy, a load and the sliders' attempts and budget.
pub fn load_settings(policy: Policy, layered: &[u32], budget: f64, load_per_s: f64) -> LoadSettings {
    LoadSettings {
        actions_per_s: load_per_s,
        attempts: policy.attempts(layered),
        budget: policy.budget(budget),
        deadline_ms: MetastableConfig::default().deadline_ms,
    }
}

impl RetryRun {
    /// The counters now and the seconds since the start, once the chain is up.
    pub fn read(&mut self) -> Option<(f64, ChainSnapshot)> {
        if self.counters.is_none()
            && let Some(slot) = &mut self.counters_slot
            && let Ok(counters) = slot.try_recv()
        {
            self.counters = Some(counters);
            self.counters_slot = None;
        }
        let counters = self.counters.as_ref()?;
        Some((self.started.elapsed().as_secs_f64(), counters.snapshot()))
    }

    /// The run's end, if it has come: the counting result (or `None`), or why it failed.
    pub fn report(&mut self) -> Option<Result<Option<ScenarioResult>, String>> {
        self.report.try_recv().ok()
    }

    pub fn set_load(&self, settings: LoadSettings) {
        if let Some(load) = &self.load {
            let _ = load.send(settings);
        }
    }

    /// Fails the database for [`TRIGGER_LENGTH`]; returns whether this run has a trigger.
    pub fn trigger(&self) -> bool {
        match &self.trigger {
            Some(trigger) => {
                trigger.send_modify(|count| *count += 1);
                true
            }
            None => false,
        }
    }

    pub fn elapsed_s(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Asks the run to stop; the task shuts the chain down and ends on its own.
    pub fn stop(self) -> JoinHandle<()> {
        let _ = self.stop.send(true);
        self.task
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    pub fn snapshot(received: [u64; 3], started: u64, done: u64, ok: u64) -> ChainSnapshot {
        ChainSnapshot {
            received: received.to_vec(),
            actions_started: started,
            actions_done: done,
            actions_ok: ok,
            ..ChainSnapshot::default()
        }
    }

    #[test]
    fn rates_come_from_counter_deltas() {
        let before = snapshot([10, 40, 160], 10, 10, 0);
        let after = snapshot([30, 120, 480], 30, 28, 7);
        let point = rate_point(&before, &after, 3.0, 0.5);
        assert_eq!(point.received_per_s, vec![40.0, 160.0, 640.0]);
        assert_eq!(point.db_per_s, 640.0);
        assert_eq!(point.ok_per_s, 14.0);
        assert_eq!(point.success_ratio, 7.0 / 18.0);
        // 320 database requests, 20 of them first tries.
        assert_eq!(point.retry_ratio, 300.0 / 320.0);
        let idle = rate_point(&after, &after, 4.0, 1.0);
        assert_eq!((idle.success_ratio, idle.retry_ratio, idle.db_per_s), (0.0, 0.0, 0.0));
    }

    #[test]
    fn observe_closes_a_point_each_second() {
        let mut series = RetrySeries {
            point_start: snapshot([0, 0, 0], 0, 0, 0),
            ..RetrySeries::default()
        };
        assert!(series.observe(0.1, snapshot([4, 16, 64], 1, 1, 0)));
        assert!(!series.observe(0.2, snapshot([4, 16, 64], 1, 1, 0)), "nothing new");
        assert!(series.points.is_empty());
        assert!(series.observe(0.5, snapshot([8, 32, 128], 2, 2, 0)));
        assert_eq!(series.points.len(), 1);
        assert_eq!(series.hop_rates(), vec![16.0, 64.0, 256.0], "per second over 0.5 s");
        assert_eq!(series.db_per_action(), 64.0);
        // The run ends 0.25 s into the next point: that partial point is kept.
        series.close(0.75, snapshot([12, 48, 192], 3, 3, 0));
        assert_eq!(series.points.len(), 2);
        assert_eq!(series.hop_rates(), vec![16.0, 64.0, 256.0]);
        series.close(0.76, snapshot([12, 48, 192], 3, 3, 0));
        assert_eq!(series.points.len(), 2, "nothing new, no point");
    }
}
