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
//! server steps the engine's `CallPlan` with every breaker ask granted, counts every
//! attempt the plan makes, and answers the call's later attempts (`k=1, 2, ...`) from it.
//!
//! A live call stands for five of the sim's ([`STANDS_FOR`]): the server plans the four
//! others too, as independent draws at the same load, counts their attempts (not five
//! times the live one's), and tells the caller how each stand-in's application attempt
//! ended (`stand-ins 10-1` in the body: ok, failed, not made), which the caller's breaker
//! records beside its own outcome. Five copies of one outcome made the breaker's window of
//! 20 a window of four (measured: payments-503 at a quarter of attempts refused tripped
//! the live breaker at nearly every chance, the sim's a few seconds apart, and the last
//! trip before the shed lever set the restored time).
//!
//! It counts attempts by the drill second of the checkout they serve (`s`), as the sim
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

use super::clock::DrillClock;
use super::server;
use super::tally::STANDS_FOR;
use crate::engine::oncall::call_plan::{CallPlan, CallStep};
use crate::engine::oncall::sim::{DRILL_S, attempt_outcome};
use crate::engine::oncall::{DrillSetup, OncallDep};
use crate::engine::pyrandom::PyRandom;
use crate::live::http::{self, TextBody};
use crate::live::loopback_server::LoopbackServer;

/// The path an attempt asks for; `/warm` opens a connection before the drill and counts nothing.
pub const ATTEMPT_PATH: &str = "/attempt";
pub const WARM_PATH: &str = "/warm";

/// Drill seconds counted past the drill's end (abandoned calls still arriving).
const TAIL_S: usize = 60;
/// The body's word before the stand-ins' outcomes.
const STAND_INS_WORD: &str = "stand-ins ";

/// What a caller tells the server about an attempt: the checkout's second and number,
/// the attempt's place in its call, and (on the first) the call's layers and budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptQuery {
    /// The drill second of the checkout the attempt serves.
    pub second: usize,
    /// The checkout's number in the load: one call per dependency, so the call's key here.
    pub request: usize,
    /// The attempt's place in its call, from 0.
    pub attempt: usize,
    /// The call's application attempts and wire attempts per application attempt.
    pub app_attempts: u32,
    pub layers: u32,
    /// The call's budget in drill ms (infinite for a soft call).
    pub budget_ms: f64,
}

impl AttemptQuery {
    /// The query string of the attempt's URI.
    pub fn to_query(&self) -> String {
        format!(
            "s={}&c={}&k={}&app={}&layers={}&budget={}",
            self.second, self.request, self.attempt, self.app_attempts, self.layers, self.budget_ms
        )
    }

    fn of(request: &Request<Incoming>) -> Option<Self> {
        let number = |name| server::query(request, name)?.parse::<usize>().ok();
        Some(Self {
            second: number("s")?,
            request: number("c")?,
            attempt: number("k")?,
            app_attempts: number("app")? as u32,
            layers: number("layers")? as u32,
            budget_ms: server::query(request, "budget")?.parse().ok()?,
        })
    }
}

/// How the stand-ins' application attempts ended, from an answer's body: one `true` for
/// each that succeeded, `false` for each that failed (one that had ended is left out).
pub fn stand_ins_of(body: &[u8]) -> Vec<bool> {
    let text = String::from_utf8_lossy(body);
    let Some(marks) = text.lines().find_map(|line| line.strip_prefix(STAND_INS_WORD)) else {
        return Vec::new();
    };
    marks
        .chars()
        .filter_map(|mark| match mark {
            '1' => Some(true),
            '0' => Some(false),
            _ => None,
        })
        .collect()
}

/// One planned call: its attempts' outcomes and drill ms, and for each attempt the
/// application attempt it belongs to; and how each application attempt ended.
#[derive(Clone, Debug, Default)]
struct PlannedCall {
    attempts: Vec<(bool, f64, usize)>,
    app_ends: Vec<bool>,
}

/// Plans a call as the sim plays it: every breaker ask granted (the live caller asks its
/// own breaker), every attempt drawn at `t_s` under `offered_per_s`.
fn plan_call(
    setup: &DrillSetup,
    dep: OncallDep,
    t_s: f64,
    offered_per_s: f64,
    query: &AttemptQuery,
    rng: &mut PyRandom,
) -> PlannedCall {
    let mut plan = CallPlan::new(query.app_attempts.max(1), query.layers.max(1), query.budget_ms);
    let mut planned = PlannedCall::default();
    loop {
        match plan.next_step() {
            CallStep::AskBreaker => plan.permitted(true),
            CallStep::Attempt { .. } => {
                let (ok, took_ms) = attempt_outcome(setup, dep, t_s, offered_per_s, rng);
                plan.attempted(ok, took_ms);
                planned.attempts.push((ok, took_ms, planned.app_ends.len()));
            }
            CallStep::RecordBreaker { ok } => planned.app_ends.push(ok),
            CallStep::Done(_) => return planned,
        }
    }
}

