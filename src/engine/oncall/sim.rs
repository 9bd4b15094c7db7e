//! The drill on a virtual clock: checkout-api under steady load, its four dependencies,
//! their retry layers and breakers, the incident, the levers, one row of signals a second.
//!
//! Load is steady on purpose: a request every 10 ms, three in ten sheddable (scheduled
//! renewals and saved-cart reminders, which come back in the night's batch), so that the
//! baseline has no noise and a dip in goodput is the incident's, not the arrivals'.
//! Each request's calls see its dependencies as they stand when it arrives, and ask the
//! breakers at that moment. A breaker learns how an application attempt ended when it
//! ends (the arrival plus the attempts' time), as a real one does: the outcome waits until
//! the drill's clock reaches it, so that the breaker's clock only moves forward. (Fed at
//! the arrival, the breakers knew a call's end before its timeouts ran out: inventory's
//! three mesh attempts of 150 ms, payments' 800 ms ones; measured against the live twin,
//! whose breakers cannot know early, the sim's tripped a second sooner in every cycle of
//! inventory-brownout, and the runbook's restored moment came 2 s apart.)
//!
//! An attempt's random draws are its own ([`AttemptDraws`]): keyed by the seed, the
//! dependency, the request's number and the attempt's place in its call, not taken in
//! turn from one stream. The live twin's dependencies draw by the same keys, so that the
//! simulation and the twin play the same customers' luck whatever order real arrivals
//! take; a shared stream gave each a different sample of the incident, and incidents that
//! cycle (breakers, layered retries) were restored seconds apart for that alone.
//!
//! A dependency past its capacity queues its callers beyond their timeouts: every attempt
//! over the limit fails slowly, and beyond 1.25 times the limit they all do (congestion
//! collapse). That is what makes layered retries dangerous: a short dip in capacity
//! multiplies the attempts, the attempts keep the dependency past its limit, and the
//! overload outlives the fault that started it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use super::call_plan::{CallEnd, CallPlan, CallStep};
use super::incident::{DrillSetup, FaultMode, IncidentSpec};
use super::lever::{LeverPull, OncallLever};
use super::register::{INBOUND_DEADLINE_MS, OncallDep};
use crate::engine::breaker::{Breaker, BreakerConfig};

/// The drill's length in drill seconds.
pub const DRILL_S: usize = 420;
/// Requests a drill second, one every 10 ms.
pub const REQUESTS_PER_S: usize = 100;
/// Of every ten requests, this many are sheddable.
pub const SHEDDABLE_OF_TEN: usize = 3;
/// checkout-api's request workers: a request past them gets a 503 at once.
pub const WORKERS: usize = 64;
/// Connections in each dependency's client pool; saturation is busy connections over this.
pub const POOL_CONNECTIONS: f64 = 32.0;
/// The alerts' `for` windows run ten times faster than the Atlas's: 5 minutes is 30 drill
/// seconds, 15 minutes is 90, so that a drill takes minutes.
pub const ALERT_TIME_SCALE: f64 = 10.0;
/// How steeply failures rise past capacity: 25% over the limit and every attempt times out.
const COLLAPSE_SLOPE: f64 = 4.0;
/// How fast a 503 from a rate limit comes back.
const REJECT_MS: f64 = 10.0;

/// The Atlas's two alert rules, with their windows time-scaled.
pub const BREAKER_NOT_CLOSED: &str = "DependencyBreakerNotClosed";
pub const CALLS_REJECTED: &str = "DependencyCallsRejected";
const NOT_CLOSED_FOR_S: usize = (300.0 / ALERT_TIME_SCALE) as usize;
const REJECTED_RATE_WINDOW_S: usize = (300.0 / ALERT_TIME_SCALE) as usize;
const REJECTED_FOR_S: usize = (900.0 / ALERT_TIME_SCALE) as usize;
const REJECTED_PER_S: f64 = 5.0;

