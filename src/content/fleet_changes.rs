//! What a fleet run changed from the scenario it starts from, in short words that read whole
//! in a title or a report line ("roll at 30 s", "db window 30-90 s", "4 replicas"). The fleet
//! view's title, a fleet check's verdict and `run fleet`'s reports all name a run through
//! here, so none of them names a scenario the run is not, and all say it the same way.

use crate::content::lab::LabFile;
use crate::content::params::fleet::{changed_from_scenario, values_of};
use crate::content::params::value;
use crate::content::values::Values;
use crate::engine::fleet::{Database, FleetParams};

/// What the `fleet_*` values `values` change from the scenario `fleet_scenario` names, in
/// words: empty while the run is that scenario as it stands.
pub fn slider_changes(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<String> {
    words(&changed_from_scenario(lab, values), |name| value(lab, values, name))
}

/// What `p` (a run of `run fleet`, its flags applied) changes from `p.scenario`, in the
/// sliders' words and, for the settings only flags reach, in words of their own; the time
/// scale of a live run is not a change (it runs the same model seconds).
pub fn params_changes(p: &FleetParams) -> Vec<String> {
    let scenario = FleetParams::scenario(p.scenario);
    let ours = values_of(p);
    let theirs = values_of(&scenario);
    let changed: Vec<&str> = ours
        .iter()
        .zip(&theirs)
        .filter(|((_, a), (_, b))| (a - b).abs() > 1e-9)
        .map(|((name, _), _)| *name)
        .collect();
    let mut changes = words(&changed, |name| ours[..].value(name).unwrap_or(0.0));
    let latency_ms = |p: &FleetParams| match p.database.first().map(|w| w.state) {
        Some(Database::Slow { latency_ms }) => Some(latency_ms),
        _ => None,
    };
    let s = &p.server;
    #[rustfmt::skip]
    let flag_only = [
        (p.duration_s != scenario.duration_s, format!("{} s run", p.duration_s)),
        (p.stagger_s != scenario.stagger_s, format!("stagger {} s", p.stagger_s)),
        (s.warmup_s != scenario.server.warmup_s, format!("warm-up {} s", s.warmup_s)),
        (s.deregister_s != scenario.server.deregister_s, format!("deregister {} s", s.deregister_s)),
        (s.work_s != scenario.server.work_s, format!("work {} ms", s.work_s * 1e3)),
        (p.routing_delay_s != scenario.routing_delay_s, format!("routing delay {} s", p.routing_delay_s)),
        (p.load_start_s != scenario.load_start_s, format!("load from {} s", p.load_start_s)),
        (p.on_db_down != scenario.on_db_down, format!("on db down: {}", json_word(&p.on_db_down))),
        (p.balancing != scenario.balancing, json_word(&p.balancing)),
        (p.fail_open != scenario.fail_open, if p.fail_open { "fail open" } else { "no fail open" }.to_string()),
        (p.black_holes != scenario.black_holes, format!("{} black holes", p.black_holes)),
        (p.backoff.reset_after_s != scenario.backoff.reset_after_s,
            format!("back-off reset {} s", p.backoff.reset_after_s)),
        (latency_ms(p).is_some() && latency_ms(p) != latency_ms(&scenario),
            format!("db {} ms", latency_ms(p).unwrap_or(0))),
    ];
    changes.extend(
        flag_only
            .into_iter()
            .filter(|(differs, _)| *differs)
            .map(|(_, words)| words),
    );
    // A difference neither list names (none the flags can make today) still must not read
    // as the scenario itself.
    let as_scenario = FleetParams {
        time_scale: scenario.time_scale,
        ..p.clone()
    };
    if changes.is_empty() && as_scenario != scenario {
        changes.push("other settings".to_string());
    }
    changes
}

/// A value's name as the JSON report spells it ("round-robin", "fail").
fn json_word(value: &impl serde::Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The database's state (0 up, 1 slow, 2 down) during its window.
pub const DB_STATE: &str = "fleet_db_state";
/// The database window's two ends.
pub const DB_WINDOW: [&str; 2] = ["fleet_db_start_s", "fleet_db_end_s"];

/// Whether the database window changes nothing at a database state `state` (its value, if
/// the run has one): while the database is up, its window is no outage. The one rule for
/// the title's words ([`slider_changes`], [`params_changes`]) and the hiding rule
/// ([`super::moot`]).
pub fn db_window_moot(state: Option<f64>) -> bool {
    state.is_some_and(|state| state.round() == 0.0)
}

/// The words of the changed parameters `changed`, whose values `get` gives. The window's two
/// ends make one change, and a window of a database that is up changes nothing.
fn words(changed: &[&str], get: impl Fn(&str) -> f64) -> Vec<String> {
    let window_moot = db_window_moot(Some(get(DB_STATE)));
    let mut out: Vec<String> = Vec::new();
    for &name in changed {
        let v = get(name);
        let yes = v >= 0.5;
        let text = match name {
            "fleet_replicas" => format!("{v} replicas"),
            "fleet_liveness_db" => format!("/livez {}", if yes { "checks db" } else { "local" }),
            "fleet_readiness_db" => format!("/readyz {}", if yes { "checks db" } else { "local" }),
            "fleet_db_state" => format!("db {}", ["up", "slow", "down"][(v.round().clamp(0.0, 2.0)) as usize]),
            name if window_moot && DB_WINDOW.contains(&name) => continue,
            "fleet_db_start_s" | "fleet_db_end_s" => {
                format!("db window {}-{} s", get("fleet_db_start_s"), get("fleet_db_end_s"))
            }
            "fleet_startup_period_s" => format!("startup every {v} s"),
            "fleet_startup_threshold" => format!("startup threshold {v}"),
            "fleet_readiness_period_s" => format!("readiness every {v} s"),
            "fleet_readiness_threshold" => format!("readiness threshold {v}"),
            "fleet_liveness_period_s" => format!("liveness every {v} s"),
            "fleet_liveness_threshold" => format!("liveness threshold {v}"),
            "fleet_timeout_s" => format!("probe timeout {v} s"),
            "fleet_backoff_initial_s" => format!("back-off from {v} s"),
            "fleet_backoff_factor" => format!("back-off x{v}"),
            "fleet_backoff_cap_s" => format!("back-off cap {v} s"),
            "fleet_pre_stop_s" => format!("preStop {v} s"),
            "fleet_grace_s" => format!("grace {v} s"),
            "fleet_load_per_s" => format!("load {v}/s"),
            "fleet_roll_at_s" if v > 0.0 => format!("roll at {v} s"),
            "fleet_roll_at_s" => "no roll".to_string(),
            other => other.trim_start_matches("fleet_").replace('_', " "),
        };
        if !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

/// The run's name for a report line: the scenario's, and what changed if anything did.
pub fn run_name(p: &FleetParams) -> String {
    let changes = params_changes(p);
    if changes.is_empty() {
        p.scenario.name().to_string()
    } else {
        format!("{} (changed: {})", p.scenario.name(), changes.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};
    use crate::engine::fleet::{DbWindow, FleetScenario};

    #[test]
    fn each_change_reads_whole_with_its_value() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        let mut values = crate::content::params::fleet::scenario_values(FleetScenario::LivenessChecksDb);
        assert_eq!(slider_changes(lab, &values[..]), Vec::<String>::new());
        for (name, value) in &mut values {
            match *name {
                "fleet_roll_at_s" => *value = 30.0,
                "fleet_db_end_s" => *value = 90.0,
                "fleet_replicas" => *value = 4.0,
                _ => {}
            }
        }
        assert_eq!(
            slider_changes(lab, &values[..]),
            ["4 replicas", "db window 30-90 s", "roll at 30 s"]
        );
        for (name, value) in &mut values {
            if *name == "fleet_db_state" {
                *value = 0.0;
            }
        }
        assert_eq!(
            slider_changes(lab, &values[..])[1],
            "db up",
            "an up database's window is no change"
        );
    }

    #[test]
    fn a_scenario_as_it_stands_changes_nothing() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        for scenario in FleetScenario::ALL {
            let p = FleetParams::scenario(scenario);
            assert_eq!(params_changes(&p), Vec::<String>::new(), "{scenario:?}");
            let values = crate::content::params::fleet::scenario_values(scenario);
            assert_eq!(slider_changes(lab, &values[..]), Vec::<String>::new(), "{scenario:?}");
            let live = FleetParams { time_scale: 0.01, ..p };
            assert_eq!(run_name(&live), scenario.name(), "a live time scale is not a change");
        }
    }

    #[test]
    fn each_flag_change_reads_whole_with_its_value() {
        let mut p = FleetParams::scenario(FleetScenario::LivenessChecksDb);
        p.database = vec![DbWindow {
            start_s: 30.0,
            end_s: 90.0,
            state: Database::Down,
        }];
        p.roll_at_s = Some(30.0);
        p.replicas = 4;
        p.duration_s = 120.0;
        assert_eq!(
            params_changes(&p),
            ["4 replicas", "db window 30-90 s", "roll at 30 s", "120 s run"]
        );
        assert_eq!(
            run_name(&p),
            "liveness-checks-db (changed: 4 replicas, db window 30-90 s, roll at 30 s, 120 s run)"
        );
        p.database.clear();
        assert_eq!(params_changes(&p)[1], "db up", "an up database's window is no change");
    }
}
