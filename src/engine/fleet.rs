//! Lab 1 at fleet scale: replicas, a restarter and a Service, on a virtual clock.
//!
//! Each replica is the health server of [`crate::engine::health`] (its [`HealthModel`]
//! answers `/livez` and `/readyz` and drains on SIGTERM); around it this module adds what a
//! platform does: startup, readiness and liveness probes with a period, a timeout and a
//! failure threshold ([`ProbeState`]), restarts with an exponential back-off
//! ([`BackoffSpec`]), a shared database that is up, slow or down on a schedule, a Service
//! that spreads a steady load over the ready endpoints ([`pick_endpoint`]) and refuses the
//! connection when none is ready, and a rolling restart. [`simulate`] runs it all and says
//! what each replica went through and what the clients got.
//!
//! Who is in the Service's endpoints while a replica stops, as Kubernetes does it: a pod
//! being deleted (a rolling restart's [`StopReason::Rolling`]) leaves the ready endpoints
//! the moment its termination begins, whatever its readiness says (the EndpointSlice marks a
//! terminating endpoint not ready; KEP-1672), and `kubectl` shows it `Terminating`
//! ([`ReplicaState::Terminating`]). A container the kubelet kills for a failed liveness or
//! startup probe is not a terminating pod: the pod stays, its readiness probe keeps running
//! through preStop and the drain (kubernetes/kubernetes#124791 tests exactly that; #131690
//! asks, still open, for a failed liveness to make it unready), so it stays a ready endpoint
//! and serves until its readiness fails or its process exits. Its rows are
//! [`ReplicaState::Stopping`], with READY as its readiness: a fleet whose liveness checks a
//! dead database is killed at 50-52 s, answers from the fallback until it exits at 61-63 s,
//! and only then is the Service empty.
//!
//! The clock is whole milliseconds, so that hand-worked times (a kill at 50 s, a restart at
//! 61 s) come out exactly; parameters and results are in seconds. The live fleet drives
//! the same [`ProbeState`], [`BackoffSpec`] and [`pick_endpoint`] with real processes.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use crate::engine::health::{HealthConfig, HealthModel};

/// The most replicas a fleet may have.
pub const MAX_REPLICAS: u32 = 10;
/// How long a request takes to fail when the database call fails at once (a fast failure).
pub const FAST_FAIL_MS: u64 = 1;

/// One probe: how often, how long to wait for an answer, how many failures in a row count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ProbeSpec {
    pub period_s: f64,
    /// An answer later than this is a failure (Kubernetes' `timeoutSeconds`, default 1 s).
    pub timeout_s: f64,
    pub failure_threshold: u32,
}

/// The restart back-off: no wait for the first restart, then `initial_s`, multiplied by
/// `factor` at each restart, never more than `cap_s`; forgotten once a container has run
/// `reset_after_s` (the kubelet's 10 s, x2, 5 min, 10 min).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BackoffSpec {
    pub initial_s: f64,
    pub factor: f64,
    pub cap_s: f64,
    pub reset_after_s: f64,
}

impl Default for BackoffSpec {
    fn default() -> Self {
        Self {
            initial_s: 10.0,
            factor: 2.0,
            cap_s: 300.0,
            reset_after_s: 600.0,
        }
    }
}

impl BackoffSpec {
    /// The wait before restart number `streak` of a crash loop (0 is the first restart).
    pub fn delay_s(&self, streak: u32) -> f64 {
        if streak == 0 {
            return 0.0;
        }
        let exponent = i32::try_from(streak - 1).unwrap_or(i32::MAX);
        (self.initial_s * self.factor.powi(exponent)).min(self.cap_s)
    }

    /// The streak to use for a container that ran `ran_s` before it was killed: a long
    /// enough run forgets the crash loop.
    pub fn streak_after(&self, streak: u32, ran_s: f64) -> u32 {
        if ran_s >= self.reset_after_s { 0 } else { streak }
    }
}

/// The shared database at some moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Database {
    Up,
    /// Every query answers, after `latency_ms`.
    Slow {
        latency_ms: u64,
    },
    /// Every query fails at once.
    Down,
}

impl Database {
    pub fn word(self) -> &'static str {
        match self {
            Database::Up => "up",
            Database::Slow { .. } => "slow",
            Database::Down => "down",
        }
    }
}

/// The database is `state` from `start_s` until `end_s` (up outside every window).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DbWindow {
    pub start_s: f64,
    pub end_s: f64,
    pub state: Database,
}

/// How the Service chooses among the ready endpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Balancing {
    RoundRobin,
    /// The endpoint with the fewest requests in flight (ties in round-robin order).
    LeastRequests,
}

/// What a replica answers when its database call fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnDbDown {
    /// A fallback answer (cached, partial): the client gets a degraded 200.
    Degrade,
    /// An error at once.
    Fail,
}

/// The five named scenarios of the fleet lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FleetScenario {
    LivenessChecksDb,
    ReadinessChecksDb,
    ProcessLocal,
    RollingRestart,
    BlackHole,
}

