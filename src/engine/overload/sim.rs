//! The queueing server on a virtual clock: arrivals, workers, the policy, the callers' timeouts.
//!
//! Time is kept in whole nanoseconds so that evenly spaced arrivals and fixed service
//! times meet exactly (request i arrives at round(i x 1e9 / rate) ns). Conventions, chosen
//! so the lesson's arithmetic comes out to the digit and written down here once:
//!
//! - At one instant, completions are handled before arrivals (a freed worker takes the
//!   queue's head before the newcomer joins it).
//! - Second k's sample (queue length, wait, busy slots) is taken at t = k s, before any
//!   event at that instant; its counts cover events in [k-1, k).
//! - `queue_wait_s` is the wait a request arriving at the sample instant would have
//!   ([`ServerCore::expected_wait_s`]): the queue ahead / the pool's rate under FIFO.
//! - A request is good if its answer comes by arrival + client timeout; one served later
//!   is wasted work, and its caller is counted as timed out in the second it gave up.
//!   A request still waiting at the end is counted timed out if its caller had already
//!   given up, else left unresolved.
//! - Offered counts what the applications tried: throttled requests are offered too.

use serde::Serialize;

use super::params::{Arrivals, ClassPicker, OverloadParams};
use super::shed::{Admission, Entry, RequestClass, RequestCriticality, RequestRefusal, ServerCore};
use super::throttle::AdaptiveThrottle;
use crate::engine::pyrandom::PyRandom;

const NS_PER_S: f64 = 1e9;

/// One second of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Second {
    /// The second's end.
    pub t_s: f64,
    pub offered: u64,
    /// Answered in time.
    pub goodput: u64,
    /// Answered after the caller had left.
    pub wasted: u64,
    /// Refused by the server (503 at once, or dropped from the queue by the age cap).
    pub refused: u64,
    /// Callers that gave up this second.
    pub timed_out: u64,
    /// Refused locally by the client-side throttle.
    pub throttled: u64,
    pub queue_len: u64,
    pub queue_wait_s: f64,
    /// Age of the oldest queued request.
    pub oldest_wait_s: f64,
    /// Worker slots in use.
    pub busy: u32,
    /// Slots held by calls to dependency X.
    pub x_busy: u32,
}

/// Counts of one criticality class.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassTotals {
    pub offered: u64,
    pub goodput: u64,
    pub refused: u64,
}

/// Counts of the requests that call dependency X.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DependencyTotals {
    pub offered: u64,
    /// Answered in time with X's answer.
    pub goodput: u64,
    /// Refused at once by the bulkhead.
    pub refused: u64,
    /// X did not answer within the server's timeout.
    pub failed: u64,
    pub max_busy: u32,
}

/// Whole-run counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    pub offered: u64,
    pub goodput: u64,
    pub wasted: u64,
    pub refused: u64,
    pub timed_out: u64,
    pub throttled: u64,
    /// Still waiting at the end, caller not yet gone.
    pub unresolved: u64,
    pub goodput_per_s: f64,
    /// Goodput of the requests that never touch dependency X.
    pub other_goodput: u64,
    pub max_queue_len: u64,
    pub refused_admission: u64,
    pub refused_age_cap: u64,
    pub refused_criticality: u64,
    pub refused_bulkhead: u64,
    pub refused_backlog: u64,
    /// In [`RequestCriticality::ALL`]'s order.
    pub by_criticality: [ClassTotals; 4],
    pub dependency: DependencyTotals,
    pub health_checks: u64,
    pub health_checks_answered: u64,
    /// The queue wait the traced arrival actually had (see `trace_at_s`).
    pub traced_wait_s: Option<f64>,
    /// The throttle's rejection probability at the end, and its window's counts.
    pub throttle_probability: Option<f64>,
    pub throttle_requests: u64,
    pub throttle_accepts: u64,
}

/// A run's result: the settings, the capacity, second by second, the totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverloadRun {
    pub params: OverloadParams,
    pub capacity_per_s: f64,
    /// The age cap's longest queue, when the policy has one.
    pub age_cap_queue_limit: Option<u64>,
    pub seconds: Vec<Second>,
    pub totals: Totals,
}

/// What the core carries for each request: its arrival in nanoseconds, the top bit saying
/// whether it is the traced one. Eight bytes, not sixteen: a queue entry is then 24 bytes,
/// and the longest queue the flags allow (a million entries) stays 24 MB.
#[derive(Clone, Copy, Debug)]
struct Req(u64);

