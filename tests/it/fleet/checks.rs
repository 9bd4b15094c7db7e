//! Lab 1's fleet checks: each is scored by the fleet simulation at its own settings, and
//! those settings give the numbers the fleet branch worked out by hand (book, lab file).

use resilience_lab::content::params::fleet as params;
use resilience_lab::content::{Content, LabId};
use resilience_lab::engine::fleet::{self, FleetScenario};
use resilience_lab::learning::metrics;

#[test]
fn each_fleet_check_is_scored_at_its_own_settings() {
    let content = Content::load(None).expect("the built-in labs load");
    let lab = content.lab(LabId::Health);
    let expected = [
        ("fleet-restarts-after-60s-outage", 3.0),
        ("fleet-first-restart-time", 61.0),
        ("fleet-liveness-no-endpoint-seconds", 286.0),
        ("fleet-process-local-restarts", 0.0),
        ("fleet-readiness-refused", 530.0),
        ("fleet-rolling-prestop-0-failed", 27.0),
        ("fleet-rolling-prestop-5-failed", 0.0),
        ("fleet-black-hole-failed", 1166.0),
    ];
    // The sliders stand at the defaults: the checks do not read them.
    let on_screen: &[(&str, f64)] = &[];
    for (id, want) in expected {
        let check = lab
            .checks
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id} in health.toml"));
        let run = metrics::check_run(lab, check, on_screen);
        let metric = check.metric.as_deref().expect("a predict check names its metric");
        assert_eq!(metrics::lookup(&run, metric), Some(want), "{id}: {metric}");
    }
}

#[test]
fn a_scenario_s_values_give_back_the_scenario() {
    let content = Content::load(None).expect("the built-in labs load");
    let lab = content.lab(LabId::Health);
    for scenario in FleetScenario::ALL {
        let values = params::scenario_values(scenario);
        let from_sliders = fleet::simulate(&params::clamped(lab, &values[..]));
        let direct = fleet::simulate(&fleet::FleetParams::scenario(scenario));
        assert_eq!(
            from_sliders.total_restarts(),
            direct.total_restarts(),
            "{}",
            scenario.name()
        );
        assert_eq!(from_sliders.requests, direct.requests, "{}", scenario.name());
    }
}

/// A fleet step's text gives the numbers its answer is worked from that no slider shows
/// (they were only in the verdict's why), and says plainly what the sliders replay (issue 26,
/// a new user's trial): each check here with words its step's text must hold.
#[test]
fn each_fleet_step_gives_what_its_answer_is_worked_from() {
    let content = Content::load(None).expect("the built-in labs load");
    let lab = content.lab(LabId::Health);
    let needs: [(&str, &[&str]); 4] = [
        // The sliders start with a longer outage: what to set to watch the card's.
        (
            "fleet-restarts-after-60s-outage",
            &["whatever the sliders show", "Database window end to 90 s"],
        ),
        // When the replicas are unready, and the routing lag.
        (
            "fleet-readiness-refused",
            &["unready by 37 s", "ready again at 90 s", "1 s before"],
        ),
        // Which share of the lagging traffic a deleted pod gets.
        (
            "fleet-rolling-prestop-0-failed",
            &["a third of the traffic", "each later one half"],
        ),
        // When the last replica leaves, and the crash loop's timing.
        (
            "fleet-liveness-no-endpoint-seconds",
            &["leaves at 63 s", "12 failed startup probes", "10, 20, 40 s"],
        ),
    ];
    for (id, words) in needs {
        let step = lab
            .steps
            .iter()
            .find(|step| step.check.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("{id}'s step"));
        for word in words {
            assert!(step.text.contains(word), "{id}: {word:?} not in {:?}", step.text);
        }
        assert!(!step.text.contains("replay the card's"), "{}", step.text);
    }
}