/// A dependency's golden signals for one drill second, as on-call sees them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DepSignals {
    pub dep: OncallDep,
    /// Attempts made this second, every retry layer counted.
    pub attempts: u32,
    /// Calls the requests wanted; attempts over calls is the amplification.
    pub calls: u32,
    /// Attempts that failed (timeouts and 503s).
    pub errors: u32,
    pub p99_ms: f64,
    /// Busy connections over the pool's size.
    pub saturation: f64,
    /// `closed`, `open`, `half_open`, `forced_open`, `off` or `none` (no breaker).
    pub breaker: &'static str,
    /// Calls the breaker refused (open, half-open full, or forced).
    pub not_permitted: u32,
}

/// checkout-api's own signals for one drill second, and its dependencies'.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrillSecond {
    pub t_s: usize,
    pub requests: u32,
    /// Interactive checkouts answered well within the deadline: the goodput.
    pub goodput: u32,
    pub shed: u32,
    /// Turned away because every worker was busy.
    pub rejected: u32,
    /// Served but failed (a hard dependency failed, or the deadline passed).
    pub failed: u32,
    pub p99_ms: f64,
    pub workers_busy: u32,
    pub deps: Vec<DepSignals>,
    /// Alerts firing at the end of the second, as `Rule{name=dep}`.
    pub alerts: Vec<String>,
}

impl DepSignals {
    /// Attempts over calls this second, the amplification (0 when nothing was called, so a
    /// dependency nobody called shows no multiplier).
    pub fn attempts_per_call(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            f64::from(self.attempts) / f64::from(self.calls)
        }
    }
}

impl DrillSecond {
    /// Attempts over calls, all dependencies together (1.0 when nothing was called).
    pub fn attempts_per_request(&self) -> f64 {
        let attempts: u32 = self.deps.iter().map(|d| d.attempts).sum();
        let calls: u32 = self.deps.iter().map(|d| d.calls).sum();
        if calls == 0 {
            1.0
        } else {
            f64::from(attempts) / f64::from(calls)
        }
    }
}

/// An alert's firing, from the second it fired to the second it stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlertSpan {
    pub alert: &'static str,
    pub dep: OncallDep,
    pub from_s: usize,
    /// None while still firing at the drill's end.
    pub to_s: Option<usize>,
}

/// A whole drill: the timeline of signals and the alerts' spans.
#[derive(Clone, Debug)]
pub struct DrillRun {
    pub setup: DrillSetup,
    pub levers: Vec<LeverPull>,
    pub seconds: Vec<DrillSecond>,
    pub alerts: Vec<AlertSpan>,
}

/// One dependency's state as the drill runs.
struct DepState {
    dep: OncallDep,
    breaker: Option<Breaker>,
    retries_zero: bool,
    off: bool,
    forced_open: bool,
    /// Attempts made in the last whole second: the load the dependency is under now.
    offered_per_s: f64,
    // This second's counters.
    attempts: u32,
    calls: u32,
    errors: u32,
    not_permitted: u32,
    latencies_ms: Vec<f64>,
    busy_ms: f64,
}

/// One dependency's alert rules' memory: how long its breaker has not been closed, and
/// its calls refused second by second. The simulation and the live twin close each
/// second's row through an [`AlertLog`] of these, so that both fire the same alerts from
/// the same rows.
#[derive(Clone, Debug, Default)]
pub struct AlertWatch {
    not_closed_streak: usize,
    not_permitted_history: Vec<u32>,
    rejected_streak: usize,
}

