//! Lab 1's server: `warmup_s`, `deregister_s`, `grace_s`, `work_s` and the live screen's
//! probe period, from the sliders, a check's settings or `run health` / `serve health`'s flags.

use crate::content::lab::LabFile;
use crate::content::params::bound::value;
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
