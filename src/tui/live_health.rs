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
/// A probe that has not answered by then is drawn as failed; the next one is due anyway.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// `/work` takes at most 20 s (the slider's max); past this the request counts as failed.
const WORK_TIMEOUT: Duration = Duration::from_secs(90);
/// Probing goes on this long after the exit, so the timeline shows the refusals, then stops
/// so that an idle app does no work.
const PROBES_AFTER_EXIT: Duration = Duration::from_secs(2);
/// Probe rounds kept for the timeline (10 minutes at the default 0.5 s period).
const ROUNDS_KEPT: usize = 1200;
/// Server output lines kept for the log pane.
const LOG_KEPT: usize = 2000;
/// Commands queued for the controller; keys are slow, so a full queue means it is stuck.
const COMMAND_CAPACITY: usize = 64;
/// Reports buffered between two ticks; probes send 2 per period at most.
const REPORT_CAPACITY: usize = 1024;

/// One of the two health endpoints the lab probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    Livez,
    Readyz,
}

impl Probe {
    pub fn path(self) -> &'static str {
        match self {
            Probe::Livez => "/livez",
            Probe::Readyz => "/readyz",
        }
    }
}

/// What one probe saw, as one cell of the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// 200.
    Ok,
    /// 503: alive but not ready, or not alive.
    Unavailable,
    /// Any other code (none is expected: drawn as an error).
    Other(u16),
    /// Nothing listens: `curl` prints 000.
    Refused,
    /// Connected but no answer (reset, timeout).
    Failed,
}

impl Cell {
    pub fn of(outcome: &GetOutcome) -> Self {
        match outcome {
            GetOutcome::Answered { code: 200, .. } => Cell::Ok,
            GetOutcome::Answered { code: 503, .. } => Cell::Unavailable,
            GetOutcome::Answered { code, .. } => Cell::Other(*code),
            GetOutcome::Refused => Cell::Refused,
            GetOutcome::Failed(_) => Cell::Failed,
        }
    }

    /// The glyph, distinct per kind so that the timeline reads without colour (`NO_COLOR`).
    pub fn glyph(self) -> char {
        match self {
            Cell::Ok => '█',
            Cell::Unavailable => '▒',
            Cell::Other(_) | Cell::Failed => '×',
            Cell::Refused => '·',
        }
    }

    /// The code as `curl -w %{http_code}` prints it: 000 when refused; `err` when cut off.
    pub fn code(self) -> String {
        match self {
            Cell::Ok => "200".into(),
            Cell::Unavailable => "503".into(),
            Cell::Other(code) => code.to_string(),
            Cell::Refused => "000".into(),
            Cell::Failed => "err".into(),
        }
    }

    /// The answer a learner would have predicted for this cell, if any matches it.
    pub fn answer(self) -> Option<Answer> {
        match self {
            Cell::Ok => Some(Answer::Ok),
            Cell::Unavailable => Some(Answer::Unavailable),
            // A reset is "no answer" too, as curl's 000.
            Cell::Refused | Cell::Failed => Some(Answer::Refused),
            Cell::Other(_) => None,
        }
    }
}

/// A learner's prediction of the next probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Ok,
    Unavailable,
    Refused,
}

impl Answer {
    pub fn label(self) -> &'static str {
        match self {
            Answer::Ok => "200",
            Answer::Unavailable => "503",
            Answer::Refused => "refused",
        }
    }
}

/// The server's phase as the screen names it: derived from what was observed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LivePhase {
    NotStarted,
    Starting,
    Running(Phase),
    /// Reaped with this exit code (128 + N for signal N).
    Exited(i32),
}

impl LivePhase {
    pub fn label(self) -> String {
        match self {
            LivePhase::NotStarted => "not started".into(),
            LivePhase::Starting => "starting".into(),
            LivePhase::Running(phase) => phase.label().into(),
            LivePhase::Exited(code) => format!("exited with code {code}"),
        }
    }
}

