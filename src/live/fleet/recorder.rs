//! What a live fleet run saw, in model seconds, and the samples it sends as it goes.
//!
//! The restarters, the load and the database schedule all write here; the Service reads
//! the endpoint table. Samples go out with `try_send`: a full queue drops one, never
//! blocks a replica's probes or a request.

use std::net::SocketAddr;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::{mpsc, watch};

use crate::engine::fleet::{
    Database, FleetParams, FleetRun, ProcessExit, ReplicaRun, ReplicaState, RequestOutcome, RequestTotals, StateChange,
    StopReason,
};
use crate::live::fleet::replica::Clock;

/// What a live fleet sends while it runs, then once at the end.
#[derive(Clone, Debug, PartialEq)]
pub enum FleetSample {
    /// Replica `replica`'s row changed: its state, readiness or restarts (model seconds).
    Replica { replica: usize, change: StateChange },
    /// The number of ready endpoints changed.
    Endpoints { t_s: f64, ready: u32 },
    /// The database was switched.
    Database { t_s: f64, state: Database },
    /// One more request ended; `second` is the model second it was sent in.
    Request { second: usize, outcome: RequestOutcome },
    /// The run is over: everything it measured.
    Done(Box<FleetRun>),
    /// The run could not start or go on (the app's runs only; the CLI gets the error).
    Failed(String),
}

/// Where a run's samples go: a channel (tests, the CLI), or the app's event queue through
/// a function that sends if there is room and says whether it did.
pub enum Samples {
    Channel(mpsc::Sender<FleetSample>),
    Queue(Box<dyn Fn(FleetSample) -> bool + Send + Sync>),
}

/// One slot of the Service's endpoint table: the replica's address and whether it is ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// None while no process runs in the slot.
    pub addr: Option<SocketAddr>,
    pub ready: bool,
}

struct Inner {
    replicas: Vec<ReplicaRun>,
    requests: RequestTotals,
    per_second: Vec<RequestTotals>,
    endpoints: Vec<(f64, u32)>,
    ready_count: u32,
    ever_ready: bool,
    no_endpoint_since_s: Option<f64>,
    windows: Vec<(f64, f64)>,
    /// The database's switches as they happened (the schedule's, or a learner's keys).
    database: Vec<(f64, Database)>,
    exits: Vec<ProcessExit>,
}

/// The run's shared record.
pub struct Recorder {
    pub clock: Clock,
    inner: Mutex<Inner>,
    /// The endpoint table as it is now (the Service sees it after the routing delay).
    pub table: watch::Sender<Vec<Endpoint>>,
    samples: Option<Samples>,
}

impl Recorder {
    pub fn new(params: &FleetParams, clock: Clock, samples: Option<Samples>) -> Self {
        let count = params.replicas as usize;
        let replicas = (0..count).map(ReplicaRun::fresh).collect();
        let (table, _) = watch::channel(vec![
            Endpoint {
                addr: None,
                ready: false
            };
            count
        ]);
        Self {
            clock,
            inner: Mutex::new(Inner {
                replicas,
                requests: RequestTotals::default(),
                per_second: Vec::new(),
                endpoints: vec![(0.0, 0)],
                ready_count: 0,
                ever_ready: false,
                no_endpoint_since_s: None,
                windows: Vec::new(),
                database: vec![(0.0, Database::Up)],
                exits: Vec::new(),
            }),
            table,
            samples,
        }
    }

    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn send(&self, sample: FleetSample) {
        match &self.samples {
            Some(Samples::Channel(samples)) => {
                let _ = samples.try_send(sample);
            }
            Some(Samples::Queue(send)) => {
                send(sample);
            }
            None => {}
        }
    }

    /// Replica `replica` entered `state` now (`restarted`: a restarted container began). Its
    /// READY is the endpoint table's: a container being stopped by the kubelet stays ready
    /// while its readiness passes; a terminating pod or a starting one is not.
    pub fn state(&self, replica: usize, state: ReplicaState, restarted: bool) {
        self.state_since(replica, state, restarted, tokio::time::Instant::now());
    }