impl Req {
    /// The traced bit (a run lasts at most 600 s, 2^40 ns: the bit is never an arrival's).
    const TRACED: u64 = 1 << 63;

    fn new(arrived_ns: u64, traced: bool) -> Self {
        Req(arrived_ns | if traced { Self::TRACED } else { 0 })
    }

    fn arrived_ns(self) -> u64 {
        self.0 & !Self::TRACED
    }

    fn traced(self) -> bool {
        self.0 & Self::TRACED != 0
    }
}

/// A request holding a worker until `done_ns`.
#[derive(Clone, Copy, Debug)]
struct Busy {
    done_ns: u64,
    req: Req,
    class: RequestClass,
}

/// An arrival stream: evenly spaced or Poisson.
struct ArrivalStream {
    rate_per_s: f64,
    index: u64,
    next_ns: Option<u64>,
    random_s: f64,
}

impl ArrivalStream {
    /// The first arrival is at 0 for even spacing, after one random gap for Poisson.
    fn new(rate_per_s: f64, rng: Option<&mut PyRandom>) -> Self {
        let random_s = rng.map_or(0.0, |rng| -(1.0 - rng.random()).ln() / rate_per_s.max(1e-9));
        let next_ns = (rate_per_s > 0.0).then_some((random_s * NS_PER_S).round() as u64);
        Self {
            rate_per_s,
            index: 0,
            next_ns,
            random_s,
        }
    }

    fn advance(&mut self, rng: Option<&mut PyRandom>) {
        self.index += 1;
        self.next_ns = Some(match rng {
            // + 0.5 then truncate: round half up, without a libm call on the hot path.
            None => (self.index as f64 * NS_PER_S / self.rate_per_s + 0.5) as u64,
            Some(rng) => {
                self.random_s += -(1.0 - rng.random()).ln() / self.rate_per_s;
                (self.random_s * NS_PER_S).round() as u64
            }
        });
    }
}

/// Which stream an arrival came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Main,
    Health,
    X,
}

/// The per-second table, with bounds-safe access.
struct Table {
    seconds: Vec<Second>,
}

impl Table {
    fn at(&mut self, ns: u64) -> &mut Second {
        let index = ((ns / 1_000_000_000) as usize).min(self.seconds.len() - 1);
        &mut self.seconds[index]
    }
}

