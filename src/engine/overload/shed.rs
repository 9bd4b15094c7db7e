//! The server side of Lab 4, written once: worker slots, a queue and every shedding rule.
//!
//! [`ServerCore`] decides, for each arriving request, whether it starts now, waits in the
//! queue or is refused at once, and, when a worker frees, which queued request it takes
//! next. It holds no clock: the caller passes the time in seconds. The simulation
//! (virtual clock) and the live loopback server (elapsed time) both drive this one type,
//! so a policy means the same thing in both modes.
//!
//! The rules, in the order an arrival meets them:
//!
//! 1. **Backlog**: a hard bound on the queue (like a listen backlog) so no run can grow
//!    without limit; nothing in the lesson depends on it.
//! 2. **Bulkhead**: requests that call dependency X may hold at most `x_pool` slots
//!    (queued or in service); beyond that they fail at once and never touch the pool.
//! 3. **Health checks** are never refused and go to the front of the line.
//! 4. **Admission limit**: with `admission_limit` requests in the server (in service plus
//!    queued) a new one gets a cheap 503 with a Retry-After. With criticality on, each
//!    class may fill only its share of the queue room, so the least important are
//!    refused first and CRITICAL_PLUS last.
//! 5. **Age cap**: a request that would wait longer than the cap before a worker takes it
//!    is refused on arrival. Its wait is predicted as the lesson does it: the queue ahead
//!    divided by the pool's rate (workers / service time), so the queue stops at
//!    cap x rate (2,000/s x 0.2 s = 400). A queued request that outlives the cap anyway
//!    is dropped when a worker reaches it.
//! 6. Otherwise it starts if a worker is free, else joins the queue: FIFO serves the
//!    oldest first, LIFO the newest.

use std::collections::VecDeque;

use serde::Serialize;

/// Google's four request criticalities, lowest first (so `Ord` is "more important").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RequestCriticality {
    Sheddable,
    SheddablePlus,
    Critical,
    CriticalPlus,
}

impl RequestCriticality {
    /// Most important first, as the lesson lists them.
    pub const ALL: [RequestCriticality; 4] = [
        RequestCriticality::CriticalPlus,
        RequestCriticality::Critical,
        RequestCriticality::SheddablePlus,
        RequestCriticality::Sheddable,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RequestCriticality::CriticalPlus => "CRITICAL_PLUS",
            RequestCriticality::Critical => "CRITICAL",
            RequestCriticality::SheddablePlus => "SHEDDABLE_PLUS",
            RequestCriticality::Sheddable => "SHEDDABLE",
        }
    }

    /// The share of the queue room this class may fill before it is refused: a higher
    /// criticality has a higher threshold, so it is shed later.
    pub fn queue_share(self) -> f64 {
        match self {
            RequestCriticality::CriticalPlus => 1.0,
            RequestCriticality::Critical => 0.75,
            RequestCriticality::SheddablePlus => 0.5,
            RequestCriticality::Sheddable => 0.25,
        }
    }

    /// Position in [`RequestCriticality::ALL`], for per-class tables.
    pub fn index(self) -> usize {
        RequestCriticality::ALL.iter().position(|c| *c == self).unwrap_or(0)
    }
}

/// What kind of request it is, as far as the server's rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RequestClass {
    pub criticality: RequestCriticality,
    /// It calls dependency X (the bulkhead case) and holds its slot for X's time.
    pub calls_x: bool,
    /// A load balancer's ping: answered first, never shed.
    pub health_check: bool,
}

impl RequestClass {
    /// Ordinary production traffic: CRITICAL, no dependency X.
    pub const PLAIN: RequestClass = RequestClass {
        criticality: RequestCriticality::Critical,
        calls_x: false,
        health_check: false,
    };
}

/// Which queued request a free worker takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Discipline {
    /// Oldest first: under overload every request waits behind the whole queue.
    Fifo,
    /// Newest first: the callers most likely still waiting are served.
    Lifo,
}

/// The server's shedding rules; `None` switches a rule off.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServerPolicy {
    pub discipline: Discipline,
    pub age_cap_s: Option<f64>,
    /// Requests in the server (in service + queued) at which a new one gets a 503.
    pub admission_limit: Option<u32>,
    /// Shed by criticality within the admission limit's queue room.
    pub by_criticality: bool,
    /// Slots that requests calling dependency X may hold (the bulkhead).
    pub x_pool: Option<u32>,
    /// Hard bound on the queue, whatever the policy.
    pub backlog_limit: u32,
}

/// The hard queue bound of every run: memory stays bounded (16 bytes or so an entry).
pub const DEFAULT_BACKLOG_LIMIT: u32 = 1_000_000;

