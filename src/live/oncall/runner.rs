//! The live twin's whole run: the four dependency servers and checkout-api on 127.0.0.1,
//! their connections warmed, the load, the levers at their drill times, a sample at the end
//! of each drill second; then the servers stopped and the rows built as the simulation
//! builds them, alerts included (`engine::oncall::AlertLog`), into the engine's own
//! [`DrillRun`], which `engine::oncall::score_drill` scores and `report::oncall` prints.
//! The servers' start and stop ([`Twin`]) and a second's row ([`row`]) are shared with the
//! app's live drill (`super::feed`), whose levers come while it runs.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::task::JoinHandle;

use super::breaker_feed::BreakerFeed;
use super::checkout::{self, Checkout};
use super::clock::DrillClock;
use super::dependency;
use super::load;
use super::setup::SharedSetup;
use super::tally::{DrillTally, SecondTally};
use crate::engine::oncall::sim::{DRILL_S, DepSignals, DrillSecond, POOL_CONNECTIONS, p99};
use crate::engine::oncall::{AlertLog, DrillRun, DrillSetup, LeverPull, OncallDep};
use crate::live::http;
use crate::live::loopback_server::LoopbackServer;

/// Real milliseconds a drill second lasts live: the 420 s drill in 33.6 s of wall time,
/// within the ~40 s a whole drill may take. Shorter, the timer's 1 ms ticks grow against
/// the scaled answer times (inventory's usual 30 ms is 2.4 ms here); the load a drill
/// second carries at this speed is why the twin plays a fifth of it
/// ([`super::tally::STANDS_FOR`]).
pub const MS_PER_DRILL_S: u64 = 80;
/// Real time before drill second 0, for the servers to start and the connections to open.
pub(super) const WARM_UP: Duration = Duration::from_millis(700);
/// The longest the run waits, after the last request, for abandoned soft calls (drill s).
const TAIL_S: f64 = 30.0;