    /// As [`Recorder::state`], dated `since` (a container's start is when its process was
    /// spawned, not when it printed its first line, as the model counts it).
    pub fn state_since(&self, replica: usize, state: ReplicaState, restarted: bool, since: tokio::time::Instant) {
        let t_s = self.clock.model_s(since);
        let in_table = self.table.borrow()[replica].ready;
        let ready = in_table && matches!(state, ReplicaState::Ready | ReplicaState::Stopping);
        let change = {
            let mut inner = self.inner();
            let run = &mut inner.replicas[replica];
            if restarted {
                run.restarts += 1;
                run.restart_times_s.push(t_s);
            }
            if run
                .timeline
                .last()
                .is_some_and(|c| c.state == state && c.ready == ready)
            {
                return;
            }
            let change = StateChange {
                t_s,
                state,
                ready,
                restarts: run.restarts,
            };
            run.timeline.push(change);
            change
        };
        self.send(FleetSample::Replica { replica, change });
    }

    pub fn stop(&self, replica: usize, reason: StopReason) {
        let t_s = self.clock.now_s();
        self.inner().replicas[replica].stops.push((t_s, reason));
    }

    /// A child process that exited unasked (`fleet-N` or `database`), noticed as it was reaped.
    pub fn exited(&self, process: String, exit_code: i32) {
        let t_s = self.clock.now_s();
        self.inner().exits.push(ProcessExit {
            t_s,
            process,
            exit_code,
        });
    }

    /// The slot's process address and readiness; keeps the no-endpoint windows.
    pub fn endpoint(&self, replica: usize, endpoint: Endpoint) {
        let mut changed_ready = false;
        self.table.send_modify(|table| {
            changed_ready = table[replica].ready != endpoint.ready;
            table[replica] = endpoint;
        });
        if !changed_ready {
            return;
        }
        let t_s = self.clock.now_s();
        let ready = {
            let mut inner = self.inner();
            if endpoint.ready {
                inner.ready_count += 1;
            } else {
                inner.ready_count -= 1;
            }
            let count = inner.ready_count;
            inner.endpoints.push((t_s, count));
            match (count, inner.no_endpoint_since_s) {
                (0, None) if inner.ever_ready => inner.no_endpoint_since_s = Some(t_s),
                (n, Some(since)) if n > 0 => {
                    inner.windows.push((since, t_s));
                    inner.no_endpoint_since_s = None;
                }
                _ => {}
            }
            inner.ever_ready |= endpoint.ready;
            count
        };
        self.send(FleetSample::Endpoints { t_s, ready });
    }

    pub fn request(&self, sent_s: f64, outcome: RequestOutcome) {
        let second = sent_s.max(0.0) as usize;
        {
            let mut inner = self.inner();
            inner.requests.add(outcome, 1);
            if inner.per_second.len() <= second {
                inner.per_second.resize(second + 1, RequestTotals::default());
            }
            inner.per_second[second].add(outcome, 1);
        }
        self.send(FleetSample::Request { second, outcome });
    }

    /// The database was switched to `state` at model second `t_s`.
    pub fn database(&self, t_s: f64, state: Database) {
        {
            let mut inner = self.inner();
            // A switch at the instant of the one before replaces it (a window from 0 s).
            if inner.database.last().is_some_and(|&(at, _)| at >= t_s) {
                inner.database.pop();
            }
            if inner.database.last().is_some_and(|&(_, last)| last == state) {
                return;
            }
            inner.database.push((t_s, state));
        }
        self.send(FleetSample::Database { t_s, state });
    }

    /// The run as the sim reports one.
    pub fn finish(&self, params: &FleetParams) -> FleetRun {
        let mut inner = self.inner();
        if let Some(since) = inner.no_endpoint_since_s.take() {
            let end_s = params.duration_s.max(since);
            inner.windows.push((since, end_s));
        }
        let no_ready_endpoint_s = inner.windows.iter().fold(0.0, |sum, (a, b)| sum + (b - a));
        FleetRun {
            params: params.clone(),
            replicas: inner.replicas.clone(),
            requests: inner.requests,
            per_second: inner.per_second.clone(),
            no_ready_endpoint_s,
            no_endpoint_windows: inner.windows.clone(),
            endpoints: inner.endpoints.clone(),
            database: inner.database.clone(),
            exits: inner.exits.clone(),
        }
    }

    /// The last message of a run; waits for room, as it must not be lost.
    pub async fn done(&self, run: FleetRun) {
        if let Some(Samples::Channel(samples)) = &self.samples {
            let _ = samples.send(FleetSample::Done(Box::new(run))).await;
        }
    }
}
