//! The live twin's whole run: the four dependency servers and checkout-api on 127.0.0.1,
//! their connections warmed, the load, the levers at their drill times, a sample at the end
//! of each drill second; then the servers stopped and the rows built as the simulation
//! builds them, alerts included (`engine::oncall::sim::AlertWatch`), into the engine's own
//! [`DrillRun`], which `engine::oncall::score_drill` scores and `report::oncall` prints.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::checkout::{self, Checkout};
use super::clock::DrillClock;
use super::dependency;
use super::load;
use super::tally::DrillTally;
use crate::engine::oncall::sim::{AlertWatch, DRILL_S, DepSignals, DrillSecond, POOL_CONNECTIONS, p99};
use crate::engine::oncall::{DrillRun, DrillSetup, LeverPull, OncallDep};
use crate::live::http;

/// Real milliseconds a drill second lasts live: the 420 s drill in 33.6 s of wall time,
/// within the ~40 s a whole drill may take. Shorter, the timer's 1 ms ticks grow against
/// the scaled answer times (inventory's usual 30 ms is 2.4 ms here); the load a drill
/// second carries at this speed is why the twin plays a fifth of it
/// ([`super::tally::STANDS_FOR`]).
pub const MS_PER_DRILL_S: u64 = 80;
/// Real time before drill second 0, for the servers to start and the connections to open.
const WARM_UP: Duration = Duration::from_millis(700);
/// The longest the run waits, after the last request, for abandoned soft calls (drill s).
const TAIL_S: f64 = 30.0;

/// What was sampled at the end of a drill second: workers busy, each breaker's word.
type Sample = (u32, [&'static str; 4]);

/// Plays the drill of `setup` with `levers` live, `ms_per_drill_s` real ms a drill second.
pub async fn run(setup: &DrillSetup, levers: &[LeverPull], ms_per_drill_s: u64) -> std::io::Result<DrillRun> {
    let clock = DrillClock::start_after(WARM_UP, ms_per_drill_s as f64);
    let mut deps = Vec::new();
    for dep in OncallDep::ALL {
        deps.push(dependency::serve(dep, setup, clock).await?);
    }
    let addrs = [deps[0].addr, deps[1].addr, deps[2].addr, deps[3].addr];
    let tally = Arc::new(DrillTally::default());
    let api = Arc::new(Checkout::new(setup, clock, addrs, tally.clone()));
    let served = checkout::serve(api.clone()).await?;
    load::warm(&http::pooled_client(), served.addr).await;

    let mut sorted = levers.to_vec();
    sorted.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
    let puller = {
        let (api, sorted) = (api.clone(), sorted.clone());
        tokio::spawn(async move {
            for pull in sorted {
                tokio::time::sleep_until(clock.instant_at(pull.t_s).into()).await;
                api.pull(pull.lever);
            }
        })
    };
    let samples: Arc<Mutex<Vec<Sample>>> = Arc::new(Mutex::new(Vec::with_capacity(DRILL_S)));
    let sampler = {
        let (api, samples) = (api.clone(), samples.clone());
        tokio::spawn(async move {
            for t_s in 0..DRILL_S {
                tokio::time::sleep_until(clock.instant_at((t_s + 1) as f64).into()).await;
                let words = OncallDep::ALL.map(|dep| api.breaker_word(dep));
                if let Ok(mut samples) = samples.lock() {
                    samples.push((api.workers_busy(), words));
                }
            }
        })
    };
    load::run(served.addr, clock, tally.clone()).await;
    let _ = sampler.await;
    puller.abort();
    let tail_end = clock.instant_at(clock.now_s() + TAIL_S);
    while api.soft_in_flight() > 0 && std::time::Instant::now() < tail_end {
        tokio::time::sleep(clock.real(100.0)).await;
    }
    served.stop().await;
    for dep in deps {
        dep.stop().await;
    }
    let samples = samples.lock().map(|s| s.clone()).unwrap_or_default();
    Ok(rows(setup, sorted, tally.take(), &samples))
}

/// The twin's rows, sampled words and alerts, as the sim's [`DrillRun`].
fn rows(
    setup: &DrillSetup,
    levers: Vec<LeverPull>,
    tally: Vec<super::tally::SecondTally>,
    samples: &[Sample],
) -> DrillRun {
    let mut watches: Vec<AlertWatch> = OncallDep::ALL.iter().map(|_| AlertWatch::default()).collect();
    let mut alerts = Vec::new();
    let mut seconds = Vec::with_capacity(DRILL_S);
    for (t_s, mut second) in tally.into_iter().enumerate() {
        let (workers_busy, words) = samples.get(t_s).copied().unwrap_or((0, ["none"; 4]));
        let mut firing = Vec::new();
        let mut deps = Vec::new();
        for dep in OncallDep::ALL {
            let d = &mut second.deps[dep.index()];
            let signals = DepSignals {
                dep,
                attempts: d.attempts,
                calls: d.calls,
                errors: d.errors,
                p99_ms: p99(&mut d.latencies_ms),
                saturation: d.busy_ms / 1_000.0 / POOL_CONNECTIONS,
                breaker: words[dep.index()],
                not_permitted: d.not_permitted,
            };
            firing.extend(watches[dep.index()].close_second(t_s, &signals, &mut alerts));
            deps.push(signals);
        }
        seconds.push(DrillSecond {
            t_s,
            requests: second.requests,
            goodput: second.goodput,
            shed: second.shed,
            rejected: second.rejected,
            failed: second.failed,
            p99_ms: p99(&mut second.latencies_ms),
            workers_busy,
            deps,
            alerts: firing,
        });
    }
    DrillRun {
        setup: setup.clone(),
        levers,
        seconds,
        alerts,
    }
}