impl FleetScenario {
    pub const ALL: [FleetScenario; 5] = [
        FleetScenario::LivenessChecksDb,
        FleetScenario::ReadinessChecksDb,
        FleetScenario::ProcessLocal,
        FleetScenario::RollingRestart,
        FleetScenario::BlackHole,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FleetScenario::LivenessChecksDb => "liveness-checks-db",
            FleetScenario::ReadinessChecksDb => "readiness-checks-db",
            FleetScenario::ProcessLocal => "process-local",
            FleetScenario::RollingRestart => "rolling-restart",
            FleetScenario::BlackHole => "black-hole",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Everything a fleet run depends on. [`FleetParams::scenario`] gives each named scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FleetParams {
    pub scenario: FleetScenario,
    pub replicas: u32,
    pub duration_s: f64,
    /// Replica i starts at i x `stagger_s`, so their probes do not tick in step.
    pub stagger_s: f64,
    /// Probes `/livez` until it first passes; liveness and readiness wait for it.
    pub startup: ProbeSpec,
    pub readiness: ProbeSpec,
    pub liveness: ProbeSpec,
    pub backoff: BackoffSpec,
    /// Each replica's server: warm-up, its own deregistration delay and drain limit, the
    /// time one request takes (`work_s`), and whether `/livez` or `/readyz` check the database.
    pub server: HealthConfig,
    /// The preStop sleep: the container keeps serving this long before SIGTERM.
    pub pre_stop_s: f64,
    /// `terminationGracePeriodSeconds`: from the start of termination to SIGKILL.
    pub grace_s: f64,
    /// How long the Service keeps routing by an old endpoint list after it changes.
    pub routing_delay_s: f64,
    pub database: Vec<DbWindow>,
    pub on_db_down: OnDbDown,
    /// Client requests per second, evenly spaced, from `load_start_s` to the end.
    pub load_per_s: f64,
    pub load_start_s: f64,
    pub balancing: Balancing,
    /// With no ready endpoint, send to every replica anyway (some load balancers do).
    pub fail_open: bool,
    /// When the rolling restart begins (replicas replaced one at a time), if at all.
    pub roll_at_s: Option<f64>,
    /// The first `black_holes` replicas have a broken database connection: they fail fast.
    pub black_holes: u32,
    /// Live runs only: real seconds per model second (0.1 runs 10 minutes in 1).
    pub time_scale: f64,
}

impl FleetParams {
    /// The Atlas's Deployment (Artefact 4) with 3 replicas and a steady 10 requests/s.
    pub fn atlas() -> Self {
        Self {
            scenario: FleetScenario::ProcessLocal,
            replicas: 3,
            duration_s: 600.0,
            stagger_s: 1.0,
            startup: ProbeSpec {
                period_s: 5.0,
                timeout_s: 1.0,
                failure_threshold: 12,
            },
            readiness: ProbeSpec {
                period_s: 5.0,
                timeout_s: 1.0,
                failure_threshold: 2,
            },
            liveness: ProbeSpec {
                period_s: 10.0,
                timeout_s: 1.0,
                failure_threshold: 3,
            },
            backoff: BackoffSpec::default(),
            server: HealthConfig {
                warmup_s: 2.0,
                deregister_s: 1.0,
                grace_s: 15.0,
                work_s: 0.1,
                liveness_checks_db: false,
                readiness_checks_db: false,
            },
            pre_stop_s: 10.0,
            grace_s: 30.0,
            routing_delay_s: 1.0,
            database: vec![DbWindow {
                start_s: 30.0,
                end_s: 90.0,
                state: Database::Down,
            }],
            on_db_down: OnDbDown::Degrade,
            load_per_s: 10.0,
            load_start_s: 10.0,
            balancing: Balancing::RoundRobin,
            fail_open: false,
            roll_at_s: None,
            black_holes: 0,
            time_scale: 0.1,
        }
    }

    /// A named scenario's settings: the Atlas's Deployment plus the scenario's design.
    pub fn scenario(scenario: FleetScenario) -> Self {
        let mut params = Self::atlas();
        params.scenario = scenario;
        match scenario {
            FleetScenario::LivenessChecksDb => {
                // A five-minute outage: long enough for the back-off to grow.
                params.server.liveness_checks_db = true;
                params.database[0].end_s = 330.0;
            }
            FleetScenario::ReadinessChecksDb => params.server.readiness_checks_db = true,
            FleetScenario::ProcessLocal => {}
            FleetScenario::RollingRestart => {
                // An app without its own deregistration delay: only preStop covers routing.
                params.database.clear();
                params.duration_s = 90.0;
                params.server.deregister_s = 0.0;
                params.pre_stop_s = 0.0;
                params.routing_delay_s = 2.0;
                params.roll_at_s = Some(30.0);
            }
            FleetScenario::BlackHole => {
                params.database.clear();
                params.duration_s = 60.0;
                params.on_db_down = OnDbDown::Fail;
                params.balancing = Balancing::LeastRequests;
                params.black_holes = 1;
                params.load_per_s = 30.0;
                // 250 ms, not 200: at 200 a healthy request ends exactly on the 6th arrival
                // after it, a tie any real overhead (proxy, query) breaks the other way
                // (live took 1,156-1,164 failures against the model's 1,000). Between 200
                // and 300 ms every request length gives the same count, so live and sim agree.
                params.server.work_s = 0.25;
            }
        }
        params
    }

    /// The database at `t_s` as replica `replica` sees it (a black hole sees it down).
    pub fn database_at(&self, replica: usize, t_s: f64) -> Database {
        if (replica as u64) < u64::from(self.black_holes) {
            return Database::Down;
        }
        self.database
            .iter()
            .rev()
            .find(|w| w.start_s <= t_s && t_s < w.end_s)
            .map_or(Database::Up, |w| w.state)
    }
}

/// Which of the three probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeKind {
    Startup,
    Liveness,
    Readiness,
}

impl ProbeKind {
    pub const ALL: [ProbeKind; 3] = [ProbeKind::Startup, ProbeKind::Liveness, ProbeKind::Readiness];