/// Runs the queueing server for `params.duration_s` on the virtual clock.
pub fn run(params: &OverloadParams) -> OverloadRun {
    let end_ns = (params.duration_s.max(0.001) * NS_PER_S).round() as u64;
    let second_count = params.duration_s.max(0.001).ceil() as usize;
    let mut table = Table {
        seconds: (1..=second_count)
            .map(|k| Second {
                t_s: (k as f64).min(params.duration_s),
                ..Second::default()
            })
            .collect(),
    };
    let service_ns = (params.service_ms * 1e6).round().max(1.0) as u64;
    let timeout_ns = (params.client_timeout_ms * 1e6).round() as u64;
    let x_hold_ns = params
        .dependency
        .as_ref()
        .map_or(service_ns, |d| (d.hold_ms() * 1e6).round().max(1.0) as u64);
    let x_fails = params.dependency.as_ref().is_some_and(|d| d.latency_ms > d.timeout_ms);

    let mut core: ServerCore<Req> =
        ServerCore::new(params.workers, params.service_ms / 1_000.0, params.server_policy());
    let mut throttle = params
        .throttle()
        .map(|k| AdaptiveThrottle::new(k, params.throttle_window_s));
    let mut rng = PyRandom::new(u128::from(params.seed));
    let mut arrival_rng = match params.arrivals {
        Arrivals::Even => None,
        Arrivals::Random { seed } => Some(PyRandom::new(u128::from(seed))),
    };
    let weights = params.mix_weights();
    let mut picker = ClassPicker::new(weights);
    // One class only (the usual case): no pick per arrival.
    let single_class = weights
        .iter()
        .position(|w| *w >= 1.0)
        .map(|i| RequestCriticality::ALL[i]);
    let mut main = ArrivalStream::new(params.offered_per_s, arrival_rng.as_mut());
    let mut health = ArrivalStream::new(params.health_checks_per_s, None);
    let mut x_stream = ArrivalStream::new(params.dependency.as_ref().map_or(0.0, |d| d.calls_per_s), None);
    // In service, one list per hold time; each stays sorted by completion.
    let mut in_service: [std::collections::VecDeque<Busy>; 2] = Default::default();
    let mut totals = Totals::default();
    let mut expired: Vec<Entry<Req>> = Vec::new();
    let mut traced_pending = params.trace_at_s;
    let mut next_sample = 1usize;

    let only_main = health.next_ns.is_none() && x_stream.next_ns.is_none();
    loop {
        let arrival = if only_main {
            main.next_ns.filter(|&t| t < end_ns).map(|t| (t, Source::Main))
        } else {
            [
                (main.next_ns, Source::Main),
                (health.next_ns, Source::Health),
                (x_stream.next_ns, Source::X),
            ]
            .into_iter()
            .filter_map(|(ns, source)| ns.filter(|&t| t < end_ns).map(|t| (t, source)))
            .min_by_key(|(t, _)| *t)
        };
        let completion = (0..2)
            .filter_map(|kind| in_service[kind].front().map(|b| (b.done_ns, kind)))
            .filter(|(t, _)| *t < end_ns)
            .min_by_key(|(t, _)| *t);
        let now_ns = match (arrival, completion) {
            (None, None) => break,
            (Some((a, _)), Some((c, _))) => a.min(c),
            (Some((a, _)), None) => a,
            (None, Some((c, _))) => c,
        };
        while next_sample <= second_count && (next_sample as f64 * NS_PER_S) as u64 <= now_ns {
            sample(&mut table.seconds[next_sample - 1], &core, next_sample as f64);
            next_sample += 1;
        }
        let now_s = now_ns as f64 / NS_PER_S;
        if let Some((done_ns, kind)) = completion
            && done_ns == now_ns
        {
            let busy = in_service[kind].pop_front().expect("front seen above");
            let deadline_ns = busy.req.arrived_ns() + timeout_ns;
            let failed = busy.class.calls_x && x_fails;
            if busy.class.health_check {
                if done_ns <= deadline_ns {
                    totals.health_checks_answered += 1;
                }
            } else if done_ns <= deadline_ns && !failed {
                table.at(done_ns).goodput += 1;
                totals.goodput += 1;
                if busy.class.calls_x {
                    totals.dependency.goodput += 1;
                } else {
                    totals.other_goodput += 1;
                    totals.by_criticality[busy.class.criticality.index()].goodput += 1;
                }
                if let Some(throttle) = throttle.as_mut() {
                    throttle.accepted(now_s);
                }
            } else if done_ns <= deadline_ns {
                totals.dependency.failed += 1;
            } else {
                table.at(done_ns).wasted += 1;
                totals.wasted += 1;
                table.at(deadline_ns).timed_out += 1;
                totals.timed_out += 1;
            }
            let next = core.finish(busy.class, now_s, &mut expired);
            for entry in expired.drain(..) {
                let deadline_ns = entry.payload.arrived_ns() + timeout_ns;
                if now_ns > deadline_ns {
                    table.at(deadline_ns).timed_out += 1;
                    totals.timed_out += 1;
                } else {
                    table.at(now_ns).refused += 1;
                    totals.refused += 1;
                    totals.refused_age_cap += 1;
                    if !entry.class.calls_x {
                        totals.by_criticality[entry.class.criticality.index()].refused += 1;
                    }
                }
            }
            if let Some(entry) = next {
                start(&mut in_service, entry, now_ns, service_ns, x_hold_ns, &mut totals);
            }
            continue;
        }
        let Some((_, source)) = arrival else { break };
        let class = match source {
            Source::Main => {
                main.advance(arrival_rng.as_mut());
                let criticality = match single_class {
                    Some(only) => only,
                    None if arrival_rng.is_some() => pick_random(&weights, rng.random()),
                    None => picker.next(),
                };
                totals.offered += 1;
                table.at(now_ns).offered += 1;
                totals.by_criticality[criticality.index()].offered += 1;
                if let Some(throttle) = throttle.as_mut()
                    && throttle.try_request(now_s, rng.random())
                {
                    table.at(now_ns).throttled += 1;
                    totals.throttled += 1;
                    continue;
                }
                RequestClass {
                    criticality,
                    ..RequestClass::PLAIN
                }
            }
            Source::Health => {
                health.advance(None);
                totals.health_checks += 1;
                RequestClass {
                    health_check: true,
                    ..RequestClass::PLAIN
                }
            }
            Source::X => {
                x_stream.advance(None);
                totals.offered += 1;
                totals.dependency.offered += 1;
                table.at(now_ns).offered += 1;
                RequestClass {
                    calls_x: true,
                    ..RequestClass::PLAIN
                }
            }
        };
        let traced = source == Source::Main && traced_pending.is_some_and(|t| now_s >= t);
        if traced {
            traced_pending = None;
        }
        let entry = Entry {
            arrived_s: now_s,
            class,
            payload: Req::new(now_ns, traced),
        };
        match core.arrive(entry) {
            Admission::Start(entry) => start(&mut in_service, entry, now_ns, service_ns, x_hold_ns, &mut totals),
            Admission::Queued => {}
            Admission::Refused { entry, reason, .. } => {
                if entry.class.health_check {
                    continue;
                }
                table.at(now_ns).refused += 1;
                totals.refused += 1;
                match reason {
                    RequestRefusal::Admission => totals.refused_admission += 1,
                    RequestRefusal::AgeCap | RequestRefusal::Expired => totals.refused_age_cap += 1,
                    RequestRefusal::Criticality => totals.refused_criticality += 1,
                    RequestRefusal::Bulkhead => totals.refused_bulkhead += 1,
                    RequestRefusal::Backlog => totals.refused_backlog += 1,
                }
                if entry.class.calls_x {
                    totals.dependency.refused += 1;
                } else {
                    totals.by_criticality[entry.class.criticality.index()].refused += 1;
                }
            }
        }
        totals.max_queue_len = totals.max_queue_len.max(core.queue_len() as u64);
        totals.dependency.max_busy = totals.dependency.max_busy.max(core.x_busy());
    }
    while next_sample <= second_count {
        sample(
            &mut table.seconds[next_sample - 1],
            &core,
            (next_sample as f64).min(params.duration_s),
        );
        next_sample += 1;
    }
    let waiting = core.drain().map(|e| e.payload);
    let serving = in_service.iter().flatten().map(|b| b.req);
    for req in waiting.chain(serving) {
        let deadline_ns = req.arrived_ns() + timeout_ns;
        if deadline_ns < end_ns {
            table.at(deadline_ns).timed_out += 1;
            totals.timed_out += 1;
        } else {
            totals.unresolved += 1;
        }
    }
    totals.goodput_per_s = totals.goodput as f64 / params.duration_s.max(0.001);
    if let Some(throttle) = throttle.as_mut() {
        totals.throttle_probability = Some(throttle.probability(params.duration_s));
        (totals.throttle_requests, totals.throttle_accepts) = throttle.counts();
    }
    OverloadRun {
        params: params.clone(),
        capacity_per_s: params.capacity_per_s(),
        age_cap_queue_limit: core.age_cap_queue_limit().map(|n| n as u64),
        seconds: table.seconds,
        totals,
    }
}

