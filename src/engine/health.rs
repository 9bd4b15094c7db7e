//! Lab 1's model: truthful health endpoints and an ordered shutdown.
//!
//! [`HealthModel`] is the state machine of the health server: the live server asks it
//! what `/livez` and `/readyz` answer and when to stop listening, and [`simulate_driver`]
//! replays the Atlas's driver script (`lab1.sh`) against it on a virtual clock. The
//! shutdown order is the lesson: readiness fails at once on SIGTERM, requests are still
//! served for `deregister_s` while routers stop sending, then the listener closes and
//! in-flight work finishes, all within `grace_s` of the SIGTERM.

use serde::Serialize;

/// How the server behaves over its life.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HealthConfig {
    /// Time after start before `/readyz` answers 200 (caches, pools).
    pub warmup_s: f64,
    /// Time after SIGTERM during which new requests are still served.
    pub deregister_s: f64,
    /// Time after SIGTERM by which the process must have exited.
    pub grace_s: f64,
    /// How long one `/work` request takes.
    pub work_s: f64,
    /// The exercise's mistake: `/livez` depends on the shared database.
    pub liveness_checks_db: bool,
    /// The judgement call: `/readyz` depends on the shared database.
    pub readiness_checks_db: bool,
}

impl Default for HealthConfig {
    /// The Atlas's `health_server.py` constants.
    fn default() -> Self {
        Self {
            warmup_s: 2.0,
            deregister_s: 1.0,
            grace_s: 10.0,
            work_s: 1.5,
            liveness_checks_db: false,
            readiness_checks_db: false,
        }
    }
}

/// The server's phase, as the lab screen names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    WarmingUp,
    Ready,
    /// SIGTERM received: readiness fails, requests are still served.
    Draining,
    /// The listener is closed; in-flight work finishes.
    NotListening,
    Exited,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::WarmingUp => "warming up",
            Phase::Ready => "ready",
            Phase::Draining => "draining",
            Phase::NotListening => "not listening",
            Phase::Exited => "exited",
        }
    }
}

/// An HTTP answer: status code and body (the body goes out with a trailing newline).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reply {
    pub code: u16,
    pub body: &'static str,
}

/// The health server's state machine; times are seconds since the server started.
#[derive(Clone, Debug)]
pub struct HealthModel {
    pub config: HealthConfig,
    /// When SIGTERM arrived, if it has.
    sigterm_at_s: Option<f64>,
    /// The pretend shared database of the exercises.
    database_up: bool,
}

impl HealthModel {
    pub fn new(config: HealthConfig) -> Self {
        Self {
            config,
            sigterm_at_s: None,
            database_up: true,
        }
    }

    pub fn set_database_up(&mut self, up: bool) {
        self.database_up = up;
    }

    pub fn database_up(&self) -> bool {
        self.database_up
    }

    /// SIGTERM: readiness fails from now on. A second SIGTERM changes nothing.
    pub fn begin_drain(&mut self, now_s: f64) {
        self.sigterm_at_s.get_or_insert(now_s);
    }

    pub fn draining(&self) -> bool {
        self.sigterm_at_s.is_some()
    }

    /// When the listener closes: `deregister_s` after SIGTERM, and never after the exit
    /// deadline (a grace period shorter than the deregistration delay cuts it short).
    pub fn stop_listening_at_s(&self) -> Option<f64> {
        self.sigterm_at_s
            .map(|t| t + self.config.deregister_s.min(self.config.grace_s))
    }

    /// When the process must be gone: `grace_s` after SIGTERM.
    pub fn exit_deadline_s(&self) -> Option<f64> {
        self.sigterm_at_s.map(|t| t + self.config.grace_s)
    }

    /// Whether new connections are accepted at `now_s`.
    pub fn listening(&self, now_s: f64) -> bool {
        self.stop_listening_at_s().is_none_or(|stop| now_s < stop)
    }

    /// `/livez`: process-local unless the exercise's mistake is switched on.
    pub fn livez(&self) -> Reply {
        if self.config.liveness_checks_db && !self.database_up {
            Reply {
                code: 503,
                body: "not alive: database down",
            }
        } else {
            Reply {
                code: 200,
                body: "alive",
            }
        }
    }

