//! Starts a live fleet and stops it: the database child, one restarter per replica, the
//! routing delay, the Service, the database schedule, the rollout and the load. The run
//! ends by itself after `duration_s` model seconds, or at once on [`FleetHandle::stop`]
//! (the app: [`LiveRun::stop`]); either way every child is stopped and reaped before the
//! task returns.
//!
//! Two ways in: [`spawn_program`] / [`run`] for the CLI and the tests (a channel of
//! samples, the run returned), and [`spawn`] for the app, in the one shape of every live
//! lab: a [`LiveRun`] whose control switches the real database now (keys `d`/`w`/`u`),
//! samples into the app's queue, `Done` (or `Failed`) last.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, eyre};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::content::LabId;
use crate::engine::fleet::{Database, FleetParams, FleetRun, database_timeline};
use crate::live::fleet::database::admin_path;
use crate::live::fleet::load;
use crate::live::fleet::recorder::{FleetSample, Recorder, Samples};
use crate::live::fleet::replica::{Clock, until_stopped};
use crate::live::fleet::restarter::{ReplicaControl, ReplicaPlan, run_replica};
use crate::live::fleet::service;
use crate::live::health::child::HealthChild;
use crate::live::http;
use crate::live::run::{LabEvent, LabSender, LiveRun};

/// How long the database child may take to stop at the end.
const DATABASE_STOP: Duration = Duration::from_secs(2);
/// The most the end of a run waits for the answers of the requests still in flight.
const LOAD_STOP: Duration = Duration::from_secs(5);
/// The most the end of a run may wait for its replicas to stop (each has its own deadline).
const REPLICAS_STOP: Duration = Duration::from_secs(10);

/// A running live fleet.
pub struct FleetHandle {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<FleetRun>>,
}

impl FleetHandle {
    /// Ends the run early; the task still stops every child and sends `Done`.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }

    /// Waits for the run to end and returns what it measured.
    pub async fn join(self) -> Result<FleetRun> {
        self.task.await.wrap_err("the live fleet task")?
    }
}

/// What the app may change while a fleet runs: the database, switched now (`None`: the
/// scenario's schedule). Once the learner switches it, the schedule's later switches are off.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FleetControl {
    pub database: Option<Database>,
}

/// Starts a live fleet for the app from `program` (`None`: this very binary,
/// `std::env::current_exe`): samples go into its queue (dropped when it is full), `Done`
/// or `Failed` last.
pub fn spawn<E>(params: FleetParams, events: LabSender<E>, program: Option<PathBuf>) -> LiveRun<FleetControl>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    LiveRun::spawn(events.run(), FleetControl::default(), move |inbox| async move {
        let last = match program.map_or_else(std::env::current_exe, Ok) {
            Ok(program) => {
                let queue = events.clone();
                let samples = Samples::Queue(Box::new(move |sample| queue.sample(sample)));
                match run_inner(program, params, Some(samples), inbox.stop, Some(inbox.control)).await {
                    Ok(run) => FleetSample::Done(Box::new(run)),
                    Err(err) => FleetSample::Failed(format!("{err:#}")),
                }
            }
            Err(err) => FleetSample::Failed(format!("finding this program to start the replicas: {err}")),
        };
        events.send(last).await;
    })
}

/// [`spawn`] with the program that has the `serve` subcommands (tests pass the built binary).
pub fn spawn_program(program: PathBuf, params: FleetParams, events: Option<mpsc::Sender<FleetSample>>) -> FleetHandle {
    let (stop, stop_rx) = watch::channel(false);
    let task = tokio::spawn(run_inner(program, params, events.map(Samples::Channel), stop_rx, None));
    FleetHandle { stop, task }
}

/// Runs a live fleet to its end and returns what it measured.
pub async fn run(program: &Path, params: FleetParams) -> Result<FleetRun> {
    spawn_program(program.to_path_buf(), params, None).join().await
}

/// A loopback port with nothing behind it: a black hole's database connection fails at once.
fn dead_port() -> Result<u16> {
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).wrap_err("finding a free port")?;
    Ok(listener.local_addr()?.port())
}

async fn run_inner(
    program: PathBuf,
    params: FleetParams,
    events: Option<Samples>,
    stop: watch::Receiver<bool>,
    manual: Option<watch::Receiver<FleetControl>>,
) -> Result<FleetRun> {
    let params = Arc::new(params);
    let db_args = ["serve", "database", "--port", "0"].map(String::from).to_vec();
    let mut database = HealthChild::start_with_args(&program, db_args, 0)
        .await
        .wrap_err("starting the shared database")?;
    drop(database.take_lines());
    // The database is reaped the moment it exits, and the run goes on without it (the
    // replicas' checks fail as they would); the report names the death.
    let (database_exit, database_exited) = watch::channel(None);
    let fleet = run_fleet(
        &program,
        &params,
        events,
        stop,
        database.addr(),
        manual,
        database_exited,
    );
    let mut fleet = std::pin::pin!(fleet);
    let mut reaped = false;
    let outcome = loop {
        tokio::select! {
            outcome = fleet.as_mut() => break outcome,
            code = database.wait_exit(), if !reaped => {
                reaped = true;
                let _ = database_exit.send(Some(code.unwrap_or(-1)));
            }
        }
    };
    database.shutdown(DATABASE_STOP).await?;
    outcome
}

