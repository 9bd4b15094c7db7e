//! Lab 1's fleet view: the `fleet_*` parameters of `labs/health.toml` to the fleet model's
//! [`FleetParams`]. The sliders of the fleet view, the fleet checks' own settings and the
//! lab file's defaults all resolve here.
//!
//! `fleet_scenario` picks the scenario the other parameters start from (its index in
//! [`Scenario::ALL`]: what the scenario fixes beyond the sliders, such as a rolling restart's
//! routing delay or the black hole's balancing); every other `fleet_*` parameter then sets
//! its field, so a check's settings say everything it is about.

use crate::content::lab::LabFile;
use crate::content::params::{Values, value};
use crate::engine::fleet::{Database, DbWindow, FleetParams, ProbeSpec, Scenario};

/// How late a slow database answers: past the probes' timeout, so a probe that checks it fails.
pub const SLOW_DB_LATENCY_MS: u64 = 2_000;

/// How far below the shortest probe period a too-long probe timeout is held: the timeout
/// slider's step, so the value used is one the slider could show.
const TIMEOUT_MARGIN_S: f64 = 0.5;

/// The scenario `fleet_scenario` names (clamped into [`Scenario::ALL`]).
pub fn scenario_of(index: f64) -> Scenario {
    let last = Scenario::ALL.len() - 1;
    Scenario::ALL[(index.round().max(0.0) as usize).min(last)]
}

/// The fleet parameters of Lab 1's lab file at `values`.
pub fn fleet_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> FleetParams {
    let get = |name: &str| value(lab, values, name);
    let count = |name: &str| get(name).round().max(1.0) as u32;
    let mut params = FleetParams::scenario(scenario_of(get("fleet_scenario")));
    params.replicas = count("fleet_replicas").min(10);
    params.server.liveness_checks_db = get("fleet_liveness_db") >= 0.5;
    params.server.readiness_checks_db = get("fleet_readiness_db") >= 0.5;
    let (start_s, end_s) = (get("fleet_db_start_s"), get("fleet_db_end_s"));
    params.database.clear();
    let state = match get("fleet_db_state").round() as i64 {
        1 => Some(Database::Slow {
            latency_ms: SLOW_DB_LATENCY_MS,
        }),
        2 => Some(Database::Down),
        _ => None,
    };
    if let Some(state) = state.filter(|_| end_s > start_s) {
        params.database.push(DbWindow { start_s, end_s, state });
    }
    // A probe's timeout must be below every probe period (the CLI refuses anything else); a
    // slider set at or past the shortest period is held just below it.
    let periods = [
        "fleet_startup_period_s",
        "fleet_readiness_period_s",
        "fleet_liveness_period_s",
    ];
    let shortest_s = periods.iter().map(|p| get(p)).fold(f64::INFINITY, f64::min);
    let timeout_s = get("fleet_timeout_s")
        .min(shortest_s - TIMEOUT_MARGIN_S)
        .max(TIMEOUT_MARGIN_S);
    let probe = |period: &str, threshold: &str| ProbeSpec {
        period_s: get(period),
        timeout_s,
        failure_threshold: count(threshold),
    };
    params.startup = probe("fleet_startup_period_s", "fleet_startup_threshold");
    params.readiness = probe("fleet_readiness_period_s", "fleet_readiness_threshold");
    params.liveness = probe("fleet_liveness_period_s", "fleet_liveness_threshold");
    params.backoff.initial_s = get("fleet_backoff_initial_s");
    params.backoff.factor = get("fleet_backoff_factor");
    params.backoff.cap_s = get("fleet_backoff_cap_s").max(params.backoff.initial_s);
    params.pre_stop_s = get("fleet_pre_stop_s");
    params.grace_s = get("fleet_grace_s");
    params.load_per_s = get("fleet_load_per_s");
    let roll_at_s = get("fleet_roll_at_s");
    params.roll_at_s = (roll_at_s > 0.0).then_some(roll_at_s);
    params
}

