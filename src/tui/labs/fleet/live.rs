//! Lab 1's fleet view, live: real `serve health` replicas, a `serve database`, the
//! restarter, the Service and the load on 127.0.0.1 (`live::fleet`), at a compressed time
//! scale, with the simulation at the same settings beside them.
//!
//! [`FleetLive`] is plain state the fleet view owns: what the run has measured so far, in
//! the simulation's shape ([`FleetRun`]), so the same view draws both; the simulation at
//! the run's settings; the model second reached. Samples arrive as `LabBody::Fleet` events
//! on the app's queue and are applied by [`FleetLive::apply`] (tests feed recorded samples
//! the same way, no child needed). While a run goes, `d`/`w`/`u` switch the real database
//! at once and the simulation beside is run again with that switch.
//!
//! No child outlives the app: stopping, leaving the view, going home or back to the
//! simulation end the run, whose task stops and reaps every child (`PR_SET_PDEATHSIG` is
//! the backstop for a `kill -9`); the handles [`LivePart::shutdown`] returns are awaited
//! before the terminal is restored. A run ends by itself after its model duration.

use std::path::PathBuf;

use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::content::LabId;
use crate::content::params::fleet::{self as fleet_params, SLOW_DB_LATENCY_MS};
use crate::engine::fleet::{
    self, Database, DbWindow, FleetParams, FleetRun, ReplicaRun, RequestTotals, database_timeline,
};
use crate::live::fleet::{self as live_fleet, FleetControl, FleetSample};
use crate::live::run::{LabBody, LabEvent, LiveRun};
use crate::tui::frame::live::{LiveCtx, LivePart};
use crate::tui::msg::{FleetMsg, Msg};

/// Real seconds per model second in the app: the longest scenario (600 model s) takes one
/// real minute, a classroom's attention span.
pub const APP_TIME_SCALE: f64 = 0.1;
/// How long a status line stays over the run's numbers, in model seconds (4 real seconds).
const STATUS_MODEL_S: f64 = 40.0;

/// The fleet view's live part.
#[derive(Debug, Default)]
pub struct FleetLive {
    run: Option<LiveRun<FleetControl>>,
    next_run: u64,
    /// Runs asked to stop (or ended), still stopping their children, for quitting to await.
    stopping: Vec<JoinHandle<()>>,
    /// The run whose events the view applies: the last one started.
    showing: Option<u64>,
    /// What the run measured so far, as the simulation reports a run; the whole run after `Done`.
    pub record: Option<FleetRun>,
    /// The simulation at the run's settings, with the database as the learner switched it.
    pub sim: Option<FleetRun>,
    /// `Done` (or `Failed`) arrived.
    pub finished: bool,
    /// The model second the run has reached.
    pub now_s: f64,
    started_at: Option<Instant>,
    /// One line for the learner: what just happened, or why a key waits for the next start.
    pub status: Option<String>,
    /// The model second the status was said at.
    status_at_s: f64,
    /// The learner stopped the run at this model second: its record ends there.
    pub stopped_at_s: Option<f64>,
    /// The program whose `serve` subcommands run the children; `None` is this very binary
    /// (tests name the built `resilience-lab`, as theirs is the test harness).
    pub program: Option<PathBuf>,
    /// The learner's database switches (model second, state), for the simulation beside.
    manual: Vec<(f64, Database)>,
    /// When the Service last lost its last ready endpoint, after it first had one.
    no_endpoint_since_s: Option<f64>,
    ever_ready: bool,
    /// Seconds without a ready endpoint in windows already closed.
    closed_no_endpoint_s: f64,
}

