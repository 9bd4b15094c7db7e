//! checkout-api as a server: its workers (the sim's 64 for a fifth of the load, see
//! [`super::tally::STANDS_FOR`]), the shed lever, and for each checkout its calls
//! to the four dependencies over HTTP, with the register's retry layers and breakers.
//!
//! The calls are the simulation's: each is an [`engine::oncall::call_plan::CallPlan`]
//! stepped here with real attempts, the breakers are the engine's `Breaker`, fed each
//! outcome at its sim moment and asked at the sim request's arrival
//! ([`super::breaker_feed`]), and the layers come from `engine::oncall::sim::call_layers`.
//! The hard dependencies are called one after the other within the request's deadline
//! (inventory, then payments if inventory answered); the soft ones beside them, with no
//! deadline of their own: the request stops waiting for them at its deadline, their
//! retries go on.
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
use tokio::sync::oneshot;

use super::breaker_feed::{BreakerFeed, SETTLE_WAIT_MS};
use super::clock::DrillClock;
use super::dependency::{ATTEMPT_PATH, AttemptQuery, STAND_INS, WARM_PATH, later_asks_of, stand_in_calls_of};
use super::server;
use super::setup::SharedSetup;
use super::tally::{DrillTally, LIVE_REQUESTS_PER_S, LIVE_WORKERS, STANDS_FOR, stood_for};
use super::workers::CheckoutWorkers;
use crate::engine::oncall::call_plan::{CallEnd, CallPlan, CallStep};
use crate::engine::oncall::register::INBOUND_DEADLINE_MS;
use crate::engine::oncall::sim::{SHEDDABLE_OF_TEN, arrival_s, call_layers, request_end};
use crate::engine::oncall::{OncallDep, OncallLever};
use crate::live::http::{self, PooledClient, TextBody};
use crate::live::loopback_server::LoopbackServer;

