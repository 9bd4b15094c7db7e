//! What Lab 1's live probes and the server's own lines say: cells, phases, verdicts.
//!
//! Pure functions of what was observed, so the screen's reading of a real server can be
//! tested without one.

use crate::engine::health::Phase;
pub use crate::engine::health::ProbeMoment;
use crate::live::http::GetOutcome;
pub use crate::live::run::Probe;

/// What one probe saw, as one cell of the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeCell {
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

impl ProbeCell {
    pub fn of(outcome: &GetOutcome) -> Self {
        match outcome {
            GetOutcome::Answered { code: 200, .. } => ProbeCell::Ok,
            GetOutcome::Answered { code: 503, .. } => ProbeCell::Unavailable,
            GetOutcome::Answered { code, .. } => ProbeCell::Other(*code),
            GetOutcome::Refused => ProbeCell::Refused,
            GetOutcome::Failed(_) => ProbeCell::Failed,
        }
    }

    /// The glyph, distinct per kind so that the timeline reads without colour (`NO_COLOR`).
    pub fn glyph(self) -> char {
        match self {
            ProbeCell::Ok => '█',
            ProbeCell::Unavailable => '▒',
            ProbeCell::Other(_) | ProbeCell::Failed => '×',
            ProbeCell::Refused => '·',
        }
    }

    /// The code as `curl -w %{http_code}` prints it: 000 when refused; `err` when cut off.
    pub fn code(self) -> String {
        match self {
            ProbeCell::Ok => "200".into(),
            ProbeCell::Unavailable => "503".into(),
            ProbeCell::Other(code) => code.to_string(),
            ProbeCell::Refused => "000".into(),
            ProbeCell::Failed => "err".into(),
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
            format!("readiness waits out the {warmup_s} s warm-up; the process itself is up")
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

/// What a probe saw, in a verdict's words: `503 not ready: warming up`, `refused`.
pub fn seen(outcome: &GetOutcome) -> String {
    match outcome {
        GetOutcome::Answered { code, body } => format!("{code} {}", body.trim()),
        GetOutcome::Refused => "refused".into(),
        GetOutcome::Failed(_) => "no answer".into(),
    }
}

/// The live moment of a Lab 1 check's metric: the probe its prompt names ("half a second
/// after start", "0.2 s after SIGTERM"), taken from the Atlas schedule the simulation runs;
/// `None` for a metric only the simulation measures.
pub fn live_moment(metric: &str) -> Option<ProbeMoment> {
    crate::learning::metrics::readyz_moment(metric)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::health::{ATLAS_SCHEDULE, DriverStep, HealthConfig, simulate_driver};

    #[test]
    fn live_moments_are_the_simulated_probes() {
        assert_eq!(
            live_moment("health.readyz_warmup_code"),
            Some(ProbeMoment::AfterStart(0.5))
        );
        assert_eq!(
            live_moment("health.readyz_draining_code"),
            Some(ProbeMoment::AfterSigterm(0.2))
        );
        assert_eq!(live_moment("health.livez_code"), None);
        assert_eq!(live_moment("fleet.restarts"), None);
        // Each `/readyz` metric's live moment is when the simulation sent that probe.
        let sigterm_s = ATLAS_SCHEDULE
            .iter()
            .find(|(_, step)| *step == DriverStep::Sigterm)
            .map(|(t_s, _)| *t_s)
            .expect("the schedule sends SIGTERM");
        let run = simulate_driver(&HealthConfig::default(), 18080);
        let readyz: Vec<f64> = run
            .probes
            .iter()
            .filter(|p| p.path == "/readyz")
            .map(|p| p.t_s)
            .collect();
        let metrics = crate::learning::metrics::health_metrics(&run);
        let names: Vec<&str> = metrics
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| name.starts_with("health.readyz_"))
            .collect();
        assert_eq!(names.len(), readyz.len());
        for (name, sent_s) in names.iter().zip(readyz) {
            let at_s = match live_moment(name).expect("a live moment") {
                ProbeMoment::AfterStart(after_s) => after_s,
                ProbeMoment::AfterSigterm(after_s) => sigterm_s + after_s,
            };
            assert!((at_s - sent_s).abs() < 1e-9, "{name}: live {at_s} s, sim {sent_s} s");
        }
    }
}