    /// The path the probe GETs (the Atlas's startup probe uses `/livez` too).
    pub fn path(self) -> &'static str {
        match self {
            ProbeKind::Startup | ProbeKind::Liveness => "/livez",
            ProbeKind::Readiness => "/readyz",
        }
    }

    pub fn spec(self, params: &FleetParams) -> ProbeSpec {
        match self {
            ProbeKind::Startup => params.startup,
            ProbeKind::Liveness => params.liveness,
            ProbeKind::Readiness => params.readiness,
        }
    }
}

/// Why a container is being stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The startup probe failed `failure_threshold` times: restart.
    Startup,
    /// The liveness probe failed `failure_threshold` times in a row: restart.
    Liveness,
    /// The pod is replaced (a rolling restart): it leaves the endpoints at once.
    Rolling,
}

/// What a probe result makes the platform do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeAction {
    Nothing,
    /// Readiness passed: into the Service's endpoints.
    BecameReady,
    /// Readiness failed `failure_threshold` times in a row: out of the endpoints.
    BecameUnready,
    Kill(StopReason),
}

/// The kubelet's view of one container's probes: counts of failures in a row, whether
/// startup has passed, whether the container is ready. Success threshold is 1 for all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProbeState {
    pub startup_done: bool,
    pub ready: bool,
    startup_failures: u32,
    liveness_failures: u32,
    readiness_failures: u32,
}

impl ProbeState {
    /// Whether a probe of `kind` runs now: startup until it passes, then the other two.
    pub fn runs(&self, kind: ProbeKind) -> bool {
        match kind {
            ProbeKind::Startup => !self.startup_done,
            ProbeKind::Liveness | ProbeKind::Readiness => self.startup_done,
        }
    }

    /// Records one result and says what follows from it.
    pub fn record(&mut self, kind: ProbeKind, passed: bool, threshold: u32) -> ProbeAction {
        let threshold = threshold.max(1);
        match (kind, passed) {
            (ProbeKind::Startup, true) => {
                self.startup_done = true;
                ProbeAction::Nothing
            }
            (ProbeKind::Startup, false) => {
                self.startup_failures += 1;
                if self.startup_failures >= threshold {
                    ProbeAction::Kill(StopReason::Startup)
                } else {
                    ProbeAction::Nothing
                }
            }
            (ProbeKind::Liveness, true) => {
                self.liveness_failures = 0;
                ProbeAction::Nothing
            }
            (ProbeKind::Liveness, false) => {
                self.liveness_failures += 1;
                if self.liveness_failures >= threshold {
                    ProbeAction::Kill(StopReason::Liveness)
                } else {
                    ProbeAction::Nothing
                }
            }
            (ProbeKind::Readiness, true) => {
                self.readiness_failures = 0;
                if self.ready {
                    ProbeAction::Nothing
                } else {
                    self.ready = true;
                    ProbeAction::BecameReady
                }
            }
            (ProbeKind::Readiness, false) => {
                self.readiness_failures += 1;
                if self.ready && self.readiness_failures >= threshold {
                    self.ready = false;
                    ProbeAction::BecameUnready
                } else {
                    ProbeAction::Nothing
                }
            }
        }
    }
}

/// Whether a probe of `path` passes, given what the server would answer and the database.
///
/// A handler that checks the database waits for it: a slow database answering after the
/// probe's timeout fails the probe though it is up. `listening` false means refused.
pub fn probe_passes(
    model: &mut HealthModel,
    path: &str,
    now_s: f64,
    listening: bool,
    database: Database,
    timeout_s: f64,
) -> bool {
    if !listening {
        return false;
    }
    let checks_db = match path {
        "/livez" => model.config.liveness_checks_db,
        "/readyz" => model.config.readiness_checks_db,
        _ => false,
    };
    if checks_db {
        match database {
            Database::Up => model.set_database_up(true),
            Database::Down => model.set_database_up(false),
            Database::Slow { latency_ms } => {
                if latency_ms as f64 >= timeout_s * 1e3 {
                    return false;
                }
                model.set_database_up(true);
            }
        }
    }
    model.respond(path, now_s).code == 200
}

/// The endpoint the Service sends the next request to: `candidates` are replica indices in
/// order, `in_flight(r)` the requests replica r is serving, `turn` the round-robin counter
/// (advanced by one per request). None when there is no candidate.
pub fn pick_endpoint(
    candidates: &[usize],
    balancing: Balancing,
    turn: &mut u64,
    in_flight: impl Fn(usize) -> usize,
) -> Option<usize> {
    if candidates.is_empty() {
        return None;
    }
    let len = candidates.len();
    let start = (*turn % len as u64) as usize;
    *turn += 1;
    match balancing {
        Balancing::RoundRobin => Some(candidates[start]),
        Balancing::LeastRequests => (0..len)
            .map(|offset| candidates[(start + offset) % len])
            .min_by_key(|&r| in_flight(r)),
    }
}