/// The path of a checkout; `?i=N` is the request's number in the live load (second N / 20).
pub const CHECKOUT_PATH: &str = "/checkout";
/// The body words of checkout-api's refusals, which the load tells apart.
pub const SHED_WORD: &str = "shed";
pub const BUSY_WORD: &str = "busy";
/// The answer's word before its stand-ins' outcomes.
const SERVED_WORD: &str = "served ";
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
    /// Shared with the dependencies: a second fault's hidden retry layer counts at once.
    setup: SharedSetup,
    clock: DrillClock,
    deps: [SocketAddr; 4],
    client: PooledClient,
    levers: Mutex<Levers>,
    /// The breakers, shared with the dependencies, which ask them for the stand-ins and
    /// the live calls' retries and queue every outcome for its sim moment.
    feeds: [BreakerFeed; 4],
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
    /// checkout-api calling the dependencies at `deps`, which share its breakers `feeds`.
    pub fn new(
        setup: &SharedSetup,
        clock: DrillClock,
        deps: [SocketAddr; 4],
        feeds: [BreakerFeed; 4],
        tally: Arc<DrillTally>,
    ) -> Self {
        Self {
            setup: setup.clone(),
            clock,
            deps,
            feeds,
            client: http::pooled_client(),
            levers: Mutex::new(Levers::default()),
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
            self.feeds[dep.index()]
                .state_at(self.clock.now_s())
                .map_or("none", |state| state.name())
        }
    }

    /// One attempt over HTTP within `limit_ms`: whether it succeeded, its drill ms, and
    /// (from a first attempt's answer) the breaker's answers to the live call's later
    /// asks, which the dependency asked when it planned the call. The first answer tells
    /// how each stand-in's whole call ended, which goes to `report` when it comes, late or
    /// not. No outcome goes to the breaker from here: the dependency queued the live
    /// call's and the stand-ins' on it for their sim moments when it planned them.
    async fn attempt(
        &self,
        dep: OncallDep,
        query: &AttemptQuery,
        limit_ms: f64,
        report: Option<StandInReport>,
    ) -> (bool, f64, Option<Vec<bool>>) {
        let start = Instant::now();
        let uri = format!("http://{}{ATTEMPT_PATH}?{}", self.deps[dep.index()], query.to_query());
        let Ok(request) = Request::get(uri).body(Empty::<Bytes>::new()) else {
            return (false, 0.0, None);
        };
        let client = self.client.clone();
        // Spawned, so that an answer that comes after the attempt's limit still tells the
        // report about the stand-ins.
        let (asks, asked) = oneshot::channel();
        let mut exchange = tokio::spawn(async move {
            let response = client.request(request).await.ok()?;
            let ok = response.status() == StatusCode::OK;
            let body = http_body_util::BodyExt::collect(response.into_body())
                .await
                .ok()?
                .to_bytes();
            if let (Some(report), Some(calls)) = (report, stand_in_calls_of(&body)) {
                let _ = report.send(calls);
            }
            if let Some(later) = later_asks_of(&body) {
                let _ = asks.send(later);
            }
            Some(ok)
        });
        let limit = self.clock.real(limit_ms.min(SOFT_ATTEMPT_CAP_MS));
        let ok = matches!(tokio::time::timeout(limit, &mut exchange).await, Ok(Ok(Some(true))));
        let mut asked = asked;
        (ok, self.clock.drill_ms(start.elapsed()), asked.try_recv().ok())
    }

    /// One call of checkout `request` with its retry layers, counted in the checkout's
    /// second; None when switched off. Its stand-ins' calls, each within its own budget
    /// of `stand_in_budgets_ms`, go to `report`: from the dependency's first answer, or
    /// refused with the live call when the breaker refuses it before any attempt and
    /// stays open past their arrivals.
    ///
    /// The breaker is asked as the sim asks it: the live call's first ask here, at its sim
    /// request's arrival ([`BreakerFeed::allow_at`]); its later asks (retries) were the
    /// dependency's, at the same moment when it planned the call, and the answer tells
    /// them. A retry the plan did not foresee (the live answer came later than the model's
    /// time) is let through while the breaker is not refusing, and takes no trial.
    async fn call(
        &self,
        dep: OncallDep,
        request: usize,
        arrived_s: f64,
        budget_ms: f64,
        stand_in_budgets_ms: [Option<f64>; STAND_INS],
        report: StandInReport,
    ) -> Option<CallEnd> {
        let second = request / LIVE_REQUESTS_PER_S;
        let feed = &self.feeds[dep.index()];
        // Planned by the dependency, or no call there: the next checkout's may ask.
        let _settled = feed.settle_on_drop(request);
        let levers = self.levers();
        if levers.off[dep.index()] {
            let _ = report.send([None; STAND_INS]);
            return None;
        }
        let (app_attempts, layers) = call_layers(&self.setup.read(), dep, arrived_s, levers.retries_zero[dep.index()]);
        self.tally.dep(second, dep, |d| d.calls += STANDS_FOR);
        let soft = !dep.row().hard;
        let budget_ms = if soft { f64::INFINITY } else { budget_ms };
        let stand_in_budgets_ms = if soft {
            stand_in_budgets_ms.map(|b| b.map(|_| f64::INFINITY))
        } else {
            stand_in_budgets_ms
        };
        let mut plan = CallPlan::new(app_attempts, layers, budget_ms);
        let sim_arrival_s = live_arrival_s(request);
        let mut query = AttemptQuery {
            request,
            attempt: 0,
            app_attempts,
            layers,
            budget_ms,
            stand_in_budgets_ms,
            live_calls: true,
        };
        let mut report = Some(report);
        let mut asks_made: usize = 0;
        let mut later_asks: Option<Vec<bool>> = None;
        loop {
            match plan.next_step() {
                CallStep::AskBreaker => {
                    let forced = self.levers().forced_open[dep.index()];
                    if asks_made == 0 {
                        feed.settled_before(request, self.clock.real(SETTLE_WAIT_MS)).await;
                    }
                    let planned = later_asks
                        .as_ref()
                        .and_then(|later| asks_made.checked_sub(1).and_then(|i| later.get(i)));
                    let permitted = !forced
                        && match (asks_made, planned) {
                            (0, _) => feed.allow_at(sim_arrival_s),
                            (_, Some(&planned)) => planned,
                            (_, None) => !feed.refuses_all(sim_arrival_s, sim_arrival_s),
                        };
                    asks_made += 1;
                    if !permitted {
                        self.tally.dep(second, dep, |d| d.not_permitted += STANDS_FOR);
                        if let Some(report) = report.take() {
                            // Refused before any attempt: the stand-ins ask at their own
                            // arrivals, where the breaker may be half-open by then.
                            self.stand_ins_call(dep, request, arrived_s, stand_in_budgets_ms, report)
                                .await;
                        }
                    }
                    plan.permitted(permitted);
                }
                CallStep::Attempt { limit_ms } => {
                    let (ok, took_ms, asks) = self.attempt(dep, &query, limit_ms, report.take()).await;
                    if query.attempt == 0 {
                        later_asks = asks;
                        if dep == OncallDep::Inventory && !ok {
                            // Payments, called after inventory, comes a timeout or a retry
                            // later, if at all: past what the next checkout's payments
                            // call waits for (in a brownout it waited every time, 100 ms
                            // a call, and inventory-brownout read 130 s for the sim's 131).
                            self.feeds[OncallDep::Payments.index()].settle(request);
                        }
                    }
                    query.attempt += 1;
                    let took_ms = plan.attempted(ok, took_ms);
                    self.tally.dep(second, dep, |d| {
                        d.attempts += STANDS_FOR;
                        d.errors += u32::from(!ok) * STANDS_FOR;
                        d.latencies_ms.push(took_ms);
                        d.busy_ms += took_ms * f64::from(STANDS_FOR);
                    });
                }
                // The dependency queued this outcome, as planned, for its sim moment.
                CallStep::RecordBreaker { .. } => {}
                CallStep::Done(end) => return Some(end),
            }
        }
    }

    /// The calls of `request`'s stand-ins to `dep` when the live request makes none (its
    /// inventory call failed, theirs did not, or its breaker refused it): the dependency
    /// asks the breaker for each at its arrival, plays and counts the calls it permits
    /// and answers at once. Refused here without asking when the lever forces the breaker
    /// open, or the breaker is open until after the last stand-in's arrival.
    async fn stand_ins_call(
        &self,
        dep: OncallDep,
        request: usize,
        arrived_s: f64,
        stand_in_budgets_ms: [Option<f64>; STAND_INS],
        report: StandInReport,
    ) {
        let _settled = self.feeds[dep.index()].settle_on_drop(request);
        let levers = self.levers();
        let mut arrivals = stood_for(request).skip(1).map(arrival_s);
        let first_s = arrivals.next().unwrap_or_default();
        let last_s = arrivals.last().unwrap_or(first_s);
        if stand_in_budgets_ms.iter().all(Option::is_none) {
            let _ = report.send([None; STAND_INS]);
            return;
        }
        if levers.forced_open[dep.index()] || self.feeds[dep.index()].refuses_all(first_s, last_s) {
            let _ = report.send(stand_in_budgets_ms.map(|b| b.and(REFUSED)));
            return;
        }
        let (app_attempts, layers) = call_layers(&self.setup.read(), dep, arrived_s, levers.retries_zero[dep.index()]);
        let query = AttemptQuery {
            request,
            attempt: 0,
            app_attempts,
            layers,
            budget_ms: INBOUND_DEADLINE_MS,
            stand_in_budgets_ms,
            live_calls: false,
        };
        self.attempt(dep, &query, INBOUND_DEADLINE_MS, Some(report)).await;
    }

    /// Checkout number `request`, sent at drill second `sent_s`: true when it answered
    /// well within the deadline, which counts from when the customer sent it; and the
    /// same for each of its stand-ins, judged by the sim's rule (`sim::request_end`) on
    /// their calls' ends as the dependencies played them.
    async fn checkout(self: &Arc<Self>, request: usize, sent_s: f64) -> (bool, [bool; STAND_INS]) {
        // The register's layers as they stand when the customer sent the checkout.
        let arrived_s = sent_s;
        let deadline = self.clock.instant_at(sent_s) + self.clock.real(INBOUND_DEADLINE_MS);
        let all_called = [Some(INBOUND_DEADLINE_MS); STAND_INS];
        let mut soft_reports = Vec::new();
        let soft: Vec<_> = [OncallDep::Recommendations, OncallDep::ReceiptStore]
            .into_iter()
            .map(|dep| {
                let me = self.clone();
                let (report, reported) = oneshot::channel();
                soft_reports.push(reported);
                me.soft_in_flight.fetch_add(1, Ordering::Relaxed);
                // Spawned: the request stops waiting at its deadline, the call does not.
                tokio::spawn(async move {
                    let end = me
                        .call(dep, request, arrived_s, f64::INFINITY, all_called, report)
                        .await;
                    me.soft_in_flight.fetch_sub(1, Ordering::Relaxed);
                    end
                })
            })
            .collect();
        let hard = async {
            let (report, reported) = oneshot::channel();
            let inventory = self
                .call(
                    OncallDep::Inventory,
                    request,
                    arrived_s,
                    INBOUND_DEADLINE_MS,
                    all_called,
                    report,
                )
                .await;
            let inventory_stand_ins = stand_in_calls(reported, deadline).await;
            // A stand-in calls payments only if its inventory call succeeded, within what
            // is left of its deadline, as the sim's requests do.
            let payments_budgets = inventory_stand_ins.map(|end| match end {
                None => Some(INBOUND_DEADLINE_MS),
                Some(end) if end.ok => Some(INBOUND_DEADLINE_MS - end.elapsed_ms),
                Some(_) => None,
            });
            let (report, reported) = oneshot::channel();
            let (mut ok, spent_ms) = inventory.map_or((true, 0.0), |c| (c.ok, c.elapsed_ms));
            if ok {
                let budget_ms = INBOUND_DEADLINE_MS - spent_ms;
                let payments = self
                    .call(
                        OncallDep::Payments,
                        request,
                        arrived_s,
                        budget_ms,
                        payments_budgets,
                        report,
                    )
                    .await;
                ok = payments.is_none_or(|p| p.ok);
            } else if payments_budgets.iter().any(Option::is_some) {
                self.stand_ins_call(OncallDep::Payments, request, arrived_s, payments_budgets, report)
                    .await;
            } else {
                // No payments call at all: the report is closed now, not at the deadline
                // (held, it kept the request and its worker waiting for it), and the
                // next checkout's payments call need not wait for this one.
                drop(report);
                self.feeds[OncallDep::Payments.index()].settle(request);
            }
            let payments_stand_ins = stand_in_calls(reported, deadline).await;
            let hard_stand_ins: [(bool, f64); STAND_INS] =
                std::array::from_fn(|k| hard_chain(inventory_stand_ins[k], payments_stand_ins[k]));
            (ok, hard_stand_ins)
        };
        let soft_waited = tokio::time::timeout_at(deadline.into(), wait_all(soft));
        let ((hard_ok, hard_stand_ins), _) = tokio::join!(hard, soft_waited);
        let live_ok = hard_ok && Instant::now() < deadline;
        let mut soft_stand_ins = Vec::new();
        for reported in soft_reports {
            soft_stand_ins.push(stand_in_calls(reported, deadline).await);
        }
        let served = std::array::from_fn(|k| {
            let (hard_ok, hard_ms) = hard_stand_ins[k];
            request_end(hard_ok, hard_ms, [soft_stand_ins[0][k], soft_stand_ins[1][k]]).0
        });
        (live_ok, served)
    }

    /// Checkout `request` calls no dependency (shed, or no worker free).
    fn settle_all(&self, request: usize) {
        for feed in &self.feeds {
            feed.settle(request);
        }
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
            self.settle_all(number);
            return http::text(StatusCode::SERVICE_UNAVAILABLE, SHED_WORD);
        }
        // The load sends request N at drill second N / 20: the moment the sim's request
        // arrives, which the workers' holds are measured from.
        let sent_s = number as f64 / LIVE_REQUESTS_PER_S as f64;
        let Some(worker) = self.workers.take(number, sent_s) else {
            self.settle_all(number);
            return http::text(StatusCode::SERVICE_UNAVAILABLE, BUSY_WORD);
        };
        let (ok, stand_ins) = self.checkout(number, sent_s).await;
        self.workers.release(worker, self.clock.now_s());
        let served = served_line(&stand_ins);
        if ok {
            http::text(StatusCode::OK, format!("ok\n{served}"))
        } else {
            http::text(StatusCode::INTERNAL_SERVER_ERROR, format!("failed\n{served}"))
        }
    }
}