/// Puts a request on a worker until its hold time is over.
fn start(
    in_service: &mut [std::collections::VecDeque<Busy>; 2],
    entry: Entry<Req>,
    now_ns: u64,
    service_ns: u64,
    x_hold_ns: u64,
    totals: &mut Totals,
) {
    if entry.payload.traced() {
        totals.traced_wait_s = Some((now_ns - entry.payload.arrived_ns()) as f64 / NS_PER_S);
    }
    let (kind, hold_ns) = if entry.class.calls_x {
        (1, x_hold_ns)
    } else {
        (0, service_ns)
    };
    in_service[kind].push_back(Busy {
        done_ns: now_ns + hold_ns,
        req: entry.payload,
        class: entry.class,
    });
}

fn sample(second: &mut Second, core: &ServerCore<Req>, t_s: f64) {
    second.queue_len = core.queue_len() as u64;
    second.queue_wait_s = core.expected_wait_s();
    second.oldest_wait_s = core.oldest_wait_s(t_s);
    second.busy = core.busy();
    second.x_busy = core.x_busy();
}

fn pick_random(weights: &[f64; 4], draw: f64) -> RequestCriticality {
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if draw < acc {
            return RequestCriticality::ALL[i];
        }
    }
    RequestCriticality::Critical
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queue's entry is what bounds a run's memory: the flags allow a queue of a million
    /// (`shed::DEFAULT_BACKLOG_LIMIT`), 24 MB at 24 bytes (32 bytes with a separate flag).
    #[test]
    fn a_queued_request_takes_24_bytes_and_keeps_its_arrival_and_trace() {
        assert!(
            std::mem::size_of::<Entry<Req>>() <= 24,
            "{}",
            std::mem::size_of::<Entry<Req>>()
        );
        let last_ns = 600 * NS_PER_S as u64;
        for (arrived_ns, traced) in [(0, false), (0, true), (last_ns, true), (last_ns, false)] {
            let req = Req::new(arrived_ns, traced);
            assert_eq!((req.arrived_ns(), req.traced()), (arrived_ns, traced));
        }
    }
}