/// An empty record of a run at `params`: every replica named, the database up, no endpoint.
fn empty_record(params: &FleetParams) -> FleetRun {
    FleetRun {
        params: params.clone(),
        replicas: (0..params.replicas as usize).map(ReplicaRun::fresh).collect(),
        requests: RequestTotals::default(),
        per_second: Vec::new(),
        no_ready_endpoint_s: 0.0,
        no_endpoint_windows: Vec::new(),
        endpoints: vec![(0.0, 0)],
        database: vec![(0.0, Database::Up)],
        exits: Vec::new(),
    }
}

/// The database windows of `params` with the learner's switches from the first one on.
fn windows_with(params: &FleetParams, manual: &[(f64, Database)]) -> Vec<DbWindow> {
    let first_s = manual.first().map_or(f64::INFINITY, |&(t_s, _)| t_s);
    let mut changes: Vec<(f64, Database)> = database_timeline(params)
        .into_iter()
        .filter(|&(t_s, _)| t_s < first_s)
        .collect();
    changes.extend_from_slice(manual);
    let ends = changes.iter().skip(1).map(|&(t_s, _)| t_s).chain([params.duration_s]);
    changes
        .iter()
        .zip(ends)
        .filter(|((start_s, state), end_s)| *state != Database::Up && end_s > start_s)
        .map(|(&(start_s, state), end_s)| DbWindow { start_s, end_s, state })
        .collect()
}

impl FleetLive {
    /// Shows run `run` at `params` from now on: an empty record, the simulation beside.
    pub fn begin(&mut self, run: u64, params: FleetParams) {
        self.showing = Some(run);
        self.sim = Some(fleet::simulate(&params));
        self.record = Some(empty_record(&params));
        self.finished = false;
        self.now_s = 0.0;
        self.started_at = Some(Instant::now());
        self.manual.clear();
        self.stopped_at_s = None;
        self.status_at_s = 0.0;
        self.no_endpoint_since_s = None;
        self.ever_ready = false;
        self.closed_no_endpoint_s = 0.0;
    }

    fn say(&mut self, text: String) {
        self.status = Some(text);
        self.status_at_s = self.now_s;
    }

    /// The status line while it is fresh (a running run's numbers take over after a while).
    pub fn fresh_status(&self) -> Option<&str> {
        let fresh = self.run.is_none() || self.now_s < self.status_at_s + STATUS_MODEL_S;
        self.status.as_deref().filter(|_| fresh)
    }

    /// Where the record ends: the second reached while running, the stop if stopped early.
    pub fn until_s(&self) -> Option<f64> {
        if self.finished {
            self.stopped_at_s
        } else {
            Some(self.now_s)
        }
    }

    fn stop_run(&mut self) {
        if let Some(run) = self.run.take() {
            self.stopping.push(run.stop());
        }
    }

    /// Applies one sample of the run shown; true if the view changed.
    pub fn apply(&mut self, sample: FleetSample) -> bool {
        let Some(record) = self.record.as_mut() else {
            return false;
        };
        match sample {
            FleetSample::Replica { replica, change } => {
                let Some(row) = record.replicas.get_mut(replica) else {
                    return false;
                };
                if change.restarts > row.restarts {
                    row.restart_times_s.push(change.t_s);
                }
                row.restarts = change.restarts;
                row.timeline.push(change);
                self.now_s = self.now_s.max(change.t_s);
            }
            FleetSample::Endpoints { t_s, ready } => {
                record.endpoints.push((t_s, ready));
                match (ready, self.no_endpoint_since_s) {
                    (0, None) if self.ever_ready => self.no_endpoint_since_s = Some(t_s),
                    (n, Some(since_s)) if n > 0 => {
                        record.no_endpoint_windows.push((since_s, t_s));
                        self.closed_no_endpoint_s += t_s - since_s;
                        self.no_endpoint_since_s = None;
                    }
                    _ => {}
                }
                self.ever_ready |= ready > 0;
                self.now_s = self.now_s.max(t_s);
            }
            FleetSample::Database { t_s, state } => {
                if record.database.last().is_some_and(|&(at, _)| at >= t_s) {
                    record.database.pop();
                }
                record.database.push((t_s, state));
            }
            FleetSample::Request { second, outcome } => {
                record.requests.add(outcome, 1);
                if record.per_second.len() <= second {
                    record.per_second.resize(second + 1, RequestTotals::default());
                }
                record.per_second[second].add(outcome, 1);
                // It was sent in that second, so the run has reached it.
                self.now_s = self.now_s.max(second as f64);
            }
            FleetSample::Done(run) => {
                self.now_s = self.stopped_at_s.unwrap_or(run.params.duration_s);
                *record = *run;
                self.finished = true;
                self.status = None;
                self.stop_run();
                return true;
            }
            FleetSample::Failed(reason) => {
                self.finished = true;
                self.say(format!("the live fleet failed: {reason}"));
                self.stop_run();
                return true;
            }
        }
        self.refresh_no_endpoint();
        true
    }

