//! The hiding rule for the drill: what on-call sees before the reveal never names the
//! incident, its title, its fault's mode or its hidden settings.

use resilience_lab::cli::LeverScript;
use resilience_lab::commands::oncall::play;
use resilience_lab::engine::oncall::builtin_incidents;
use resilience_lab::report::oncall::oncall_dashboard;

#[test]
fn the_dashboard_never_shows_the_incident_or_its_hidden_settings() {
    let incidents = builtin_incidents().unwrap();
    for incident in &incidents {
        for seed in [1, 2, 3] {
            for script in [LeverScript::Runbook, LeverScript::Pulls(Vec::new())] {
                let (run, _) = play(incident, seed, &script);
                for second in &run.seconds {
                    let screen = oncall_dashboard(second).to_lowercase();
                    let mut hidden: Vec<String> = incidents.iter().map(|i| i.name.clone()).collect();
                    hidden.push(incident.title.to_lowercase());
                    hidden.extend(
                        [
                            "brownout",
                            "hang",
                            "reject_503",
                            "slow",
                            "storm",
                            "capacity",
                            "mesh",
                            "onset",
                            "fault",
                        ]
                        .map(String::from),
                    );
                    for word in hidden {
                        assert!(
                            !screen.contains(&word),
                            "{} seed {seed} t={}: {word:?} in\n{screen}",
                            incident.name,
                            second.t_s
                        );
                    }
                    for dep in ["payments", "inventory", "recommendations", "receipt-store"] {
                        assert!(screen.contains(dep), "every dependency has its row");
                    }
                }
            }
        }
    }
}

#[test]
fn the_dashboard_fits_80_columns() {
    let incidents = builtin_incidents().unwrap();
    let (run, _) = play(&incidents[0], 1, &LeverScript::Pulls(Vec::new()));
    for second in &run.seconds {
        for line in oncall_dashboard(second).lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
    }
}
