//! Lab 1's server: `warmup_s`, `deregister_s`, `grace_s`, `work_s` and the live screen's
//! probe period and port, from the sliders, a check's settings or `run health` / `serve health`'s flags.

use crate::content::LabId;
use crate::content::lab::{LabFile, LabParameterLimits, limit, no_whole_lab_problems};
use crate::content::params::bound::{Bound, value};
use crate::content::values::Values;
use crate::engine::health::HealthConfig;

/// The health server's settings. The database switches (`liveness_checks_db` and
/// `readiness_checks_db`: the flags `--liveness-checks-db`, `--readiness-checks-db`; keys
/// `1`/`2` on the live screen, which set them on the result) are no sliders: unless a source
/// gives them (1 for on), they are off.
pub fn health_config(lab: &LabFile, values: &(impl Values + ?Sized)) -> HealthConfig {
    let switch = |name: &str| values.value(name).is_some_and(|on| on >= 0.5);
    HealthConfig {
        warmup_s: value(lab, values, "warmup_s"),
        deregister_s: value(lab, values, "deregister_s"),
        grace_s: value(lab, values, "grace_s"),
        work_s: value(lab, values, "work_s"),
        liveness_checks_db: switch("liveness_checks_db"),
        readiness_checks_db: switch("readiness_checks_db"),
    }
}

/// How often the live screen probes, in seconds: never faster than 10 Hz, whatever a
/// facilitator's lab file says.
pub fn probe_period_s(lab: &LabFile, values: &(impl Values + ?Sized)) -> f64 {
    value(lab, values, "probe_period_s").max(0.1)
}

/// The port the live server asks for when nothing says otherwise: `serve health`'s default.
pub const DEFAULT_PORT: u16 = 18080;

/// The live screen's port: unprivileged ports only (a learner's app cannot bind below 1024),
/// and [`DEFAULT_PORT`] for a class's lab file that predates the slider.
const PORT: Bound = Bound::new("port", "--port", 1024.0, 65535.0);

/// The port the live screen starts `serve health` on (its slider; the CLI has `--port`).
pub fn live_port(values: &(impl Values + ?Sized)) -> u16 {
    let asked = values.value(PORT.name).unwrap_or(f64::from(DEFAULT_PORT)).round();
    // Held, not refused: every slider position is a start.
    let held = PORT
        .hold(asked, crate::content::params::bound::AtBound::Clamp)
        .unwrap_or(asked);
    held as u16
}

/// Lab 1's parameters: each one its lab file must define, with the widest range the engine
/// accepts (the content checker holds a lab file to them).
#[linkme::distributed_slice(crate::content::lab::PARAMETER_LIMITS)]
static PARAMETER_LIMITS: LabParameterLimits = LabParameterLimits {
    lab: LabId::Health,
    whole_lab_problems: no_whole_lab_problems,
    limits: &[
        limit("warmup_s", 0.0, 60.0, false),
        limit("deregister_s", 0.0, 60.0, false),
        limit("grace_s", 0.0, 120.0, false),
        limit("work_s", 0.0, 60.0, false),
        limit("probe_period_s", 0.1, 10.0, false),
        // The live server's (content::params::health::live_port): unprivileged ports.
        limit("port", 1024.0, 65535.0, true),
        // The fleet view's (content::params::fleet::resolve), as `run fleet` range-checks them.
        limit("fleet_scenario", 0.0, 4.0, true),
        limit("fleet_replicas", 1.0, 10.0, true),
        limit("fleet_liveness_db", 0.0, 1.0, true),
        limit("fleet_readiness_db", 0.0, 1.0, true),
        limit("fleet_db_state", 0.0, 2.0, true),
        limit("fleet_db_start_s", 0.0, 3_600.0, false),
        limit("fleet_db_end_s", 0.0, 3_600.0, false),
        limit("fleet_startup_period_s", 1.0, 60.0, false),
        limit("fleet_startup_threshold", 1.0, 100.0, true),
        limit("fleet_readiness_period_s", 1.0, 60.0, false),
        limit("fleet_readiness_threshold", 1.0, 100.0, true),
        limit("fleet_liveness_period_s", 1.0, 60.0, false),
        limit("fleet_liveness_threshold", 1.0, 100.0, true),
        limit("fleet_timeout_s", 0.1, 30.0, false),
        limit("fleet_backoff_initial_s", 0.0, 300.0, false),
        limit("fleet_backoff_factor", 1.0, 10.0, false),
        limit("fleet_backoff_cap_s", 1.0, 3_600.0, false),
        limit("fleet_pre_stop_s", 0.0, 120.0, false),
        limit("fleet_grace_s", 1.0, 600.0, false),
        limit("fleet_load_per_s", 0.0, 1_000.0, false),
        limit("fleet_roll_at_s", 0.0, 3_600.0, false),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_port_comes_from_its_slider_held_to_unprivileged_ports() {
        let none: &[(&str, f64)] = &[];
        assert_eq!(live_port(none), DEFAULT_PORT, "no slider: serve health's default");
        let moved: &[(&str, f64)] = &[("port", 18081.0)];
        assert_eq!(live_port(moved), 18081);
        let low: &[(&str, f64)] = &[("port", 80.0)];
        assert_eq!(live_port(low), 1024);
    }
}
