//! Lab 2's live runs in the app: a counting run, or the metastable steady load.
//!
//! Never both at once on one chain (a counting run and a steady load would mix their
//! counts). A **counting run** makes at most [`LIVE_ACTIONS_MAX`] actions with the
//! sliders' p, attempts and budget; the **metastable** run keeps a steady load on a chain
//! whose database has a capacity, and [`RetryControl`] retunes it (load, policy, budget)
//! and fires the trigger that fails the database for [`TRIGGER_LENGTH`]. Either run sends
//! the chain's counters every [`SAMPLE_INTERVAL`] into the app's queue and ends with
//! [`RetryEvent::Done`].

use std::time::Duration;

use tokio::time::{Instant, MissedTickBehavior};

use crate::content::LabId;
use crate::engine::retry::RetryPolicy;
use crate::engine::retry_chain::{ChainConfig, MetastableConfig};
use crate::live::retry::chain::LiveChain;
use crate::live::retry::metastable::{LoadSettings, SteadyLoad};
use crate::live::run::{self, LabEvent, LabSender, LiveRun, RetryEvent, RunInbox};

/// Most actions a live counting run makes: at p = 1 with 4 x 4 x 4 attempts an action is
/// 84 HTTP requests, so 2,000 actions already take tens of seconds on a debug build.
pub const LIVE_ACTIONS_MAX: u64 = 2_000;
/// Actions of a counting run in flight at once.
pub const COUNTING_CONCURRENCY: usize = 8;
/// How long the trigger (`g`) fails every database attempt.
pub const TRIGGER_LENGTH: Duration = Duration::from_secs(10);
/// The steady load's ends and step (actions per second).
pub const LOAD_MAX_PER_S: f64 = 800.0;
pub const LOAD_STEP_PER_S: f64 = 40.0;
/// The longest a steady load runs before it stops by itself: every load loop is bounded.
pub const LOAD_TIME_LIMIT: Duration = Duration::from_secs(600);
/// How often the counters go to the app: as often as it draws a frame.
pub const SAMPLE_INTERVAL: Duration = Duration::from_millis(250);

/// What a run starts with.
#[derive(Clone, Debug, PartialEq)]
pub enum RetryParams {
    /// `actions` actions (capped at [`LIVE_ACTIONS_MAX`]) on a fresh chain.
    Counting {
        attempts: Vec<u32>,
        p: f64,
        budget: f64,
        actions: u64,
        seed: u64,
    },
    /// A capacity-bound chain and a steady load until stopped.
    Metastable {
        config: MetastableConfig,
        load: LoadSettings,
    },
}

/// The screen's hold on a running steady load.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryControl {
    /// The steady load's rate, policy and budget (a counting run has none).
    pub load: Option<LoadSettings>,
    /// Triggers asked for: a count, so "latest wins" never loses one.
    pub triggers: u32,
}

/// The steady load's settings for a policy, a load and the sliders' attempts and budget.
pub fn load_settings(policy: RetryPolicy, layered: &[u32], budget: f64, load_per_s: f64) -> LoadSettings {
    LoadSettings {
        actions_per_s: load_per_s,
        attempts: policy.attempts(layered),
        budget: policy.budget(budget),
        deadline_ms: MetastableConfig::default().deadline_ms,
    }
}

/// Starts `params` in a task of its own. Must be called inside a tokio runtime.
pub fn spawn<E>(params: RetryParams, events: LabSender<E>) -> LiveRun<RetryControl>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let started = Instant::now();
    let control = RetryControl {
        load: match &params {
            RetryParams::Counting { .. } => None,
            RetryParams::Metastable { load, .. } => Some(load.clone()),
        },
        triggers: 0,
    };
    LiveRun::spawn(events.run(), control, move |inbox| async move {
        let result = match params {
            RetryParams::Counting {
                attempts,
                p,
                budget,
                actions,
                seed,
            } => counting(attempts, p, budget, actions, seed, started, inbox, &events).await,
            RetryParams::Metastable { config, .. } => metastable(config, started, inbox, &events).await,
        };
        let (last, result) = match result {
            Ok((last, result)) => (Some(last), Ok(result)),
            Err(error) => (None, Err(format!("{error:#}"))),
        };
        events.send(RetryEvent::Done { last, result }).await;
    })
}

/// What a run ends with: the last counters, and the counting result if it counted to the end.
type Ended = (
    (f64, crate::live::retry::chain::ChainSnapshot),
    Option<crate::engine::retry::ScenarioResult>,
);

fn sample_ticks() -> tokio::time::Interval {
    let mut ticks = tokio::time::interval(SAMPLE_INTERVAL);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
    ticks
}

#[allow(clippy::too_many_arguments)]
async fn counting<E>(
    attempts: Vec<u32>,
    p: f64,
    budget: f64,
    actions: u64,
    seed: u64,
    started: Instant,
    mut inbox: RunInbox<RetryControl>,
    events: &LabSender<E>,
) -> color_eyre::Result<Ended>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let chain = LiveChain::start(ChainConfig::counting(attempts.len(), p, seed)).await?;
    let actions = actions.min(LIVE_ACTIONS_MAX);
    let mut ticks = sample_ticks();
    let result = {
        let mut counting = std::pin::pin!(chain.run_actions(&attempts, budget, actions, COUNTING_CONCURRENCY));
        loop {
            tokio::select! {
                result = &mut counting => break Some(result),
                // Dropping the run aborts its workers; the chain then drains below.
                () = run::stopped(&mut inbox.stop) => break None,
                _ = ticks.tick() => {
                    events.sample(RetryEvent::Counters { now_s: started.elapsed().as_secs_f64(), snapshot: chain.snapshot() });
                }
            }
        }
    };
    let last = (started.elapsed().as_secs_f64(), chain.snapshot());
    chain.shutdown().await?;
    Ok((last, result))
}

async fn metastable<E>(
    config: MetastableConfig,
    started: Instant,
    mut inbox: RunInbox<RetryControl>,
    events: &LabSender<E>,
) -> color_eyre::Result<Ended>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let chain = LiveChain::start(config.chain_config(config.layered.len())).await?;
    let mut applied = inbox.control.borrow_and_update().clone();
    let first = applied
        .load
        .clone()
        .unwrap_or_else(|| load_settings(config.policy, &config.layered, config.budget, config.load_per_s));
    let steady = SteadyLoad::start(chain.top_client(), first);
    let mut ticks = sample_ticks();
    let limit = tokio::time::sleep(LOAD_TIME_LIMIT);
    let mut limit = std::pin::pin!(limit);
    loop {
        tokio::select! {
            () = run::stopped(&mut inbox.stop) => break,
            () = &mut limit => break,
            _ = ticks.tick() => {
                events.sample(RetryEvent::Counters { now_s: started.elapsed().as_secs_f64(), snapshot: chain.snapshot() });
            }
            changed = inbox.control.changed() => {
                if changed.is_err() { break }
                let wanted = inbox.control.borrow_and_update().clone();
                if let Some(load) = wanted.load.clone().filter(|load| Some(load) != applied.load.as_ref()) {
                    steady.set(load);
                }
                for _ in applied.triggers..wanted.triggers {
                    chain.trigger_outage(TRIGGER_LENGTH);
                }
                applied = wanted;
            }
        }
    }
    steady.stop().await;
    let last = (started.elapsed().as_secs_f64(), chain.snapshot());
    chain.shutdown().await?;
    Ok((last, None))
}
