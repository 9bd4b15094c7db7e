//! Lab 2 live: a front end, a back end and a database as hyper servers on 127.0.0.1.
//!
//! The top client plays the user's browser code. Each layer retries the layer below with
//! its own attempt count, using the engine's loop rule (attempt `i` is sent only while
//! `i < attempts[layer]`, and at the top client only if
//! [`crate::engine::retry::Budget::admit`] agrees) and the engine's
//! [`crate::engine::retry::full_jitter_s`] between attempts. The attempts of the layers below travel
//! down the chain in the [`ATTEMPTS_HEADER`] header, so one running chain serves every
//! policy with the same number of layers. Every count is kept by the server that saw the
//! request, in atomics a TUI can read at any moment ([`ChainCounters`]).
//!
//! With a [`DbCapacity`] the database becomes a finite resource (the metastable mode): a
//! semaphore of `concurrency` slots, each request holding one for `service_ms`. The work
//! runs in its own task, so a caller that times out and hangs up does not free its slot:
//! the database never learns that the caller gave up, which is how retries fill it with
//! wasted work.
//!
//! # For the TUI
//!
//! [`LiveChain::start`] returns the handle. [`LiveChain::counters`] gives the atomics to
//! read on every frame ([`ChainCounters::snapshot`] copies them); [`LiveChain::run_actions`]
//! runs a counted batch; `metastable::SteadyLoad::start` on [`LiveChain::top_client`]
//! starts a steady load whose rate, attempts and budget a slider changes (a
//! `watch` channel, latest wins); [`LiveChain::trigger_outage`] is the trigger;
//! [`LiveChain::set_p`] moves the failure probability. Stop the load, then
//! [`LiveChain::shutdown`]: it returns once no task of the chain is left.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, eyre};
use hyper::body::Incoming;
use hyper::{Request, Uri};
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::engine::pyrandom::PyRandom;
use crate::engine::retry::{RUN_ACTIONS_TIME_LIMIT, ScenarioParams, ScenarioResult};
use crate::engine::retry_chain::ChainConfig;
use crate::live::http::{self, TextBody};
pub use crate::live::retry::config::{BackoffSleep, ChainCounters, ChainSnapshot};
pub use crate::live::retry::hops::ATTEMPTS_HEADER;
use crate::live::retry::hops::{ChainDatabase, Forwarder, LayerBackoff, TopClient, WorkTracker};

/// How long a stopping server waits for its open connections before giving up on them.
const DRAIN_DEADLINE: Duration = Duration::from_secs(3);

/// A server task and its address.
struct RunningServer {
    addr: SocketAddr,
    task: JoinHandle<Arc<http::Connections>>,
}

/// The hops take a half-close for a hang-up: a hop whose caller gave up must stop
/// retrying downstream, or Lab 2's time limit cannot drain the chain and its counts of
/// work per layer grow past the simulation's (b255998: `the_time_limit_cuts_off_an_action_
/// still_retrying` and the layered-retries comparison failed while hops answered them).
pub const ANSWERS_HALF_CLOSED: bool = false;

async fn spawn_server<F, Fut>(handler: F, stop: watch::Receiver<bool>) -> Result<RunningServer>
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = hyper::Response<TextBody>> + Send + 'static,
{
    let listener = http::bind_loopback(0)
        .await
        .wrap_err("binding a chain server on 127.0.0.1:0")?;
    let addr = listener.local_addr().wrap_err("reading a chain server's port")?;
    let service = hyper::service::service_fn(move |request| {
        let reply = handler(request);
        async move { Ok::<_, Infallible>(reply.await) }
    });
    let mut stop = stop;
    let task = tokio::spawn(http::serve_until(
        listener,
        service,
        async move {
            let _ = stop.wait_for(|stopped| *stopped).await;
        },
        http::ConnLimits::for_this_process(ANSWERS_HALF_CLOSED),
    ));
    Ok(RunningServer { addr, task })
}

fn uri_of(addr: SocketAddr) -> Result<Uri> {
    format!("http://{addr}/")
        .parse()
        .map_err(|e| eyre!("chain address {addr}: {e}"))
}

/// A running chain: its servers, its top client and its counters.
pub struct LiveChain {
    config: ChainConfig,
    counters: Arc<ChainCounters>,
    top: Arc<TopClient>,
    db: Arc<ChainDatabase>,
    /// Front end first, database last.
    servers: Vec<RunningServer>,
    stop: watch::Sender<bool>,
    /// Actions the last counting run cut off at its time limit.
    cut_off: Arc<AtomicU64>,
}

