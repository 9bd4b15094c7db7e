//! One of checkout-api's four dependencies as a server: it answers each attempt as the
//! simulation's dependency would (`engine::oncall::sim::attempt_outcome`), from the same
//! incident, under the load of the last whole drill second it saw, and takes the answer's
//! time for real (scaled) before it answers.
//!
//! It decides a call's attempts as the sim does, all at the call's first attempt: the sim
//! plays a request's every retry at the moment the request arrives, under the load of the
//! second before, and counts them all in that second's load at once. A live retry comes
//! later (a receipt-store attempt that times out is retried a drill second on), so a
//! server that counted each attempt as it came would, early in each second, judge the
//! second before by the first attempts alone and miss its retries (measured: in
//! receipt-store-storm that stretched the storm's four-second cycle to five, and the
//! runbook's lever met the storm in another phase, restored 2 s early). So the first
//! attempt (`k=0`) carries the call's layers and budget (`app`, `layers`, `budget`), the
//! server steps the engine's `CallPlan`, counts every attempt the plan makes, and answers
//! the call's later attempts (`k=1, 2, ...`) from it.
//!
//! A live call stands for five of the sim's ([`STANDS_FOR`]): the server plans the four
//! others too, the sim's requests after the live one's ([`stood_for`]) with their keyed
//! draws at the same load, counts their attempts (not five times the live one's), and
//! tells the caller how each stand-in's whole call ended (`calls 1@31.2 0@450.0 x r` in
//! the first answer, `x` for a stand-in that made no call, `r` for one its breaker
//! refused), from which checkout-api judges each stand-in's request as the sim judges its
//! own. The breaker is checkout-api's, shared with the server as a [`BreakerFeed`]: the
//! server plans the five calls in the sim's order, each asking it at its own sim
//! arrival (the live call's first ask was checkout-api's; its retries' answers go back
//! in the first answer, `asks 1`), and queues every application attempt's outcome on it
//! for its sim moment the moment it is planned, before the next request's call asks. So
//! the breaker's window holds the sim's 20 requests in the sim's order, and a half-open
//! breaker's trials are the sim's next requests, stand-ins included. (Measured before:
//! five copies of one outcome made the window of 20 a window of four, and the live
//! breaker tripped at nearly every chance; the stand-ins' outcomes told in the live
//! attempt's answer came 100 ms late and bunched, and the breaker's cycle ran a second
//! ahead of the sim's; recorded at once, they told the breaker of failures two seconds
//! early; the live call's own outcome recorded at its answer, 50 to 135 ms late on a
//! loaded machine, and the stand-ins' each from a timer of its own, tipped the window in
//! a second the sim's does not trip, 2 runs in 45 of payments-503.) A hard call's
//! stand-ins each have their own budget (`sb=`, what their inventory calls left of the
//! deadline, `x` where inventory failed and no payments call follows), and when the live
//! request makes no call here but some of its stand-ins do (`live=0`: its inventory
//! failed, or its breaker refused it), the server plans theirs, asking the breaker for
//! each, counts them and answers at once.
//!
//! It counts attempts by the drill second of the checkout they serve (its number `c` over 20), as the sim
//! does, and judges its load by the second before that one: a stall of the machine that
//! bunches arrivals is not load the sim's steady customers would make (measured: with
//! counting by arrival, a loaded machine's bunching put inventory past its brownout
//! capacity after the levers, where the sim has it below). Answers: 200 for a success;
//! 503 for a failure (a fast 503 above a rate limit, or a slow one at the caller's
//! timeout: past capacity the attempt is queued beyond the timeout, and the server answers
//! at the moment the caller would give up, so that the caller's connection stays open for
//! its next attempt; a connection dropped at each timeout would be thousands of new
//! connections a drill second in a storm).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use hyper::Request;
use hyper::StatusCode;
use hyper::body::Incoming;

use super::breaker_feed::{BreakerFeed, SETTLE_WAIT_MS};
use super::clock::DrillClock;
use super::server;
use super::setup::SharedSetup;
use super::tally::{LIVE_REQUESTS_PER_S, STANDS_FOR, stood_for};
use crate::engine::oncall::call_plan::{CallEnd, CallPlan, CallStep};
use crate::engine::oncall::sim::{AttemptDraws, DRILL_S, arrival_s, attempt_outcome};
use crate::engine::oncall::{DrillSetup, OncallDep};
use crate::live::http::{self, TextBody};
use crate::live::loopback_server::LoopbackServer;

