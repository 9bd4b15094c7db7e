//! What a fleet run changed from the scenario it starts from, in short words that read whole
//! in a title or a report line ("roll at 30 s", "db window 30-90 s", "4 replicas"). The fleet
//! view's title, a fleet check's verdict and `run fleet`'s reports all name a run through
//! here, so none of them names a scenario the run is not, and all say it the same way.

use crate::content::fleet_params::changed_from_scenario;
use crate::content::lab::LabFile;
use crate::content::params::value;
use crate::content::values::Values;

/// What the `fleet_*` values `values` change from the scenario `fleet_scenario` names, in
/// words: empty while the run is that scenario as it stands.
pub fn slider_changes(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<String> {
    words(&changed_from_scenario(lab, values), |name| value(lab, values, name))
}

/// The words of the changed parameters `changed`, whose values `get` gives. The window's two
/// ends make one change, and a window of a database that is up changes nothing.
fn words(changed: &[&str], get: impl Fn(&str) -> f64) -> Vec<String> {
    let db_up = get("fleet_db_state").round() as i64 == 0;
    let mut out: Vec<String> = Vec::new();
    for &name in changed {
        let v = get(name);
        let yes = v >= 0.5;
        let text = match name {
            "fleet_replicas" => format!("{v} replicas"),
            "fleet_liveness_db" => format!("/livez {}", if yes { "checks db" } else { "local" }),
            "fleet_readiness_db" => format!("/readyz {}", if yes { "checks db" } else { "local" }),
            "fleet_db_state" => format!("db {}", ["up", "slow", "down"][(v.round().clamp(0.0, 2.0)) as usize]),
            "fleet_db_start_s" | "fleet_db_end_s" if db_up => continue,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};
    use crate::engine::fleet::Scenario;

    #[test]
    fn each_change_reads_whole_with_its_value() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        let mut values = crate::content::fleet_params::scenario_values(Scenario::LivenessChecksDb);
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
}