/// What has been seen of one server's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// Its `listening on` line arrived.
    pub listening: bool,
    /// SIGTERM went out from here, or `/readyz` said "draining" (a SIGTERM from elsewhere).
    pub sigterm: bool,
    /// Its `stopped listening` line arrived.
    pub stopped_listening: bool,
    pub exit_code: Option<i32>,
}

/// The phase from observations. Only the end of the warm-up is not observable from lines
/// (the server prints nothing then), so it comes from the model: the warm-up is a fixed
/// delay after `listening`, the same rule the server itself applies.
pub fn phase_of(observed: &Observed, elapsed_s: f64, warmup_s: f64) -> LivePhase {
    if let Some(code) = observed.exit_code {
        LivePhase::Exited(code)
    } else if !observed.listening {
        LivePhase::Starting
    } else if observed.stopped_listening {
        LivePhase::Running(Phase::NotListening)
    } else if observed.sigterm {
        LivePhase::Running(Phase::Draining)
    } else if elapsed_s < warmup_s {
        LivePhase::Running(Phase::WarmingUp)
    } else {
        LivePhase::Running(Phase::Ready)
    }
}

/// Why a probe answered as it did, in one line, from its path and the server's own body.
pub fn why(probe: Probe, outcome: &GetOutcome, warmup_s: f64) -> String {
    match (probe, outcome) {
        (Probe::Readyz, GetOutcome::Answered { code: 200, .. }) => {
            "warmed up and not draining: routers may send traffic".into()
        }
        (Probe::Readyz, GetOutcome::Answered { body, .. }) if body.contains("warming") => {
            format!("readiness waits out the {warmup_s} s warm-up; liveness is already 200")
        }
        (Probe::Readyz, GetOutcome::Answered { body, .. }) if body.contains("draining") => {
            "readiness fails at once on SIGTERM; the listener stays open".into()
        }
        (Probe::Readyz, GetOutcome::Answered { body, .. }) if body.contains("database") => {
            "readiness checks the database: no traffic while it is down".into()
        }
        (Probe::Livez, GetOutcome::Answered { code: 200, .. }) => {
            "liveness is process-local: the process answers, so it is alive".into()
        }
        (Probe::Livez, GetOutcome::Answered { body, .. }) if body.contains("database") => {
            "liveness checks the database: the platform would restart every replica".into()
        }
        (_, GetOutcome::Answered { code, body }) => format!("the server answered {code}: {}", body.trim()),
        (_, GetOutcome::Refused) => "the listener is closed: nothing answers (curl prints 000)".into(),
        (_, GetOutcome::Failed(reason)) => format!("the exchange failed: {reason}"),
    }
}

/// An open prediction: which probe, asked when, and the learner's answer once given.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub probe: Probe,
    /// The moment, in words: "just after start".
    pub when: &'static str,
    /// The answer and the session second it was given: the next probe sent after it decides.
    pub answer: Option<(Answer, f64)>,
}

/// A decided prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub right: bool,
    pub probe: Probe,
    pub answer: Answer,
    /// What the probe saw: `503 not ready: warming up`.
    pub seen: String,
    pub why: String,
}

/// Scores a prediction against the probe that decides it.
pub fn judge(question: &Question, answer: Answer, outcome: &GetOutcome, warmup_s: f64) -> Verdict {
    let seen = match outcome {
        GetOutcome::Answered { code, body } => format!("{code} {}", body.trim()),
        GetOutcome::Refused => "refused".into(),
        GetOutcome::Failed(_) => "no answer".into(),
    };
    Verdict {
        right: Cell::of(outcome).answer() == Some(answer),
        probe: question.probe,
        answer,
        seen,
        why: why(question.probe, outcome, warmup_s),
    }
}

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
            let task = tokio::spawn(controller(command_rx, report_tx));
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

/// The controller: owns the child and the probe task, obeys commands, reports back.
async fn controller(mut commands: mpsc::Receiver<Command>, reports: mpsc::Sender<Report>) {
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