/// The path an attempt asks for; `/warm` opens a connection before the drill and counts nothing.
pub const ATTEMPT_PATH: &str = "/attempt";
pub const WARM_PATH: &str = "/warm";

/// Drill seconds counted past the drill's end (abandoned calls still arriving).
const TAIL_S: usize = 60;
/// The body's word before the stand-ins' whole calls (for their requests' outcomes).
const CALLS_WORD: &str = "calls ";
/// A stand-in that makes no call, in a query's budgets and an answer's calls.
const NO_CALL: &str = "x";
/// A stand-in whose breaker refused its call, in an answer's calls.
const REFUSED_CALL: &str = "r";
/// The body's word before the breaker's answers to the live call's later asks.
const ASKS_WORD: &str = "asks ";
/// The stand-ins a live call plays beside its own: the other sim requests it stands for.
pub const STAND_INS: usize = STANDS_FOR as usize - 1;

/// What a caller tells the server about an attempt: the checkout's second and number,
/// the attempt's place in its call, and (on the first) the call's layers and budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptQuery {
    /// The checkout's number in the load: one call per dependency, so the call's key here
    /// (and its second, [`AttemptQuery::second`]).
    pub request: usize,
    /// The attempt's place in its call, from 0.
    pub attempt: usize,
    /// The call's application attempts and wire attempts per application attempt.
    pub app_attempts: u32,
    pub layers: u32,
    /// The call's budget in drill ms (infinite for a soft call).
    pub budget_ms: f64,
    /// The stand-ins' budgets (drill ms), None for a stand-in that makes no call here
    /// (its inventory call failed, so its payments call never happens); by default each
    /// has the live call's budget.
    pub stand_in_budgets_ms: [Option<f64>; STAND_INS],
    /// False when the live request itself makes no call here and only its stand-ins do:
    /// the server plays and counts theirs and answers at once.
    pub live_calls: bool,
}

impl AttemptQuery {
    /// The drill second of the checkout the attempt serves: the load sends checkout N at
    /// drill second N / 20.
    pub fn second(&self) -> usize {
        self.request / LIVE_REQUESTS_PER_S
    }

    /// The query string of the attempt's URI.
    pub fn to_query(&self) -> String {
        let mut query = format!(
            "c={}&k={}&app={}&layers={}&budget={}",
            self.request, self.attempt, self.app_attempts, self.layers, self.budget_ms
        );
        if self.stand_in_budgets_ms != [Some(self.budget_ms); STAND_INS] {
            let budgets: Vec<String> = self
                .stand_in_budgets_ms
                .iter()
                .map(|b| b.map_or_else(|| NO_CALL.to_string(), |b| b.to_string()))
                .collect();
            query.push_str(&format!("&sb={}", budgets.join(",")));
        }
        if !self.live_calls {
            query.push_str("&live=0");
        }
        query
    }

    fn of(request: &Request<Incoming>) -> Option<Self> {
        let number = |name| server::query(request, name)?.parse::<usize>().ok();
        let budget_ms: f64 = server::query(request, "budget")?.parse().ok()?;
        let mut stand_in_budgets_ms = [Some(budget_ms); STAND_INS];
        if let Some(budgets) = server::query(request, "sb") {
            let mut given = budgets.split(',');
            for budget in &mut stand_in_budgets_ms {
                let text = given.next()?;
                *budget = if text == NO_CALL {
                    None
                } else {
                    Some(text.parse().ok()?)
                };
            }
        }
        Some(Self {
            request: number("c")?,
            attempt: number("k")?,
            app_attempts: number("app")? as u32,
            layers: number("layers")? as u32,
            budget_ms,
            stand_in_budgets_ms,
            live_calls: server::query(request, "live") != Some("0"),
        })
    }
}