    /// The open no-endpoint window counts up to the model second reached.
    fn refresh_no_endpoint(&mut self) {
        if let Some(record) = self.record.as_mut().filter(|_| !self.finished) {
            let open_s = self
                .no_endpoint_since_s
                .map_or(0.0, |since_s| (self.now_s - since_s).max(0.0));
            record.no_ready_endpoint_s = self.closed_no_endpoint_s + open_s;
        }
    }

    /// Switches the running fleet's real database now, and runs the simulation beside again
    /// with the same switch.
    fn switch_database(&mut self, state: Database) {
        let Some(run) = &self.run else { return };
        run.retune(FleetControl { database: Some(state) });
        self.manual.push((self.now_s, state));
        if let Some(record) = &self.record {
            let mut params = record.params.clone();
            params.database = windows_with(&params, &self.manual);
            self.sim = Some(fleet::simulate(&params));
        }
        let path = live_fleet::database::admin_path(state);
        self.say(format!(
            "database {} at {:.0} s (POST {path}); the schedule's later switches are off, the sim follows",
            state.word(),
            self.now_s
        ));
    }
}

impl LivePart for FleetLive {
    fn start(&mut self, ctx: &LiveCtx) -> bool {
        let mut params = fleet_params::clamped(ctx.lab, ctx.sliders);
        params.time_scale = APP_TIME_SCALE;
        self.next_run += 1;
        let Some(events) = ctx.sender(LabId::Health, self.next_run) else {
            self.say("live runs need the app's async runtime".into());
            return true;
        };
        self.stop_run();
        self.stopping.retain(|task| !task.is_finished());
        self.run = Some(live_fleet::spawn(params.clone(), events, self.program.clone()));
        let starting = format!(
            "starting {} replicas, a database, a Service and the load: {:.0} model s in {:.0} real s",
            params.replicas,
            params.duration_s,
            params.duration_s * APP_TIME_SCALE
        );
        self.begin(self.next_run, params);
        self.say(starting);
        true
    }

    fn retune(&mut self, _ctx: &LiveCtx) -> bool {
        if self.run.is_some() {
            self.say("the sliders apply on the next start (s); the sim beside keeps this run's".into());
        }
        true
    }

    fn key(&mut self, msg: Msg, _ctx: &LiveCtx) -> Option<bool> {
        let state = match msg {
            Msg::Fleet(FleetMsg::DbDown) => Database::Down,
            Msg::Fleet(FleetMsg::DbSlow) => Database::Slow {
                latency_ms: SLOW_DB_LATENCY_MS,
            },
            Msg::Fleet(FleetMsg::DbUp) => Database::Up,
            _ => return None,
        };
        // Between runs the keys set the next run's schedule, as in the simulation.
        self.run.as_ref()?;
        self.switch_database(state);
        Some(true)
    }

    fn on_event(&mut self, event: LabEvent) -> bool {
        if self.showing != Some(event.run) {
            return false;
        }
        match *event.body {
            LabBody::Fleet(sample) => self.apply(sample),
            _ => false,
        }
    }

