//! Lab 1 live: a real `resilience-lab serve health` child, probed on loopback, shown as it happens.
//!
//! Two halves:
//! - [`LiveHealth`] is plain state that the app owns and changes in `update` and on each
//!   frame tick: the child's pid and port, the probe timeline, the `/work` requests in
//!   flight, the server's own output lines, the open prediction and the score. Tests build
//!   it by hand through [`LiveHealth::apply`] and [`LiveHealth::apply_line`], no child needed.
//! - The controller task owns the [`HealthChild`] and the probe task. The state sends it
//!   [`Command`]s through a bounded channel and reads its [`Report`]s on each tick, so a
//!   keypress never waits on a socket or a process.
//!
//! The pure reading of what the probes and the server's lines say is in [`observe`]; the
//! tasks that own the child and the probes are in [`controller`].
//!
//! No child outlives the app: [`LiveHealth::shutdown`] is awaited by the event loop before
//! the terminal is restored; `kill_on_drop` and `PR_SET_PDEATHSIG` are the backstop.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;

use crate::engine::health::{HealthConfig, Phase};
use crate::live::health_child::{ChildLine, HealthChild, Stream, next_free_port, port_is_free};
use crate::live::http::{self, GetOutcome};
use crate::tui::app::Msg;
use crate::tui::slider::{Slider, value_of};

/// The port the server is started on when it is free (the CLI's `serve health` default).
pub const PREFERRED_PORT: u16 = 18080;
/// How long quitting the app waits for the server's own drain before killing it: a learner
/// who quits should not wait out a 60 s grace period.
pub const QUIT_DEADLINE: Duration = Duration::from_secs(3);
/// Probe rounds kept for the timeline (10 minutes at the default 0.5 s period).
const ROUNDS_KEPT: usize = 1200;
/// Server output lines kept for the log pane.
const LOG_KEPT: usize = 2000;
/// Commands queued for the controller; keys are slow, so a full queue means it is stuck.
const COMMAND_CAPACITY: usize = 64;
/// Reports buffered between two ticks; probes send 2 per period at most.
const REPORT_CAPACITY: usize = 1024;

mod controller;
mod observe;

pub use observe::*;

/// One round of probes: both endpoints, sent at the same moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub id: u64,
    /// Seconds since the server said `listening`.
    pub at_s: f64,
    pub livez: Option<Cell>,
    pub readyz: Option<Cell>,
    /// `/work` requests sent from here and not finished, when the round's first answer came.
    pub in_flight: u32,
}

/// One line of the server's output, for the log pane.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub at_s: f64,
    pub stream: Stream,
    pub text: String,
}

/// One server's life, from `listening` to its exit.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    pub pid: u32,
    pub port: u16,
    /// What it was started with: slider moves apply on the next start.
    pub config: HealthConfig,
    pub observed: Observed,
    /// Seconds since `listening`, advanced on each tick and by each report.
    pub elapsed_s: f64,
    pub rounds: Vec<Round>,
    pub in_flight: u32,
    pub work_sent: u32,
    pub work_done: u32,
    pub database_up: bool,
    /// Whether probes still go out (they stop shortly after the exit).
    pub probing: bool,
    /// The latest answer of each probe, by round: the database switch changes them
    /// without any line on stdout, so the phase label reads them.
    pub last_livez: Option<(u64, GetOutcome)>,
    pub last_readyz: Option<(u64, GetOutcome)>,
}

impl Session {
    pub fn new(pid: u32, port: u16, config: HealthConfig) -> Self {
        Self {
            pid,
            port,
            config,
            observed: Observed {
                listening: true,
                ..Observed::default()
            },
            elapsed_s: 0.0,
            rounds: Vec::new(),
            in_flight: 0,
            work_sent: 0,
            work_done: 0,
            database_up: true,
            probing: true,
            last_livez: None,
            last_readyz: None,
        }
    }

    pub fn phase(&self) -> LivePhase {
        phase_of(&self.observed, self.elapsed_s, self.config.warmup_s)
    }