impl Default for ServerPolicy {
    /// The unprotected server: FIFO, no shedding.
    fn default() -> Self {
        Self {
            discipline: Discipline::Fifo,
            age_cap_s: None,
            admission_limit: None,
            by_criticality: false,
            x_pool: None,
            backlog_limit: DEFAULT_BACKLOG_LIMIT,
        }
    }
}

/// Why a request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestRefusal {
    /// The admission limit (503 + Retry-After).
    Admission,
    /// Its class's share of the queue was full (criticality order).
    Criticality,
    /// It would have waited longer than the age cap (refused on arrival).
    AgeCap,
    /// It outlived the age cap in the queue (dropped when a worker reached it).
    Expired,
    /// Dependency X's bulkhead was full.
    Bulkhead,
    /// The hard backlog bound.
    Backlog,
}

/// A request the server holds, with whatever the caller attaches (`payload`).
#[derive(Debug)]
pub struct Entry<T> {
    pub arrived_s: f64,
    pub class: RequestClass,
    pub payload: T,
}

/// What the server does with an arrival.
#[derive(Debug)]
pub enum Admission<T> {
    /// A worker was free: serve it now.
    Start(Entry<T>),
    /// It waits in the queue; a later [`ServerCore::finish`] hands it to a worker.
    Queued,
    /// Refused at once: answer 503 with `Retry-After: retry_after_s`.
    Refused {
        entry: Entry<T>,
        reason: RequestRefusal,
        retry_after_s: f64,
    },
}

/// Worker slots, the queue and the rules; the caller owns the clock and the work.
#[derive(Debug)]
pub struct ServerCore<T> {
    policy: ServerPolicy,
    workers: u32,
    service_s: f64,
    busy: u32,
    x_busy: u32,
    x_queued: u32,
    queue: VecDeque<Entry<T>>,
}

impl<T> ServerCore<T> {
    /// `service_s` is the time one request holds a worker: it sets the pool's rate,
    /// which the age cap's wait prediction and Retry-After use.
    pub fn new(workers: u32, service_s: f64, policy: ServerPolicy) -> Self {
        Self {
            policy,
            workers: workers.max(1),
            service_s: service_s.max(1e-9),
            busy: 0,
            x_busy: 0,
            x_queued: 0,
            queue: VecDeque::new(),
        }
    }

    pub fn policy(&self) -> &ServerPolicy {
        &self.policy
    }

    /// Changes the rules from the next arrival on (live retuning).
    pub fn set_policy(&mut self, policy: ServerPolicy) {
        self.policy = policy;
    }

    /// Requests the pool finishes per second when every worker is busy.
    pub fn rate_per_s(&self) -> f64 {
        f64::from(self.workers) / self.service_s
    }

    /// The longest queue the age cap allows: cap x the pool's rate.
    pub fn age_cap_queue_limit(&self) -> Option<usize> {
        self.policy
            .age_cap_s
            .map(|cap_s| (cap_s * self.rate_per_s() + 1e-9).floor() as usize)
    }

    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    pub fn busy(&self) -> u32 {
        self.busy
    }

    /// Slots held by requests calling dependency X.
    pub fn x_busy(&self) -> u32 {
        self.x_busy
    }

    pub fn workers(&self) -> u32 {
        self.workers
    }

    /// The wait a request arriving now would have: 0 with a free worker; else, FIFO, the
    /// queue ahead divided by the pool's rate (the lesson's 1,000 / 2,000 = 0.5 s); LIFO
    /// serves it next, so about one completion's gap.
    pub fn expected_wait_s(&self) -> f64 {
        if self.busy < self.workers {
            return 0.0;
        }
        match self.policy.discipline {
            Discipline::Fifo => self.queue.len() as f64 / self.rate_per_s(),
            Discipline::Lifo => 1.0 / self.rate_per_s(),
        }
    }

    /// The age of the oldest queued request at `now_s` (0 when the queue is empty).
    pub fn oldest_wait_s(&self, now_s: f64) -> f64 {
        // Both ends: FIFO keeps the oldest at the front, but a ping may sit before it.
        let front = self.queue.front().map_or(now_s, |e| e.arrived_s);
        let back = self.queue.back().map_or(now_s, |e| e.arrived_s);
        (now_s - front.min(back)).max(0.0)
    }

    /// Retry-After for a refusal: the time the queue ahead takes to drain, at least 1 s.
    fn retry_after_s(&self) -> f64 {
        (self.queue.len() as f64 / self.rate_per_s()).ceil().max(1.0)
    }

