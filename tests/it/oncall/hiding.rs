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

/// An incident file's name, title and hidden settings, read from the file itself, as the
/// lines the file writes them in (`capacity_per_s = 85`).
struct FileSecrets {
    name: String,
    title: String,
    mode: String,
    settings: Vec<String>,
}

fn file_secrets() -> Vec<FileSecrets> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/incidents");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let line_of = |key: &str| {
            text.lines()
                .find(|line| line.starts_with(&format!("{key} =")))
                .map(|line| line.trim().to_string())
        };
        let value_of = |key: &str| {
            let line = line_of(key).unwrap();
            line.split_once('=').unwrap().1.trim().trim_matches('"').to_string()
        };
        found.push(FileSecrets {
            name: value_of("name"),
            title: value_of("title"),
            mode: value_of("mode"),
            settings: ["mode", "duration_s", "capacity_per_s", "hang_ms", "mesh_attempts"]
                .into_iter()
                .filter_map(line_of)
                .collect(),
        });
    }
    assert_eq!(found.len(), 5, "five incident files");
    found
}

/// Whether `word` stands as a word in `text` (so `hang` is not found in `change`).
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// What the screen must not show before the reveal: every incident's name, this one's title
/// and settings, the mode words and the words that would point at a cause.
fn assert_hidden(screen: &str, secrets: &FileSecrets, all: &[FileSecrets], moment: &str) {
    let lower = screen.to_lowercase();
    for other in all {
        assert!(
            !lower.contains(&other.name),
            "{moment}: {:?} on screen\n{screen}",
            other.name
        );
    }
    assert!(
        !lower.contains(&secrets.title.to_lowercase()),
        "{moment}: the title on screen\n{screen}"
    );
    for setting in &secrets.settings {
        assert!(
            !screen.contains(setting.as_str()),
            "{moment}: {setting:?} on screen\n{screen}"
        );
    }
    for word in [
        "brownout",
        "hang",
        "reject_503",
        "slow",
        "storm",
        "capacity",
        "mesh",
        "onset",
        "fault",
    ] {
        assert!(!has_word(&lower, word), "{moment}: {word:?} on screen\n{screen}");
    }
    assert!(!has_word(&lower, &secrets.mode), "{moment}: the mode on screen");
}