/// Each stand-in's whole call as a first answer tells it (`R@MS`, its result and its
/// drill ms, `r` for one its breaker refused, or `x` for no call), in the stand-ins'
/// order; None from an answer without them (a later attempt's, or a garbled one).
pub fn stand_in_calls_of(body: &[u8]) -> Option<[Option<CallEnd>; STAND_INS]> {
    let text = String::from_utf8_lossy(body);
    let ends = text.lines().find_map(|line| line.strip_prefix(CALLS_WORD))?;
    let mut calls = [None; STAND_INS];
    let mut given = ends.split_whitespace();
    for call in &mut calls {
        let end = given.next()?;
        if end == REFUSED_CALL {
            *call = Some(CallEnd {
                ok: false,
                elapsed_ms: 0.0,
                refused: true,
            });
        } else if end != NO_CALL {
            let (ok, elapsed_ms) = end.split_once('@')?;
            *call = Some(CallEnd {
                ok: ok == "1",
                elapsed_ms: elapsed_ms.parse().ok()?,
                refused: false,
            });
        }
    }
    Some(calls)
}

/// One planned call: its attempts' outcomes and drill ms, its breaker's answers to its
/// asks, and how the call ended.
#[derive(Clone, Debug, Default)]
struct PlannedCall {
    attempts: Vec<(bool, f64)>,
    permits: Vec<bool>,
    end: Option<CallEnd>,
}

/// Plans sim request `request`'s call as the sim plays it, at the moment the sim's request
/// arrives: each breaker ask answered by `ask` (the first by `first_asked` when the live
/// caller has asked it already), every attempt drawn under `offered_per_s` with the sim's
/// keys, and each application attempt's outcome queued on `feed` for its sim moment
/// before the next request's call is planned, as the sim's come before the next ask.
#[allow(clippy::too_many_arguments)]
fn plan_call(
    setup: &DrillSetup,
    dep: OncallDep,
    request: usize,
    offered_per_s: f64,
    query: &AttemptQuery,
    budget_ms: f64,
    first_asked: Option<bool>,
    feed: &BreakerFeed,
) -> PlannedCall {
    let t_s = arrival_s(request);
    let mut plan = CallPlan::new(query.app_attempts.max(1), query.layers.max(1), budget_ms);
    let mut planned = PlannedCall::default();
    let mut elapsed_ms = 0.0;
    loop {
        match plan.next_step() {
            CallStep::AskBreaker => {
                let permitted = match (planned.permits.is_empty(), first_asked) {
                    (true, Some(asked)) => asked,
                    _ => feed.allow_at(t_s),
                };
                planned.permits.push(permitted);
                plan.permitted(permitted);
            }
            CallStep::Attempt { .. } => {
                let mut draws = AttemptDraws::new(setup.seed, dep, request, planned.attempts.len());
                let (ok, took_ms) = attempt_outcome(setup, dep, t_s, offered_per_s, &mut draws);
                elapsed_ms += plan.attempted(ok, took_ms);
                planned.attempts.push((ok, took_ms));
            }
            CallStep::RecordBreaker { ok } => feed.push(t_s, elapsed_ms, ok),
            CallStep::Done(end) => {
                planned.end = Some(end);
                return planned;
            }
        }
    }
}

/// A live call's plan and its stand-ins', kept from its first attempt to its last.
struct CallPlans {
    /// None when the live request makes no call here ([`AttemptQuery::live_calls`]).
    live: Option<PlannedCall>,
    /// None for a stand-in that makes no call here.
    stand_ins: Vec<Option<PlannedCall>>,
}

impl CallPlans {
    /// The stand-ins' whole calls as a first answer tells them (`R@MS`, `r` or `x`).
    fn stand_in_calls(&self) -> String {
        let ends: Vec<String> = self
            .stand_ins
            .iter()
            .map(|call| match call.as_ref().and_then(|c| c.end) {
                Some(end) if end.refused => REFUSED_CALL.to_string(),
                Some(end) => format!("{}@{:.1}", u8::from(end.ok), end.elapsed_ms),
                None => NO_CALL.to_string(),
            })
            .collect();
        ends.join(" ")
    }

    /// The lines of a first answer that tell the caller how the stand-ins' calls ended
    /// and the breaker's answers to the live call's asks after its first (`asks 1 0`).
    fn marks(&self) -> String {
        let later: Vec<&str> = self
            .live
            .iter()
            .flat_map(|live| live.permits.iter().skip(1))
            .map(|&permitted| if permitted { "1" } else { "0" })
            .collect();
        format!(
            "{CALLS_WORD}{}\n{ASKS_WORD}{}\n",
            self.stand_in_calls(),
            later.join(" ")
        )
    }
}

