//! Lab 1's live run in the app: one `resilience-lab serve health` child, probed on loopback.
//!
//! [`spawn`] starts the child on the port asked for (or the next free one), probes `/livez`
//! and `/readyz` every period, and obeys the screen through [`HealthControl`]: each key is a
//! count that goes up (`/work`, SIGTERM, stop) or a switch (the database), so "latest wins"
//! loses no key press. Everything it sees goes to the app's queue as [`HealthEvent`]s. The
//! run ends a little after the child exits (so the timeline shows the refusals), or when
//! the app stops it: then the child gets SIGTERM, [`QUIT_DEADLINE`] and a kill.

use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::content::LabId;
use crate::engine::health::HealthConfig;
use crate::live::health::child::{HealthChild, next_free_port, port_is_free};
use crate::live::http::{self, GetOutcome};
use crate::live::run::{self, HealthEvent, LabEvent, LabSender, LiveRun, Probe, RunInbox};

/// The port the server is started on when the screen asks for none (the CLI's `serve health` default).
pub const PREFERRED_PORT: u16 = crate::content::params::health::DEFAULT_PORT;
/// How long quitting the app waits for the server's own drain before killing it: a learner
/// who quits should not wait out a 60 s grace period.
pub const QUIT_DEADLINE: Duration = Duration::from_secs(3);
/// A probe that has not answered by then is drawn as failed; the next one is due anyway.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// `/work` takes at most 60 s (the lab limit a class file may raise the slider to); past this the request counts as failed.
const WORK_TIMEOUT: Duration = Duration::from_secs(90);
/// Probing goes on this long after the exit, so the timeline shows the refusals, then stops
/// so that an idle app does no work.
const PROBES_AFTER_EXIT: Duration = Duration::from_secs(2);

/// What a run starts with.
#[derive(Clone, Debug, PartialEq)]
pub struct HealthParams {
    pub config: HealthConfig,
    pub probe_period_s: f64,
    /// The port asked for (the live screen's slider); taken, the next free one is used.
    pub port: u16,
}

/// The screen's hold on a running server: counts that go up with each key, and switches.
#[derive(Clone, Debug, PartialEq)]
pub struct HealthControl {
    /// Seconds between probe rounds; applies at once.
    pub probe_period_s: f64,
    /// `/work` requests asked for (`w`): each one more sends one.
    pub work_requests: u32,
    /// SIGTERMs asked for (`t`).
    pub sigterms: u32,
    /// Stops asked for (`s` while it runs): SIGTERM, then a kill after the grace period.
    pub stops: u32,
    /// Whether the server's pretend database should be up (`d`).
    pub database_up: bool,
}

impl HealthControl {
    pub fn new(probe_period_s: f64) -> Self {
        Self {
            probe_period_s,
            work_requests: 0,
            sigterms: 0,
            stops: 0,
            database_up: true,
        }
    }
}

/// Starts a server with `params` and probes it. Must be called inside a tokio runtime.
pub fn spawn<E>(params: HealthParams, events: LabSender<E>) -> LiveRun<HealthControl>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let control = HealthControl::new(params.probe_period_s);
    // A task, not spawn_blocking: the child's death signal follows the spawning thread.
    LiveRun::spawn(events.run(), control, move |inbox| run(params, inbox, events))
}