    fn refuse(&self, entry: Entry<T>, reason: RequestRefusal) -> Admission<T> {
        Admission::Refused {
            entry,
            reason,
            retry_after_s: self.retry_after_s(),
        }
    }

    fn take_slot(&mut self, class: RequestClass) {
        self.busy += 1;
        if class.calls_x {
            self.x_busy += 1;
        }
    }

    /// Applies the rules to an arrival (see the module docs for their order).
    pub fn arrive(&mut self, entry: Entry<T>) -> Admission<T> {
        let class = entry.class;
        if self.queue.len() >= self.policy.backlog_limit as usize {
            return self.refuse(entry, RequestRefusal::Backlog);
        }
        if class.calls_x
            && let Some(pool) = self.policy.x_pool
            && self.x_busy + self.x_queued >= pool
        {
            return self.refuse(entry, RequestRefusal::Bulkhead);
        }
        let worker_free = self.busy < self.workers;
        if class.health_check {
            if worker_free {
                self.take_slot(class);
                return Admission::Start(entry);
            }
            match self.policy.discipline {
                Discipline::Fifo => self.queue.push_front(entry),
                Discipline::Lifo => self.queue.push_back(entry),
            }
            return Admission::Queued;
        }
        if let Some(limit) = self.policy.admission_limit {
            let room = f64::from(limit.saturating_sub(self.workers));
            let (share, reason) = if self.policy.by_criticality {
                (class.criticality.queue_share(), RequestRefusal::Criticality)
            } else {
                (1.0, RequestRefusal::Admission)
            };
            let allowed = u64::from(self.workers.min(limit)) + (room * share).ceil() as u64;
            if u64::from(self.busy) + self.queue.len() as u64 >= allowed {
                return self.refuse(entry, reason);
            }
        }
        if worker_free {
            self.take_slot(class);
            return Admission::Start(entry);
        }
        if let Some(limit) = self.age_cap_queue_limit()
            && self.queue.len() >= limit
        {
            return self.refuse(entry, RequestRefusal::AgeCap);
        }
        if class.calls_x {
            self.x_queued += 1;
        }
        self.queue.push_back(entry);
        Admission::Queued
    }

    /// A worker finished a request of `class` at `now_s`: frees its slot and returns the
    /// queued request it takes next, if any. Requests that outlived the age cap are moved
    /// to `expired` (answer them 503) and skipped.
    pub fn finish(&mut self, class: RequestClass, now_s: f64, expired: &mut Vec<Entry<T>>) -> Option<Entry<T>> {
        self.busy = self.busy.saturating_sub(1);
        if class.calls_x {
            self.x_busy = self.x_busy.saturating_sub(1);
        }
        self.next(now_s, expired)
    }

    /// Hands queued requests to free workers (after a pool resize, say): the next one, if any.
    pub fn next(&mut self, now_s: f64, expired: &mut Vec<Entry<T>>) -> Option<Entry<T>> {
        if self.busy >= self.workers {
            return None;
        }
        loop {
            let entry = match self.policy.discipline {
                Discipline::Fifo => self.queue.pop_front(),
                Discipline::Lifo => self.queue.pop_back(),
            }?;
            if entry.class.calls_x {
                self.x_queued = self.x_queued.saturating_sub(1);
            }
            let too_old = self
                .policy
                .age_cap_s
                .is_some_and(|cap_s| !entry.class.health_check && now_s - entry.arrived_s > cap_s + 1e-9);
            if too_old {
                expired.push(entry);
                continue;
            }
            self.take_slot(entry.class);
            return Some(entry);
        }
    }

    /// Empties the queue (a run's end): what was still waiting, oldest first, handed out in
    /// place. (Collected into a Vec, a million-entry queue was held twice at the end of a run:
    /// 79.6 MB for `run overload --sim` at the flags' longest queue, against 47 MB.)
    pub fn drain(&mut self) -> impl Iterator<Item = Entry<T>> + '_ {
        self.x_queued = 0;
        self.queue.drain(..)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(arrived_s: f64, class: RequestClass) -> Entry<()> {
        Entry {
            arrived_s,
            class,
            payload: (),
        }
    }

    #[test]
    fn age_cap_stops_the_queue_at_cap_times_rate() {
        let policy = ServerPolicy {
            age_cap_s: Some(0.2),
            ..ServerPolicy::default()
        };
        let mut core = ServerCore::new(100, 0.05, policy);
        assert_eq!(core.age_cap_queue_limit(), Some(400));
        for _ in 0..500 {
            let _ = core.arrive(entry(0.0, RequestClass::PLAIN));
        }
        assert_eq!(core.busy(), 100);
        assert_eq!(core.queue_len(), 400);
        assert!(matches!(
            core.arrive(entry(0.0, RequestClass::PLAIN)),
            Admission::Refused {
                reason: RequestRefusal::AgeCap,
                ..
            }
        ));
    }