async fn run_fleet(
    program: &Path,
    params: &Arc<FleetParams>,
    events: Option<Samples>,
    mut stop: watch::Receiver<bool>,
    database: SocketAddr,
    manual: Option<watch::Receiver<FleetControl>>,
    mut database_exited: watch::Receiver<Option<i32>>,
) -> Result<FleetRun> {
    let service_port = dead_port()?;
    let broken_port = dead_port()?;
    let clock = Clock {
        started: Instant::now(),
        scale: params.time_scale,
    };
    let recorder = Arc::new(Recorder::new(params, clock, events));
    let (end_tx, end_rx) = watch::channel(false);
    let mut tasks = JoinSet::new();

    {
        let recorder = Arc::clone(&recorder);
        tasks.spawn(async move {
            if let Ok(code) = database_exited.wait_for(Option::is_some).await
                && let Some(code) = *code
            {
                recorder.exited("database".into(), code);
            }
        });
    }
    let (view_tx, view_rx) = watch::channel(recorder.table.borrow().clone());
    tasks.spawn(service::route_with_delay(
        recorder.table.subscribe(),
        view_tx,
        clock.real(params.routing_delay_s),
        end_rx.clone(),
    ));
    tasks.spawn(service::serve(
        service_port,
        Arc::clone(params),
        view_rx,
        end_rx.clone(),
    ));

    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel();
    let mut controls = Vec::new();
    let mut replicas = JoinSet::new();
    for slot in 0..params.replicas as usize {
        let (control_tx, control_rx) = mpsc::channel(4);
        controls.push(control_tx);
        let plan = ReplicaPlan {
            slot,
            program: program.to_path_buf(),
            params: Arc::clone(params),
            database_port: if (slot as u64) < u64::from(params.black_holes) {
                broken_port
            } else {
                database.port()
            },
        };
        replicas.spawn(run_replica(
            plan,
            Arc::clone(&recorder),
            control_rx,
            ready_tx.clone(),
            end_rx.clone(),
        ));
    }

    // The database's schedule, switched by its admin paths; the learner's keys override it.
    tasks.spawn(drive_database(
        database,
        Arc::clone(&recorder),
        database_timeline(params),
        manual,
    ));
    // The rollout: replace replica k, wait for its replacement to be ready, then k + 1.
    if let Some(roll_s) = params.roll_at_s {
        let at = clock.at(roll_s);
        tasks.spawn(async move {
            tokio::time::sleep_until(at).await;
            for (slot, control) in controls.iter().enumerate() {
                while ready_rx.try_recv().is_ok() {}
                if control.send(ReplicaControl::Replace).await.is_err() {
                    return;
                }
                while let Some(ready) = ready_rx.recv().await {
                    if ready == slot {
                        break;
                    }
                }
            }
        });
    }
    let service_addr = SocketAddr::from((Ipv4Addr::LOCALHOST, service_port));
    let mut load = tokio::spawn(load::run(
        service_addr,
        Arc::clone(params),
        Arc::clone(&recorder),
        stop.clone(),
    ));

    tokio::select! {
        () = tokio::time::sleep_until(clock.at(params.duration_s)) => {}
        () = until_stopped(&mut stop) => {}
    }
    // The last requests are answered while the replicas still run.
    if tokio::time::timeout(LOAD_STOP, &mut load).await.is_err() {
        load.abort();
    }
    let _ = end_tx.send(true);
    let run = recorder.finish(params);
    let mut first_error = None;
    let stopped = tokio::time::timeout(REPLICAS_STOP, async {
        while let Some(joined) = replicas.join_next().await {
            if let Ok(Err(err)) = joined {
                first_error.get_or_insert(err);
            }
        }
    })
    .await;
    // Past the deadline, dropping the set aborts the tasks; each child is killed on drop.
    drop(replicas);
    tasks.abort_all();
    while tasks.join_next().await.is_some() {}
    if let Some(err) = first_error {
        return Err(err);
    }
    if stopped.is_err() {
        return Err(eyre!("the replicas did not stop within {REPLICAS_STOP:?}"));
    }
    recorder.done(run.clone()).await;
    Ok(run)
}

/// Switches the database on `schedule` (model seconds), or at once when `manual` says so;
/// after the first manual switch the schedule's later switches are dropped.
async fn drive_database(
    database: SocketAddr,
    recorder: Arc<Recorder>,
    schedule: Vec<(f64, Database)>,
    mut manual: Option<watch::Receiver<FleetControl>>,
) {
    let mut schedule = schedule.into_iter().peekable();
    loop {
        let due = schedule.peek().map(|&(t_s, _)| recorder.clock.at(t_s));
        tokio::select! {
            () = async { tokio::time::sleep_until(due.unwrap_or_else(Instant::now)).await }, if due.is_some() => {
                if let Some((t_s, state)) = schedule.next() {
                    let _ = http::post_once(database, &admin_path(state)).await;
                    recorder.database(t_s, state);
                }
            }
            changed = async { manual.as_mut()?.changed().await.ok() }, if manual.is_some() => {
                let switched = manual.as_mut().and_then(|control| control.borrow_and_update().database);
                match (changed, switched) {
                    (None, _) => manual = None,
                    (Some(()), Some(state)) => {
                        schedule = Vec::new().into_iter().peekable();
                        let _ = http::post_once(database, &admin_path(state)).await;
                        recorder.database(recorder.clock.now_s(), state);
                    }
                    (Some(()), None) => {}
                }
            }
            else => return,
        }
    }
}
