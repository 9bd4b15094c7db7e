//! Lab 1's live part: a real `resilience-lab serve health` child, probed on loopback, shown
//! as it happens.
//!
//! [`LiveHealth`] is plain state Lab 1's first page owns: the child's pid and port, the probe
//! timeline, the `/work` requests in flight, the server's own output lines, and a guided
//! step's check answered before the action that decides it. The run itself (`live::health::runner`) owns the child and
//! the probes; keys reach it through its `HealthControl` watch, and what it sees comes back
//! as `HealthEvent`s on the app's queue, applied by [`LiveHealth::apply`] (tests call it and
//! [`LiveHealth::apply_line`] by hand, no child needed, or hand the screen a page showing a
//! run of their own making, [`LiveHealth::show_run`], and send it that run's events). A
//! keypress never waits on a socket or a process. The pure reading of the probes and the
//! server's lines is in `observe`.
//!
//! No child outlives the app: the handles [`LiveHealth::shutdown`] returns are awaited by
//! the event loop before the terminal is restored; `kill_on_drop` and `PR_SET_PDEATHSIG`
//! are the backstop.

use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::content::{LabId, Question};
use crate::engine::health::{HealthConfig, Phase};
use crate::learning::quiz::{self, Asked, Response};
use crate::live::health::child::Stream;
use crate::live::health::runner::{self, HealthControl, HealthParams};
use crate::live::http::GetOutcome;
use crate::live::run::{HealthEvent, LabBody, LabEvent, LiveRun};
use crate::tui::frame::live::{LiveCtx, LivePart};
use crate::tui::frame::predict::Observed;
use crate::tui::msg::Msg;

pub use crate::live::health::runner::{PREFERRED_PORT, QUIT_DEADLINE};

/// Probe rounds kept for the timeline (10 minutes at the default 0.5 s period).
const ROUNDS_KEPT: usize = 1200;
/// Server output lines kept for the log pane.
const LOG_KEPT: usize = 2000;

mod observe;

pub use observe::*;

/// One round of probes: both endpoints, sent at the same moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub id: u64,
    /// Seconds since the server said `listening`.
    pub at_s: f64,
    pub livez: Option<ProbeCell>,
    pub readyz: Option<ProbeCell>,
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
pub struct ServerLife {
    pub pid: u32,
    pub port: u16,
    /// What it was started with: slider moves apply on the next start.
    pub config: HealthConfig,
    pub observed: ServerSeen,
    /// Seconds since `listening`, advanced on each frame tick and by each probe.
    pub elapsed_s: f64,
    pub rounds: Vec<Round>,
    pub in_flight: u32,
    pub work_sent: u32,
    pub work_done: u32,
    /// Of those done: answered by the server (any code).
    pub work_answered: u32,
    /// Of those done: refused, nothing listening (the listener was closed).
    pub work_refused: u32,
    /// Of those done: connected but cut off (reset, timeout).
    pub work_failed: u32,
    pub database_up: bool,
    /// Whether probes still go out (they stop shortly after the exit).
    pub probing: bool,
    /// The latest answer of each probe, by round: the database switch changes them
    /// without any line on stdout, so the phase label reads them.
    pub last_livez: Option<(u64, GetOutcome)>,
    pub last_readyz: Option<(u64, GetOutcome)>,
}