/// The sim arrival of live checkout `request`'s own sim request (the first it stands
/// for), the moment its breaker is asked at.
fn live_arrival_s(request: usize) -> f64 {
    arrival_s(stood_for(request).next().unwrap_or_default())
}

/// Where a call's stand-ins' ends go: each stand-in's whole call, None for no call.
type StandInReport = oneshot::Sender<[Option<CallEnd>; STAND_INS]>;

/// A stand-in call refused by the breaker (or the lever): no attempt, failed at once.
const REFUSED: Option<CallEnd> = Some(CallEnd {
    ok: false,
    elapsed_ms: 0.0,
    refused: true,
});

/// A stand-in call whose end never came (the dependency's answer was lost, or later than
/// the request's deadline): failed, and as long as the request could wait.
const NOT_REPORTED: Option<CallEnd> = Some(CallEnd {
    ok: false,
    elapsed_ms: f64::INFINITY,
    refused: false,
});

/// A call's stand-in ends once reported, waited for until `deadline` (the request's):
/// the dependency's first answer comes within the first attempt's time, so well before.
async fn stand_in_calls(
    reported: oneshot::Receiver<[Option<CallEnd>; STAND_INS]>,
    deadline: Instant,
) -> [Option<CallEnd>; STAND_INS] {
    match tokio::time::timeout_at(deadline.into(), reported).await {
        Ok(Ok(calls)) => calls,
        _ => [NOT_REPORTED; STAND_INS],
    }
}

