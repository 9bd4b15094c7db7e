//! The tasks behind Lab 1's live screen: the controller owns the server child and the probe
//! task, obeys the screen's commands and reports back, so a keypress never waits on a socket.

use super::*;

/// A probe that has not answered by then is drawn as failed; the next one is due anyway.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// `/work` takes at most 60 s (the lab limit a class file may raise the slider to); past this the request counts as failed.
const WORK_TIMEOUT: Duration = Duration::from_secs(90);
/// Probing goes on this long after the exit, so the timeline shows the refusals, then stops
/// so that an idle app does no work.
const PROBES_AFTER_EXIT: Duration = Duration::from_secs(2);

/// The controller: owns the child and the probe task, obeys commands, reports back.
pub(super) async fn controller(mut commands: mpsc::Receiver<Command>, reports: mpsc::Sender<Report>) {
    let mut child: Option<HealthChild> = None;
    // Where to send probes and work, and time zero: kept after the exit so late probes are refused.
    let mut target: Option<(SocketAddr, Instant)> = None;
    let mut probes: Option<(JoinHandle<()>, watch::Sender<f64>)> = None;
    let mut kill_at: Option<Instant> = None;
    let mut probes_stop_at: Option<Instant> = None;
    // The /work requests in flight: a new server starts with none, so a start aborts them.
    let mut work: JoinSet<()> = JoinSet::new();
    loop {
        tokio::select! {
            code = wait_child(&mut child) => {
                child = None;
                kill_at = None;
                probes_stop_at = Some(Instant::now() + PROBES_AFTER_EXIT);
                let _ = reports.send(Report::Exited(code)).await;
            }
            () = sleep_until(kill_at) => {
                kill_at = None;
                if let Some(child) = child.as_mut() {
                    let _ = child.shutdown(Duration::ZERO).await;
                    let _ = reports.send(Report::Note("the grace period is over: killed".into())).await;
                }
            }
            () = sleep_until(probes_stop_at) => {
                probes_stop_at = None;
                stop_probes(&mut probes);
                let _ = reports.send(Report::ProbesStopped).await;
            }
            command = commands.recv() => {
                let Some(command) = command else {
                    // The app dropped its handle: end the child all the same.
                    if let Some(child) = child.as_mut() {
                        let _ = child.shutdown(QUIT_DEADLINE).await;
                    }
                    break;
                };
                match command {
                    Command::Shutdown(done) => {
                        stop_probes(&mut probes);
                        if let Some(child) = child.as_mut() {
                            let _ = child.shutdown(QUIT_DEADLINE).await;
                        }
                        let _ = done.send(());
                        break;
                    }
                    Command::Start { config, period_s } => {
                        if child.is_some() {
                            let _ = reports.send(Report::Note("already running: s stops it".into())).await;
                            continue;
                        }
                        stop_probes(&mut probes);
                        probes_stop_at = None;
                        work.abort_all();
                        let (port, note) = choose_port(PREFERRED_PORT);
                        match HealthChild::start(&config, port).await {
                            Ok(mut started) => {
                                let zero = started.listening_at();
                                let lines = started.take_lines();
                                target = Some((started.addr(), zero));
                                let (period_tx, period_rx) = watch::channel(period_s);
                                let task = tokio::spawn(probe_loop(started.addr(), zero, period_rx, reports.clone()));
                                probes = Some((task, period_tx));
                                let report = Report::Started {
                                    pid: started.pid(),
                                    port: started.port(),
                                    config,
                                    note,
                                    lines,
                                    listening_at: zero,
                                };
                                child = Some(started);
                                let _ = reports.send(report).await;
                            }
                            Err(error) => {
                                let _ = reports.send(Report::StartFailed(format!("{error:#}"))).await;
                            }
                        }
                    }
                    Command::Stop { deadline } => {
                        if let Some(running) = child.as_ref() {
                            let _ = running.sigterm();
                            kill_at = Some(Instant::now() + deadline);
                            let _ = reports.send(Report::SigtermSent).await;
                        }
                    }
                    Command::Sigterm => {
                        if let Some(running) = child.as_ref() {
                            let report = match running.sigterm() {
                                Ok(()) => Report::SigtermSent,
                                Err(error) => Report::Note(format!("{error:#}")),
                            };
                            let _ = reports.send(report).await;
                        }
                    }
                    Command::Work => {
                        if let Some((addr, _)) = target {
                            let _ = reports.send(Report::WorkSent).await;
                            let reports = reports.clone();
                            while work.try_join_next().is_some() {}
                            work.spawn(async move {
                                let outcome = tokio::time::timeout(WORK_TIMEOUT, http::get_once(addr, "/work"))
                                    .await
                                    .unwrap_or_else(|_| GetOutcome::Failed("timed out".into()));
                                let _ = reports.send(Report::WorkDone(outcome)).await;
                            });
                        }
                    }
                    Command::Database { up } => {
                        if let Some(running) = child.as_ref() {
                            let outcome = running.set_database(up).await;
                            let _ = reports.send(Report::Database { up, outcome }).await;
                        }
                    }
                    Command::ProbePeriod(period_s) => {
                        if let Some((_, period)) = probes.as_ref() {
                            let _ = period.send(period_s);
                        }
                    }
                }
            }
        }
    }
    stop_probes(&mut probes);
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

fn stop_probes(probes: &mut Option<(JoinHandle<()>, watch::Sender<f64>)>) {
    if let Some((task, _)) = probes.take() {
        task.abort();
    }
}

/// The child's exit code once it exits; never, without a child.
async fn wait_child(child: &mut Option<HealthChild>) -> i32 {
    match child.as_mut() {
        Some(child) => child.wait_exit().await.unwrap_or(-1),
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Probes `/livez` and `/readyz` together every period, each on a fresh connection as
/// `curl` does; the period may change at any time through `period`.
///
/// The probes run in a [`JoinSet`] owned here: aborting this loop (a restart) aborts the
/// probes in flight too, so no answer from the last server lands in the next one's timeline.
async fn probe_loop(addr: SocketAddr, zero: Instant, mut period: watch::Receiver<f64>, reports: mpsc::Sender<Report>) {
    let mut round = 0u64;
    let mut in_flight = JoinSet::new();
    loop {
        let at_s = zero.elapsed().as_secs_f64();
        // Reap the finished ones so the set stays small.
        while in_flight.try_join_next().is_some() {}
        for probe in [Probe::Livez, Probe::Readyz] {
            let reports = reports.clone();
            in_flight.spawn(async move {
                let outcome = tokio::time::timeout(PROBE_TIMEOUT, http::get_once(addr, probe.path()))
                    .await
                    .unwrap_or_else(|_| GetOutcome::Failed("timed out".into()));
                let _ = reports
                    .send(Report::Probe {
                        round,
                        at_s,
                        probe,
                        outcome,
                    })
                    .await;
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