/// The breaker's answers to a live call's asks after its first, from its first answer
/// (`asks 1 0`); None from an answer without them.
pub fn later_asks_of(body: &[u8]) -> Option<Vec<bool>> {
    let text = String::from_utf8_lossy(body);
    let asks = text.lines().find_map(|line| line.strip_prefix(ASKS_WORD.trim_end()))?;
    Some(asks.split_whitespace().map(|word| word == "1").collect())
}

struct DrillDependency {
    dep: OncallDep,
    /// Shared with checkout-api: a second fault reaches the answers at once.
    setup: SharedSetup,
    clock: DrillClock,
    /// Attempts counted in each drill second, by the second of the checkout they serve.
    arrivals: Vec<AtomicU32>,
    /// The calls still running, by checkout number.
    calls: Mutex<HashMap<usize, CallPlans>>,
    /// checkout-api's breaker for this dependency, shared: the stand-ins ask it and every
    /// planned application attempt's outcome is queued on it.
    feed: BreakerFeed,
}

impl DrillDependency {
    /// The load the attempts of second `second` meet: the attempts of the second before.
    fn offered_per_s(&self, second: usize) -> f64 {
        second
            .checked_sub(1)
            .map_or(0.0, |last| f64::from(self.arrivals[last].load(Ordering::Relaxed)))
    }

    /// Plans a call at its first attempt (the live one and its stand-ins, in the sim's
    /// order, each asking the breaker at its own arrival) and counts every attempt they
    /// make in its second. The live call's first ask was checkout-api's, granted, or it
    /// would not be here.
    fn plan(&self, query: &AttemptQuery) -> CallPlans {
        let second = query.second().min(self.arrivals.len() - 1);
        let offered = self.offered_per_s(second);
        let mut sim_requests = stood_for(query.request);
        let live_request = sim_requests.next().unwrap_or_default();
        let setup = self.setup.read();
        let feed = &self.feed;
        let live = query.live_calls.then(|| {
            plan_call(
                &setup,
                self.dep,
                live_request,
                offered,
                query,
                query.budget_ms,
                Some(true),
                feed,
            )
        });
        let stand_ins: Vec<Option<PlannedCall>> = sim_requests
            .zip(query.stand_in_budgets_ms)
            .map(|(request, budget)| {
                budget.map(|budget_ms| plan_call(&setup, self.dep, request, offered, query, budget_ms, None, feed))
            })
            .collect();
        drop(setup);
        // Its outcomes are queued: the next checkout's call may ask.
        self.feed.settle(query.request);
        let counted: usize = live
            .iter()
            .chain(stand_ins.iter().flatten())
            .map(|c| c.attempts.len())
            .sum();
        self.arrivals[second].fetch_add(counted as u32, Ordering::Relaxed);
        CallPlans { live, stand_ins }
    }