impl AlertWatch {
    /// Closes second `t_s` of `signals`' dependency: opens or ends its spans in `alerts`
    /// and returns the rules firing at the end of the second, as `Rule{name=dep}`.
    pub fn close_second(&mut self, t_s: usize, signals: &DepSignals, alerts: &mut Vec<AlertSpan>) -> Vec<String> {
        let mut firing = Vec::new();
        let dep = signals.dep;
        // The breaker metric exists only where a breaker does; switched off, its
        // breaker sees no calls and stays as it was.
        let not_closed = dep.row().breaker && matches!(signals.breaker, "open" | "half_open" | "forced_open");
        self.not_closed_streak = if not_closed { self.not_closed_streak + 1 } else { 0 };
        self.not_permitted_history.push(signals.not_permitted);
        let window =
            &self.not_permitted_history[self.not_permitted_history.len().saturating_sub(REJECTED_RATE_WINDOW_S)..];
        let rate = f64::from(window.iter().sum::<u32>()) / REJECTED_RATE_WINDOW_S as f64;
        self.rejected_streak = if rate > REJECTED_PER_S {
            self.rejected_streak + 1
        } else {
            0
        };
        for (rule, on) in [
            (BREAKER_NOT_CLOSED, self.not_closed_streak >= NOT_CLOSED_FOR_S),
            (CALLS_REJECTED, self.rejected_streak >= REJECTED_FOR_S),
        ] {
            let open_span = alerts
                .iter_mut()
                .find(|a| a.alert == rule && a.dep == dep && a.to_s.is_none());
            match (on, open_span) {
                (true, None) => alerts.push(AlertSpan {
                    alert: rule,
                    dep,
                    from_s: t_s,
                    to_s: None,
                }),
                (false, Some(span)) => span.to_s = Some(t_s),
                _ => {}
            }
            if on {
                firing.push(format!("{rule}{{name={}}}", dep.name()));
            }
        }
        firing
    }
}

/// The two alert rules over a timeline that grows a row at a time: each row closed in
/// turn, as the simulation closes its seconds, so live rows fire the same alerts.
#[derive(Clone, Debug, Default)]
pub struct AlertLog {
    watches: [AlertWatch; 4],
    spans: Vec<AlertSpan>,
}

impl AlertLog {
    /// Closes `row` (the next second): its firing alerts filled in, the spans moved on.
    pub fn close(&mut self, row: &mut DrillSecond) {
        for signals in &row.deps {
            let fired = self.watches[signals.dep.index()].close_second(row.t_s, signals, &mut self.spans);
            row.alerts.extend(fired);
        }
    }

    /// Every span so far (open ones with no end).
    pub fn spans(&self) -> &[AlertSpan] {
        &self.spans
    }
}

impl DepState {
    fn new(dep: OncallDep) -> Self {
        Self {
            dep,
            breaker: dep.row().breaker.then(|| Breaker::new(BreakerConfig::default())),
            retries_zero: false,
            off: false,
            forced_open: false,
            offered_per_s: 0.0,
            attempts: 0,
            calls: 0,
            errors: 0,
            not_permitted: 0,
            latencies_ms: Vec::new(),
            busy_ms: 0.0,
        }
    }

    fn breaker_word(&self) -> &'static str {
        if self.off {
            "off"
        } else if self.forced_open {
            "forced_open"
        } else {
            self.breaker.as_ref().map_or("none", |b| b.state().name())
        }
    }
}

/// The value at the 99th percentile (nearest rank), 0 for no values.
pub fn p99(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((values.len() as f64) * 0.99).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

/// An application attempt's outcome on its way to its breaker: due at `due_us`, the
/// moment the attempt ended; `order` keeps outcomes due at the same moment in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct BreakerOutcome {
    due_us: u64,
    order: u64,
    dep_index: usize,
    ok: bool,
}

struct OncallDrillState<'a> {
    setup: &'a DrillSetup,
    deps: Vec<DepState>,
    /// Outcomes the breakers have not learnt yet, soonest first.
    outcomes_due: BinaryHeap<Reverse<BreakerOutcome>>,
    outcomes_sent: u64,
}

/// The fault in force on `dep` at `t_s`, as the incident file that describes it: the drill's
/// own incident first, then a facilitator's second faults (each from its own moment).
pub fn fault_on(setup: &DrillSetup, dep: OncallDep, t_s: f64) -> Option<&IncidentSpec> {
    if dep == setup.dependency && t_s >= setup.onset_s && t_s < setup.onset_s + setup.incident.duration_s {
        return Some(&setup.incident);
    }
    setup
        .extra_faults
        .iter()
        .find(|extra| extra.dependency == dep && t_s >= extra.from_s && t_s < extra.from_s + extra.incident.duration_s)
        .map(|extra| &extra.incident)
}