/// The `fleet_*` values scenario `scenario` starts from, for the fleet view's scenario key:
/// (name, value) for every parameter [`fleet_params`] reads.
pub fn scenario_values(scenario: Scenario) -> Vec<(&'static str, f64)> {
    values_of(&FleetParams::scenario(scenario))
}

/// The `fleet_*` values that give `p` as far as the sliders reach (its scenario, the first
/// database window, the liveness probe's timeout for all three): how `run fleet`'s flags are
/// compared with their scenario in the same terms as the sliders.
pub fn values_of(p: &FleetParams) -> Vec<(&'static str, f64)> {
    let index = Scenario::ALL.iter().position(|s| *s == p.scenario).unwrap_or(0);
    let (db_state, start_s, end_s) = match p.database.first() {
        Some(w) => {
            let state = match w.state {
                Database::Up => 0.0,
                Database::Slow { .. } => 1.0,
                Database::Down => 2.0,
            };
            (state, w.start_s, w.end_s)
        }
        None => (0.0, 30.0, 90.0),
    };
    vec![
        ("fleet_scenario", index as f64),
        ("fleet_replicas", f64::from(p.replicas)),
        ("fleet_liveness_db", f64::from(u8::from(p.server.liveness_checks_db))),
        ("fleet_readiness_db", f64::from(u8::from(p.server.readiness_checks_db))),
        ("fleet_db_state", db_state),
        ("fleet_db_start_s", start_s),
        ("fleet_db_end_s", end_s),
        ("fleet_startup_period_s", p.startup.period_s),
        ("fleet_startup_threshold", f64::from(p.startup.failure_threshold)),
        ("fleet_readiness_period_s", p.readiness.period_s),
        ("fleet_readiness_threshold", f64::from(p.readiness.failure_threshold)),
        ("fleet_liveness_period_s", p.liveness.period_s),
        ("fleet_liveness_threshold", f64::from(p.liveness.failure_threshold)),
        ("fleet_timeout_s", p.liveness.timeout_s),
        ("fleet_backoff_initial_s", p.backoff.initial_s),
        ("fleet_backoff_factor", p.backoff.factor),
        ("fleet_backoff_cap_s", p.backoff.cap_s),
        ("fleet_pre_stop_s", p.pre_stop_s),
        ("fleet_grace_s", p.grace_s),
        ("fleet_load_per_s", p.load_per_s),
        ("fleet_roll_at_s", p.roll_at_s.unwrap_or(0.0)),
    ]
}

/// The `fleet_*` parameters whose values at `values` differ from those of the scenario
/// `fleet_scenario` names, in [`scenario_values`]' order: empty when the run is that scenario
/// as it stands, so that a title can say "black-hole, changed: ..." rather than name a run
/// it is not.
pub fn changed_from_scenario(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<&'static str> {
    let scenario = scenario_of(value(lab, values, "fleet_scenario"));
    scenario_values(scenario)
        .into_iter()
        .filter(|&(name, expected)| (value(lab, values, name) - expected).abs() > 1e-9)
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};

    /// Every scenario's values are ones its sliders can show (in range, on a step), so a
    /// scenario applied to the sliders reads back as that scenario, unchanged (else its
    /// title would say "changed").
    #[test]
    fn each_scenario_is_reachable_by_the_sliders_and_reads_back_unchanged() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        for scenario in Scenario::ALL {
            let values = scenario_values(scenario);
            for &(name, value) in &values {
                let spec = lab.parameters.iter().find(|p| p.name == name).expect("a slider");
                let steps = (value - spec.min) / spec.step;
                assert!(
                    (spec.min..=spec.max).contains(&value) && (steps - steps.round()).abs() < 1e-9,
                    "{scenario:?}: {name} = {value} is not a value of its slider"
                );
            }
            assert_eq!(
                changed_from_scenario(lab, &values[..]),
                Vec::<&str>::new(),
                "{scenario:?}"
            );
            assert_eq!(fleet_params(lab, &values[..]).scenario, scenario);
        }
    }
}