    /// The phase in words, corrected by what the probes say: "ready" by the clock is
    /// "not ready: database down" when `/readyz` checks the database and it is down.
    pub fn phase_label(&self) -> String {
        let refusal = |last: &Option<(u64, GetOutcome)>| match last {
            Some((_, GetOutcome::Answered { code: 503, body })) => Some(body.trim().to_string()),
            _ => None,
        };
        let phase = self.phase();
        match (phase, refusal(&self.last_livez), refusal(&self.last_readyz)) {
            (LivePhase::Running(Phase::Ready | Phase::WarmingUp), Some(livez), _) => livez,
            (LivePhase::Running(Phase::Ready), None, Some(readyz)) => readyz,
            _ => phase.label(),
        }
    }

    pub fn running(&self) -> bool {
        self.observed.exit_code.is_none()
    }

    /// Records one probe's outcome in its round (rounds arrive in order; answers may not).
    fn record(&mut self, id: u64, at_s: f64, probe: Probe, cell: Cell) {
        let index = match self.rounds.iter().rposition(|round| round.id == id) {
            Some(index) => index,
            None => {
                let at = self.rounds.partition_point(|round| round.id < id);
                let in_flight = self.in_flight;
                self.rounds.insert(
                    at,
                    Round {
                        id,
                        at_s,
                        livez: None,
                        readyz: None,
                        in_flight,
                    },
                );
                at
            }
        };
        let round = &mut self.rounds[index];
        match probe {
            Probe::Livez => round.livez = Some(cell),
            Probe::Readyz => round.readyz = Some(cell),
        }
        if self.rounds.len() > ROUNDS_KEPT {
            self.rounds.remove(0);
        }
    }
}

/// What the controller tells the state.
#[derive(Debug)]
pub enum Report {
    Started {
        pid: u32,
        port: u16,
        config: HealthConfig,
        /// Why this port and not the preferred one, if so.
        note: Option<String>,
        /// The child's output lines; `None` in tests.
        lines: Option<mpsc::Receiver<ChildLine>>,
        listening_at: Instant,
    },
    StartFailed(String),
    Probe {
        round: u64,
        at_s: f64,
        probe: Probe,
        outcome: GetOutcome,
    },
    WorkSent,
    WorkDone(GetOutcome),
    SigtermSent,
    Database {
        up: bool,
        outcome: GetOutcome,
    },
    Exited(i32),
    ProbesStopped,
    /// One line for the status row.
    Note(String),
}

/// What the state asks the controller to do.
#[derive(Debug)]
pub enum Command {
    Start {
        config: HealthConfig,
        period_s: f64,
    },
    /// SIGTERM now, kill if still running after `deadline` (the grace period and a margin).
    Stop {
        deadline: Duration,
    },
    Sigterm,
    Work,
    Database {
        up: bool,
    },
    ProbePeriod(f64),
    /// The app quits: end the child (SIGTERM, deadline, kill, reap), then say so.
    Shutdown(oneshot::Sender<()>),
}

/// The handle on the controller task.
#[derive(Debug)]
struct Control {
    commands: mpsc::Sender<Command>,
    reports: mpsc::Receiver<Report>,
    task: JoinHandle<()>,
}

/// Lab 1's live mode: everything the live screen shows.
#[derive(Debug, Default)]
pub struct LiveHealth {
    /// The live screen shows instead of the simulated one (key `m`).
    pub shown: bool,
    /// `--liveness-checks-db` for the next start (key `1`).
    pub next_liveness_checks_db: bool,
    /// `--readiness-checks-db` for the next start (key `2`).
    pub next_readiness_checks_db: bool,
    /// The current or last server; kept after its exit so its timeline stays readable.
    pub session: Option<Session>,
    /// A start is under way (the child has not printed `listening` yet).
    pub starting: bool,
    /// One line for the learner: what just happened or why a key did nothing.
    pub status: Option<String>,
    pub question: Option<Question>,
    pub verdict: Option<Verdict>,
    /// Predictions right, and decided.
    pub score: (u32, u32),
    pub log: Vec<LogLine>,
    /// Probe request lines (`GET /livez`) left out of the log: the timeline shows them.
    pub log_hidden: u32,
    /// Lines up from the newest: 0 follows the log.
    pub log_scroll: u16,
    /// The probe period last sent to the controller.
    probe_period_s: f64,
    control: Option<Control>,
    lines: Option<mpsc::Receiver<ChildLine>>,
    listening_at: Option<Instant>,
}