#[test]
fn the_drill_screen_hides_the_incident_until_the_reveal_and_shows_it_after() {
    use super::screen::drill_app;
    use crate::common::render;
    use resilience_lab::engine::oncall::DrillSetup;
    use resilience_lab::tui::msg::{Msg, OncallMsg};

    let all = file_secrets();
    let incidents = builtin_incidents().unwrap();
    for secrets in &all {
        let incident = incidents.iter().find(|i| i.name == secrets.name).unwrap();
        for seed in [1, 2, 3] {
            let setup = DrillSetup::new(incident, seed);
            let onset = setup.onset_s as usize;
            let first = setup.runbook()[0];
            let at = |moment: &str| format!("{} seed {seed} {moment}", secrets.name);
            // One drill per incident and seed, drawn at both sizes at every moment.
            let mut app = drill_app(100, 30, &secrets.name, seed, onset - 5);
            let both = |app: &mut resilience_lab::tui::app::App| {
                let mut shown = Vec::new();
                for (width, height) in [(80, 24), (100, 30)] {
                    app.update(Msg::Resize(width, height));
                    shown.push(render(app));
                }
                shown
            };
            let step_to = |app: &mut resilience_lab::tui::app::App, t_s: usize| {
                let play = &mut app.oncall.as_mut().unwrap().play;
                let now = play.t_s();
                play.step(t_s - now);
            };
            for moment in [onset - 5, onset, onset + 10] {
                step_to(&mut app, moment);
                for screen in both(&mut app) {
                    assert_hidden(&screen, secrets, &all, &at(&format!("t={moment}")));
                }
            }
            // The runbook's first lever, through the picker and the form.
            step_to(&mut app, first.t_s as usize);
            app.update(Msg::Oncall(OncallMsg::Levers));
            let row = app
                .oncall
                .as_ref()
                .unwrap()
                .play
                .offer()
                .iter()
                .position(|l| *l == first.lever);
            for _ in 0..row.expect("the runbook's lever is on offer") {
                app.update(Msg::Down);
            }
            for screen in both(&mut app) {
                assert_hidden(&screen, secrets, &all, &at("picker"));
            }
            app.update(Msg::Open);
            for c in "goodput is down".chars() {
                app.update(Msg::Type(c));
            }
            for screen in both(&mut app) {
                assert_hidden(&screen, secrets, &all, &at("form"));
            }
            app.update(Msg::Open);
            app.update(Msg::Open);
            assert_eq!(app.oncall.as_ref().unwrap().play.view().decisions.len(), 1);
            step_to(&mut app, first.t_s as usize + 40);
            for screen in both(&mut app) {
                assert_hidden(&screen, secrets, &all, &at("after a lever"));
            }
            // The reveal names it all: the title whole at 100 columns, where it fits one line.
            app.update(Msg::Oncall(OncallMsg::End));
            app.update(Msg::Oncall(OncallMsg::End));
            let [narrow, wide] = <[String; 2]>::try_from(both(&mut app)).unwrap();
            for shown in [&narrow, &wide] {
                assert!(
                    shown.contains(&secrets.name),
                    "{}: the name after the reveal\n{shown}",
                    at("reveal")
                );
                for setting in &secrets.settings {
                    assert!(
                        shown.contains(setting.as_str()),
                        "{}: {setting:?} after the reveal\n{shown}",
                        at("reveal")
                    );
                }
            }
            assert!(
                wide.contains(&secrets.title),
                "{}: the title after the reveal",
                at("reveal")
            );
        }
    }
}

#[test]
fn a_facilitators_second_fault_and_hints_never_name_an_incident_on_the_learners_screen() {
    use super::screen::drill_app;
    use crate::common::render;
    use resilience_lab::engine::oncall::{DrillSetup, FacilitatorCommand};

    let all = file_secrets();
    let incidents = builtin_incidents().unwrap();
    for (i, secrets) in all.iter().enumerate() {
        // The next file's fault, on the first dependency its file names.
        let second = &all[(i + 1) % all.len()];
        let incident = incidents.iter().find(|x| x.name == secrets.name).unwrap();
        let second_spec = incidents.iter().find(|x| x.name == second.name).unwrap();
        let onset = DrillSetup::new(incident, 1).onset_s as usize;
        let at = |moment: &str| format!("{} + {} {moment}", secrets.name, second.name);
        let mut app = drill_app(100, 30, &secrets.name, 1, onset - 5);
        let screen = app.oncall.as_mut().unwrap();
        let add = FacilitatorCommand::AddFault {
            incident: second.name.clone(),
            dependency: second_spec.dependencies[0].name().to_string(),
        };
        let (_, said) = screen.apply_facilitator(add);
        assert!(said.starts_with("second fault"), "{said}");
        for hint in [0, 1] {
            screen.play.step(3);
            let (_, said) = screen.apply_facilitator(FacilitatorCommand::CallOwner { hint });
            assert!(said.starts_with("hint sent"), "{said}");
        }
        for moment in [onset + 10, onset + 30, onset + 70] {
            let play = &mut app.oncall.as_mut().unwrap().play;
            let now = play.t_s();
            play.step(moment - now);
            for (width, height) in [(80, 24), (100, 30)] {
                app.update(resilience_lab::tui::msg::Msg::Resize(width, height));
                let shown = render(&app);
                assert_hidden(&shown, secrets, &all, &at(&format!("t={moment}")));
                assert_hidden(&shown, second, &all, &at(&format!("t={moment}, the second fault")));
            }
        }
        let shown = render(&app);
        assert!(
            shown.contains("owner on the phone"),
            "{}: the hints are in the log\n{shown}",
            at("log")
        );
    }
}