    /// `/readyz`: warmed up, not draining (and the database up, if it is checked).
    pub fn readyz(&self, now_s: f64) -> Reply {
        if self.draining() {
            Reply {
                code: 503,
                body: "not ready: draining",
            }
        } else if now_s < self.config.warmup_s {
            Reply {
                code: 503,
                body: "not ready: warming up",
            }
        } else if self.config.readiness_checks_db && !self.database_up {
            Reply {
                code: 503,
                body: "not ready: database down",
            }
        } else {
            Reply {
                code: 200,
                body: "ready",
            }
        }
    }

    /// The answer to any path but `/work`, which takes time and is served by the caller.
    pub fn respond(&self, path: &str, now_s: f64) -> Reply {
        match path {
            "/livez" => self.livez(),
            "/readyz" => self.readyz(now_s),
            _ => Reply {
                code: 404,
                body: "not found",
            },
        }
    }

    /// The phase at `now_s`, given whether in-flight work is still running.
    pub fn phase(&self, now_s: f64, exited: bool) -> Phase {
        if exited {
            Phase::Exited
        } else if !self.listening(now_s) {
            Phase::NotListening
        } else if self.draining() {
            Phase::Draining
        } else if now_s < self.config.warmup_s {
            Phase::WarmingUp
        } else {
            Phase::Ready
        }
    }
}

/// One step of the Atlas's driver script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverStep {
    /// `curl` a health path and print `PATH CODE` (000 when refused).
    Probe(&'static str),
    /// Start a `/work` request in the background; its outcome is printed at the end.
    SendWork,
    /// `kill -TERM` the server.
    Sigterm,
}

/// `lab1.sh`'s schedule: seconds after the server starts, and what the script does then.
pub const ATLAS_SCHEDULE: [(f64, DriverStep); 8] = [
    (0.5, DriverStep::Probe("/livez")),
    (0.5, DriverStep::Probe("/readyz")),
    (2.5, DriverStep::Probe("/readyz")),
    (2.5, DriverStep::SendWork),
    (2.7, DriverStep::Sigterm),
    (2.9, DriverStep::Probe("/readyz")),
    (2.9, DriverStep::SendWork),
    (4.1, DriverStep::Probe("/readyz")),
];

/// When a `/readyz` probe of [`ATLAS_SCHEDULE`] goes out, as a live run waits for it:
/// seconds after the start, or seconds after SIGTERM once the schedule has sent it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ProbeMoment {
    AfterStart(f64),
    AfterSigterm(f64),
}

/// The moment of each `/readyz` probe of [`ATLAS_SCHEDULE`], in its order: the one table the
/// simulation runs and a live check waits on, so the two ask about the same probe.
pub fn readyz_moments() -> Vec<ProbeMoment> {
    let mut sigterm_at_s = None;
    let mut moments = Vec::new();
    for (t_s, step) in ATLAS_SCHEDULE {
        match step {
            DriverStep::Sigterm => sigterm_at_s = Some(t_s),
            DriverStep::Probe("/readyz") => moments.push(match sigterm_at_s {
                None => ProbeMoment::AfterStart(t_s),
                // To the millisecond: 2.9 - 2.7 is 0.2, not 0.19999999999999973.
                Some(at_s) => ProbeMoment::AfterSigterm(((t_s - at_s) * 1000.0).round() / 1000.0),
            }),
            DriverStep::Probe(_) | DriverStep::SendWork => {}
        }
    }
    moments
}

/// A probe the driver made and the code it saw (0 means the connection was refused).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeResult {
    pub t_s: f64,
    pub path: String,
    pub code: u16,
}

impl ProbeResult {
    /// `curl -w "PATH %{http_code}"`: a refused connection prints `000`.
    pub fn line(&self) -> String {
        format!("{} {:03}", self.path, self.code)
    }
}

/// How a `/work` request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkOutcome {
    Done,
    Failed,
}

impl WorkOutcome {
    /// What the script's `work` function writes: the body, or `failed`.
    pub fn word(self) -> &'static str {
        match self {
            WorkOutcome::Done => "done",
            WorkOutcome::Failed => "failed",
        }
    }
}

/// A line of the driver's output with the time it appears.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimedLine {
    pub t_s: f64,
    pub line: String,
}