/// The server settings the sliders and the `1`/`2` flags give for the next start.
pub fn config_from(sliders: &[Slider], liveness_checks_db: bool, readiness_checks_db: bool) -> HealthConfig {
    let defaults = HealthConfig::default();
    HealthConfig {
        warmup_s: value_of(sliders, "warmup_s").unwrap_or(defaults.warmup_s),
        deregister_s: value_of(sliders, "deregister_s").unwrap_or(defaults.deregister_s),
        grace_s: value_of(sliders, "grace_s").unwrap_or(defaults.grace_s),
        work_s: value_of(sliders, "work_s").unwrap_or(defaults.work_s),
        liveness_checks_db,
        readiness_checks_db,
    }
}

fn probe_period_of(sliders: &[Slider]) -> f64 {
    // Never faster than 10 Hz, whatever a facilitator's lab file says.
    value_of(sliders, "probe_period_s").unwrap_or(0.5).max(0.1)
}

impl LiveHealth {
    pub fn phase(&self) -> LivePhase {
        match &self.session {
            _ if self.starting => LivePhase::Starting,
            Some(session) => session.phase(),
            None => LivePhase::NotStarted,
        }
    }

    pub fn phase_label(&self) -> String {
        match &self.session {
            Some(session) if !self.starting => session.phase_label(),
            _ => self.phase().label(),
        }
    }

    /// Whether a server process is (or may be) alive now.
    pub fn running(&self) -> bool {
        self.starting || self.session.as_ref().is_some_and(Session::running)
    }

    fn session_running(&self) -> bool {
        self.session.as_ref().is_some_and(Session::running)
    }

    /// Handles the messages of the live screen; `None` leaves `msg` to the lab screen
    /// (sliders, lesson, back). `Some(changed)` says whether to redraw.
    pub fn update(&mut self, msg: Msg, sliders: &[Slider]) -> Option<bool> {
        if msg == Msg::ToggleMode {
            self.shown = !self.shown;
            return Some(true);
        }
        if !self.shown {
            return None;
        }
        match msg {
            Msg::LiveStartStop => self.start_or_stop(sliders),
            Msg::LiveWork if self.session_running() => {
                self.send(Command::Work);
            }
            Msg::LiveWork => self.say("no server: s starts one"),
            Msg::LiveSigterm if self.session_running() => {
                self.send(Command::Sigterm);
            }
            Msg::LiveSigterm => self.say("no server to signal: s starts one"),
            Msg::LiveDatabase if self.session_running() => {
                let up = !self.session.as_ref().is_some_and(|s| s.database_up);
                self.send(Command::Database { up });
            }
            Msg::LiveDatabase => self.say("the database switch is the server's: s starts one"),
            Msg::LiveLivenessDb => {
                self.next_liveness_checks_db = !self.next_liveness_checks_db;
                self.say_next_start();
            }
            Msg::LiveReadinessDb => {
                self.next_readiness_checks_db = !self.next_readiness_checks_db;
                self.say_next_start();
            }
            Msg::PredictProbe(answer) => self.predict(answer),
            Msg::ScrollUp => self.log_scroll = self.log_scroll.saturating_add(3).min(LOG_KEPT as u16),
            Msg::ScrollDown => self.log_scroll = self.log_scroll.saturating_sub(3),
            _ => return None,
        }
        Some(true)
    }

    /// A slider moved: the probe period applies at once, the rest on the next start.
    pub fn sliders_changed(&mut self, sliders: &[Slider]) {
        let period_s = probe_period_of(sliders);
        if self.running() && period_s != self.probe_period_s {
            self.probe_period_s = period_s;
            self.send(Command::ProbePeriod(period_s));
            self.say(&format!("probing every {period_s} s from now"));
        } else if self.running() {
            let next = config_from(sliders, self.next_liveness_checks_db, self.next_readiness_checks_db);
            if self.session.as_ref().is_some_and(|s| s.config != next) {
                self.say("warm-up, deregistration, grace and work apply on the next start (s, s)");
            }
        }
    }

