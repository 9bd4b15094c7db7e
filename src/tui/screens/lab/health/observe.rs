//! What Lab 1's live probes and the server's own lines say: cells, phases, verdicts.
//!
//! Pure functions of what was observed, so the screen's reading of a real server can be
//! tested without one.

use crate::engine::health::Phase;
use crate::live::http::GetOutcome;
pub use crate::live::run::Probe;
use crate::tui::msg::ProbeAnswer;

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
    pub fn answer(self) -> Option<ProbeAnswer> {
        match self {
            Cell::Ok => Some(ProbeAnswer::Ok),
            Cell::Unavailable => Some(ProbeAnswer::Unavailable),
            // A reset is "no answer" too, as curl's 000.
            Cell::Refused | Cell::Failed => Some(ProbeAnswer::Refused),
            Cell::Other(_) => None,
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
pub struct ServerSeen {
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
pub fn phase_of(observed: &ServerSeen, elapsed_s: f64, warmup_s: f64) -> LivePhase {
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
pub struct ProbeQuestion {
    pub probe: Probe,
    /// The moment, in words: "just after start".
    pub when: &'static str,
    /// The answer and the session second it was given: the next probe sent after it decides.
    pub answer: Option<(ProbeAnswer, f64)>,
}

/// A decided prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeVerdict {
    pub right: bool,
    pub probe: Probe,
    pub answer: ProbeAnswer,
    /// What the probe saw: `503 not ready: warming up`.
    pub seen: String,
    pub why: String,
}

/// Scores a prediction against the probe that decides it.
pub fn judge(question: &ProbeQuestion, answer: ProbeAnswer, outcome: &GetOutcome, warmup_s: f64) -> ProbeVerdict {
    let seen = match outcome {
        GetOutcome::Answered { code, body } => format!("{code} {}", body.trim()),
        GetOutcome::Refused => "refused".into(),
        GetOutcome::Failed(_) => "no answer".into(),
    };
    ProbeVerdict {
        right: Cell::of(outcome).answer() == Some(answer),
        probe: question.probe,
        answer,
        seen,
        why: why(question.probe, outcome, warmup_s),
    }
}

/// The action a live check of Lab 1 waits for, and how long after it the deciding probe is
/// sent: the prompt asks, the learner answers, then starts the server or sends SIGTERM.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Moment {
    /// The first `/readyz` probe sent this long after the next start's `listening`.
    AfterStart(f64),
    /// The first `/readyz` probe sent this long after the next SIGTERM.
    AfterSigterm(f64),
}

/// The live moment of a Lab 1 check's metric, as its prompt states it ("half a second after
/// start", "0.2 s after SIGTERM"); `None` for a metric only the simulation measures.
pub fn live_moment(metric: &str) -> Option<Moment> {
    match metric {
        "health.readyz_warmup_code" => Some(Moment::AfterStart(0.5)),
        "health.readyz_draining_code" => Some(Moment::AfterSigterm(0.2)),
        _ => None,
    }
}