    /// The outcome of attempt `query.attempt` of its call, its drill ms, and (on the
    /// first) the lines that tell how the stand-ins' calls ended and how the breaker
    /// answered the live call's later asks. Its plans are made before the lock is taken:
    /// the lock guards the map, not the draws.
    fn answer(&self, query: &AttemptQuery) -> (bool, f64, String) {
        let planned = (query.attempt == 0).then(|| self.plan(query));
        let Ok(mut calls) = self.calls.lock() else {
            return (false, 0.0, String::new());
        };
        let mut marks = String::new();
        if let Some(plans) = planned {
            marks = plans.marks();
            if !query.live_calls {
                // Only the stand-ins call: played and counted, nothing to answer later.
                return (true, 0.0, marks);
            }
            calls.insert(query.request, plans);
        }
        let live = calls.get(&query.request).and_then(|plans| plans.live.as_ref());
        let Some(&(ok, took_ms)) = live.and_then(|live| live.attempts.get(query.attempt)) else {
            // An attempt the plan did not foresee (the live call's times ran past the
            // model's): drawn and counted alone, as five of the sim's.
            drop(calls);
            let second = query.second().min(self.arrivals.len() - 1);
            self.arrivals[second].fetch_add(STANDS_FOR, Ordering::Relaxed);
            let offered = self.offered_per_s(second);
            let request = stood_for(query.request).next().unwrap_or_default();
            let setup = self.setup.read();
            let mut draws = AttemptDraws::new(setup.seed, self.dep, request, query.attempt);
            let t_s = self.clock.now_s();
            let (ok, took_ms) = attempt_outcome(&setup, self.dep, t_s, offered, &mut draws);
            return (ok, took_ms, marks);
        };
        let last = live.is_some_and(|live| query.attempt + 1 >= live.attempts.len());
        if ok || last {
            calls.remove(&query.request);
        }
        (ok, took_ms, marks)
    }

    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> hyper::Response<TextBody> {
        if request.uri().path() == WARM_PATH {
            return http::text(StatusCode::OK, "warm\n");
        }
        let Some(query) = AttemptQuery::of(&request) else {
            return http::text(
                StatusCode::BAD_REQUEST,
                "an attempt needs ?c=&k=&app=&layers=&budget=\n",
            );
        };
        if query.attempt == 0 && !query.live_calls {
            // The checkouts before this one plan first, so that their outcomes are queued
            // before this call's asks, and their attempts counted in the load it meets
            // (a live call's caller waited before its own first ask).
            self.feed
                .settled_before(query.request, self.clock.real(SETTLE_WAIT_MS))
                .await;
        }
        let (ok, took_ms, marks) = self.answer(&query);
        tokio::time::sleep(self.clock.real(took_ms)).await;
        if ok {
            http::text(StatusCode::OK, format!("ok\n{marks}"))
        } else {
            http::text(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("failed: past capacity, or the fault\n{marks}"),
            )
        }
    }
}