    #[test]
    fn admission_limit_answers_503_with_retry_after() {
        let policy = ServerPolicy {
            admission_limit: Some(150),
            ..ServerPolicy::default()
        };
        let mut core = ServerCore::new(100, 0.05, policy);
        for _ in 0..150 {
            assert!(!matches!(
                core.arrive(entry(0.0, RequestClass::PLAIN)),
                Admission::Refused { .. }
            ));
        }
        match core.arrive(entry(0.0, RequestClass::PLAIN)) {
            Admission::Refused {
                reason, retry_after_s, ..
            } => {
                assert_eq!(reason, RequestRefusal::Admission);
                assert_eq!(retry_after_s, 1.0);
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn criticality_sheds_the_least_important_first() {
        let policy = ServerPolicy {
            admission_limit: Some(104),
            by_criticality: true,
            ..ServerPolicy::default()
        };
        let mut core = ServerCore::new(100, 0.05, policy);
        let class = |criticality| RequestClass {
            criticality,
            ..RequestClass::PLAIN
        };
        for _ in 0..100 {
            let _ = core.arrive(entry(0.0, class(RequestCriticality::CriticalPlus)));
        }
        // Room 4: SHEDDABLE may fill 1, SHEDDABLE_PLUS 2, CRITICAL 3, CRITICAL_PLUS 4.
        assert!(matches!(
            core.arrive(entry(0.0, class(RequestCriticality::Sheddable))),
            Admission::Queued
        ));
        assert!(matches!(
            core.arrive(entry(0.0, class(RequestCriticality::Sheddable))),
            Admission::Refused { .. }
        ));
        assert!(matches!(
            core.arrive(entry(0.0, class(RequestCriticality::SheddablePlus))),
            Admission::Queued
        ));
        assert!(matches!(
            core.arrive(entry(0.0, class(RequestCriticality::SheddablePlus))),
            Admission::Refused { .. }
        ));
        assert!(matches!(
            core.arrive(entry(0.0, class(RequestCriticality::Critical))),
            Admission::Queued
        ));
        assert!(matches!(
            core.arrive(entry(0.0, class(RequestCriticality::Critical))),
            Admission::Refused { .. }
        ));
        assert!(matches!(
            core.arrive(entry(0.0, class(RequestCriticality::CriticalPlus))),
            Admission::Queued
        ));
        let health = RequestClass {
            health_check: true,
            ..RequestClass::PLAIN
        };
        assert!(
            matches!(core.arrive(entry(0.0, health)), Admission::Queued),
            "pings are never shed"
        );
        let mut expired = Vec::new();
        let next = core
            .finish(RequestClass::PLAIN, 0.05, &mut expired)
            .expect("queued work");
        assert!(next.class.health_check, "the ping is answered first");
    }

    #[test]
    fn lifo_serves_the_newest_and_the_age_cap_drops_the_stale() {
        let policy = ServerPolicy {
            discipline: Discipline::Lifo,
            age_cap_s: Some(1.0),
            ..ServerPolicy::default()
        };
        let mut core = ServerCore::new(1, 0.05, policy);
        let _ = core.arrive(entry(0.0, RequestClass::PLAIN));
        let _ = core.arrive(entry(0.01, RequestClass::PLAIN));
        let _ = core.arrive(entry(0.02, RequestClass::PLAIN));
        let mut expired = Vec::new();
        let next = core.finish(RequestClass::PLAIN, 0.05, &mut expired).expect("queued");
        assert_eq!(next.arrived_s, 0.02);
        assert!(core.finish(RequestClass::PLAIN, 2.0, &mut expired).is_none());
        assert_eq!(expired.len(), 1, "the one left waited 1.99 s, past the 1 s cap");
    }

    #[test]
    fn bulkhead_refuses_x_calls_beyond_its_pool() {
        let policy = ServerPolicy {
            x_pool: Some(40),
            ..ServerPolicy::default()
        };
        let mut core = ServerCore::new(200, 0.05, policy);
        let x = RequestClass {
            calls_x: true,
            ..RequestClass::PLAIN
        };
        for _ in 0..40 {
            assert!(matches!(core.arrive(entry(0.0, x)), Admission::Start(_)));
        }
        assert!(matches!(
            core.arrive(entry(0.0, x)),
            Admission::Refused {
                reason: RequestRefusal::Bulkhead,
                ..
            }
        ));
        assert_eq!(core.workers() - core.x_busy(), 160, "threads free for the rest");
    }
}