/// A replica's state, as a row of `kubectl get pods -w` would show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplicaState {
    /// Running, not yet ready (startup probe or first readiness pass pending).
    Starting,
    Ready,
    /// Running and started, but readiness is failing: out of the endpoints.
    Unready,
    /// The pod is being deleted (a rolling restart): preStop, SIGTERM, drain; out of the
    /// ready endpoints from the start.
    Terminating,
    /// The kubelet is stopping the container to restart it (liveness or startup failed):
    /// preStop, SIGTERM, drain. The pod is not deleted, so it stays a ready endpoint while
    /// its readiness passes ([`StateChange::ready`]).
    Stopping,
    /// Exited, waiting out the restart back-off (CrashLoopBackOff).
    BackOff,
}

impl ReplicaState {
    pub const ALL: [ReplicaState; 6] = [
        ReplicaState::Starting,
        ReplicaState::Ready,
        ReplicaState::Unready,
        ReplicaState::Stopping,
        ReplicaState::Terminating,
        ReplicaState::BackOff,
    ];

    pub fn word(self) -> &'static str {
        match self {
            ReplicaState::Starting => "starting",
            ReplicaState::Ready => "ready",
            ReplicaState::Unready => "unready",
            ReplicaState::Terminating => "terminating",
            ReplicaState::Stopping => "stopping",
            ReplicaState::BackOff => "back-off",
        }
    }

    /// kubectl's STATUS column. A container being killed still shows `Running` in kubectl;
    /// the listing puts the kubelet's `Killing` event there, so the kill has a row.
    pub fn status_column(self) -> &'static str {
        match self {
            ReplicaState::Starting | ReplicaState::Ready | ReplicaState::Unready => "Running",
            ReplicaState::Terminating => "Terminating",
            ReplicaState::Stopping => "Killing",
            ReplicaState::BackOff => "CrashLoopBackOff",
        }
    }
}

/// A replica entered `state` at `t_s`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StateChange {
    pub t_s: f64,
    pub state: ReplicaState,
    /// Whether it is a ready endpoint of the Service (kubectl's READY 1/1): always when
    /// `Ready`, while its readiness passes when `Stopping`, never otherwise.
    pub ready: bool,
    /// Restarts so far, as kubectl's RESTARTS column shows on this row.
    pub restarts: u32,
}

impl StateChange {
    /// kubectl's READY column.
    pub fn ready_column(&self) -> &'static str {
        if self.ready { "1/1" } else { "0/1" }
    }
}

/// What one replica went through.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplicaRun {
    pub name: String,
    pub restarts: u32,
    /// When each restarted container started.
    pub restart_times_s: Vec<f64>,
    /// When each stop began, and why.
    pub stops: Vec<(f64, StopReason)>,
    pub timeline: Vec<StateChange>,
}

impl ReplicaRun {
    /// Replica `index` before anything happened to it: the sim, the live recorder and the
    /// app's empty record all start from this.
    pub fn fresh(index: usize) -> Self {
        ReplicaRun {
            name: replica_name(index),
            restarts: 0,
            restart_times_s: Vec::new(),
            stops: Vec::new(),
            timeline: Vec::new(),
        }
    }
}

/// What the clients got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RequestTotals {
    pub ok: u64,
    /// Served by a fallback while the database was down.
    pub degraded: u64,
    /// An error, a dead endpoint, or cut off by a kill.
    pub failed: u64,
    /// The Service had no ready endpoint: connection refused.
    pub refused: u64,
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestOutcome {
    Ok,
    Degraded,
    Failed,
    Refused,
}

impl RequestTotals {
    pub fn total(&self) -> u64 {
        self.ok + self.degraded + self.failed + self.refused
    }

    pub fn add(&mut self, outcome: RequestOutcome, count: i64) {
        let slot = match outcome {
            RequestOutcome::Ok => &mut self.ok,
            RequestOutcome::Degraded => &mut self.degraded,
            RequestOutcome::Failed => &mut self.failed,
            RequestOutcome::Refused => &mut self.refused,
        };
        *slot = slot.saturating_add_signed(count);
    }
}

/// A process of a live run that exited when nothing had asked it to (`kill -9`, a crash):
/// the simulation has no such event, so a run with one is no longer its like.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProcessExit {
    /// Model seconds from the start.
    pub t_s: f64,
    /// `fleet-N` for a replica, `database` for the shared database.
    pub process: String,
    /// As a shell shows it: 128 + N for a death by signal N.
    pub exit_code: i32,
}

/// A fleet run: per replica, per second, and in total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FleetRun {
    pub params: FleetParams,
    pub replicas: Vec<ReplicaRun>,
    pub requests: RequestTotals,
    /// Requests by the second they were sent in.
    pub per_second: Vec<RequestTotals>,
    /// Seconds with no ready endpoint, counted from when the fleet was first ready.
    pub no_ready_endpoint_s: f64,
    /// Those seconds as windows (start, end); the last may end at the end of the run.
    pub no_endpoint_windows: Vec<(f64, f64)>,
    /// Ready endpoints over time: (t_s, count) at each change.
    pub endpoints: Vec<(f64, u32)>,
    /// The database over time: (t_s, state) at each change.
    pub database: Vec<(f64, Database)>,
    /// Live runs only: processes that died on their own, in order (left out of the JSON
    /// when none did, so a whole run reads as before).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<ProcessExit>,
}

impl FleetRun {
    pub fn total_restarts(&self) -> u32 {
        self.replicas.iter().map(|r| r.restarts).sum()
    }

    /// The first restart of any replica.
    pub fn first_restart_s(&self) -> Option<f64> {
        self.replicas
            .iter()
            .filter_map(|r| r.restart_times_s.first().copied())
            .min_by(f64::total_cmp)
    }
}

