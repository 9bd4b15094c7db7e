//! Lab 1's headless live run: the Atlas's `lab1.sh` played against a real child server.
//!
//! The child is started with [`HealthChild`], then [`ATLAS_SCHEDULE`] runs with times
//! counted from the child's `listening on` line: probes, two `/work` requests and a
//! SIGTERM. Server lines and probe lines come out in the order they happen, and the
//! result is the same [`DriverRun`] the simulation produces, so `--sim` and `--live`
//! print through one report.

use std::path::Path;
use std::time::Duration;

use color_eyre::eyre::{Result, bail, eyre};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::engine::health::{ATLAS_SCHEDULE, DriverRun, DriverStep, HealthConfig, ProbeResult, TimedLine, WorkOutcome};
use crate::live::health::child::{HealthChild, Stream};
use crate::live::http::GetOutcome;

/// How long the child gets to exit after the driver is done with it, before SIGKILL.
const SHUTDOWN_DEADLINE: Duration = Duration::from_secs(3);
/// Slack on top of the schedule and the grace period before the run is declared stuck.
const STUCK_MARGIN: Duration = Duration::from_secs(5);

/// What a live run saw: the driver's report, plus the server's request log (its stderr).
#[derive(Clone, Debug)]
pub struct LiveDriverRun {
    pub run: DriverRun,
    pub server_log: Vec<String>,
}

/// Something that happened during the run, in arrival order.
enum HealthRunEvent {
    /// A line the server printed on stdout or stderr.
    Server {
        stream: Stream,
        line: String,
        at: Instant,
    },
    Probe(ProbeResult),
}

/// Starts the server (`program serve health`, or this binary when `program` is None) on
/// `port`, drives it on the Atlas's schedule and reaps it on every path. Each timeline
/// line goes to `on_line` as it happens.
pub async fn run_live(
    program: Option<&Path>,
    config: &HealthConfig,
    port: u16,
    on_line: &mut dyn FnMut(&str),
) -> Result<LiveDriverRun> {
    let mut child = match program {
        Some(program) => HealthChild::start_program(program, config, port).await?,
        None => HealthChild::start(config, port).await?,
    };
    let result = drive(&mut child, config, on_line).await;
    // Reaps the child whatever happened; after a normal run it has already exited.
    let reaped = child.shutdown(SHUTDOWN_DEADLINE).await;
    let mut live = result?;
    live.run.exit_code = reaped?;
    Ok(live)
}

/// Seconds from `t0` to `at`, to the millisecond (the JSON report stays readable).
fn seconds_since(t0: Instant, at: Instant) -> f64 {
    (at.saturating_duration_since(t0).as_secs_f64() * 1000.0).round() / 1000.0
}

/// `N` in the server's `grace period over: abandoning N in-flight request(s)` line.
fn abandoned_in(line: &str) -> Option<u32> {
    line.strip_prefix("grace period over: abandoning ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Plays the schedule against a started child until it exits (or the run is stuck).
async fn drive(child: &mut HealthChild, config: &HealthConfig, on_line: &mut dyn FnMut(&str)) -> Result<LiveDriverRun> {
    let t0 = child.listening_at();
    let mut child_lines = child
        .take_lines()
        .ok_or_else(|| eyre!("the server's output was already taken"))?;
    let (events_tx, mut events_rx) = mpsc::unbounded_channel::<HealthRunEvent>();

    // The child's lines join the same queue as the probe lines, so one loop sees both in order.
    let forward_tx = events_tx.clone();
    let forwarder = tokio::spawn(async move {
        while let Some(line) = child_lines.recv().await {
            let _ = forward_tx.send(HealthRunEvent::Server {
                stream: line.stream,
                line: line.line,
                at: line.at,
            });
        }
    });

    let child_ref = &*child;
    let schedule = async move {
        // Moved in: the queue closes once the schedule is done and the child's streams end.
        let events_tx = events_tx;
        let mut work: Vec<JoinHandle<GetOutcome>> = Vec::new();
        for (t_s, step) in ATLAS_SCHEDULE {
            tokio::time::sleep_until(t0 + Duration::from_secs_f64(t_s)).await;
            match step {
                DriverStep::Probe(path) => {
                    let sent_at = Instant::now();
                    let code = child_ref.probe(path).await.code();
                    let _ = events_tx.send(HealthRunEvent::Probe(ProbeResult {
                        t_s: seconds_since(t0, sent_at),
                        path: path.to_string(),
                        code,
                    }));
                }
                DriverStep::SendWork => work.push(child_ref.send_work()),
                DriverStep::Sigterm => child_ref.sigterm()?,
            }
        }
        Ok::<_, color_eyre::Report>(work)
    };

    let last_step_s = ATLAS_SCHEDULE.iter().map(|(t_s, _)| *t_s).fold(0.0, f64::max);
    let sigterm_s = ATLAS_SCHEDULE
        .iter()
        .find(|(_, step)| *step == DriverStep::Sigterm)
        .map_or(0.0, |(t_s, _)| *t_s);
    let stuck_at = t0 + Duration::from_secs_f64(last_step_s.max(sigterm_s + config.grace_s)) + STUCK_MARGIN;
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    let mut timeline = Vec::new();
    let mut probes = Vec::new();
    let mut server_log = Vec::new();
    let mut abandoned = 0;
    let listen = async {
        loop {
            tokio::select! {
                event = events_rx.recv() => match event {
                    None => return Ok(()),
                    Some(HealthRunEvent::Server { stream: Stream::Stderr, line, .. }) => server_log.push(line),
                    Some(HealthRunEvent::Server { stream: Stream::Stdout, line, at }) => {
                        on_line(&line);
                        abandoned = abandoned_in(&line).unwrap_or(abandoned);
                        timeline.push(TimedLine { t_s: seconds_since(t0, at), line });
                    }
                    Some(HealthRunEvent::Probe(probe)) => {
                        let line = probe.line();
                        on_line(&line);
                        timeline.push(TimedLine { t_s: probe.t_s, line });
                        probes.push(probe);
                    }
                },
                _ = interrupt.recv() => bail!("interrupted; the health server was stopped"),
                _ = terminate.recv() => bail!("terminated; the health server was stopped"),
                () = tokio::time::sleep_until(stuck_at) => bail!("the health server did not exit in time; it was killed"),
            }
        }
    };
    let (work, listened) = tokio::join!(schedule, listen);
    forwarder.abort();
    listened?;
    let work = work?;

    let exit_code = tokio::time::timeout(SHUTDOWN_DEADLINE, child.wait_exit())
        .await
        .map_err(|_| eyre!("the health server closed its output but did not exit"))??;
    let mut outcomes = Vec::new();
    for request in work {
        // The server has exited: every request has its answer or its broken connection.
        let outcome = tokio::time::timeout(SHUTDOWN_DEADLINE, request).await;
        outcomes.push(match outcome {
            Ok(Ok(GetOutcome::Answered { code: 200, body })) if body.trim_end() == "done" => WorkOutcome::Done,
            _ => WorkOutcome::Failed,
        });
    }
    Ok(LiveDriverRun {
        run: DriverRun {
            timeline,
            probes,
            work: outcomes,
            exit_code,
            abandoned,
        },
        server_log,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::health::abandon_line;

    #[test]
    fn the_abandon_line_gives_its_count() {
        assert_eq!(abandoned_in(&abandon_line(2)), Some(2));
        assert_eq!(abandoned_in("drained, exiting"), None);
    }
}