/// A live call's plan and its stand-ins', kept from its first attempt to its last.
struct CallPlans {
    live: PlannedCall,
    stand_ins: Vec<PlannedCall>,
}

impl CallPlans {
    /// The stand-ins' marks for application attempt `app`: `1` ok, `0` failed, `-` ended.
    fn marks(&self, app: usize) -> String {
        self.stand_ins
            .iter()
            .map(|call| match call.app_ends.get(app) {
                Some(true) => '1',
                Some(false) => '0',
                None => '-',
            })
            .collect()
    }
}

struct DrillDependency {
    dep: OncallDep,
    setup: DrillSetup,
    clock: DrillClock,
    /// Attempts counted in each drill second, by the second of the checkout they serve.
    arrivals: Vec<AtomicU32>,
    /// The calls still running, by checkout number.
    calls: Mutex<HashMap<usize, CallPlans>>,
    /// The server's own stream, from the seed and the dependency: the sim's draws cannot
    /// be replayed in the live order of arrivals, so the twin agrees in distribution.
    rng: Mutex<PyRandom>,
}

impl DrillDependency {
    /// The load the attempts of second `second` meet: the attempts of the second before.
    fn offered_per_s(&self, second: usize) -> f64 {
        second
            .checked_sub(1)
            .map_or(0.0, |last| f64::from(self.arrivals[last].load(Ordering::Relaxed)))
    }

    /// Plans a call at its first attempt (the live one and its stand-ins) and counts
    /// every attempt they make in its second.
    fn plan(&self, query: &AttemptQuery, t_s: f64) -> Option<CallPlans> {
        let second = query.second.min(self.arrivals.len() - 1);
        let offered = self.offered_per_s(second);
        let mut rng = self.rng.lock().ok()?;
        let mut calls: Vec<PlannedCall> = (0..STANDS_FOR)
            .map(|_| plan_call(&self.setup, self.dep, t_s, offered, query, &mut rng))
            .collect();
        let counted: usize = calls.iter().map(|c| c.attempts.len()).sum();
        self.arrivals[second].fetch_add(counted as u32, Ordering::Relaxed);
        let live = calls.remove(0);
        Some(CallPlans { live, stand_ins: calls })
    }

    /// The outcome of attempt `query.attempt` of its call, its drill ms, and the
    /// stand-ins' marks for its application attempt.
    fn answer(&self, query: &AttemptQuery) -> (bool, f64, String) {
        let t_s = self.clock.now_s();
        let Ok(mut calls) = self.calls.lock() else {
            return (false, 0.0, String::new());
        };
        if query.attempt == 0
            && let Some(plans) = self.plan(query, t_s)
        {
            calls.insert(query.request, plans);
        }
        let planned = calls
            .get(&query.request)
            .and_then(|plans| plans.live.attempts.get(query.attempt).map(|a| (*a, plans.marks(a.2))));
        let Some(((ok, took_ms, _), marks)) = planned else {
            // An attempt the plan did not foresee (the live call's times ran past the
            // model's): drawn and counted alone, as five of the sim's.
            drop(calls);
            let second = query.second.min(self.arrivals.len() - 1);
            self.arrivals[second].fetch_add(STANDS_FOR, Ordering::Relaxed);
            let offered = self.offered_per_s(second);
            return match self.rng.lock() {
                Ok(mut rng) => {
                    let (ok, took_ms) = attempt_outcome(&self.setup, self.dep, t_s, offered, &mut rng);
                    (ok, took_ms, String::new())
                }
                Err(_) => (false, 0.0, String::new()),
            };
        };
        let last = calls
            .get(&query.request)
            .is_some_and(|plans| query.attempt + 1 >= plans.live.attempts.len());
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
                "an attempt needs ?s=&c=&k=&app=&layers=&budget=\n",
            );
        };
        let (ok, took_ms, marks) = self.answer(&query);
        tokio::time::sleep(self.clock.real(took_ms)).await;
        if ok {
            http::text(StatusCode::OK, format!("ok\n{STAND_INS_WORD}{marks}\n"))
        } else {
            http::text(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("failed: past capacity, or the fault\n{STAND_INS_WORD}{marks}\n"),
            )
        }
    }
}

/// Starts `dep`'s server for the drill of `setup` on `clock`.
pub async fn serve(dep: OncallDep, setup: &DrillSetup, clock: DrillClock) -> std::io::Result<LoopbackServer> {
    let stream = u128::from(setup.seed) * 2 + 1 + 1_000 * (dep.index() as u128 + 1);
    let model = Arc::new(DrillDependency {
        dep,
        setup: setup.clone(),
        clock,
        arrivals: (0..DRILL_S + TAIL_S).map(|_| AtomicU32::new(0)).collect(),
        calls: Mutex::new(HashMap::new()),
        rng: Mutex::new(PyRandom::new(stream)),
    });
    server::serve(move |request| model.clone().handle(request)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_ins_marks_read_back_from_the_body() {
        assert_eq!(stand_ins_of(b"ok\nstand-ins 10-1\n"), vec![true, false, true]);
        assert_eq!(stand_ins_of(b"ok\n"), Vec::<bool>::new());
    }
}