impl LiveChain {
    /// Binds and starts the servers (database first, so each hop knows the next address).
    pub async fn start(config: ChainConfig) -> Result<Self> {
        let layers = config.layers.max(1);
        let counters = Arc::new(ChainCounters::new(layers));
        let (stop, stop_rx) = watch::channel(false);
        let seed = u128::from(config.seed);
        let db = Arc::new(ChainDatabase {
            counters: Arc::clone(&counters),
            p_bits: AtomicU64::new(config.p.to_bits()),
            rng: Mutex::new(PyRandom::new(seed)),
            capacity: config.capacity.as_ref().map(|c| {
                (
                    Arc::new(Semaphore::new(c.concurrency.max(1))),
                    Duration::from_secs_f64(c.service_ms.max(0.0) / 1e3),
                )
            }),
            outage_until_ms: AtomicU64::new(0),
            epoch: Instant::now(),
            work: Arc::new(WorkTracker::default()),
        });
        let mut servers = Vec::with_capacity(layers);
        let db_handler = Arc::clone(&db);
        servers.push(spawn_server(move |r| Arc::clone(&db_handler).handle(r), stop_rx.clone()).await?);
        // Hops from the back end (index layers-2) up to the front end (index 0).
        for index in (0..layers - 1).rev() {
            let next = uri_of(servers[0].addr)?;
            let is_back_end = index == layers - 2;
            let forwarder = Arc::new(Forwarder {
                index,
                next,
                client: http::pooled_client(),
                counters: Arc::clone(&counters),
                timeout: if is_back_end {
                    config.db_timeout_ms.map(Duration::from_millis)
                } else {
                    None
                },
                // Each layer draws its jitter from its own stream, seeded apart from the db's
                // (seed) and the top client's (seed + 1).
                backoff: LayerBackoff::new(config.backoff, seed + 2 + index as u128, Arc::clone(&counters)),
            });
            servers.insert(
                0,
                spawn_server(move |r| Arc::clone(&forwarder).handle(r), stop_rx.clone()).await?,
            );
        }
        let top = Arc::new(TopClient {
            client: http::pooled_client(),
            entry: uri_of(servers[0].addr)?,
            counters: Arc::clone(&counters),
            budget: Mutex::new(None),
            backoff: LayerBackoff::new(config.backoff, seed + 1, Arc::clone(&counters)),
        });
        Ok(Self {
            config,
            counters,
            top,
            db,
            servers,
            stop,
            cut_off: Arc::default(),
        })
    }

    /// Actions the last [`LiveChain::run_actions_within`] cut off at its time limit.
    pub fn cut_off(&self) -> u64 {
        self.cut_off.load(Ordering::Relaxed)
    }

    pub fn config(&self) -> &ChainConfig {
        &self.config
    }

    /// The live counters (atomics): read them at any time, from any task.
    pub fn counters(&self) -> Arc<ChainCounters> {
        Arc::clone(&self.counters)
    }

    pub fn snapshot(&self) -> ChainSnapshot {
        self.counters.snapshot()
    }

    /// The browser code, for running actions from other tasks.
    pub fn top_client(&self) -> Arc<TopClient> {
        Arc::clone(&self.top)
    }

    /// Server addresses, front end first, database last.
    pub fn addrs(&self) -> Vec<SocketAddr> {
        self.servers.iter().map(|s| s.addr).collect()
    }

    /// Moves the failure probability and reseeds the database's draws (repeatable runs).
    pub fn set_p(&self, p: f64, seed: u64) {
        self.db.p_bits.store(p.to_bits(), Ordering::Relaxed);
        *self.db.rng.lock().unwrap_or_else(|e| e.into_inner()) = PyRandom::new(u128::from(seed));
    }