/// The name of replica `index`, as its row shows it.
pub fn replica_name(index: usize) -> String {
    format!("fleet-{index}")
}

/// The database's state changes over a run of `duration_s`, starting up at 0.
pub fn database_timeline(params: &FleetParams) -> Vec<(f64, Database)> {
    let mut times: Vec<f64> = vec![0.0];
    for w in &params.database {
        times.extend([w.start_s, w.end_s]);
    }
    times.retain(|&t| t <= params.duration_s);
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut changes: Vec<(f64, Database)> = Vec::new();
    for t in times {
        // Replica index past the black holes: the database itself.
        let state = params.database_at(params.black_holes as usize, t);
        if changes.last().is_none_or(|&(_, last)| last != state) {
            changes.push((t, state));
        }
    }
    changes
}

fn ms(seconds: f64) -> u64 {
    (seconds.max(0.0) * 1e3).round() as u64
}

fn secs(ms: u64) -> f64 {
    ms as f64 / 1e3
}

/// What happens next on the virtual clock. At equal times: starts, then the stopping
/// steps, then probes (startup, liveness, readiness), then the roll, then requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FleetEvent {
    Start {
        replica: usize,
        restart: bool,
    },
    SigTerm {
        replica: usize,
        generation: u32,
    },
    Close {
        replica: usize,
        generation: u32,
    },
    Exit {
        replica: usize,
        generation: u32,
    },
    Probe {
        replica: usize,
        generation: u32,
        kind: ProbeKind,
    },
    Roll,
    Request {
        index: u64,
    },
}

impl FleetEvent {
    fn class(self) -> u8 {
        match self {
            FleetEvent::Start { .. } => 0,
            FleetEvent::SigTerm { .. } | FleetEvent::Close { .. } | FleetEvent::Exit { .. } => 1,
            FleetEvent::Probe { kind, .. } => 2 + kind as u8,
            FleetEvent::Roll => 5,
            FleetEvent::Request { .. } => 6,
        }
    }
}

/// One stop under way.
#[derive(Clone, Copy, Debug)]
struct Stopping {
    reason: StopReason,
    /// SIGKILL: the start of the stop plus the grace period.
    kill_at_ms: u64,
}

/// One replica's moving parts during a run.
struct Replica {
    generation: u32,
    /// A process exists (running or stopping).
    alive: bool,
    container_start_ms: u64,
    model: HealthModel,
    probes: ProbeState,
    stopping: Option<Stopping>,
    backing_off: bool,
    streak: u32,
    /// Requests being served: when each finishes and how it will end.
    in_flight: Vec<(u64, RequestOutcome)>,
    /// The pod in this slot: a rolling restart replaces it (a new address), a restart does not.
    pod: u32,
    /// Whether this container has been ready: then not ready is "unready", not "starting".
    ready_once: bool,
    /// Readiness changes (t_ms, the ready pod or None), for the Service's delayed view.
    readiness: Vec<(u64, Option<u32>)>,
    run: ReplicaRun,
}

impl Replica {
    fn state(&self) -> ReplicaState {
        if self.backing_off {
            ReplicaState::BackOff
        } else if let Some(stopping) = self.stopping {
            if stopping.reason == StopReason::Rolling {
                ReplicaState::Terminating
            } else {
                ReplicaState::Stopping
            }
        } else if self.probes.ready {
            ReplicaState::Ready
        } else if self.ready_once {
            ReplicaState::Unready
        } else {
            ReplicaState::Starting
        }
    }

    fn listening(&self, now_ms: u64) -> bool {
        self.alive && self.model.listening(secs(now_ms - self.container_start_ms))
    }

    /// The pod that was ready at `t_ms`, if one was.
    fn ready_at(&self, t_ms: u64) -> Option<u32> {
        let index = self.readiness.partition_point(|&(t, _)| t <= t_ms);
        index.checked_sub(1).and_then(|i| self.readiness[i].1)
    }

    fn prune(&mut self, now_ms: u64) {
        self.in_flight.retain(|&(finish, _)| finish > now_ms);
    }
}

/// The whole run's state.
struct Sim<'a> {
    params: &'a FleetParams,
    end_ms: u64,
    queue: BinaryHeap<Reverse<(u64, u8, u64, FleetEvent)>>,
    sequence: u64,
    replicas: Vec<Replica>,
    turn: u64,
    requests: RequestTotals,
    per_second: Vec<RequestTotals>,
    ready_count: u32,
    endpoints: Vec<(f64, u32)>,
    ever_ready: bool,
    no_endpoint_since_ms: Option<u64>,
    windows: Vec<(f64, f64)>,
    /// The next replica a rolling restart replaces, while one is under way.
    rolling: Option<usize>,
}