/// Starts `dep`'s server for the drill of `setup` on `clock`, its calls asking and
/// feeding checkout-api's breaker `feed`.
pub async fn serve(
    dep: OncallDep,
    setup: &SharedSetup,
    clock: DrillClock,
    feed: BreakerFeed,
) -> std::io::Result<LoopbackServer> {
    let model = Arc::new(DrillDependency {
        dep,
        setup: setup.clone(),
        clock,
        arrivals: (0..DRILL_S + TAIL_S).map(|_| AtomicU32::new(0)).collect(),
        calls: Mutex::new(HashMap::new()),
        feed,
    });
    server::serve(move |request| model.clone().handle(request)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::breaker::BreakerState;
    use crate::engine::oncall::{ExtraFault, builtin_incidents};

    fn incident(name: &str) -> crate::engine::oncall::IncidentSpec {
        let incidents = builtin_incidents().expect("the shipped incidents parse");
        incidents
            .into_iter()
            .find(|i| i.name == name)
            .expect("a shipped incident")
    }

    /// Inventory's server model, without its socket, on `setup`.
    fn inventory_on(setup: &SharedSetup) -> DrillDependency {
        DrillDependency {
            dep: OncallDep::Inventory,
            setup: setup.clone(),
            clock: DrillClock::start_after(std::time::Duration::ZERO, 80.0),
            arrivals: (0..DRILL_S + TAIL_S).map(|_| AtomicU32::new(0)).collect(),
            calls: Mutex::new(HashMap::new()),
            feed: BreakerFeed::of(OncallDep::Inventory),
        }
    }

    /// The first attempt of checkout `request`'s one-attempt call.
    fn first_attempt(request: usize) -> AttemptQuery {
        AttemptQuery {
            request,
            attempt: 0,
            app_attempts: 1,
            layers: 1,
            budget_ms: 2_000.0,
            stand_in_budgets_ms: [Some(2_000.0); STAND_INS],
            live_calls: true,
        }
    }

    #[test]
    fn a_second_fault_added_to_the_shared_setup_reaches_the_dependencys_answers() {
        // The drill's own incident on receipt-store; the second fault on inventory.
        let setup = SharedSetup::new(&DrillSetup::new(&incident("receipt-store-slow"), 1));
        let inventory = inventory_on(&setup);
        // Checkout 400 is sent at drill second 20, checkout 1,000 at 50.
        assert!(inventory.answer(&first_attempt(400)).0, "a calm inventory answers");
        setup.add_fault(ExtraFault {
            incident: incident("receipt-store-slow"),
            dependency: OncallDep::Inventory,
            from_s: 30.0,
        });
        let (ok, took_ms, marks) = inventory.answer(&first_attempt(1_000));
        assert!(!ok, "the second fault's slow answers, from its moment on");
        assert_eq!(took_ms, OncallDep::Inventory.row().timeout_ms);
        assert!(marks.contains("calls 0@"), "its stand-ins fail with it: {marks}");
        assert!(inventory.answer(&first_attempt(401)).0, "before its moment, as it was");
    }

    #[test]
    fn a_call_made_by_its_stand_ins_alone_is_played_and_answered_at_once() {
        let inventory = inventory_on(&SharedSetup::new(&DrillSetup::new(&incident("receipt-store-slow"), 1)));
        let query = first_attempt;
        assert!(inventory.answer(&query(401)).0, "a calm inventory answers");
        // Only the stand-ins call (the live request's inventory failed): answered at once,
        // the stand-in with no budget making no call.
        let mut only_stand_ins = query(402);
        only_stand_ins.live_calls = false;
        only_stand_ins.stand_in_budgets_ms[2] = None;
        let (ok, took_ms, marks) = inventory.answer(&only_stand_ins);
        assert!(ok && took_ms == 0.0);
        let calls = stand_in_calls_of(marks.as_bytes()).expect("the stand-ins' calls");
        assert_eq!(calls.map(|c| c.is_some()), [true, true, false, true]);
    }

    #[test]
    fn a_first_attempt_queues_every_outcome_for_its_sim_moment_and_its_stand_ins_ask_the_breaker() {
        let inventory = inventory_on(&SharedSetup::new(&DrillSetup::new(&incident("receipt-store-slow"), 1)));
        // Checkout 401 stands for sim requests 2,005 to 2,009 (20.05 s to 20.09 s); a calm
        // inventory answers each in 18 to 42 ms, so all five outcomes are due by 20.14 s.
        let (ok, took_ms, marks) = inventory.answer(&first_attempt(401));
        assert!(ok && took_ms > 0.0, "a calm inventory answers after its time");
        assert_eq!(
            later_asks_of(marks.as_bytes()),
            Some(Vec::new()),
            "one ask, checkout-api's"
        );
        let state = |t_s| inventory.feed.state_at(t_s);
        assert_eq!(state(20.14), Some(BreakerState::Closed));
        // Twenty failures due at 30.1 s trip it then; the stand-ins of a call that arrives
        // at 30.2 s ask it at their own arrivals and are refused, made no attempt.
        for k in 0..20 {
            inventory.feed.push(30.0, 100.0 + f64::from(k) / 10.0, false);
        }
        assert_eq!(state(30.0), Some(BreakerState::Closed), "nothing due yet");
        assert_eq!(state(30.2), Some(BreakerState::Open));
        let mut only_stand_ins = first_attempt(604);
        only_stand_ins.live_calls = false;
        let (_, _, marks) = inventory.answer(&only_stand_ins);
        let calls = stand_in_calls_of(marks.as_bytes()).expect("the stand-ins' calls");
        assert!(calls.iter().all(|c| c.is_some_and(|c| c.refused)), "{marks}");
        // Past the open period the next ask is a half-open trial: the stand-ins of a call
        // at 35.2 s take the three trials in their order, the fourth is refused.
        let (_, _, marks) = inventory.answer(&AttemptQuery {
            request: 704,
            ..only_stand_ins
        });
        let calls = stand_in_calls_of(marks.as_bytes()).expect("the stand-ins' calls");
        assert_eq!(
            calls.map(|c| c.is_some_and(|c| c.refused)),
            [false, false, false, true],
            "{marks}"
        );
    }

    #[test]
    fn the_stand_ins_whole_calls_read_back_from_the_body() {
        let calls = stand_in_calls_of(b"ok\nstand-ins \ncalls 1@31.5 0@450.0 x 1@28.0\n").expect("four calls");
        assert_eq!(
            calls.map(|c| c.map(|c| c.ok)),
            [Some(true), Some(false), None, Some(true)]
        );
        assert_eq!(calls[1].map(|c| c.elapsed_ms), Some(450.0));
        assert_eq!(
            stand_in_calls_of(b"ok\ncalls 1@31.5\n"),
            None,
            "a short list is no list"
        );
        assert_eq!(stand_in_calls_of(b"ok\n"), None);
    }
}