async fn run<E>(params: HealthParams, mut inbox: RunInbox<HealthControl>, events: LabSender<E>)
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let config = params.config;
    let (port, note) = choose_port(params.port);
    let mut child = match HealthChild::start(&config, port).await {
        Ok(child) => child,
        Err(error) => {
            events.send(HealthEvent::StartFailed(format!("{error:#}"))).await;
            return;
        }
    };
    let zero = child.listening_at();
    let addr = child.addr();
    let mut lines = child.take_lines();
    let mut applied = inbox.control.borrow_and_update().clone();
    let (period_tx, period_rx) = watch::channel(applied.probe_period_s);
    // The probes run in a set owned here: ending the run aborts the ones in flight too.
    let mut probes = JoinSet::new();
    let get = move |probe: Probe| http::get_once(addr, probe.path());
    probes.spawn(probe_loop(get, zero, period_rx, events.clone()));
    events
        .send(HealthEvent::Started {
            pid: child.pid(),
            port: child.port(),
            config: config.clone(),
            note,
            listening_at: zero,
        })
        .await;
    let mut child = Some(child);
    let mut kill_at: Option<Instant> = None;
    let mut probes_stop_at: Option<Instant> = None;
    let mut work: JoinSet<()> = JoinSet::new();
    loop {
        tokio::select! {
            code = wait_child(&mut child) => {
                child = None;
                kill_at = None;
                probes_stop_at = Some(Instant::now() + PROBES_AFTER_EXIT);
                events.send(HealthEvent::Exited(code)).await;
            }
            () = sleep_until(kill_at) => {
                kill_at = None;
                if let Some(child) = child.as_mut() {
                    let _ = child.shutdown(Duration::ZERO).await;
                    events.send(HealthEvent::Note("the grace period is over: killed".into())).await;
                }
            }
            () = sleep_until(probes_stop_at) => {
                probes.abort_all();
                events.send(HealthEvent::ProbesStopped).await;
                break;
            }
            Some(line) = next_line(&mut lines) => {
                // Lines move the phase (`stopped listening`): they wait for room like a start does.
                events.send(HealthEvent::Line(line)).await;
            }
            () = run::stopped(&mut inbox.stop) => {
                // The app quits (or starts another server): end the child all the same.
                probes.abort_all();
                if let Some(child) = child.as_mut() {
                    let _ = child.shutdown(QUIT_DEADLINE).await;
                }
                break;
            }
            changed = inbox.control.changed() => {
                if changed.is_err() {
                    break;
                }
                let wanted = inbox.control.borrow_and_update().clone();
                if wanted.probe_period_s != applied.probe_period_s {
                    let _ = period_tx.send(wanted.probe_period_s);
                }
                if let Some(running) = child.as_ref() {
                    if wanted.stops != applied.stops {
                        let _ = running.sigterm();
                        kill_at = Some(Instant::now() + Duration::from_secs_f64(config.grace_s + 0.5));
                        events.send(HealthEvent::SigtermSent).await;
                    }
                    for _ in applied.sigterms..wanted.sigterms {
                        let event = match running.sigterm() {
                            Ok(()) => HealthEvent::SigtermSent,
                            Err(error) => HealthEvent::Note(format!("{error:#}")),
                        };
                        events.send(event).await;
                    }
                    if wanted.database_up != applied.database_up {
                        let up = wanted.database_up;
                        let outcome = running.set_database(up).await;
                        events.send(HealthEvent::Database { up, outcome }).await;
                    }
                }
                for _ in applied.work_requests..wanted.work_requests {
                    events.send(HealthEvent::WorkSent).await;
                    let events = events.clone();
                    while work.try_join_next().is_some() {}
                    work.spawn(async move {
                        let outcome = tokio::time::timeout(WORK_TIMEOUT, http::get_once(addr, "/work"))
                            .await
                            .unwrap_or_else(|_| GetOutcome::Failed("timed out".into()));
                        events.send(HealthEvent::WorkDone(outcome)).await;
                    });
                }
                applied = wanted;
            }
        }
    }
    probes.abort_all();
}

/// The preferred port when free, else the next free one, and a note saying so.
fn choose_port(preferred: u16) -> (u16, Option<String>) {
    if port_is_free(preferred) {
        return (preferred, None);
    }
    match next_free_port(preferred.saturating_add(1)) {
        Some(port) => (port, Some(format!("port {preferred} is in use: using {port} instead"))),
        None => (
            0,
            Some(format!("ports {preferred} and up are in use: the system picked one")),
        ),
    }
}

/// The child's exit code once it exits; never, without a child.
async fn wait_child(child: &mut Option<HealthChild>) -> i32 {
    match child.as_mut() {
        Some(child) => child.wait_exit().await.unwrap_or(-1),
        None => std::future::pending().await,
    }
}