impl Sim<'_> {
    fn push(&mut self, t_ms: u64, event: FleetEvent) {
        if t_ms <= self.end_ms {
            self.sequence += 1;
            self.queue.push(Reverse((t_ms, event.class(), self.sequence, event)));
        }
    }

    fn note_state(&mut self, replica: usize, now_ms: u64) {
        let r = &mut self.replicas[replica];
        let state = r.state();
        let ready = r.probes.ready && matches!(state, ReplicaState::Ready | ReplicaState::Stopping);
        if r.run
            .timeline
            .last()
            .is_none_or(|c| c.state != state || c.ready != ready)
        {
            r.run.timeline.push(StateChange {
                t_s: secs(now_ms),
                state,
                ready,
                restarts: r.run.restarts,
            });
        }
    }

    fn set_ready(&mut self, replica: usize, ready: bool, now_ms: u64) {
        let r = &mut self.replicas[replica];
        r.probes.ready = ready;
        r.ready_once |= ready;
        let entry = ready.then_some(r.pod);
        if r.readiness.last().map_or(entry.is_none(), |&(_, was)| was == entry) {
            return;
        }
        r.readiness.push((now_ms, entry));
        if ready {
            self.ready_count += 1;
        } else {
            self.ready_count -= 1;
        }
        self.endpoints.push((secs(now_ms), self.ready_count));
        match (self.ready_count, self.no_endpoint_since_ms) {
            (0, None) if self.ever_ready => self.no_endpoint_since_ms = Some(now_ms),
            (n, Some(since)) if n > 0 => {
                self.windows.push((secs(since), secs(now_ms)));
                self.no_endpoint_since_ms = None;
            }
            _ => {}
        }
        self.ever_ready |= ready;
    }

    fn start(&mut self, replica: usize, restart: bool, now_ms: u64) {
        let params = self.params;
        let r = &mut self.replicas[replica];
        r.generation += 1;
        r.alive = true;
        r.container_start_ms = now_ms;
        r.model = HealthModel::new(params.server.clone());
        r.probes = ProbeState::default();
        r.stopping = None;
        r.backing_off = false;
        r.ready_once = false;
        if restart {
            r.run.restarts += 1;
            r.run.restart_times_s.push(secs(now_ms));
        }
        let generation = r.generation;
        for kind in ProbeKind::ALL {
            let period_ms = ms(kind.spec(params).period_s).max(1);
            self.push(
                now_ms + period_ms,
                FleetEvent::Probe {
                    replica,
                    generation,
                    kind,
                },
            );
        }
        self.note_state(replica, now_ms);
    }

    fn stop(&mut self, replica: usize, reason: StopReason, now_ms: u64) {
        let params = self.params;
        let r = &mut self.replicas[replica];
        if r.stopping.is_some() || !r.alive {
            return;
        }
        r.stopping = Some(Stopping {
            reason,
            kill_at_ms: now_ms + ms(params.grace_s),
        });
        r.run.stops.push((secs(now_ms), reason));
        let generation = r.generation;
        // A pod being replaced leaves the endpoints as its termination begins; a container
        // the kubelet restarts stays until its readiness fails or it exits.
        if reason == StopReason::Rolling {
            self.set_ready(replica, false, now_ms);
        }
        let sigterm_ms = now_ms + ms(params.pre_stop_s.min(params.grace_s));
        self.push(sigterm_ms, FleetEvent::SigTerm { replica, generation });
        self.note_state(replica, now_ms);
    }

    fn sigterm(&mut self, replica: usize, now_ms: u64) {
        let r = &mut self.replicas[replica];
        r.model.begin_drain(secs(now_ms - r.container_start_ms));
        let close_rel = r.model.stop_listening_at_s().unwrap_or_default();
        let kill_at = r.stopping.map_or(now_ms, |s| s.kill_at_ms);
        let close_ms = (r.container_start_ms + ms(close_rel)).clamp(now_ms, kill_at.max(now_ms));
        let generation = r.generation;
        self.push(close_ms, FleetEvent::Close { replica, generation });
    }

    fn close(&mut self, replica: usize, now_ms: u64) {
        let r = &mut self.replicas[replica];
        let last_finish = r.in_flight.iter().map(|&(f, _)| f).max().unwrap_or(now_ms);
        let app_deadline = r.container_start_ms + ms(r.model.exit_deadline_s().unwrap_or_default());
        let kill_at = r.stopping.map_or(now_ms, |s| s.kill_at_ms);
        let exit_ms = last_finish
            .max(now_ms)
            .min(app_deadline.max(now_ms))
            .min(kill_at.max(now_ms));
        let generation = r.generation;
        self.push(exit_ms, FleetEvent::Exit { replica, generation });
    }

    fn exit(&mut self, replica: usize, now_ms: u64) {
        let params = self.params;
        let r = &mut self.replicas[replica];
        // Work still running when the process goes is lost.
        for &(finish, outcome) in &r.in_flight {
            if finish > now_ms {
                self.requests.add(outcome, -1);
                self.requests.add(RequestOutcome::Failed, 1);
            }
        }
        r.in_flight.clear();
        r.alive = false;
        let reason = r.stopping.map_or(StopReason::Liveness, |s| s.reason);
        let ran_s = secs(now_ms - r.container_start_ms);
        self.set_ready(replica, false, now_ms);
        let r = &mut self.replicas[replica];
        if reason == StopReason::Rolling {
            // The replacement pod: a new address, a fresh back-off.
            r.streak = 0;
            r.pod += 1;
            self.push(
                now_ms,
                FleetEvent::Start {
                    replica,
                    restart: false,
                },
            );
            return;
        }
        r.streak = params.backoff.streak_after(r.streak, ran_s);
        let delay_ms = ms(params.backoff.delay_s(r.streak));
        r.streak += 1;
        if delay_ms > 0 {
            r.stopping = None;
            r.backing_off = true;
            self.note_state(replica, now_ms);
        }
        self.push(now_ms + delay_ms, FleetEvent::Start { replica, restart: true });
    }

    fn probe(&mut self, replica: usize, kind: ProbeKind, now_ms: u64) {
        let params = self.params;
        let spec = kind.spec(params);
        let generation = self.replicas[replica].generation;
        let next = FleetEvent::Probe {
            replica,
            generation,
            kind,
        };
        let r = &mut self.replicas[replica];
        if kind == ProbeKind::Startup && r.probes.startup_done {
            return;
        }
        // The kubelet keeps the probe's ticks; a probe that does not run now still ticks.
        self.push(now_ms + ms(spec.period_s).max(1), next);
        let r = &mut self.replicas[replica];
        // No liveness while stopping; no readiness for a pod being deleted, which the
        // endpoints leave for good whatever its probe says.
        let skip = !r.probes.runs(kind)
            || (kind == ProbeKind::Liveness && r.stopping.is_some())
            || (kind == ProbeKind::Readiness && r.stopping.is_some_and(|s| s.reason == StopReason::Rolling));
        if skip {
            return;
        }
        let listening = r.listening(now_ms);
        let database = params.database_at(replica, secs(now_ms));
        let now_rel = secs(now_ms - r.container_start_ms);
        let passed = probe_passes(&mut r.model, kind.path(), now_rel, listening, database, spec.timeout_s);
        match r.probes.record(kind, passed, spec.failure_threshold) {
            ProbeAction::Nothing => {}
            ProbeAction::BecameReady => {
                // `record` already set the flag; `set_ready` keeps the history and counts.
                self.replicas[replica].probes.ready = false;
                self.set_ready(replica, true, now_ms);
                if self.rolling == Some(replica) && self.replicas[replica].run.stops.last().is_some() {
                    self.rolling = (replica + 1 < self.replicas.len()).then_some(replica + 1);
                    if let Some(next) = self.rolling {
                        self.stop(next, StopReason::Rolling, now_ms);
                    }
                }
            }
            ProbeAction::BecameUnready => {
                self.replicas[replica].probes.ready = true;
                self.set_ready(replica, false, now_ms);
            }
            ProbeAction::Kill(reason) => self.stop(replica, reason, now_ms),
        }
        self.note_state(replica, now_ms);
    }

    fn request(&mut self, index: u64, now_ms: u64) {
        let params = self.params;
        let bucket = (now_ms / 1000) as usize;
        if self.per_second.len() <= bucket {
            self.per_second.resize(bucket + 1, RequestTotals::default());
        }
        let seen_ms = now_ms.checked_sub(ms(params.routing_delay_s));
        // The Service routes by the endpoints as they were `routing_delay_s` ago. Fixed
        // arrays (at most MAX_REPLICAS): this runs once per request, so it allocates nothing.
        let mut seen = [(0usize, 0u32); MAX_REPLICAS as usize];
        let mut count = 0;
        for (index, replica) in self.replicas.iter().enumerate() {
            if let Some(pod) = seen_ms.and_then(|t| replica.ready_at(t)) {
                seen[count] = (index, pod);
                count += 1;
            }
        }
        if count == 0 && params.fail_open {
            for (index, replica) in self.replicas.iter().enumerate() {
                seen[index] = (index, replica.pod);
            }
            count = self.replicas.len();
        }
        let mut candidates = [0usize; MAX_REPLICAS as usize];
        for (slot, &(index, _)) in candidates.iter_mut().zip(&seen[..count]) {
            *slot = index;
            self.replicas[index].prune(now_ms);
        }
        let replicas = &self.replicas;
        let picked = pick_endpoint(&candidates[..count], params.balancing, &mut self.turn, |r| {
            replicas[r].in_flight.len()
        });
        let outcome = match picked {
            None => RequestOutcome::Refused,
            Some(r) => {
                let pod = seen[..count].iter().find(|&&(i, _)| i == r).map_or(0, |&(_, pod)| pod);
                self.serve(r, pod, now_ms)
            }
        };
        self.requests.add(outcome, 1);
        self.per_second[bucket].add(outcome, 1);
        let next_ms = ms(params.load_start_s + (index + 1) as f64 / params.load_per_s);
        if next_ms < self.end_ms {
            self.push(next_ms, FleetEvent::Request { index: index + 1 });
        }
    }

    /// Pod `pod` of slot `replica` gets a request at `now_ms`: how it ends, as far as is
    /// known now. A pod already replaced has no process behind its address.
    fn serve(&mut self, replica: usize, pod: u32, now_ms: u64) -> RequestOutcome {
        let params = self.params;
        let r = &mut self.replicas[replica];
        if r.pod != pod || !r.listening(now_ms) {
            return RequestOutcome::Failed;
        }
        let work_ms = ms(params.server.work_s);
        let (finish_ms, outcome) = match params.database_at(replica, secs(now_ms)) {
            Database::Up => (now_ms + work_ms, RequestOutcome::Ok),
            Database::Slow { latency_ms } => (now_ms + work_ms + latency_ms, RequestOutcome::Ok),
            Database::Down => match params.on_db_down {
                OnDbDown::Degrade => (now_ms + work_ms, RequestOutcome::Degraded),
                OnDbDown::Fail => (now_ms + FAST_FAIL_MS, RequestOutcome::Failed),
            },
        };
        r.in_flight.push((finish_ms, outcome));
        outcome
    }
}