/// The mesh's attempts per library attempt: the register's, or an incident's hidden
/// layer from its onset on (the drill's own, then a second fault's).
pub fn mesh_attempts(setup: &DrillSetup, dep: OncallDep, t_s: f64) -> u32 {
    if let Some(mesh) = setup.incident.mesh_attempts
        && dep == setup.dependency
        && t_s >= setup.onset_s
    {
        return mesh;
    }
    setup
        .extra_faults
        .iter()
        .filter(|extra| extra.dependency == dep && t_s >= extra.from_s)
        .find_map(|extra| extra.incident.mesh_attempts)
        .unwrap_or(dep.row().mesh_attempts)
}

/// A call's retry layers at `t_s`: (application attempts, wire attempts per application
/// attempt); `DEP.retries=0` makes both one.
pub fn call_layers(setup: &DrillSetup, dep: OncallDep, t_s: f64, retries_zero: bool) -> (u32, u32) {
    let row = dep.row();
    if retries_zero {
        (1, 1)
    } else {
        (row.max_attempts, row.sdk_attempts * mesh_attempts(setup, dep, t_s))
    }
}

/// The uniform draws of one attempt, keyed by what identifies it: the same key gives the
/// same draws in the simulation and in the live twin, in whatever order attempts come.
#[derive(Clone, Copy, Debug)]
pub struct AttemptDraws {
    state: u64,
}

impl AttemptDraws {
    /// The draws of attempt `attempt` (from 0) of request `request`'s call to `dep`,
    /// request `request` being the drill's `request`-th from 0 (second times 100 plus slot).
    pub fn new(seed: u64, dep: OncallDep, request: usize, attempt: usize) -> Self {
        let mut key = splitmix64(seed.wrapping_mul(2).wrapping_add(1));
        for part in [dep.index() as u64, request as u64, attempt as u64] {
            key = splitmix64(key ^ part);
        }
        Self { state: key }
    }