/// What the driver script saw, in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DriverRun {
    /// Server stdout lines and probe lines, in time order.
    pub timeline: Vec<TimedLine>,
    pub probes: Vec<ProbeResult>,
    /// The request sent before SIGTERM, then the one sent after.
    pub work: Vec<WorkOutcome>,
    pub exit_code: i32,
    /// Requests still running when the grace period ran out.
    pub abandoned: u32,
}

impl DriverRun {
    /// The timeline with what the driver itself did, from [`ATLAS_SCHEDULE`]: `/work sent`
    /// and `SIGTERM sent` among the server's and the probes' lines, for a screen that says
    /// "read the timeline" (the Atlas's own printout, [`DriverRun::timeline`], has no such
    /// lines). Only the sends: a request's outcome is a named number the Results row shows.
    /// At equal times a SIGTERM comes before the server's line (the listener closes on it at
    /// deregistration 0) and a `/work` after the probe the schedule sends first.
    pub fn timeline_with_driver(&self) -> Vec<TimedLine> {
        let mut lines = self.timeline.clone();
        let mut work = 0;
        for (t_s, step) in ATLAS_SCHEDULE {
            let (line, at) = match step {
                DriverStep::Probe(_) => continue,
                DriverStep::Sigterm => ("SIGTERM sent".to_string(), lines.partition_point(|line| line.t_s < t_s)),
                DriverStep::SendWork => {
                    work += 1;
                    let which = if work == 1 { "/work sent" } else { "second /work sent" };
                    (which.to_string(), lines.partition_point(|line| line.t_s <= t_s))
                }
            };
            lines.insert(at, TimedLine { t_s, line });
        }
        lines
    }
}

/// The port the simulated driver prints (nothing listens: it is the simulation), the
/// Atlas's, for the app's screen and the runs checks are scored on alike.
pub const SIM_DRIVER_PORT: u16 = 18080;

/// The server's own stdout line when the grace period cuts the drain short.
pub fn abandon_line(abandoned: u32) -> String {
    format!("grace period over: abandoning {abandoned} in-flight request(s)")
}