    fn say(&mut self, text: &str) {
        self.status = Some(text.to_string());
    }

    fn say_next_start(&mut self) {
        let yes_no = |on: bool| if on { "yes" } else { "no" };
        self.status = Some(format!(
            "on the next start: /livez checks the database: {}, /readyz: {}",
            yes_no(self.next_liveness_checks_db),
            yes_no(self.next_readiness_checks_db)
        ));
    }

    fn start_or_stop(&mut self, sliders: &[Slider]) {
        if self.starting {
            return self.say("starting: wait for its `listening` line");
        }
        if let Some(session) = self.session.as_ref().filter(|s| s.running()) {
            let deadline = Duration::from_secs_f64(session.config.grace_s + 0.5);
            let pid = session.pid;
            self.send(Command::Stop { deadline });
            return self.say(&format!(
                "stopping pid {pid}: SIGTERM, then a kill if it outlives the grace period"
            ));
        }
        let config = config_from(sliders, self.next_liveness_checks_db, self.next_readiness_checks_db);
        self.probe_period_s = probe_period_of(sliders);
        let period_s = self.probe_period_s;
        if self.send(Command::Start { config, period_s }) {
            self.starting = true;
            self.say("starting resilience-lab serve health ...");
        }
    }

    /// Sends a command, starting the controller on first use; false (and a status line) if
    /// there is no async runtime (tests) or the controller is gone.
    fn send(&mut self, command: Command) -> bool {
        if self.control.is_none() {
            if tokio::runtime::Handle::try_current().is_err() {
                self.say("live mode needs the app's async runtime");
                return false;
            }
            let (commands, command_rx) = mpsc::channel(COMMAND_CAPACITY);
            let (report_tx, reports) = mpsc::channel(REPORT_CAPACITY);
            // A task, not spawn_blocking: the child's death signal follows the spawning thread.
            let task = tokio::spawn(controller::controller(command_rx, report_tx));
            self.control = Some(Control {
                commands,
                reports,
                task,
            });
        }
        let sent = self
            .control
            .as_ref()
            .is_some_and(|c| c.commands.try_send(command).is_ok());
        if !sent {
            self.say("the live controller is not answering");
        }
        sent
    }

    fn predict(&mut self, answer: Answer) {
        let Some(question) = self.question.as_mut() else {
            return self.say("no open question: start the server (s), send SIGTERM (t) or flip the database (d)");
        };
        let now_s = self.session.as_ref().map_or(0.0, |s| s.elapsed_s);
        question.answer = Some((answer, now_s));
        let path = question.probe.path();
        self.status = Some(format!("you said {}: the next {path} probe decides", answer.label()));
    }

    fn ask(&mut self, probe: Probe, when: &'static str) {
        self.question = Some(Question {
            probe,
            when,
            answer: None,
        });
    }