impl ServerLife {
    pub fn new(pid: u32, port: u16, config: HealthConfig) -> Self {
        Self {
            pid,
            port,
            config,
            observed: ServerSeen {
                listening: true,
                ..ServerSeen::default()
            },
            elapsed_s: 0.0,
            rounds: Vec::new(),
            in_flight: 0,
            work_sent: 0,
            work_done: 0,
            work_answered: 0,
            work_refused: 0,
            work_failed: 0,
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

    /// The `/work` requests in words: `0 in flight · 2 sent · 1 answered · 1 refused`; the
    /// outcomes only once some came back, a refusal or failure only if one happened.
    pub fn work_summary(&self, sep: &str) -> String {
        let mut parts = vec![
            format!("{} in flight", self.in_flight),
            format!("{} sent", self.work_sent),
        ];
        if self.work_done > 0 {
            parts.push(format!("{} answered", self.work_answered));
        }
        if self.work_refused > 0 {
            parts.push(format!("{} refused", self.work_refused));
        }
        if self.work_failed > 0 {
            parts.push(format!("{} failed", self.work_failed));
        }
        parts.join(sep)
    }

    /// The exit line: what the code means for the requests this screen sent. Code 0 says
    /// every request the server *accepted* finished, which a refusal at its closed listener
    /// does not contradict, so a refused or failed `/work` is counted beside it (the pid,
    /// on the row above, gives way so the line fits 80 columns).
    pub fn exit_status(&self, code: i32) -> String {
        let why = match code {
            0 => "every request it accepted finished",
            1 => "the grace period cut off work in flight",
            _ => "killed or failed: see its output",
        };
        let mut lost = Vec::new();
        if self.work_refused > 0 {
            lost.push(format!("{} refused (listener closed)", self.work_refused));
        }
        if self.work_failed > 0 {
            lost.push(format!("{} failed (cut off)", self.work_failed));
        }
        if lost.is_empty() {
            format!("pid {} exited with code {code}: {why}", self.pid)
        } else {
            format!("exit code {code}: {why}; {}", lost.join(", "))
        }
    }

    /// Records one probe's outcome in its round (rounds arrive in order; answers may not).
    fn record(&mut self, id: u64, at_s: f64, probe: Probe, cell: ProbeCell) {
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

/// Lab 1's live mode: everything the live screen shows.
#[derive(Debug, Default)]
pub struct LiveHealth {
    /// `--liveness-checks-db` for the next start (key `1`).
    pub next_liveness_checks_db: bool,
    /// `--readiness-checks-db` for the next start (key `2`).
    pub next_readiness_checks_db: bool,
    /// The current or last server; kept after its exit so its timeline stays readable.
    pub session: Option<ServerLife>,
    /// A start is under way (the child has not printed `listening` yet).
    pub starting: bool,
    /// One line for the learner: what just happened or why a key did nothing.
    pub status: Option<String>,
    /// A guided step's check answered before the action that decides it, waiting for it.
    pub pending: Option<Box<LiveCheck>>,
    /// A guided step's check decided by a probe, for the lab screen to show and save.
    pub decided: Option<Box<(LiveCheck, Observed)>>,
    pub log: Vec<LogLine>,
    /// Probe request lines (`GET /livez`) left out of the log: the timeline shows them.
    pub log_hidden: u32,
    /// Lines up from the newest: 0 follows the log.
    pub log_scroll: u16,
    /// The probe period last sent to the run.
    probe_period_s: f64,
    /// The port the current or last server was asked for (its slider), so a move says it
    /// waits for the next start; the session's own port may differ when it was taken.
    asked_port: Option<u16>,
    /// The current server's run; kept until it ends, so its last events still land.
    run: Option<LiveRun<HealthControl>>,
    /// The run whose events land here: the current server's, until its run ends.
    showing: Option<u64>,
    /// Runs asked to stop (a restart, or quitting), still ending.
    stopping: Vec<JoinHandle<()>>,
    /// The id the next run gets.
    next_run: u64,
    listening_at: Option<Instant>,
}

/// A guided step's check answered on the live screen, decided by a real probe.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveCheck {
    pub check: Question,
    pub predicted: f64,
    /// The step it belongs to, done if the answer is right.
    pub step: usize,
    pub step_title: String,
    pub moment: ProbeMoment,
    /// The session second of the action once it happened (0 for a start: `listening`).
    pub action_at_s: Option<f64>,
}

/// The server settings the sliders and the `1`/`2` flags give for the next start.
pub fn config_from(ctx: &LiveCtx, liveness_checks_db: bool, readiness_checks_db: bool) -> HealthConfig {
    HealthConfig {
        liveness_checks_db,
        readiness_checks_db,
        ..crate::content::params::health_config(ctx.lab, ctx.sliders)
    }
}

fn probe_period_of(ctx: &LiveCtx) -> f64 {
    crate::content::params::probe_period_s(ctx.lab, ctx.sliders)
}

/// What the next start runs with: the sliders (port included) and the `1`/`2` flags.
pub fn params_from(ctx: &LiveCtx, liveness_checks_db: bool, readiness_checks_db: bool) -> HealthParams {
    HealthParams {
        config: config_from(ctx, liveness_checks_db, readiness_checks_db),
        probe_period_s: probe_period_of(ctx),
        port: crate::content::params::live_port(ctx.sliders),
    }
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
        self.starting || self.session.as_ref().is_some_and(ServerLife::running)
    }

    fn session_running(&self) -> bool {
        self.session.as_ref().is_some_and(ServerLife::running)
    }

    /// Handles the live screen's own keys; `None` leaves `msg` to the lab screen (sliders,
    /// lesson, back). `Some(changed)` says whether to redraw.
    pub fn update(&mut self, msg: Msg) -> Option<bool> {
        match msg {
            Msg::LiveWork if self.session_running() => self.control(|c| c.work_requests += 1),
            Msg::LiveWork => self.say("no server: s starts one"),
            Msg::LiveSigterm if self.session_running() => self.control(|c| c.sigterms += 1),
            Msg::LiveSigterm => self.say("no server to signal: s starts one"),
            Msg::LiveDatabase if self.session_running() => {
                let up = !self.session.as_ref().is_some_and(|s| s.database_up);
                self.control(|c| c.database_up = up);
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
            Msg::ScrollUp => self.log_scroll = self.log_scroll.saturating_add(3).min(LOG_KEPT as u16),
            Msg::ScrollDown => self.log_scroll = self.log_scroll.saturating_sub(3),
            _ => return None,
        }
        Some(true)
    }

    /// Changes the running server's control (a count goes up, a switch flips).
    fn control(&mut self, change: impl FnOnce(&mut HealthControl)) {
        match &self.run {
            Some(run) => run.retune_with(change),
            None => self.say("the live run is not answering"),
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

    /// Takes a guided step's check answered before its action; `None` if no live probe
    /// decides its metric (the simulation scores it then).
    pub fn expect(&mut self, check: &Question, predicted: f64, step: usize, step_title: &str) -> Option<()> {
        let moment = live_moment(check.metric.as_deref()?)?;
        let said = quiz::trim_number(predicted);
        self.status = Some(match moment {
            ProbeMoment::AfterStart(after_s) if self.running() => format!(
                "you said {said}: stop the server (s), then start it (s): the /readyz probe {after_s} s after the start decides"
            ),
            ProbeMoment::AfterStart(after_s) => {
                format!(
                    "you said {said}: now start the server (s): the /readyz probe {after_s} s after the start decides"
                )
            }
            ProbeMoment::AfterSigterm(after_s) if self.session_running() => {
                format!("you said {said}: now send SIGTERM (t): the /readyz probe {after_s} s after it decides")
            }
            ProbeMoment::AfterSigterm(after_s) => format!(
                "you said {said}: start the server (s), then send SIGTERM (t): the /readyz probe {after_s} s after it decides"
            ),
        });
        self.pending = Some(Box::new(LiveCheck {
            check: check.clone(),
            predicted,
            step,
            step_title: step_title.to_string(),
            moment,
            action_at_s: None,
        }));
        Some(())
    }

    /// The pending check's action happened at session second `at_s`.
    fn arm(&mut self, start: bool, at_s: f64) {
        if let Some(pending) = self.pending.as_mut()
            && pending.action_at_s.is_none()
            && matches!(
                (pending.moment, start),
                (ProbeMoment::AfterStart(_), true) | (ProbeMoment::AfterSigterm(_), false)
            )
        {
            pending.action_at_s = Some(at_s);
        }
    }

    /// Decides the pending check with the first `/readyz` probe sent its moment after its action.
    fn decide_check(&mut self, probe: Probe, at_s: f64, outcome: &GetOutcome, warmup_s: f64) {
        let Some(pending) = &self.pending else { return };
        let after_s = match pending.moment {
            ProbeMoment::AfterStart(after_s) | ProbeMoment::AfterSigterm(after_s) => after_s,
        };
        let Some(action_at_s) = pending.action_at_s else { return };
        // 50 ms of slack: a probe timed for the moment may leave a hair before it.
        if probe != Probe::Readyz || at_s + 0.05 < action_at_s + after_s {
            return;
        }
        let Some(pending) = self.pending.take() else { return };
        let cell = ProbeCell::of(outcome);
        let metric = pending.check.metric.clone().unwrap_or_default();
        let code = match cell {
            ProbeCell::Ok => 200.0,
            ProbeCell::Unavailable => 503.0,
            ProbeCell::Other(code) => f64::from(code),
            ProbeCell::Refused | ProbeCell::Failed => 0.0,
        };
        let asked = Asked {
            question: pending.check.clone(),
            choice_order: Vec::new(),
        };
        let run = vec![(metric, code)];
        let observed = Observed {
            check_id: pending.check.id.clone(),
            predicted: pending.predicted,
            measured: Some(code),
            live: true,
            verdict: quiz::grade(&asked, &Response::Number(pending.predicted.into()), &run),
            explanation: format!(
                "you said {}; the /readyz probe at {at_s:.2} s answered {}: {}. {}",
                quiz::trim_number(pending.predicted),
                seen(outcome),
                why(probe, outcome, warmup_s),
                pending.check.explanation
            ),
            seen_first: false,
        };
        self.status = None;
        self.decided = Some(Box::new((*pending, observed)));
    }

    /// The frame tick: the server's clock moves on (the warm-up ends without a probe).
    pub fn tick(&mut self) -> bool {
        if let (Some(zero), Some(session)) = (self.listening_at, self.session.as_mut())
            && session.running()
        {
            let before = session.phase();
            session.elapsed_s = zero.elapsed().as_secs_f64();
            return session.phase() != before;
        }
        false
    }

    /// Applies one event of the server's run.
    pub fn apply(&mut self, event: HealthEvent) -> bool {
        match event {
            HealthEvent::Started {
                pid,
                port,
                config,
                note,
                listening_at,
            } => {
                self.starting = false;
                self.session = Some(ServerLife::new(pid, port, config));
                self.listening_at = Some(listening_at);
                self.log.clear();
                self.log_hidden = 0;
                self.log_scroll = 0;
                self.status = Some(note.unwrap_or_else(|| format!("started pid {pid} on 127.0.0.1:{port}")));
                self.arm(true, 0.0);
            }
            HealthEvent::StartFailed(reason) => {
                self.starting = false;
                self.end_run();
                self.status = Some(format!("could not start: {reason}"));
            }
            HealthEvent::Probe {
                round,
                at_s,
                probe,
                outcome,
            } => {
                let Some(session) = self.session.as_mut() else {
                    return false;
                };
                session.elapsed_s = session.elapsed_s.max(at_s);
                session.record(round, at_s, probe, ProbeCell::of(&outcome));
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
                self.decide_check(probe, at_s, &outcome, warmup_s);
            }
            HealthEvent::WorkSent => {
                if let Some(session) = self.session.as_mut() {
                    session.in_flight += 1;
                    session.work_sent += 1;
                }
            }
            HealthEvent::WorkDone(outcome) => {
                if let Some(session) = self.session.as_mut() {
                    session.in_flight = session.in_flight.saturating_sub(1);
                    session.work_done += 1;
                    match &outcome {
                        GetOutcome::Answered { .. } => session.work_answered += 1,
                        GetOutcome::Refused => session.work_refused += 1,
                        GetOutcome::Failed(_) => session.work_failed += 1,
                    }
                }
                self.status = Some(match outcome {
                    GetOutcome::Answered { code, body } => format!("/work answered {code} {}", body.trim()),
                    GetOutcome::Refused => "/work refused: the listener was closed".into(),
                    GetOutcome::Failed(reason) => format!("/work failed: {reason}"),
                });
            }
            HealthEvent::SigtermSent => {
                if let Some(session) = self.session.as_mut() {
                    session.observed.sigterm = true;
                    self.status = Some(format!("SIGTERM sent to pid {}", session.pid));
                }
                let at_s = self.session.as_ref().map_or(0.0, |s| s.elapsed_s);
                self.arm(false, at_s);
            }
            HealthEvent::Database { up, outcome } => {
                let word = if up { "up" } else { "down" };
                if let (Some(session), GetOutcome::Answered { code: 200, .. }) = (self.session.as_mut(), &outcome) {
                    session.database_up = up;
                    self.status = Some(format!("database marked {word}"));
                } else {
                    self.status = Some(format!(
                        "the database switch failed: {}",
                        ProbeCell::of(&outcome).glyph()
                    ));
                }
            }
            HealthEvent::Exited(code) => {
                if let Some(session) = self.session.as_mut() {
                    session.observed.exit_code = Some(code);
                    self.status = Some(session.exit_status(code));
                }
            }
            HealthEvent::ProbesStopped => {
                if let Some(session) = self.session.as_mut() {
                    session.probing = false;
                }
                // No probe will decide it any more.
                if self.pending.as_ref().is_some_and(|p| p.action_at_s.is_some()) {
                    self.pending = None;
                    self.status = Some("the server went before the deciding probe: p asks again".to_string());
                }
                // The run has ended: keep its handle so quitting still waits for it.
                self.end_run();
            }
            HealthEvent::Line(line) => {
                let at_s = self
                    .listening_at
                    .map_or(0.0, |zero| line.at.saturating_duration_since(zero).as_secs_f64());
                return self.apply_line(at_s, line.stream, &line.line);
            }
            HealthEvent::Note(text) => self.status = Some(text),
        }
        true
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

    /// Ends the server, if any: SIGTERM, [`QUIT_DEADLINE`], a kill. The handles are for
    /// the bounded `join_all` the app awaits before it leaves.
    pub fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        self.end_run();
        std::mem::take(&mut self.stopping)
    }

    /// The current run, if any, is asked to stop and kept among those ending; its events
    /// land here no more.
    fn end_run(&mut self) {
        if let Some(run) = self.run.take() {
            self.stopping.push(run.stop());
        }
        self.showing = None;
    }

    /// Takes the events of run `run` from now on: `start` does for the run it spawns, and a
    /// test for a run of its own making (no child), whose events it sends through the screen.
    pub fn show_run(&mut self, run: u64) {
        self.showing = Some(run);
    }
}

impl LivePart for LiveHealth {
    fn start(&mut self, ctx: &LiveCtx) -> bool {
        if self.starting {
            self.say("starting: wait for its `listening` line");
            return true;
        }
        let params = params_from(ctx, self.next_liveness_checks_db, self.next_readiness_checks_db);
        self.probe_period_s = params.probe_period_s;
        self.asked_port = Some(params.port);
        self.next_run += 1;
        let Some(events) = ctx.sender(LabId::Health, self.next_run) else {
            self.say("live mode needs the app's async runtime");
            return true;
        };
        // A run still probing its exited server ends now: no answer of it lands in this one.
        self.end_run();
        self.stopping.retain(|task| !task.is_finished());
        self.run = Some(runner::spawn(params, events));
        self.show_run(self.next_run);
        self.starting = true;
        self.say("starting resilience-lab serve health ...");
        true
    }

    fn retune(&mut self, ctx: &LiveCtx) -> bool {
        let period_s = probe_period_of(ctx);
        if self.running() && period_s != self.probe_period_s {
            self.probe_period_s = period_s;
            self.control(|c| c.probe_period_s = period_s);
            self.say(&format!("probing every {period_s} s from now"));
        } else if self.running() {
            let next = params_from(ctx, self.next_liveness_checks_db, self.next_readiness_checks_db);
            if self.asked_port.is_some_and(|port| port != next.port) {
                self.say(&format!("port {} applies on the next start (s, s)", next.port));
            } else if self.session.as_ref().is_some_and(|s| s.config != next.config) {
                self.say("warm-up, deregistration, grace and work apply on the next start (s, s)");
            }
        }
        true
    }

    fn key(&mut self, msg: Msg, _ctx: &LiveCtx) -> Option<bool> {
        self.update(msg)
    }

    fn on_event(&mut self, event: LabEvent) -> bool {
        match *event.body {
            LabBody::Health(event_body) if self.showing == Some(event.run) => self.apply(event_body),
            _ => false,
        }
    }

    fn stop(&mut self) -> bool {
        if self.starting {
            self.say("starting: wait for its `listening` line");
            return true;
        }
        if let Some(session) = self.session.as_ref().filter(|s| s.running()) {
            let pid = session.pid;
            self.control(|c| c.stops += 1);
            self.say(&format!(
                "stopping pid {pid}: SIGTERM, then a kill if it outlives the grace period"
            ));
        }
        true
    }

    fn running(&self) -> bool {
        LiveHealth::running(self)
    }

    fn tick(&mut self) -> bool {
        LiveHealth::tick(self)
    }

    fn quitting(&mut self) {
        if self.running() {
            self.status = Some("quitting: stopping the server (SIGTERM, then a kill after 3 s)".into());
        }
    }

    fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        LiveHealth::shutdown(self)
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
    fn the_next_start_asks_for_the_port_slider() {
        let content = crate::content::Content::load(None).expect("embedded content loads");
        let lab = content.lab(LabId::Health);
        let mut sliders: Vec<crate::tui::slider::Slider> = lab
            .parameters
            .iter()
            .cloned()
            .map(crate::tui::slider::Slider::new)
            .collect();
        let ctx = |sliders: &[crate::tui::slider::Slider]| {
            params_from(
                &LiveCtx {
                    lab,
                    sliders,
                    step: 0,
                    events: None,
                },
                false,
                false,
            )
            .port
        };
        assert_eq!(
            ctx(&sliders),
            PREFERRED_PORT,
            "the slider starts at serve health's default"
        );
        let port = sliders
            .iter_mut()
            .find(|s| s.spec.name == "port")
            .expect("a port slider");
        port.set_value(19000.0);
        assert_eq!(ctx(&sliders), 19000);
    }

    #[test]
    fn phase_follows_the_observed_lines_and_the_warm_up() {
        let mut seen = ServerSeen::default();
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
        live.apply(HealthEvent::Started {
            pid: 42,
            port: 18080,
            config: HealthConfig::default(),
            note: None,
            listening_at: Instant::now(),
        });
        assert!(live.apply_line(0.0, Stream::Stdout, "listening on 127.0.0.1:18080"));
        assert!(!live.apply_line(0.1, Stream::Stderr, "GET /livez"));
        assert!(live.apply_line(0.2, Stream::Stderr, "GET /work"));
        assert_eq!(live.log.len(), 2);
        assert_eq!(live.log_hidden, 1);
        live.apply(HealthEvent::SigtermSent);
        assert_eq!(live.phase(), LivePhase::Running(Phase::Draining));
        live.apply_line(1.0, Stream::Stdout, "stopped listening");
        assert_eq!(live.phase(), LivePhase::Running(Phase::NotListening));
        live.apply(HealthEvent::Exited(0));
        assert_eq!(live.phase(), LivePhase::Exited(0));
        assert!(!live.running());
    }

    #[test]
    fn the_phase_label_believes_the_probes_about_the_database() {
        let mut session = ServerLife::new(42, 18080, HealthConfig::default());
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
        assert_eq!(ProbeCell::of(&answered(200, "ready")), ProbeCell::Ok);
        assert_eq!(
            ProbeCell::of(&answered(503, "not ready: draining")),
            ProbeCell::Unavailable
        );
        assert_eq!(ProbeCell::of(&answered(404, "not found")), ProbeCell::Other(404));
        assert_eq!(ProbeCell::of(&GetOutcome::Refused), ProbeCell::Refused);
        let glyphs: Vec<char> = [
            ProbeCell::Ok,
            ProbeCell::Unavailable,
            ProbeCell::Refused,
            ProbeCell::Failed,
        ]
        .iter()
        .map(|c| c.glyph())
        .collect();
        assert_eq!(glyphs, ['█', '▒', '·', '×']);
        assert_eq!(ProbeCell::Refused.code(), "000");
        assert_eq!(ProbeCell::Other(404).code(), "404");
    }
}