/// The child's next output line; never, once the output has ended.
async fn next_line(
    lines: &mut Option<tokio::sync::mpsc::Receiver<crate::live::health::child::ChildLine>>,
) -> Option<crate::live::health::child::ChildLine> {
    match lines.as_mut() {
        Some(receiver) => match receiver.recv().await {
            Some(line) => Some(line),
            None => {
                *lines = None;
                std::future::pending().await
            }
        },
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Probes `/livez` and `/readyz` together every period with `get` (each on a fresh
/// connection, as `curl` does); the period may change at any time through `period`.
///
/// The probes run in a [`JoinSet`] owned here: aborting this loop aborts the probes in
/// flight too, so no answer from this server lands in the next one's timeline.
async fn probe_loop<E, G, F>(get: G, zero: Instant, mut period: watch::Receiver<f64>, events: LabSender<E>)
where
    E: From<(LabId, LabEvent)> + Send + 'static,
    G: Fn(Probe) -> F + Clone + Send + 'static,
    F: Future<Output = GetOutcome> + Send + 'static,
{
    let mut round = 0u64;
    let mut in_flight = JoinSet::new();
    loop {
        let at_s = zero.elapsed().as_secs_f64();
        // Reap the finished ones so the set stays small.
        while in_flight.try_join_next().is_some() {}
        for probe in [Probe::Livez, Probe::Readyz] {
            let (events, get) = (events.clone(), get.clone());
            in_flight.spawn(async move {
                let outcome = tokio::time::timeout(PROBE_TIMEOUT, get(probe))
                    .await
                    .unwrap_or_else(|_| GetOutcome::Failed("timed out".into()));
                // A probe is a sample: when the app lags, it is dropped rather than waited for.
                events.sample(HealthEvent::Probe {
                    round,
                    at_s,
                    probe,
                    outcome,
                });
            });
        }
        round += 1;
        let period_s = *period.borrow_and_update();
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs_f64(period_s)) => {}
            changed = period.changed() => {
                if changed.is_err() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::mpsc;

    use super::*;
    use crate::live::run::LabBody;

    /// The `(round, at_s)` of each `/livez` probe that arrived.
    fn livez_rounds(received: &mut mpsc::Receiver<(LabId, LabEvent)>) -> Vec<(u64, f64)> {
        let mut rounds = Vec::new();
        while let Ok((_, event)) = received.try_recv() {
            if let LabBody::Health(HealthEvent::Probe {
                round,
                at_s,
                probe: Probe::Livez,
                ..
            }) = *event.body
            {
                rounds.push((round, (at_s * 100.0).round() / 100.0));
            }
        }
        rounds.sort_by_key(|(round, _)| *round);
        rounds
    }

    #[test]
    fn the_port_asked_for_is_used_when_free_and_else_the_next_free_one() {
        // A port the system just gave out and took back is free for a moment.
        let free = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        assert_eq!(choose_port(free), (free, None));
        let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let taken_port = taken.local_addr().expect("bound").port();
        let (port, note) = choose_port(taken_port);
        assert_ne!(port, taken_port);
        let note = note.expect("a fallback says so");
        assert!(note.contains(&format!("port {taken_port} is in use")), "{note}");
    }

    #[tokio::test(start_paused = true)]
    async fn probes_go_out_every_period_and_a_new_period_applies_at_once() {
        let (queue, mut received) = mpsc::channel(64);
        let events = LabSender::new(LabId::Health, 1, queue);
        let (period, period_rx) = watch::channel(0.5);
        let refused = |_probe: Probe| async { GetOutcome::Refused };
        let probes = tokio::spawn(probe_loop(refused, Instant::now(), period_rx, events));
        tokio::time::sleep(Duration::from_millis(1_250)).await;
        assert_eq!(livez_rounds(&mut received), vec![(0, 0.0), (1, 0.5), (2, 1.0)]);
        // A slower period starts a round at once, then waits the new period.
        period.send(2.0).expect("the loop listens");
        tokio::time::sleep(Duration::from_millis(3_000)).await;
        assert_eq!(livez_rounds(&mut received), vec![(3, 1.25), (4, 3.25)]);
        probes.abort();
    }
}