    /// Applies everything that arrived since the last tick; true if the screen changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Some(report) = self.control.as_mut().and_then(|c| c.reports.try_recv().ok()) {
            changed |= self.apply(report);
        }
        while let Some(line) = self.lines.as_mut().and_then(|lines| lines.try_recv().ok()) {
            let at_s = self
                .listening_at
                .map_or(0.0, |zero| line.at.saturating_duration_since(zero).as_secs_f64());
            changed |= self.apply_line(at_s, line.stream, &line.line);
        }
        if let (Some(zero), Some(session)) = (self.listening_at, self.session.as_mut())
            && session.running()
        {
            let before = session.phase();
            session.elapsed_s = zero.elapsed().as_secs_f64();
            changed |= session.phase() != before;
        }
        changed
    }

    /// Applies one report from the controller.
    pub fn apply(&mut self, report: Report) -> bool {
        match report {
            Report::Started {
                pid,
                port,
                config,
                note,
                lines,
                listening_at,
            } => {
                self.starting = false;
                self.session = Some(Session::new(pid, port, config));
                self.lines = lines;
                self.listening_at = Some(listening_at);
                self.log.clear();
                self.log_hidden = 0;
                self.log_scroll = 0;
                self.verdict = None;
                self.status = Some(note.unwrap_or_else(|| format!("started pid {pid} on 127.0.0.1:{port}")));
                self.ask(Probe::Readyz, "just after start");
            }
            Report::StartFailed(reason) => {
                self.starting = false;
                self.status = Some(format!("could not start: {reason}"));
            }
            Report::Probe {
                round,
                at_s,
                probe,
                outcome,
            } => {
                let Some(session) = self.session.as_mut() else {
                    return false;
                };
                session.elapsed_s = session.elapsed_s.max(at_s);
                session.record(round, at_s, probe, Cell::of(&outcome));
                let last = match probe {
                    Probe::Livez => &mut session.last_livez,
                    Probe::Readyz => &mut session.last_readyz,
                };
                if last.as_ref().is_none_or(|(seen, _)| *seen <= round) {
                    *last = Some((round, outcome.clone()));
                }
                if probe == Probe::Readyz
                    && matches!(&outcome, GetOutcome::Answered { body, .. } if body.contains("draining"))
                {
                    session.observed.sigterm = true;
                }
                let warmup_s = session.config.warmup_s;
                self.decide(probe, at_s, &outcome, warmup_s);
            }
            Report::WorkSent => {
                if let Some(session) = self.session.as_mut() {
                    session.in_flight += 1;
                    session.work_sent += 1;
                }
            }
            Report::WorkDone(outcome) => {
                if let Some(session) = self.session.as_mut() {
                    session.in_flight = session.in_flight.saturating_sub(1);
                    session.work_done += 1;
                }
                self.status = Some(match outcome {
                    GetOutcome::Answered { code, body } => format!("/work answered {code} {}", body.trim()),
                    GetOutcome::Refused => "/work refused: the listener was closed".into(),
                    GetOutcome::Failed(reason) => format!("/work failed: {reason}"),
                });
            }
            Report::SigtermSent => {
                if let Some(session) = self.session.as_mut() {
                    session.observed.sigterm = true;
                    self.status = Some(format!("SIGTERM sent to pid {}", session.pid));
                }
                self.ask(Probe::Readyz, "just after SIGTERM");
            }
            Report::Database { up, outcome } => {
                let word = if up { "up" } else { "down" };
                if let (Some(session), GetOutcome::Answered { code: 200, .. }) = (self.session.as_mut(), &outcome) {
                    session.database_up = up;
                    self.status = Some(format!("database marked {word}"));
                    self.ask(
                        Probe::Livez,
                        if up {
                            "with the database up"
                        } else {
                            "with the database down"
                        },
                    );
                } else {
                    self.status = Some(format!("the database switch failed: {}", Cell::of(&outcome).glyph()));
                }
            }
            Report::Exited(code) => {
                if let Some(session) = self.session.as_mut() {
                    session.observed.exit_code = Some(code);
                    let why = match code {
                        0 => "every request finished",
                        1 => "the grace period cut off work in flight",
                        _ => "killed or failed: see its output",
                    };
                    self.status = Some(format!("pid {} exited with code {code}: {why}", session.pid));
                }
            }
            Report::ProbesStopped => {
                if let Some(session) = self.session.as_mut() {
                    session.probing = false;
                }
                // No probe will decide it any more.
                self.question = None;
            }
            Report::Note(text) => self.status = Some(text),
        }
        true
    }

    /// Decides the open prediction with the first probe of its path sent after the answer.
    fn decide(&mut self, probe: Probe, at_s: f64, outcome: &GetOutcome, warmup_s: f64) {
        let Some(question) = &self.question else { return };
        let Some((answer, answered_s)) = question.answer else {
            return;
        };
        if question.probe != probe || at_s < answered_s {
            return;
        }
        let verdict = judge(question, answer, outcome, warmup_s);
        self.score.1 += 1;
        if verdict.right {
            self.score.0 += 1;
        }
        self.verdict = Some(verdict);
        self.question = None;
        // The "you said ..." line is answered by the verdict now.
        self.status = None;
    }

    /// Applies one line of the server's output.
    pub fn apply_line(&mut self, at_s: f64, stream: Stream, text: &str) -> bool {
        if stream == Stream::Stdout
            && let Some(session) = self.session.as_mut()
        {
            if text.starts_with("listening on") {
                session.observed.listening = true;
            } else if text == "stopped listening" {
                session.observed.stopped_listening = true;
                self.ask(Probe::Livez, "with the listener closed");
            }
        }
        // The timeline shows every probe already: their request lines would drown the rest.
        if stream == Stream::Stderr && (text == "GET /livez" || text == "GET /readyz") {
            self.log_hidden += 1;
            return false;
        }
        self.log.push(LogLine {
            at_s,
            stream,
            text: text.to_string(),
        });
        if self.log.len() > LOG_KEPT {
            self.log.remove(0);
        }
        true
    }

    /// Ends the server, if any, before the app leaves; bounded by [`QUIT_DEADLINE`] and a margin.
    pub async fn shutdown(&mut self) {
        let Some(control) = self.control.take() else { return };
        let (done_tx, done_rx) = oneshot::channel();
        if control.commands.send(Command::Shutdown(done_tx)).await.is_ok() {
            let _ = tokio::time::timeout(QUIT_DEADLINE + Duration::from_secs(2), done_rx).await;
        }
        // Dropping the task's last handle does not stop it; abort, so that the child it owns
        // is dropped (and killed) now rather than when the runtime goes.
        control.task.abort();
        let _ = control.task.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(code: u16, body: &str) -> GetOutcome {
        GetOutcome::Answered {
            code,
            body: format!("{body}\n"),
        }
    }

    #[test]
    fn phase_follows_the_observed_lines_and_the_warm_up() {
        let mut seen = Observed::default();
        assert_eq!(phase_of(&seen, 0.0, 2.0), LivePhase::Starting);
        seen.listening = true;
        assert_eq!(phase_of(&seen, 0.5, 2.0), LivePhase::Running(Phase::WarmingUp));
        assert_eq!(phase_of(&seen, 2.0, 2.0), LivePhase::Running(Phase::Ready));
        seen.sigterm = true;
        assert_eq!(phase_of(&seen, 0.5, 2.0), LivePhase::Running(Phase::Draining));
        seen.stopped_listening = true;
        assert_eq!(phase_of(&seen, 3.0, 2.0), LivePhase::Running(Phase::NotListening));
        seen.exit_code = Some(0);
        assert_eq!(phase_of(&seen, 3.0, 2.0).label(), "exited with code 0");
    }

    #[test]
    fn lines_drive_the_phase_and_probe_requests_stay_out_of_the_log() {
        let mut live = LiveHealth::default();
        live.apply(Report::Started {
            pid: 42,
            port: 18080,
            config: HealthConfig::default(),
            note: None,
            lines: None,
            listening_at: Instant::now(),
        });
        assert!(live.apply_line(0.0, Stream::Stdout, "listening on 127.0.0.1:18080"));
        assert!(!live.apply_line(0.1, Stream::Stderr, "GET /livez"));
        assert!(live.apply_line(0.2, Stream::Stderr, "GET /work"));
        assert_eq!(live.log.len(), 2);
        assert_eq!(live.log_hidden, 1);
        live.apply(Report::SigtermSent);
        assert_eq!(live.phase(), LivePhase::Running(Phase::Draining));
        live.apply_line(1.0, Stream::Stdout, "stopped listening");
        assert_eq!(live.phase(), LivePhase::Running(Phase::NotListening));
        assert_eq!(live.question.as_ref().map(|q| q.probe), Some(Probe::Livez));
        live.apply(Report::Exited(0));
        assert_eq!(live.phase(), LivePhase::Exited(0));
        assert!(!live.running());
    }

    #[test]
    fn the_phase_label_believes_the_probes_about_the_database() {
        let mut session = Session::new(42, 18080, HealthConfig::default());
        session.elapsed_s = 5.0;
        assert_eq!(session.phase_label(), "ready");
        session.last_readyz = Some((9, answered(503, "not ready: database down")));
        assert_eq!(session.phase_label(), "not ready: database down");
        session.last_livez = Some((9, answered(503, "not alive: database down")));
        assert_eq!(session.phase_label(), "not alive: database down");
        session.observed.sigterm = true;
        assert_eq!(session.phase_label(), "draining");
    }

    #[test]
    fn timeline_cells_have_a_glyph_per_kind() {
        assert_eq!(Cell::of(&answered(200, "ready")), Cell::Ok);
        assert_eq!(Cell::of(&answered(503, "not ready: draining")), Cell::Unavailable);
        assert_eq!(Cell::of(&answered(404, "not found")), Cell::Other(404));
        assert_eq!(Cell::of(&GetOutcome::Refused), Cell::Refused);
        let glyphs: Vec<char> = [Cell::Ok, Cell::Unavailable, Cell::Refused, Cell::Failed]
            .iter()
            .map(|c| c.glyph())
            .collect();
        assert_eq!(glyphs, ['█', '▒', '·', '×']);
        assert_eq!(Cell::Refused.code(), "000");
        assert_eq!(Cell::Other(404).code(), "404");
    }

    #[test]
    fn a_prediction_is_decided_by_the_next_probe_of_its_path_sent_after_the_answer() {
        let mut live = LiveHealth {
            shown: true,
            ..LiveHealth::default()
        };
        live.apply(Report::Started {
            pid: 42,
            port: 18080,
            config: HealthConfig::default(),
            note: None,
            lines: None,
            listening_at: Instant::now(),
        });
        live.session.as_mut().expect("started").elapsed_s = 0.4;
        assert_eq!(live.update(Msg::PredictProbe(Answer::Unavailable), &[]), Some(true));
        let probe = |round, at_s, probe, outcome| Report::Probe {
            round,
            at_s,
            probe,
            outcome,
        };
        // Sent before the answer, or the other path: not the one that decides.
        live.apply(probe(0, 0.0, Probe::Readyz, answered(200, "ready")));
        live.apply(probe(1, 0.5, Probe::Livez, answered(200, "alive")));
        assert_eq!(live.score, (0, 0));
        live.apply(probe(1, 0.5, Probe::Readyz, answered(503, "not ready: warming up")));
        assert_eq!(live.score, (1, 1));
        let verdict = live.verdict.clone().expect("decided");
        assert!(verdict.right);
        assert_eq!(verdict.seen, "503 not ready: warming up");
        assert!(verdict.why.contains("warm-up"), "{}", verdict.why);
        assert!(live.question.is_none());
        // The second round has both cells.
        let rounds = &live.session.as_ref().expect("started").rounds;
        assert_eq!(rounds.len(), 2);
        assert_eq!(rounds[1].livez, Some(Cell::Ok));
        assert_eq!(rounds[1].readyz, Some(Cell::Unavailable));

        live.apply(Report::SigtermSent);
        live.update(Msg::PredictProbe(Answer::Ok), &[]);
        live.apply(probe(2, 1.0, Probe::Readyz, answered(503, "not ready: draining")));
        assert_eq!(live.score, (1, 2));
        assert!(!live.verdict.as_ref().expect("decided").right);
    }

    #[test]
    fn refused_and_reset_both_count_as_refused() {
        let question = Question {
            probe: Probe::Livez,
            when: "with the listener closed",
            answer: None,
        };
        assert!(judge(&question, Answer::Refused, &GetOutcome::Refused, 2.0).right);
        assert!(judge(&question, Answer::Refused, &GetOutcome::Failed("reset".into()), 2.0).right);
        assert!(!judge(&question, Answer::Ok, &GetOutcome::Refused, 2.0).right);
    }

    #[test]
    fn keys_without_a_server_say_why_and_flags_wait_for_the_next_start() {
        let mut live = LiveHealth::default();
        assert_eq!(
            live.update(Msg::LiveWork, &[]),
            None,
            "hidden: the lab screen handles it"
        );
        live.update(Msg::ToggleMode, &[]);
        assert!(live.shown);
        live.update(Msg::LiveWork, &[]);
        assert!(live.status.as_deref().unwrap_or_default().contains("s starts one"));
        live.update(Msg::LiveLivenessDb, &[]);
        assert!(live.next_liveness_checks_db);
        assert!(live.status.as_deref().unwrap_or_default().contains("next start"));
        assert_eq!(live.update(Msg::NextSlider, &[]), None);
    }
}