/// What was sampled at the end of a drill second: workers busy, each breaker's word.
pub(super) type Sample = (u32, [&'static str; 4]);

/// The drill's servers, started and warmed: the four dependencies and checkout-api, on
/// one drill clock. Shared by the headless run and the app's live drill (`super::feed`).
pub(super) struct Twin {
    pub clock: DrillClock,
    /// The setup every server reads, where a facilitator's second fault goes.
    pub setup: SharedSetup,
    pub api: Arc<Checkout>,
    pub tally: Arc<DrillTally>,
    /// checkout-api's server; its address is where the load goes.
    served: LoopbackServer,
    deps: Vec<LoopbackServer>,
}

impl Twin {
    /// Starts the servers on 127.0.0.1 and warms checkout-api's connections, before
    /// `clock`'s second 0.
    pub async fn start(setup: &DrillSetup, clock: DrillClock) -> std::io::Result<Self> {
        let setup = SharedSetup::new(setup);
        let feeds = OncallDep::ALL.map(BreakerFeed::of);
        let mut deps = Vec::new();
        for dep in OncallDep::ALL {
            deps.push(dependency::serve(dep, &setup, clock, feeds[dep.index()].clone()).await?);
        }
        let addrs = [deps[0].addr, deps[1].addr, deps[2].addr, deps[3].addr];
        let tally = Arc::new(DrillTally::default());
        let api = Arc::new(Checkout::new(&setup, clock, addrs, feeds, tally.clone()));
        let served = checkout::serve(api.clone()).await?;
        load::warm(&http::pooled_client(), served.addr).await;
        Ok(Self {
            clock,
            setup,
            api,
            tally,
            served,
            deps,
        })
    }

    /// Where the load sends its checkouts.
    pub fn checkout_addr(&self) -> SocketAddr {
        self.served.addr
    }

    /// Samples workers busy and the breakers' words at the end of each drill second, into
    /// the shared list it returns.
    pub fn sample_each_second(&self) -> (JoinHandle<()>, Arc<Mutex<Vec<Sample>>>) {
        let samples: Arc<Mutex<Vec<Sample>>> = Arc::new(Mutex::new(Vec::with_capacity(DRILL_S)));
        let (api, clock, list) = (self.api.clone(), self.clock, samples.clone());
        let sampler = tokio::spawn(async move {
            for t_s in 0..DRILL_S {
                tokio::time::sleep_until(clock.instant_at((t_s + 1) as f64).into()).await;
                let words = OncallDep::ALL.map(|dep| api.breaker_word(dep));
                if let Ok(mut list) = list.lock() {
                    list.push((api.workers_busy(), words));
                }
            }
        });
        (sampler, samples)
    }

    /// After the load: waits (at most [`TAIL_S`]) for the abandoned soft calls, whose
    /// attempts count in their request's second, then stops every server.
    pub async fn wind_down(self) {
        let tail_end = self.clock.instant_at(self.clock.now_s() + TAIL_S);
        while self.api.soft_in_flight() > 0 && std::time::Instant::now() < tail_end {
            tokio::time::sleep(self.clock.real(100.0)).await;
        }
        self.stop().await;
    }

    /// The drill's end once its load has run out: the last second's sample, the soft calls
    /// still out waited for, the servers stopped, and the rows built from the final counts
    /// (the headless run and the app's feed both end here).
    pub async fn finish(
        self,
        sampler: tokio::task::JoinHandle<()>,
        samples: &Mutex<Vec<Sample>>,
        setup: &DrillSetup,
        levers: Vec<LeverPull>,
    ) -> DrillRun {
        let _ = sampler.await;
        let tally = self.tally.clone();
        self.wind_down().await;
        let samples = samples.lock().map(|s| s.clone()).unwrap_or_default();
        rows(setup, levers, tally.take(), &samples)
    }

    /// Stops checkout-api, then the dependencies.
    pub async fn stop(self) {
        self.served.stop().await;
        for dep in self.deps {
            dep.stop().await;
        }
    }
}

/// Plays the drill of `setup` with `levers` live, `ms_per_drill_s` real ms a drill second.
pub async fn run(setup: &DrillSetup, levers: &[LeverPull], ms_per_drill_s: u64) -> std::io::Result<DrillRun> {
    let clock = DrillClock::start_after(WARM_UP, ms_per_drill_s as f64);
    let twin = Twin::start(setup, clock).await?;
    let mut sorted = levers.to_vec();
    sorted.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
    let puller = {
        let (api, sorted) = (twin.api.clone(), sorted.clone());
        tokio::spawn(async move {
            for pull in sorted {
                tokio::time::sleep_until(clock.instant_at(pull.t_s).into()).await;
                api.pull(pull.lever);
            }
        })
    };
    let (sampler, samples) = twin.sample_each_second();
    load::run(twin.checkout_addr(), clock, twin.tally.clone()).await;
    puller.abort();
    Ok(twin.finish(sampler, &samples, setup, sorted).await)
}

/// One second's row from its counts and its end-of-second sample, the sim's way; its
/// alerts are left to an [`AlertLog`], which closes the rows in order.
pub(super) fn row(t_s: usize, second: &mut SecondTally, sample: Option<Sample>) -> DrillSecond {
    let (workers_busy, words) = sample.unwrap_or((0, ["none"; 4]));
    let deps = OncallDep::ALL
        .iter()
        .map(|&dep| {
            let d = &mut second.deps[dep.index()];
            DepSignals {
                dep,
                attempts: d.attempts,
                calls: d.calls,
                errors: d.errors,
                p99_ms: p99(&mut d.latencies_ms),
                saturation: d.busy_ms / 1_000.0 / POOL_CONNECTIONS,
                breaker: words[dep.index()],
                not_permitted: d.not_permitted,
            }
        })
        .collect();
    DrillSecond {
        t_s,
        requests: second.requests,
        goodput: second.goodput,
        shed: second.shed,
        rejected: second.rejected,
        failed: second.failed,
        p99_ms: p99(&mut second.latencies_ms),
        workers_busy,
        deps,
        alerts: Vec::new(),
    }
}

/// The twin's rows, sampled words and alerts, as the sim's [`DrillRun`].
pub(super) fn rows(
    setup: &DrillSetup,
    levers: Vec<LeverPull>,
    tally: Vec<SecondTally>,
    samples: &[Sample],
) -> DrillRun {
    let mut alerts = AlertLog::default();
    let mut seconds = Vec::with_capacity(DRILL_S);
    for (t_s, mut second) in tally.into_iter().enumerate() {
        let mut row = row(t_s, &mut second, samples.get(t_s).copied());
        alerts.close(&mut row);
        seconds.push(row);
    }
    DrillRun {
        setup: setup.clone(),
        levers,
        seconds,
        alerts: alerts.spans().to_vec(),
    }
}