    /// The trigger: every database attempt fails for `length` from now.
    pub fn trigger_outage(&self, length: Duration) {
        let until = self.db.epoch.elapsed() + length;
        self.db
            .outage_until_ms
            .store(u64::try_from(until.as_millis()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Runs `actions` actions with `concurrency` at a time; counts come from the servers.
    /// Ends by [`RUN_ACTIONS_TIME_LIMIT`]; see [`LiveChain::run_actions_within`].
    pub async fn run_actions(&self, attempts: &[u32], budget: f64, actions: u64, concurrency: usize) -> ScenarioResult {
        self.run_actions_within(attempts, budget, actions, concurrency, RUN_ACTIONS_TIME_LIMIT)
            .await
    }

    /// [`LiveChain::run_actions`] that ends by `limit`: no action starts after it, and an
    /// action still retrying at the limit is cut off there (hanging up cancels the chain
    /// below it). Then `params.actions` counts the actions started, the cut ones included
    /// with the attempts they made, and [`LiveChain::cut_off`] says how many were cut.
    pub async fn run_actions_within(
        &self,
        attempts: &[u32],
        budget: f64,
        actions: u64,
        concurrency: usize,
        limit: Duration,
    ) -> ScenarioResult {
        self.top.set_budget(budget);
        let before = self.snapshot();
        let remaining = Arc::new(AtomicU64::new(actions));
        let deadline = Instant::now() + limit;
        self.cut_off.store(0, Ordering::Relaxed);
        let mut workers = tokio::task::JoinSet::new();
        for _ in 0..concurrency.clamp(1, 256) {
            let (top, remaining, attempts) = (Arc::clone(&self.top), Arc::clone(&remaining), attempts.to_vec());
            let cut_off = Arc::clone(&self.cut_off);
            workers.spawn(async move {
                // Bounded in count and time: each worker takes actions until the shared
                // count runs out or the time limit passes, even in the middle of an action
                // (one action of six layers of 10 attempts at p = 1 is 10^6 attempts).
                while Instant::now() < deadline
                    && remaining
                        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
                        .is_ok()
                {
                    if tokio::time::timeout_at(deadline, top.action(&attempts, None))
                        .await
                        .is_err()
                    {
                        cut_off.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
        while workers.join_next().await.is_some() {}
        let after = self.snapshot();
        let sends_per_layer: Vec<u64> = after
            .received
            .iter()
            .zip(&before.received)
            .map(|(a, b)| a - b)
            .collect();
        let db_attempts = sends_per_layer.last().copied().unwrap_or(0);
        let successes = after.actions_ok - before.actions_ok;
        let actions = after.actions_started - before.actions_started;
        let per = |n: u64| if actions == 0 { 0.0 } else { n as f64 / actions as f64 };
        ScenarioResult {
            params: ScenarioParams {
                p: f64::from_bits(self.db.p_bits.load(Ordering::Relaxed)),
                attempts: attempts.to_vec(),
                budget,
                actions,
                seed: self.config.seed,
            },
            db_attempts,
            db_attempts_per_action: per(db_attempts),
            successes,
            success_ratio: per(successes),
            sends_per_layer,
        }
    }

    /// Stops every server (listeners first, then a bounded drain), stops the database's
    /// background work, and returns once no task of the chain is left.
    pub async fn shutdown(self) -> Result<()> {
        let _ = self.stop.send(true);
        if let Some((slots, _)) = &self.db.capacity {
            // Queued work ends at once; work in service ends within one service time.
            slots.close();
        }
        let mut drained = true;
        for server in self.servers {
            let graceful = server.task.await.wrap_err("a chain server task failed")?;
            drained &= http::drain(graceful, DRAIN_DEADLINE).await;
        }
        let work = Arc::clone(&self.db.work);
        let idle = async {
            loop {
                let notified = work.idle.notified();
                if work.running.load(Ordering::Acquire) == 0 {
                    break;
                }
                notified.await;
            }
        };
        drained &= tokio::time::timeout(DRAIN_DEADLINE, idle).await.is_ok();
        if drained {
            Ok(())
        } else {
            Err(eyre!("the retry chain did not drain within {DRAIN_DEADLINE:?}"))
        }
    }
}

/// Runs one counting scenario on a fresh chain: start, run, shut down.
pub async fn run_scenario_live(params: &ScenarioParams, concurrency: usize) -> Result<ScenarioResult> {
    let chain = LiveChain::start(ChainConfig::counting(params.attempts.len(), params.p, params.seed)).await?;
    let result = chain
        .run_actions(&params.attempts, params.budget, params.actions, concurrency)
        .await;
    chain.shutdown().await?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn three_layers_at_certain_failure_multiply() {
        let chain = LiveChain::start(ChainConfig::counting(3, 1.0, 42))
            .await
            .expect("chain");
        let result = chain.run_actions(&[2, 2, 2], 0.0, 5, 4).await;
        assert_eq!(result.sends_per_layer, vec![10, 20, 40]);
        chain.shutdown().await.expect("shutdown");
    }
}