/// A stand-in's hard chain from its inventory and payments calls' ends, as the sim's
/// request runs it: payments counts only after an inventory call that succeeded (or none).
fn hard_chain(inventory: Option<CallEnd>, payments: Option<CallEnd>) -> (bool, f64) {
    let (ok, spent_ms) = inventory.map_or((true, 0.0), |c| (c.ok, c.elapsed_ms));
    match payments {
        Some(payments) if ok => (payments.ok, spent_ms + payments.elapsed_ms),
        _ => (ok, spent_ms),
    }
}

/// The answer's line that tells the load how each stand-in ended (`served 1 0 1 1`).
fn served_line(stand_ins: &[bool; STAND_INS]) -> String {
    let words: Vec<&str> = stand_ins.iter().map(|&ok| if ok { "1" } else { "0" }).collect();
    format!("{SERVED_WORD}{}\n", words.join(" "))
}

/// The stand-ins' outcomes from checkout-api's answer; None if it has none.
pub fn served_of(body: &[u8]) -> Option<[bool; STAND_INS]> {
    let text = String::from_utf8_lossy(body);
    let line = text.lines().find_map(|line| line.strip_prefix(SERVED_WORD))?;
    let mut words = line.split_whitespace();
    let mut served = [false; STAND_INS];
    for ok in &mut served {
        *ok = words.next()? == "1";
    }
    Some(served)
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
