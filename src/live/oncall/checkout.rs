//! checkout-api as a server: its workers (the sim's 64 for a fifth of the load, see
//! [`super::tally::STANDS_FOR`]), the shed lever, and for each checkout its calls
//! to the four dependencies over HTTP, with the register's retry layers and breakers.
//!
//! The calls are the simulation's: each is an [`engine::oncall::call_plan::CallPlan`]
//! stepped here with real attempts, the breakers are the engine's `Breaker`, fed the drill
//! clock's time, and the layers come from `engine::oncall::sim::call_layers`. The hard
//! dependencies are called one after the other within the request's deadline (inventory,
//! then payments if inventory answered); the soft ones beside them, with no deadline of
//! their own: the request stops waiting for them at its deadline, their retries go on.
//!
//! [`engine::oncall::call_plan::CallPlan`]: crate::engine::oncall::call_plan::CallPlan

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Empty;
use hyper::body::Incoming;
use hyper::{Request, StatusCode};

use super::clock::DrillClock;
use super::dependency::{ATTEMPT_PATH, AttemptQuery, StandInEnd, WARM_PATH, stand_ins_of};
use super::server;
use super::tally::{DrillTally, LIVE_REQUESTS_PER_S, LIVE_WORKERS, STANDS_FOR};
use super::workers::CheckoutWorkers;
use crate::engine::breaker::{Breaker, BreakerConfig, BreakerState};
use crate::engine::oncall::call_plan::{CallEnd, CallPlan, CallStep};
use crate::engine::oncall::register::INBOUND_DEADLINE_MS;
use crate::engine::oncall::sim::{SHEDDABLE_OF_TEN, call_layers};
use crate::engine::oncall::{DrillSetup, OncallDep, OncallLever};
use crate::live::http::{self, PooledClient, TextBody};
use crate::live::loopback_server::LoopbackServer;

/// The path of a checkout; `?i=N` is the request's number in the live load (second N / 20).
pub const CHECKOUT_PATH: &str = "/checkout";
/// The body words of checkout-api's refusals, which the load tells apart.
pub const SHED_WORD: &str = "shed";
pub const BUSY_WORD: &str = "busy";
/// The longest one soft attempt is waited for (drill ms): a bound for a call that has
/// no deadline, far past every answer time the incidents have (1.9 s at most).
const SOFT_ATTEMPT_CAP_MS: f64 = 10_000.0;

/// The levers as they stand now.
#[derive(Clone, Copy, Debug, Default)]
struct Levers {
    shed: bool,
    retries_zero: [bool; 4],
    off: [bool; 4],
    forced_open: [bool; 4],
}

impl Levers {
    fn pull(&mut self, lever: OncallLever) {
        match lever {
            OncallLever::RetriesZero(dep, on) => self.retries_zero[dep.index()] = on,
            OncallLever::SwitchedOff(dep, on) => self.off[dep.index()] = on,
            OncallLever::BreakerForced(dep, on) => self.forced_open[dep.index()] = on,
            OncallLever::Shed(on) => self.shed = on,
        }
    }
}

/// checkout-api's state, shared by its handlers.
pub struct Checkout {
    setup: DrillSetup,
    clock: DrillClock,
    deps: [SocketAddr; 4],
    client: PooledClient,
    levers: Mutex<Levers>,
    /// Shared with the tasks that record the stand-ins' outcomes when they are due.
    breakers: [Arc<Mutex<Option<Breaker>>>; 4],
    workers: CheckoutWorkers,
    tally: Arc<DrillTally>,
    /// Soft calls still running, abandoned ones included: the run waits for them to end.
    soft_in_flight: Arc<AtomicUsize>,
}

/// The request's number from its query, and its sheddability.
fn request_of(request: &Request<Incoming>) -> Option<(usize, bool)> {
    let i: usize = server::query(request, "i")?.parse().ok()?;
    Some((i, (i % LIVE_REQUESTS_PER_S) % 10 < SHEDDABLE_OF_TEN))
}