    /// The next draw in [0, 1).
    pub fn random(&mut self) -> f64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        // 53 bits: every value a double in [0, 1) spaced evenly.
        (splitmix64(self.state) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// SplitMix64's increment (the golden ratio's fraction in 64 bits).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a 64-bit value mixed so that near keys give unrelated draws.
fn splitmix64(value: u64) -> u64 {
    let mut z = value.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How `dep` answers one attempt at `t_s` under `offered_per_s` attempts a second (the
/// last whole second's): whether it succeeds and how long it takes, in drill ms. The
/// simulation and the live twin's dependency servers both ask this.
pub fn attempt_outcome(
    setup: &DrillSetup,
    dep: OncallDep,
    t_s: f64,
    offered_per_s: f64,
    draws: &mut AttemptDraws,
) -> (bool, f64) {
    let row = dep.row();
    let fault = fault_on(setup, dep, t_s);
    let offered = offered_per_s;
    if let Some(spec) = fault
        && spec.mode == FaultMode::Hang
    {
        return (true, spec.hang_ms);
    }
    if fault.is_some_and(|spec| spec.mode == FaultMode::Slow) {
        return (false, row.timeout_ms);
    }
    let capacity = fault.map_or(row.capacity_per_s, |spec| spec.capacity_per_s);
    let (fail_share, fail_ms) = if fault.is_some_and(|spec| spec.mode == FaultMode::Reject503) {
        ((1.0 - capacity / offered).max(0.0), REJECT_MS)
    } else if offered > capacity {
        (((offered / capacity - 1.0) * COLLAPSE_SLOPE).min(1.0), row.timeout_ms)
    } else {
        (0.0, 0.0)
    };
    if fail_share > 0.0 && draws.random() < fail_share {
        return (false, fail_ms);
    }
    (true, row.usual_ms * (0.6 + 0.8 * draws.random()))
}

impl OncallDrillState<'_> {
    /// Attempt `attempt` of request `request`'s call: its outcome and duration.
    fn attempt(&mut self, dep: OncallDep, t_s: f64, request: usize, attempt: usize) -> (bool, f64) {
        let offered = self.deps[dep.index()].offered_per_s;
        let mut draws = AttemptDraws::new(self.setup.seed, dep, request, attempt);
        attempt_outcome(self.setup, dep, t_s, offered, &mut draws)
    }

    /// Request `request`'s call with its retry layers, within `budget_ms`; None when
    /// switched off.
    fn call(&mut self, dep: OncallDep, t_s: f64, request: usize, budget_ms: f64) -> Option<CallEnd> {
        let row = dep.row();
        let state = &self.deps[dep.index()];
        if state.off {
            return None;
        }
        let (app_attempts, layers) = call_layers(self.setup, dep, t_s, state.retries_zero);
        self.deps[dep.index()].calls += 1;
        // Hard dependencies get the request's deadline (Lab 5's propagation); a soft
        // dependency's client gets none, so its retries run on after the request stopped
        // waiting: abandoned work that still loads the dependency.
        let budget_ms = if row.hard { budget_ms } else { f64::INFINITY };
        let mut plan = CallPlan::new(app_attempts, layers, budget_ms);
        let mut elapsed_ms = 0.0;
        let mut attempts_made = 0;
        loop {
            match plan.next_step() {
                CallStep::AskBreaker => {
                    let state = &mut self.deps[dep.index()];
                    let permitted = !state.forced_open && state.breaker.as_mut().is_none_or(|b| b.allow(t_s));
                    state.not_permitted += u32::from(!permitted);
                    plan.permitted(permitted);
                }
                CallStep::Attempt { .. } => {
                    let (attempt_ok, took_ms) = self.attempt(dep, t_s, request, attempts_made);
                    attempts_made += 1;
                    let took_ms = plan.attempted(attempt_ok, took_ms);
                    elapsed_ms += took_ms;
                    let state = &mut self.deps[dep.index()];
                    state.attempts += 1;
                    state.errors += u32::from(!attempt_ok);
                    state.latencies_ms.push(took_ms);
                    state.busy_ms += took_ms;
                }
                CallStep::RecordBreaker { ok } => {
                    if self.deps[dep.index()].breaker.is_some() {
                        self.outcomes_sent += 1;
                        self.outcomes_due.push(Reverse(BreakerOutcome {
                            due_us: outcome_due_us(t_s, elapsed_ms),
                            order: self.outcomes_sent,
                            dep_index: dep.index(),
                            ok,
                        }));
                    }
                }
                CallStep::Done(end) => return Some(end),
            }
        }
    }

    /// Gives the breakers every outcome due by `now_us`, each at the moment it was due.
    fn deliver_outcomes(&mut self, now_us: u64) {
        while let Some(Reverse(outcome)) = self.outcomes_due.peek().copied()
            && outcome.due_us <= now_us
        {
            self.outcomes_due.pop();
            if let Some(breaker) = self.deps[outcome.dep_index].breaker.as_mut() {
                breaker.record(outcome.due_us as f64 / 1e6, outcome.ok);
            }
        }
    }

    fn pull(&mut self, lever: OncallLever) {
        match lever {
            OncallLever::RetriesZero(dep, on) => self.deps[dep.index()].retries_zero = on,
            OncallLever::SwitchedOff(dep, on) => self.deps[dep.index()].off = on,
            OncallLever::BreakerForced(dep, on) => self.deps[dep.index()].forced_open = on,
            OncallLever::Shed(_) => {}
        }
    }

    /// Closes a second: the signals, the load for the next second (the alerts are the
    /// row's, closed through an [`AlertLog`] as the live twin's rows are).
    fn close_second(&mut self) -> Vec<DepSignals> {
        let mut signals = Vec::new();
        for state in &mut self.deps {
            let word = state.breaker_word();
            let row = DepSignals {
                dep: state.dep,
                attempts: state.attempts,
                calls: state.calls,
                errors: state.errors,
                p99_ms: p99(&mut state.latencies_ms),
                saturation: state.busy_ms / 1_000.0 / POOL_CONNECTIONS,
                breaker: word,
                not_permitted: state.not_permitted,
            };
            signals.push(row);
            state.offered_per_s = f64::from(state.attempts);
            state.attempts = 0;
            state.calls = 0;
            state.errors = 0;
            state.not_permitted = 0;
            state.latencies_ms.clear();
            state.busy_ms = 0.0;
        }
        signals
    }
}

/// Sim request `request`'s arrival in drill seconds (a request every 10 ms from 0), as
/// the drill's loop and the live twin's dependencies compute it, to the same bits.
pub fn arrival_s(request: usize) -> f64 {
    (request / REQUESTS_PER_S) as f64 + (request % REQUESTS_PER_S) as f64 / REQUESTS_PER_S as f64
}

/// Drill second `t_s` in whole microseconds, the breakers' clock for the outcomes due.
pub fn moment_us(t_s: f64) -> u64 {
    (t_s * 1e6) as u64
}

/// The moment (µs) an application attempt's outcome reaches its breaker: its request's
/// arrival plus the attempts' time. The live twin's breakers (`live::oncall::breaker_feed`)
/// queue theirs for the same microsecond, so that outcomes due together and an ask at the
/// same moment come in the same order in both.
pub fn outcome_due_us(arrived_s: f64, elapsed_ms: f64) -> u64 {
    moment_us(arrived_s + elapsed_ms / 1_000.0)
}

/// How a request ended, from its hard chain (whether it succeeded, its drill ms) and its
/// soft calls' ends (None for one switched off): whether it was served well, and its
/// time. The request waits for a soft call up to the deadline and no longer, so a soft
/// call counts for its time cut at the deadline, and one that ran to it fails the request.
/// The live twin judges its stand-in requests by this rule too (`live::oncall::checkout`).
pub fn request_end(hard_ok: bool, hard_ms: f64, soft: [Option<CallEnd>; 2]) -> (bool, f64) {
    let total_ms = soft
        .iter()
        .flatten()
        .fold(hard_ms, |total, end| total.max(end.elapsed_ms.min(INBOUND_DEADLINE_MS)));
    (hard_ok && total_ms < INBOUND_DEADLINE_MS, total_ms)
}

/// Plays the drill: the setup's incident at its onset, the levers at their times.
pub fn run_drill(setup: &DrillSetup, levers: &[LeverPull]) -> DrillRun {
    let mut levers_sorted = levers.to_vec();
    levers_sorted.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
    let mut drill = OncallDrillState {
        setup,
        deps: OncallDep::ALL.into_iter().map(DepState::new).collect(),
        outcomes_due: BinaryHeap::new(),
        outcomes_sent: 0,
    };
    let mut shed_on = false;
    let mut next_lever = 0;
    let mut workers: BinaryHeap<Reverse<u64>> = BinaryHeap::new();
    let mut seconds = Vec::with_capacity(DRILL_S);
    let mut alerts = AlertLog::default();
    for t_s in 0..DRILL_S {
        let (mut requests, mut goodput, mut shed, mut rejected, mut failed) = (0, 0, 0, 0, 0);
        let mut latencies_ms = Vec::with_capacity(REQUESTS_PER_S);
        for slot in 0..REQUESTS_PER_S {
            let request = t_s * REQUESTS_PER_S + slot;
            let now_s = arrival_s(request);
            while next_lever < levers_sorted.len() && levers_sorted[next_lever].t_s <= now_s {
                let lever = levers_sorted[next_lever].lever;
                if let OncallLever::Shed(on) = lever {
                    shed_on = on;
                }
                drill.pull(lever);
                next_lever += 1;
            }
            let now_us = moment_us(now_s);
            drill.deliver_outcomes(now_us);
            requests += 1;
            let sheddable = slot % 10 < SHEDDABLE_OF_TEN;
            if shed_on && sheddable {
                shed += 1;
                continue;
            }
            while workers.peek().is_some_and(|Reverse(end)| *end <= now_us) {
                workers.pop();
            }
            if workers.len() >= WORKERS {
                rejected += 1;
                continue;
            }
            let inventory = drill.call(OncallDep::Inventory, now_s, request, INBOUND_DEADLINE_MS);
            let (mut hard_ok, mut hard_ms) = inventory.map_or((true, 0.0), |c| (c.ok, c.elapsed_ms));
            if hard_ok
                && let Some(payments) = drill.call(OncallDep::Payments, now_s, request, INBOUND_DEADLINE_MS - hard_ms)
            {
                hard_ok = payments.ok;
                hard_ms += payments.elapsed_ms;
            }
            let soft = [OncallDep::Recommendations, OncallDep::ReceiptStore]
                .map(|soft| drill.call(soft, now_s, request, INBOUND_DEADLINE_MS));
            let (ok, total_ms) = request_end(hard_ok, hard_ms, soft);
            let held_ms = total_ms.max(1.0);
            workers.push(Reverse(now_us + (held_ms * 1_000.0) as u64));
            latencies_ms.push(total_ms);
            match (ok, sheddable) {
                (true, false) => goodput += 1,
                (true, true) => {}
                (false, _) => failed += 1,
            }
        }
        let deps = drill.close_second();
        let mut row = DrillSecond {
            t_s,
            requests,
            goodput,
            shed,
            rejected,
            failed,
            p99_ms: p99(&mut latencies_ms),
            workers_busy: workers.len() as u32,
            deps,
            alerts: Vec::new(),
        };
        alerts.close(&mut row);
        seconds.push(row);
    }
    DrillRun {
        setup: setup.clone(),
        levers: levers_sorted,
        seconds,
        alerts: alerts.spans().to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oncall::builtin_incidents;

    fn brownout_setup() -> DrillSetup {
        let incidents = builtin_incidents().expect("the shipped incidents parse");
        let incident = incidents
            .iter()
            .find(|i| i.name == "inventory-brownout")
            .expect("a shipped incident");
        DrillSetup::new(incident, 1)
    }

    #[test]
    fn an_attempts_draws_depend_on_its_key_alone() {
        let draws = |request, attempt| {
            let mut d = AttemptDraws::new(1, OncallDep::Payments, request, attempt);
            [d.random(), d.random()]
        };
        // Asked in any order, a key gives the same draws; a neighbouring key others.
        let later_first = (draws(7, 1), draws(7, 0));
        assert_eq!(draws(7, 0), later_first.1);
        assert_eq!(draws(7, 1), later_first.0);
        assert_ne!(draws(7, 0), draws(8, 0));
        assert_ne!(draws(7, 0), draws(7, 1));
        let mut other_dep = AttemptDraws::new(1, OncallDep::Inventory, 7, 0);
        assert_ne!(draws(7, 0)[0], other_dep.random());
        let mut other_seed = AttemptDraws::new(2, OncallDep::Payments, 7, 0);
        assert_ne!(draws(7, 0)[0], other_seed.random());
        let spread: Vec<f64> = (0..10_000).map(|n| draws(n, 0)[0]).collect();
        assert!(spread.iter().all(|u| (0.0..1.0).contains(u)));
        let mean = spread.iter().sum::<f64>() / spread.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
    }

    #[test]
    fn a_breaker_learns_a_calls_outcome_when_its_attempts_end_not_when_it_arrives() {
        let setup = brownout_setup();
        let mut drill = OncallDrillState {
            setup: &setup,
            deps: OncallDep::ALL.into_iter().map(DepState::new).collect(),
            outcomes_due: BinaryHeap::new(),
            outcomes_sent: 0,
        };
        // Past capacity every attempt fails at its timeout (150 ms for inventory).
        drill.deps[OncallDep::Inventory.index()].offered_per_s = 10_000.0;
        let arrived_s = 50.0;
        let end = drill
            .call(OncallDep::Inventory, arrived_s, 5_000, INBOUND_DEADLINE_MS)
            .expect("inventory is on");
        assert!(!end.ok);
        let arrived_us = (arrived_s * 1e6) as u64;
        let window = |drill: &OncallDrillState| {
            drill.deps[OncallDep::Inventory.index()]
                .breaker
                .as_ref()
                .map(|b| b.failure_rate())
        };
        assert_eq!(window(&drill), Some(0.0), "nothing known at the arrival");
        drill.deliver_outcomes(arrived_us + 100_000);
        assert_eq!(window(&drill), Some(0.0), "nothing known before the first timeout");
        drill.deliver_outcomes(arrived_us + (end.elapsed_ms * 1_000.0) as u64 + 1_000);
        assert_eq!(window(&drill), Some(1.0), "the failure known when the call ends");
    }
}