/// Runs the fleet for `params.duration_s` on the virtual clock.
pub fn simulate(params: &FleetParams) -> FleetRun {
    let count = params.replicas.clamp(1, MAX_REPLICAS) as usize;
    let replicas = (0..count)
        .map(|index| Replica {
            generation: 0,
            alive: false,
            container_start_ms: 0,
            model: HealthModel::new(params.server.clone()),
            probes: ProbeState::default(),
            stopping: None,
            backing_off: false,
            streak: 0,
            in_flight: Vec::new(),
            pod: 0,
            ready_once: false,
            readiness: Vec::new(),
            run: ReplicaRun::fresh(index),
        })
        .collect();
    let mut sim = Sim {
        params,
        end_ms: ms(params.duration_s),
        queue: BinaryHeap::new(),
        sequence: 0,
        replicas,
        turn: 0,
        requests: RequestTotals::default(),
        per_second: Vec::new(),
        ready_count: 0,
        endpoints: vec![(0.0, 0)],
        ever_ready: false,
        no_endpoint_since_ms: None,
        windows: Vec::new(),
        rolling: None,
    };
    for replica in 0..count {
        sim.push(
            ms(params.stagger_s * replica as f64),
            FleetEvent::Start {
                replica,
                restart: false,
            },
        );
    }
    if params.load_per_s > 0.0 {
        sim.push(ms(params.load_start_s), FleetEvent::Request { index: 0 });
    }
    if let Some(roll_s) = params.roll_at_s {
        sim.push(ms(roll_s), FleetEvent::Roll);
    }
    while let Some(Reverse((now_ms, _, _, event))) = sim.queue.pop() {
        let current = |sim: &Sim, replica: usize, generation: u32| sim.replicas[replica].generation == generation;
        match event {
            FleetEvent::Start { replica, restart } => sim.start(replica, restart, now_ms),
            FleetEvent::SigTerm { replica, generation } if current(&sim, replica, generation) => {
                sim.sigterm(replica, now_ms)
            }
            FleetEvent::Close { replica, generation } if current(&sim, replica, generation) => {
                sim.close(replica, now_ms)
            }
            FleetEvent::Exit { replica, generation } if current(&sim, replica, generation) => sim.exit(replica, now_ms),
            FleetEvent::Probe {
                replica,
                generation,
                kind,
            } if current(&sim, replica, generation) && sim.replicas[replica].alive => sim.probe(replica, kind, now_ms),
            FleetEvent::Roll => {
                sim.rolling = Some(0);
                sim.stop(0, StopReason::Rolling, now_ms);
            }
            FleetEvent::Request { index } => sim.request(index, now_ms),
            _ => {}
        }
    }
    if let Some(since) = sim.no_endpoint_since_ms {
        sim.windows.push((secs(since), params.duration_s));
    }
    let no_ready_endpoint_s = sim.windows.iter().fold(0.0, |sum, (a, b)| sum + (b - a));
    FleetRun {
        params: params.clone(),
        replicas: sim.replicas.into_iter().map(|r| r.run).collect(),
        requests: sim.requests,
        per_second: sim.per_second,
        no_ready_endpoint_s,
        no_endpoint_windows: sim.windows,
        endpoints: sim.endpoints,
        database: database_timeline(params),
        exits: Vec::new(),
    }
}

