//! Lab 2's feedback loop, live: a steady load, a trigger, and retries that outlive it.
//!
//! Bronson et al. (HotOS 2021) call a failure metastable when it persists after its
//! trigger: work amplification (here, retries) keeps the system overloaded. The chain's
//! database gets a capacity (semaphore slots x service time); the back end calls it with
//! a timeout; the top client offers a steady load with a deadline per action. A trigger
//! makes the database fail everything for a while. Because timed-out callers leave their
//! work queued at the database, retries fill the queue with work nobody waits for, and
//! with retries at every layer the queue never drains while the load lasts.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use color_eyre::eyre::Result;
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;

use crate::engine::retry_chain::{Bucket, LiveMetastableRun, LoadPhase, MetastableConfig};
use crate::live::retry::chain::{ChainSnapshot, LiveChain};
use crate::live::retry::hops::TopClient;

/// How often the load generator wakes to send the actions that are due.
const LOAD_TICK: Duration = Duration::from_millis(5);
/// Most requests the chain's hops hold open at once, summed over the hops. An action in
/// flight holds one connection at every hop (client and server end both live in this
/// process: about 50 KB a hop, measured with `benches/memory.sh`), so the bound on actions
/// in flight is this over the number of hops ([`max_in_flight`]): 200 at three layers.
/// The default load's trigger brings about 230 actions out at once; 600 keeps the run at
/// its peak near 40 MB whatever the layers, the load and the deadlines (the flags allow
/// six layers, 20,000 actions/s and 60 s deadlines), under the 50 MB every run must keep.
pub const HOP_REQUESTS_IN_FLIGHT: usize = 600;

/// Most actions in flight at once on a chain of `layers` hops: the generator skips the
/// actions beyond it, and counts them.
pub fn max_in_flight(layers: usize) -> usize {
    (HOP_REQUESTS_IN_FLIGHT / layers.max(1)).max(1)
}

/// What the steady load sends; change it while it runs with [`SteadyLoad::set`].
#[derive(Clone, Debug, PartialEq)]
pub struct LoadSettings {
    pub actions_per_s: f64,
    /// Attempts per layer, top first.
    pub attempts: Vec<u32>,
    /// The top client's retry budget ratio; 0 means none.
    pub budget: f64,
    /// Each action's deadline: the user gives up after it.
    pub deadline_ms: u64,
}

