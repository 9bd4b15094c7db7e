//! One rule for the probe timeout, wherever the fleet's parameters come from: it must be below
//! every probe period. The CLI refuses a timeout that breaks it; the sliders hold it just below.

use resilience_lab::content::params::fleet::clamped as fleet_params;
use resilience_lab::content::{Content, LabId};

fn timeouts_s(values: &[(&str, f64)]) -> Vec<f64> {
    let content = Content::load(None).expect("the built-in labs load");
    let values: Vec<(String, f64)> = values.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let p = fleet_params(content.lab(LabId::Health), &values[..]);
    vec![p.startup.timeout_s, p.readiness.timeout_s, p.liveness.timeout_s]
}

#[test]
fn a_slider_timeout_below_every_period_is_used_as_set() {
    // 4.5 s is below the shortest period (5 s) but above half of it: the rule allows it.
    assert_eq!(timeouts_s(&[("fleet_timeout_s", 4.5)]), vec![4.5; 3]);
}

#[test]
fn a_slider_timeout_at_or_past_the_shortest_period_is_held_just_below_it() {
    let values = [("fleet_timeout_s", 10.0), ("fleet_readiness_period_s", 3.0)];
    assert_eq!(timeouts_s(&values), vec![2.5; 3]);
    let values = [("fleet_timeout_s", 1.0), ("fleet_liveness_period_s", 1.0)];
    assert_eq!(timeouts_s(&values), vec![0.5; 3]);
}
