//! A replica's command line, and the clock that maps model seconds to real time.

use std::time::Duration;

use tokio::time::Instant;

use crate::engine::fleet::{FleetParams, OnDbDown};

/// Real time for model time: `time_scale` real seconds per model second.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub started: Instant,
    pub scale: f64,
}

impl Clock {
    /// The real duration of `model_s` model seconds.
    pub fn real(&self, model_s: f64) -> Duration {
        Duration::from_secs_f64((model_s * self.scale).max(0.0))
    }

    /// The instant `model_s` model seconds after the start.
    pub fn at(&self, model_s: f64) -> Instant {
        self.started + self.real(model_s)
    }

    /// Model seconds since the start.
    pub fn now_s(&self) -> f64 {
        self.model_s(Instant::now())
    }

    /// The model time of `instant`.
    pub fn model_s(&self, instant: Instant) -> f64 {
        instant.saturating_duration_since(self.started).as_secs_f64() / self.scale
    }
}

/// Completes once `stop` reads true (or its sender is gone); holds no borrow across awaits.
pub async fn until_stopped(stop: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|&stopped| stopped).await;
}

/// The `serve health` arguments of one replica: the model's settings scaled to real time,
/// the database it asks (`database_port`), quiet request logs.
pub fn replica_args(params: &FleetParams, port: u16, database_port: u16) -> Vec<String> {
    let scale = params.time_scale;
    let server = &params.server;
    let mut args: Vec<String> = vec!["serve".into(), "health".into(), "--port".into(), port.to_string()];
    for (flag, model_s) in [
        ("--warmup-s", server.warmup_s),
        ("--deregister-s", server.deregister_s),
        ("--grace-s", server.grace_s),
    ] {
        args.extend([flag.to_string(), (model_s * scale).to_string()]);
    }
    if server.liveness_checks_db {
        args.push("--liveness-checks-db".into());
    }
    if server.readiness_checks_db {
        args.push("--readiness-checks-db".into());
    }
    let on_down = match params.on_db_down {
        OnDbDown::Degrade => "degrade",
        OnDbDown::Fail => "fail",
    };
    let work_ms = (server.work_s * scale * 1e3).round() as u64;
    args.extend([
        "--database-port".into(),
        database_port.to_string(),
        "--on-db-down".into(),
        on_down.into(),
        "--api-work-ms".into(),
        work_ms.to_string(),
        "--quiet".into(),
    ]);
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fleet::FleetScenario;

    #[test]
    fn replica_args_scale_the_model_seconds() {
        let mut params = FleetParams::scenario(FleetScenario::LivenessChecksDb);
        params.time_scale = 0.1;
        let args = replica_args(&params, 0, 4242);
        assert!(args.windows(2).any(|w| w == ["--warmup-s", "0.2"]), "{args:?}");
        assert!(args.windows(2).any(|w| w == ["--grace-s", "1.5"]), "{args:?}");
        assert!(args.windows(2).any(|w| w == ["--api-work-ms", "10"]), "{args:?}");
        assert!(args.windows(2).any(|w| w == ["--database-port", "4242"]), "{args:?}");
        assert!(args.contains(&"--liveness-checks-db".to_string()));
        assert!(!args.contains(&"--readiness-checks-db".to_string()));
    }
}