/// A live run against the simulation at the same settings, by the yardsticks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FleetComparison {
    pub restarts_sim: u32,
    pub restarts_live: u32,
    pub first_restart_sim_s: Option<f64>,
    pub first_restart_live_s: Option<f64>,
    pub no_endpoint_sim_s: f64,
    pub no_endpoint_live_s: f64,
    pub requests_sim: RequestTotals,
    pub requests_live: RequestTotals,
    /// Restart counts equal; first restart within one liveness period; seconds with no
    /// endpoint within one readiness period; each kind of request within 5% of those sent.
    pub restarts_equal: bool,
    pub first_restart_close: bool,
    pub no_endpoint_close: bool,
    pub requests_close: bool,
}

impl FleetComparison {
    pub fn new(live: &FleetRun, sim: &FleetRun) -> Self {
        let params = &sim.params;
        let first_restart_close = match (live.first_restart_s(), sim.first_restart_s()) {
            (Some(a), Some(b)) => (a - b).abs() <= params.liveness.period_s,
            (None, None) => true,
            _ => false,
        };
        let sent = sim.requests.total().max(live.requests.total()).max(1) as f64;
        let (l, s) = (live.requests, sim.requests);
        let requests_close = [
            (l.ok, s.ok),
            (l.degraded, s.degraded),
            (l.failed, s.failed),
            (l.refused, s.refused),
        ]
        .iter()
        .all(|&(a, b)| (a as f64 - b as f64).abs() <= 0.05 * sent);
        Self {
            restarts_sim: sim.total_restarts(),
            restarts_live: live.total_restarts(),
            first_restart_sim_s: sim.first_restart_s(),
            first_restart_live_s: live.first_restart_s(),
            no_endpoint_sim_s: sim.no_ready_endpoint_s,
            no_endpoint_live_s: live.no_ready_endpoint_s,
            requests_sim: sim.requests,
            requests_live: live.requests,
            restarts_equal: sim.total_restarts() == live.total_restarts(),
            first_restart_close,
            no_endpoint_close: (live.no_ready_endpoint_s - sim.no_ready_endpoint_s).abs() <= params.readiness.period_s,
            requests_close,
        }
    }

    pub fn all_close(&self) -> bool {
        self.restarts_equal && self.first_restart_close && self.no_endpoint_close && self.requests_close
    }
}

#[cfg(test)]
mod tests;
