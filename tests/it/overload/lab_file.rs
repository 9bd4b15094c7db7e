//! labs/overload.toml passes the lab-file checks, every check states fixed settings, and
//! every check's metric, scored the app's way at those settings, gives the lesson's answer.

use resilience_lab::content::params::Defaults;
use resilience_lab::content::question::CheckSettings;
use resilience_lab::content::{LabId, lab};
use resilience_lab::learning::metrics::{self, lookup};

const FILE: &str = include_str!("../../../labs/overload.toml");

#[test]
fn the_lab_file_is_valid() {
    let lab = lab::parse(FILE, "labs/overload.toml", LabId::Overload).expect("a valid lab file");
    assert!(lab.checks.len() >= 6);
    assert_eq!(lab.parameters.len(), 8);
}

#[test]
fn every_check_is_right_at_its_own_settings() {
    let lab = lab::parse(FILE, "labs/overload.toml", LabId::Overload).expect("a valid lab file");
    let expected = [
        ("overload-fifo-wait-after-2s", 0.5),
        ("overload-fifo-queue-after-2s", 1_000.0),
        ("overload-age-cap-queue-limit", 400.0),
        ("overload-age-cap-refused-share", 0.2),
        ("overload-bulkhead-free-threads", 160.0),
        ("overload-timeout-slots-held", 50.0),
        ("overload-throttle-probability", 1.0 / 3.0),
        ("overload-metastable-db-load", 560.0),
    ];
    for check in &lab.checks {
        assert!(
            matches!(check.settings, Some(CheckSettings::Fixed(_))),
            "{} states its settings",
            check.id
        );
        let metric = check.metric.as_deref().expect("predict checks name a metric");
        let value = lookup(&metrics::check_run(&lab, check, &Defaults), metric)
            .unwrap_or_else(|| panic!("{metric} is produced"));
        let (_, lesson) = expected
            .iter()
            .find(|(id, _)| *id == check.id)
            .expect("every check listed");
        assert!(
            check.number_is_right(value, *lesson),
            "{}: run gives {value}, lesson {lesson}",
            check.id
        );
    }
}

/// The policy slider stands for a choice: its names are the engine's policies, in the
/// order `content::params` reads the index, so the slider shows what the run uses.
#[test]
fn the_policy_slider_names_the_engines_policies_in_order() {
    use resilience_lab::engine::overload::SheddingPolicy;
    let lab = lab::parse(FILE, "labs/overload.toml", LabId::Overload).expect("a valid lab file");
    let policy = lab
        .parameters
        .iter()
        .find(|p| p.name == "policy")
        .expect("a policy slider");
    let names: Vec<&str> = SheddingPolicy::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(policy.choices, names);
    for (index, name) in names.iter().enumerate() {
        assert_eq!(policy.display(index as f64), *name);
    }
}

#[test]
fn a_choice_slider_must_name_every_value() {
    let short = FILE.replacen(
        r#"choices = ["fifo", "age-cap", "lifo", "admission", "criticality", "throttle"]"#,
        r#"choices = ["fifo", "age-cap"]"#,
        1,
    );
    assert_ne!(short, FILE, "the file has the policy's choices");
    let errors = lab::parse(&short, "labs/overload.toml", LabId::Overload).expect_err("two names for six values");
    let text = format!("{errors:?}");
    assert!(text.contains("2 choices for 6 values"), "{text}");
}

/// The throttle's step gives its formula, with a worked case at other numbers, on the card
/// the learner predicts on: it was only in the verdict's why (issue 26, a new user's trial).
#[test]
fn the_throttle_step_gives_its_formula_before_the_prediction() {
    use crate::common::{render, visited_app};
    use resilience_lab::tui::msg::Msg;
    let mut app = visited_app(80, 24);
    for msg in [Msg::Down, Msg::Down, Msg::Down, Msg::Open] {
        app.update(msg);
    }
    let lab = app.content.lab(LabId::Overload).clone();
    let step = lab
        .steps
        .iter()
        .position(|step| step.check.as_deref() == Some("overload-throttle-probability"))
        .expect("the throttle's step");
    let text = &lab.steps[step].text;
    assert!(
        text.contains("max(0, (requests - K x accepts) / (requests + 1))"),
        "{text}"
    );
    while app.labs[3].predict.step < step {
        app.update(Msg::NextStep);
    }
    app.update(Msg::Predict);
    // At 80x24 the card has room for the prompt, not the step's text: the prompt gives the
    // formula too, whole (its words may wrap, never split).
    let card = render(&app);
    assert!(card.contains("Your prediction:"), "{card}");
    for word in "max(0, (requests - K x accepts) / (requests + 1))".split_whitespace() {
        assert!(card.contains(word), "{word:?} is not on the card:\n{card}");
    }
}