    fn stop(&mut self) -> bool {
        if self.run.is_some() {
            self.stop_run();
            self.stopped_at_s = Some(self.now_s);
            self.say("stopping: every child gets SIGTERM, a kill past its deadline, and is reaped".into());
        }
        true
    }

    fn running(&self) -> bool {
        self.run.is_some()
    }

    fn tick(&mut self) -> bool {
        let (Some(started_at), Some(record)) = (self.started_at, &self.record) else {
            return false;
        };
        if self.finished || self.run.is_none() {
            return false;
        }
        let duration_s = record.params.duration_s;
        let before = self.now_s.floor();
        let clock_s = started_at.elapsed().as_secs_f64() / APP_TIME_SCALE;
        self.now_s = self.now_s.max(clock_s.min(duration_s));
        self.refresh_no_endpoint();
        self.now_s.floor() != before
    }

    fn leave(&mut self) {
        self.stop_run();
    }

    fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        self.stop_run();
        std::mem::take(&mut self.stopping)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fleet::{FleetScenario, ReplicaState, RequestOutcome, StateChange};

    #[test]
    fn samples_fill_the_record_and_done_replaces_it() {
        let params = FleetParams::scenario(FleetScenario::ReadinessChecksDb);
        let mut live = FleetLive::default();
        live.begin(1, params.clone());
        let sample = |replica, t_s, state, restarts| FleetSample::Replica {
            replica,
            change: StateChange {
                t_s,
                state,
                ready: state == ReplicaState::Ready,
                restarts,
            },
        };
        live.apply(sample(0, 0.0, ReplicaState::Starting, 0));
        live.apply(sample(0, 5.0, ReplicaState::Ready, 0));
        live.apply(FleetSample::Endpoints { t_s: 5.0, ready: 1 });
        live.apply(FleetSample::Endpoints { t_s: 35.0, ready: 0 });
        live.apply(sample(0, 41.0, ReplicaState::Starting, 1));
        live.apply(FleetSample::Request {
            second: 12,
            outcome: RequestOutcome::Refused,
        });
        live.now_s = 45.0;
        live.refresh_no_endpoint();
        let record = live.record.as_ref().expect("a record");
        assert_eq!(record.replicas[0].restarts, 1);
        assert_eq!(record.replicas[0].restart_times_s, [41.0]);
        assert_eq!(record.requests.refused, 1);
        assert_eq!(record.per_second[12].refused, 1);
        assert_eq!(record.no_ready_endpoint_s, 10.0, "the open window counts up to now");
        let sim = live.sim.clone().expect("the sim beside");
        assert!(live.apply(FleetSample::Done(Box::new(sim.clone()))));
        assert!(live.finished);
        assert_eq!(live.record.as_ref(), Some(&sim));
    }

    #[test]
    fn the_learners_switches_replace_the_schedule_from_the_first_one() {
        let params = FleetParams::scenario(FleetScenario::LivenessChecksDb);
        // Scheduled: down 30-330 s. The learner brings it up at 100 s, down again at 200 s.
        let windows = windows_with(&params, &[(100.0, Database::Up), (200.0, Database::Down)]);
        let spans: Vec<(f64, f64)> = windows.iter().map(|w| (w.start_s, w.end_s)).collect();
        assert_eq!(spans, [(30.0, 100.0), (200.0, 600.0)]);
        assert!(windows_with(&params, &[]).iter().all(|w| w.state == Database::Down));
    }

    #[test]
    fn events_of_another_run_are_ignored() {
        let mut live = FleetLive::default();
        live.begin(2, FleetParams::scenario(FleetScenario::ProcessLocal));
        let stale = LabEvent {
            run: 1,
            body: Box::new(LabBody::Fleet(FleetSample::Failed("old".into()))),
        };
        assert!(!live.on_event(stale));
        assert!(!live.finished);
    }
}