/// A running open-loop load: actions start on schedule whether or not earlier ones ended.
pub struct SteadyLoad {
    settings: watch::Sender<LoadSettings>,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl SteadyLoad {
    pub fn start(top: Arc<TopClient>, settings: LoadSettings) -> Self {
        let (settings_tx, mut settings_rx) = watch::channel(settings);
        let (stop, mut stop_rx) = watch::channel(false);
        let task = tokio::spawn(async move {
            let mut actions = JoinSet::new();
            let mut current = settings_rx.borrow_and_update().clone();
            let mut limit = max_in_flight(current.attempts.len());
            top.set_budget(current.budget);
            let mut due = 0.0_f64;
            let mut last = Instant::now();
            let mut tick = tokio::time::interval(LOAD_TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = stop_rx.changed() => break,
                    _ = tick.tick() => {}
                }
                if settings_rx.has_changed().unwrap_or(false) {
                    let next = settings_rx.borrow_and_update().clone();
                    if next.budget != current.budget {
                        top.set_budget(next.budget);
                    }
                    current = next;
                    limit = max_in_flight(current.attempts.len());
                }
                while actions.try_join_next().is_some() {}
                let now = Instant::now();
                // At most 100 ms of catch-up: a stalled generator does not fire a burst.
                let elapsed_s = (now - last).as_secs_f64().min(0.1);
                last = now;
                due += current.actions_per_s * elapsed_s;
                while due >= 1.0 {
                    due -= 1.0;
                    if actions.len() >= limit {
                        top.counters.actions_skipped.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    let (top, attempts) = (Arc::clone(&top), current.attempts.clone());
                    let deadline = Duration::from_millis(current.deadline_ms);
                    actions.spawn(async move {
                        top.action(&attempts, Some(deadline)).await;
                    });
                }
            }
            // Every action ends by its deadline; wait for them, then make sure.
            let deadline = Duration::from_millis(current.deadline_ms) + Duration::from_secs(1);
            let _ = tokio::time::timeout(deadline, async { while actions.join_next().await.is_some() {} }).await;
            actions.shutdown().await;
        });
        Self {
            settings: settings_tx,
            stop,
            task,
        }
    }

    /// Changes the load or the policy (latest wins).
    pub fn set(&self, settings: LoadSettings) {
        let _ = self.settings.send(settings);
    }

    pub fn settings(&self) -> LoadSettings {
        self.settings.borrow().clone()
    }

    /// Stops sending and waits until every action it started has ended.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// Runs the experiment on a fresh chain and shuts it down: before, trigger, after.
pub async fn run_metastable(config: &MetastableConfig) -> Result<LiveMetastableRun> {
    let attempts = config.policy.attempts(&config.layered);
    let budget = config.policy.budget(config.budget);
    let chain = LiveChain::start(config.chain_config(attempts.len())).await?;
    let counters = chain.counters();
    let load = SteadyLoad::start(
        chain.top_client(),
        LoadSettings {
            actions_per_s: config.load_per_s,
            attempts: attempts.clone(),
            budget,
            deadline_ms: config.deadline_ms,
        },
    );
    let bucket = Duration::from_millis(config.bucket_ms.max(10));
    let bucket_s = bucket.as_secs_f64();
    let total_s = config.before_s + config.trigger_s + config.after_s;
    let trigger_end_s = config.before_s + config.trigger_s;
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(total_s);
    let trigger = tokio::time::sleep_until(start + Duration::from_secs_f64(config.before_s));
    let mut trigger = std::pin::pin!(trigger);
    let mut triggered = false;
    let mut previous: ChainSnapshot = counters.snapshot();
    let mut buckets = Vec::new();
    let mut edge = start;
    let mut previous_t_s = 0.0;
    while edge < end {
        edge = (edge + bucket).min(end);
        loop {
            tokio::select! {
                () = &mut trigger, if !triggered => {
                    chain.trigger_outage(Duration::from_secs_f64(config.trigger_s));
                    triggered = true;
                }
                () = tokio::time::sleep_until(edge) => break,
            }
        }
        let now = counters.snapshot();
        let t_s = start.elapsed().as_secs_f64();
        let mid_s = (t_s + previous_t_s) / 2.0;
        let phase = if mid_s < config.before_s {
            LoadPhase::Before
        } else if mid_s < trigger_end_s {
            LoadPhase::Trigger
        } else {
            LoadPhase::After
        };
        let width_s = (t_s - previous_t_s).max(1e-3);
        previous_t_s = t_s;
        let rate = |a: u64, b: u64| a.saturating_sub(b) as f64 / width_s;
        buckets.push(Bucket {
            t_s: (t_s * 10.0).round() / 10.0,
            phase,
            goodput_per_s: rate(now.actions_ok, previous.actions_ok),
            db_requests_per_s: rate(
                now.received.last().copied().unwrap_or(0),
                previous.received.last().copied().unwrap_or(0),
            ),
            db_timeouts_per_s: rate(now.db_timeouts, previous.db_timeouts),
            expired_per_s: rate(now.actions_expired, previous.actions_expired),
            db_in_flight: now.db_in_flight,
            db_refused_per_s: rate(now.db_refused, previous.db_refused),
        });
        previous = now;
    }
    load.stop().await;
    let last = counters.snapshot();
    chain.shutdown().await?;
    let in_phase = |phase: LoadPhase| mean(buckets.iter().filter(|b| b.phase == phase).map(|b| b.goodput_per_s));
    let goodput_before_per_s = in_phase(LoadPhase::Before);
    let end_from_s = total_s - config.after_s / 3.0;
    let goodput_end_per_s = mean(
        buckets
            .iter()
            .filter(|b| b.phase == LoadPhase::After && b.t_s - bucket_s / 2.0 >= end_from_s)
            .map(|b| b.goodput_per_s),
    );
    let recovered_after_s = buckets
        .iter()
        .find(|b| b.phase == LoadPhase::After && b.goodput_per_s >= 0.8 * goodput_before_per_s)
        .map(|b| ((b.t_s - trigger_end_s).max(0.0) * 10.0).round() / 10.0);
    let max_in_flight = max_in_flight(attempts.len());
    Ok(LiveMetastableRun {
        config: config.clone(),
        attempts,
        budget,
        goodput_before_per_s,
        goodput_during_per_s: in_phase(LoadPhase::Trigger),
        goodput_after_per_s: in_phase(LoadPhase::After),
        goodput_end_per_s,
        recovered_after_s,
        db_refused: last.db_refused,
        actions_skipped: last.actions_skipped,
        max_in_flight,
        buckets,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hops_hold_no_more_requests_than_the_bound_whatever_the_layers() {
        // The default chain keeps the 200 its trigger needs; every layer count the flags
        // allow (1 to 6) keeps the sum over the hops within the bound.
        assert_eq!(max_in_flight(3), 200);
        for layers in 1..=6 {
            let held = max_in_flight(layers) * layers;
            assert!(held <= HOP_REQUESTS_IN_FLIGHT, "{layers} layers hold {held}");
            assert!(
                held + layers > HOP_REQUESTS_IN_FLIGHT,
                "{layers} layers waste the bound"
            );
        }
    }
}