impl Checkout {
    pub fn new(setup: &DrillSetup, clock: DrillClock, deps: [SocketAddr; 4], tally: Arc<DrillTally>) -> Self {
        Self {
            setup: setup.clone(),
            clock,
            deps,
            client: http::pooled_client(),
            levers: Mutex::new(Levers::default()),
            breakers: OncallDep::ALL.map(|dep| {
                Arc::new(Mutex::new(
                    dep.row().breaker.then(|| Breaker::new(BreakerConfig::default())),
                ))
            }),
            workers: CheckoutWorkers::new(LIVE_WORKERS, INBOUND_DEADLINE_MS / 1_000.0),
            tally,
            soft_in_flight: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Pulls (or restores) a lever now.
    pub fn pull(&self, lever: OncallLever) {
        if let Ok(mut levers) = self.levers.lock() {
            levers.pull(lever);
        }
    }

    fn levers(&self) -> Levers {
        self.levers.lock().map(|l| *l).unwrap_or_default()
    }

    /// Soft calls still running.
    pub fn soft_in_flight(&self) -> usize {
        self.soft_in_flight.load(Ordering::Relaxed)
    }

    /// Workers busy now.
    pub fn workers_busy(&self) -> u32 {
        self.workers.busy_at(self.clock.now_s()) as u32 * STANDS_FOR
    }

    /// `dep`'s breaker as the screen names it now: `off`, `forced_open`, its state, `none`.
    pub fn breaker_word(&self, dep: OncallDep) -> &'static str {
        let levers = self.levers();
        if levers.off[dep.index()] {
            "off"
        } else if levers.forced_open[dep.index()] {
            "forced_open"
        } else {
            self.breakers[dep.index()]
                .lock()
                .ok()
                .and_then(|b| b.as_ref().map(|b| b.state().name()))
                .unwrap_or("none")
        }
    }

    /// One attempt over HTTP within `limit_ms` of call `started_s`: whether it succeeded
    /// and its drill ms. A first attempt's answer tells how the stand-ins' application
    /// attempts end, which go to the breaker at those moments, even when the answer came
    /// too late for the attempt: a failing attempt is answered at its caller's timeout,
    /// which the caller's own timer nearly always reaches first, and dropped with it the
    /// stand-ins made a breaker's window fill at a fifth of the sim's pace while failures
    /// ran high (its successes still came with their four stand-ins).
    async fn attempt(&self, dep: OncallDep, query: &AttemptQuery, limit_ms: f64, started_s: f64) -> (bool, f64) {
        let start = Instant::now();
        let uri = format!("http://{}{ATTEMPT_PATH}?{}", self.deps[dep.index()], query.to_query());
        let Ok(request) = Request::get(uri).body(Empty::<Bytes>::new()) else {
            return (false, 0.0);
        };
        let client = self.client.clone();
        let mut exchange = tokio::spawn(async move {
            let response = client.request(request).await.ok()?;
            let ok = response.status() == StatusCode::OK;
            let body = http_body_util::BodyExt::collect(response.into_body())
                .await
                .ok()?
                .to_bytes();
            Some((ok, stand_ins_of(&body)))
        });
        let limit = self.clock.real(limit_ms.min(SOFT_ATTEMPT_CAP_MS));
        let ok = match tokio::time::timeout(limit, &mut exchange).await {
            Ok(Ok(Some((ok, stand_ins)))) => {
                self.record_stand_ins(dep, started_s, stand_ins);
                ok
            }
            Ok(_) => false,
            Err(_) => {
                // Not answered in time: failed; its answer still comes, with the stand-ins.
                let (breaker, clock) = (self.breakers[dep.index()].clone(), self.clock);
                tokio::spawn(async move {
                    if let Ok(Some((_, stand_ins))) = exchange.await {
                        record_stand_ins(breaker, clock, started_s, stand_ins).await;
                    }
                });
                false
            }
        };
        (ok, self.clock.drill_ms(start.elapsed()))
    }

    /// One call of checkout `request` with its retry layers, counted in the checkout's
    /// second; None when switched off.
    async fn call(&self, dep: OncallDep, request: usize, arrived_s: f64, budget_ms: f64) -> Option<CallEnd> {
        let second = request / LIVE_REQUESTS_PER_S;
        let levers = self.levers();
        if levers.off[dep.index()] {
            return None;
        }
        let (app_attempts, layers) = call_layers(&self.setup, dep, arrived_s, levers.retries_zero[dep.index()]);
        self.tally.dep(second, dep, |d| d.calls += STANDS_FOR);
        let budget_ms = if dep.row().hard { budget_ms } else { f64::INFINITY };
        let mut plan = CallPlan::new(app_attempts, layers, budget_ms);
        let breaker = &self.breakers[dep.index()];
        let mut query = AttemptQuery {
            second,
            request,
            attempt: 0,
            app_attempts,
            layers,
            budget_ms,
        };
        let started_s = self.clock.now_s();
        loop {
            match plan.next_step() {
                CallStep::AskBreaker => {
                    let forced = self.levers().forced_open[dep.index()];
                    // The clock is read under the lock, so the breaker's time only moves on.
                    let permitted = !forced
                        && breaker
                            .lock()
                            .map(|mut b| b.as_mut().is_none_or(|b| b.allow(self.clock.now_s())))
                            .unwrap_or(false);
                    if !permitted {
                        self.tally.dep(second, dep, |d| d.not_permitted += STANDS_FOR);
                    }
                    plan.permitted(permitted);
                }
                CallStep::Attempt { limit_ms } => {
                    let (ok, took_ms) = self.attempt(dep, &query, limit_ms, started_s).await;
                    query.attempt += 1;
                    let took_ms = plan.attempted(ok, took_ms);
                    self.tally.dep(second, dep, |d| {
                        d.attempts += STANDS_FOR;
                        d.errors += u32::from(!ok) * STANDS_FOR;
                        d.latencies_ms.push(took_ms);
                        d.busy_ms += took_ms * f64::from(STANDS_FOR);
                    });
                }
                CallStep::RecordBreaker { ok } => {
                    if let Ok(mut b) = breaker.lock()
                        && let Some(b) = b.as_mut()
                    {
                        // The four stand-ins' outcomes come on their own
                        // (`record_stand_ins`), so that the window holds 20 draws.
                        b.record(self.clock.now_s(), ok);
                    }
                }
                CallStep::Done(end) => return Some(end),
            }
        }
    }

    /// Records the stand-ins' application attempts in `dep`'s breaker when each ends
    /// ([`record_stand_ins`]), beside the call's own work.
    fn record_stand_ins(&self, dep: OncallDep, started_s: f64, stand_ins: Vec<StandInEnd>) {
        if stand_ins.is_empty() {
            return;
        }
        let (breaker, clock) = (self.breakers[dep.index()].clone(), self.clock);
        tokio::spawn(record_stand_ins(breaker, clock, started_s, stand_ins));
    }

    /// Checkout number `request`, sent at drill second `sent_s`: true when it answered
    /// well within the deadline, which counts from when the customer sent it.
    async fn checkout(self: &Arc<Self>, request: usize, sent_s: f64) -> bool {
        // The register's layers as they stand when the customer sent the checkout.
        let arrived_s = sent_s;
        let deadline = self.clock.instant_at(sent_s) + self.clock.real(INBOUND_DEADLINE_MS);
        let soft: Vec<_> = [OncallDep::Recommendations, OncallDep::ReceiptStore]
            .into_iter()
            .map(|dep| {
                let me = self.clone();
                me.soft_in_flight.fetch_add(1, Ordering::Relaxed);
                // Spawned: the request stops waiting at its deadline, the call does not.
                tokio::spawn(async move {
                    let end = me.call(dep, request, arrived_s, f64::INFINITY).await;
                    me.soft_in_flight.fetch_sub(1, Ordering::Relaxed);
                    end
                })
            })
            .collect();
        let hard = async {
            let inventory = self
                .call(OncallDep::Inventory, request, arrived_s, INBOUND_DEADLINE_MS)
                .await;
            let (mut ok, spent_ms) = inventory.map_or((true, 0.0), |c| (c.ok, c.elapsed_ms));
            if ok
                && let Some(payments) = self
                    .call(OncallDep::Payments, request, arrived_s, INBOUND_DEADLINE_MS - spent_ms)
                    .await
            {
                ok = payments.ok;
            }
            ok
        };
        let soft_waited = tokio::time::timeout_at(deadline.into(), wait_all(soft));
        let (hard_ok, _) = tokio::join!(hard, soft_waited);
        hard_ok && Instant::now() < deadline
    }

    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> hyper::Response<TextBody> {
        if request.uri().path() == WARM_PATH {
            for addr in self.deps {
                let uri = format!("http://{addr}{WARM_PATH}");
                if let Ok(warm) = Request::get(uri).body(Empty::<Bytes>::new()) {
                    let _ = tokio::time::timeout(Duration::from_secs(2), self.client.request(warm)).await;
                }
            }
            return http::text(StatusCode::OK, "warm\n");
        }
        let Some((number, sheddable)) = request_of(&request) else {
            return http::text(StatusCode::BAD_REQUEST, "checkout needs ?i=N\n");
        };
        if sheddable && self.levers().shed {
            return http::text(StatusCode::SERVICE_UNAVAILABLE, SHED_WORD);
        }
        // The load sends request N at drill second N / 20: the moment the sim's request
        // arrives, which the workers' holds are measured from.
        let sent_s = number as f64 / LIVE_REQUESTS_PER_S as f64;
        let Some(worker) = self.workers.take(number, sent_s) else {
            return http::text(StatusCode::SERVICE_UNAVAILABLE, BUSY_WORD);
        };
        let ok = self.checkout(number, sent_s).await;
        self.workers.release(worker, self.clock.now_s());
        if ok {
            http::text(StatusCode::OK, "ok")
        } else {
            http::text(StatusCode::INTERNAL_SERVER_ERROR, "failed")
        }
    }
}

/// Records the stand-ins' application attempts of a call begun at `started_s` in its
/// breaker when each ends (`started_s` plus its time), as five calls' outcomes would come:
/// so that the window of 20 calls spans the sim's time and holds 20 draws, not four drawn
/// five times. A stand-in's outcome counts only while the breaker is closed: once it
/// opened, the sim's call would have been refused or its late outcome ignored.
async fn record_stand_ins(
    breaker: Arc<Mutex<Option<Breaker>>>,
    clock: DrillClock,
    started_s: f64,
    mut ends: Vec<StandInEnd>,
) {
    ends.sort_by(|a, b| a.end_ms.total_cmp(&b.end_ms));
    for end in ends {
        tokio::time::sleep_until(clock.instant_at(started_s + end.end_ms / 1_000.0).into()).await;
        if let Ok(mut b) = breaker.lock()
            && let Some(b) = b.as_mut()
            && b.state() == BreakerState::Closed
        {
            b.record(clock.now_s(), end.ok);
        }
    }
}

/// Waits for every spawned soft call.
async fn wait_all(calls: Vec<tokio::task::JoinHandle<Option<CallEnd>>>) {
    for call in calls {
        let _ = call.await;
    }
}

/// Starts checkout-api.
pub async fn serve(checkout: Arc<Checkout>) -> std::io::Result<LoopbackServer> {
    server::serve(move |request| checkout.clone().handle(request)).await
}