/// Replays [`ATLAS_SCHEDULE`] against the model, on a virtual clock.
pub fn simulate_driver(config: &HealthConfig, port: u16) -> DriverRun {
    let mut model = HealthModel::new(config.clone());
    let mut probes = Vec::new();
    // (sent at, finishes at, accepted)
    let mut requests: Vec<(f64, f64, bool)> = Vec::new();
    for (t_s, step) in ATLAS_SCHEDULE {
        match step {
            DriverStep::Probe(path) => {
                let code = if model.listening(t_s) {
                    model.respond(path, t_s).code
                } else {
                    0
                };
                probes.push(ProbeResult {
                    t_s,
                    path: path.to_string(),
                    code,
                });
            }
            DriverStep::SendWork => requests.push((t_s, t_s + config.work_s, model.listening(t_s))),
            DriverStep::Sigterm => model.begin_drain(t_s),
        }
    }

    let stop_s = model.stop_listening_at_s().unwrap_or(f64::INFINITY);
    let deadline_s = model.exit_deadline_s().unwrap_or(f64::INFINITY);
    let accepted = requests.iter().filter(|r| r.2);
    let abandoned = accepted.clone().filter(|r| r.1 > deadline_s).count() as u32;
    let last_finish_s = accepted.map(|r| r.1).fold(stop_s, f64::max);
    let exit_s = last_finish_s.min(deadline_s);

    let mut timeline = vec![TimedLine {
        t_s: 0.0,
        line: format!("listening on 127.0.0.1:{port}"),
    }];
    timeline.push(TimedLine {
        t_s: stop_s,
        line: "stopped listening".to_string(),
    });
    timeline.push(TimedLine {
        t_s: exit_s,
        line: if abandoned == 0 {
            "drained, exiting".to_string()
        } else {
            abandon_line(abandoned)
        },
    });
    for probe in &probes {
        timeline.push(TimedLine {
            t_s: probe.t_s,
            line: probe.line(),
        });
    }
    // Server lines come first at equal times: the listener closes before a probe lands.
    timeline.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));

    let work = requests
        .iter()
        .map(|&(_, finish_s, accepted)| {
            if accepted && finish_s <= deadline_s {
                WorkOutcome::Done
            } else {
                WorkOutcome::Failed
            }
        })
        .collect();
    DriverRun {
        timeline,
        probes,
        work,
        exit_code: i32::from(abandoned > 0),
        abandoned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's and the probes' lines, in time order (the printer adds the requests'
    /// outcomes and the exit code: `report::health_rows`).
    fn lines(run: &DriverRun) -> Vec<String> {
        run.timeline.iter().map(|line| line.line.clone()).collect()
    }

    #[test]
    fn defaults_reproduce_the_atlas_script() {
        let run = simulate_driver(&HealthConfig::default(), 18080);
        assert_eq!(
            lines(&run),
            [
                "listening on 127.0.0.1:18080",
                "/livez 200",
                "/readyz 503",
                "/readyz 200",
                "/readyz 503",
                "stopped listening",
                "/readyz 000",
                "drained, exiting",
            ]
        );
        assert_eq!(run.work, [WorkOutcome::Done, WorkOutcome::Done]);
        assert_eq!(run.exit_code, 0);
    }

    #[test]
    fn the_timeline_with_the_driver_says_when_it_sent_work_and_sigterm() {
        let run = simulate_driver(&HealthConfig::default(), 18080);
        let lines: Vec<String> = run
            .timeline_with_driver()
            .iter()
            .map(|line| format!("{:.1} {}", line.t_s, line.line))
            .collect();
        assert_eq!(
            lines,
            [
                "0.0 listening on 127.0.0.1:18080",
                "0.5 /livez 200",
                "0.5 /readyz 503",
                "2.5 /readyz 200",
                "2.5 /work sent",
                "2.7 SIGTERM sent",
                "2.9 /readyz 503",
                "2.9 second /work sent",
                "3.7 stopped listening",
                "4.1 /readyz 000",
                "4.4 drained, exiting",
            ]
        );
        // At deregistration 0 the listener closes on the SIGTERM: the signal comes first.
        let config = HealthConfig {
            deregister_s: 0.0,
            ..HealthConfig::default()
        };
        let lines: Vec<String> = simulate_driver(&config, 18080)
            .timeline_with_driver()
            .into_iter()
            .map(|line| line.line)
            .collect();
        let sigterm = lines.iter().position(|l| l == "SIGTERM sent");
        let stopped = lines.iter().position(|l| l == "stopped listening");
        assert!(sigterm < stopped, "{lines:?}");
    }

    #[test]
    fn no_deregistration_delay_refuses_the_late_request() {
        let config = HealthConfig {
            deregister_s: 0.0,
            ..HealthConfig::default()
        };
        let run = simulate_driver(&config, 18080);
        assert_eq!(run.work, [WorkOutcome::Done, WorkOutcome::Failed]);
        assert_eq!(run.probes[3].code, 0, "the probe after SIGTERM finds no listener");
    }

    #[test]
    fn work_longer_than_the_grace_period_is_abandoned() {
        let config = HealthConfig {
            grace_s: 1.0,
            work_s: 5.0,
            ..HealthConfig::default()
        };
        let run = simulate_driver(&config, 18080);
        assert_eq!(run.exit_code, 1);
        assert_eq!(run.abandoned, 2);
        assert_eq!(run.work, [WorkOutcome::Failed, WorkOutcome::Failed]);
    }

    #[test]
    fn a_grace_period_shorter_than_deregistration_closes_the_listener_at_the_deadline() {
        let config = HealthConfig {
            deregister_s: 3.0,
            grace_s: 1.0,
            ..HealthConfig::default()
        };
        let run = simulate_driver(&config, 18080);
        let lines = lines(&run);
        let stopped = lines
            .iter()
            .position(|l| l == "stopped listening")
            .expect("stops listening");
        let gave_up = lines
            .iter()
            .position(|l| l.starts_with("grace period over"))
            .expect("abandons");
        assert!(stopped < gave_up, "{lines:?}");
        assert_eq!(run.probes[3].code, 503, "draining before the deadline: {lines:?}");
        assert_eq!(run.probes[4].code, 0, "after the deadline nothing answers: {lines:?}");
    }

    #[test]
    fn liveness_that_checks_the_database_fails_with_it() {
        let mut model = HealthModel::new(HealthConfig {
            liveness_checks_db: true,
            ..HealthConfig::default()
        });
        assert_eq!(model.livez().code, 200);
        model.set_database_up(false);
        assert_eq!(model.livez().code, 503);
        let honest = HealthModel::new(HealthConfig::default());
        assert_eq!(honest.livez().code, 200);
    }
}
