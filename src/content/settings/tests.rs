//! The settings schema and the prompt rule on the shipped labs' checks.

use super::*;
use crate::content::{Content, LabId};

fn check_with(lab: LabId, prompt: &str, settings: Option<CheckSettings>) -> (Question, Vec<ParameterSpec>) {
    let content = Content::load(None).expect("embedded content loads");
    let file = content.lab(lab);
    let mut check = file.checks[0].clone();
    check.prompt = prompt.to_string();
    check.settings = settings;
    (check, file.parameters.clone())
}

fn shipped(lab: LabId, index: usize) -> Vec<(String, f64)> {
    let content = Content::load(None).expect("embedded content loads");
    let check = &content.lab(lab).checks[index];
    check
        .settings
        .as_ref()
        .and_then(CheckSettings::fixed)
        .expect("fixed")
        .to_vec()
}

#[test]
fn the_prompt_rule_finds_keys_units_and_labels() {
    let content = Content::load(None).expect("embedded content loads");
    let retry = &content.lab(LabId::Retry).parameters;
    let found = prompt_mentions(
        "The database always fails (p = 1.0). With 4 attempts at each of 3 layers, a 10% budget?",
        retry,
    );
    let texts: Vec<(&str, f64, usize)> = found
        .iter()
        .map(|m| (m.text.as_str(), m.value, m.parameters.len()))
        .collect();
    assert_eq!(
        texts,
        [("p = 1.0", 1.0, 1), ("4 attempts", 4.0, 3), ("10%", 0.1, 1)],
        "3 layers names no parameter"
    );
    let health = &content.lab(LabId::Health).parameters;
    let found = prompt_mentions(
        "With a 2 s warm-up, 0.2 s after SIGTERM, what will /readyz say?",
        health,
    );
    assert_eq!(
        found.len(),
        1,
        "0.2 s after SIGTERM is a moment, not a parameter: {found:?}"
    );
    assert_eq!((found[0].text.as_str(), found[0].value), ("2 s", 2.0));
    let breaker = &content.lab(LabId::Breaker).parameters;
    let found = prompt_mentions("during the 30 s brownout, with window 20 and minimum 10 calls", breaker);
    let values: Vec<f64> = found.iter().map(|m| m.value).collect();
    assert_eq!(values, [30.0, 20.0, 10.0]);
}

#[test]
fn a_prompt_that_disagrees_with_its_settings_is_refused() {
    let settings = CheckSettings::Fixed(shipped(LabId::Retry, 0));
    let (check, specs) = check_with(
        LabId::Retry,
        "With p = 0.3 and 4 attempts at each layer, how many attempts?",
        Some(settings.clone()),
    );
    let found = problems(&check, &specs);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("\"p = 0.3\"") && found[0].contains("p = 1"),
        "{}",
        found[0]
    );
    let (check, specs) = check_with(LabId::Retry, "With p = 1.0, how many?", Some(settings));
    assert_eq!(problems(&check, &specs), Vec::<String>::new());
}

#[test]
fn settings_are_complete_known_and_reachable() {
    let mut values = shipped(LabId::Retry, 0);
    values.retain(|(name, _)| name != "seed");
    values.push(("colour".to_string(), 1.0));
    values
        .iter_mut()
        .filter(|(name, _)| name == "p")
        .for_each(|(_, p)| *p = 0.33);
    let (check, specs) = check_with(LabId::Retry, "How many?", Some(CheckSettings::Fixed(values)));
    let found = problems(&check, &specs).join("\n");
    assert!(found.contains("\"colour\", which is no parameter"), "{found}");
    assert!(found.contains("p = 0.33, which its slider cannot reach"), "{found}");
    assert!(found.contains("settings lack seed"), "{found}");
    let (check, specs) = check_with(LabId::Retry, "How many?", None);
    assert!(problems(&check, &specs)[0].contains("needs its settings"));
}

#[test]
fn a_check_on_screen_shows_parameters_and_names_no_value() {
    let (mut check, specs) = check_with(
        LabId::Breaker,
        "With window 20, when does it open?",
        Some(CheckSettings::OnScreen),
    );
    let found = problems(&check, &specs).join("\n");
    assert!(found.contains("needs shows"), "{found}");
    assert!(found.contains("\"window 20\""), "{found}");
    check.prompt = "With the sliders as they are, when does it open?".to_string();
    check.shows = vec!["window".to_string(), "min_calls".to_string()];
    assert_eq!(problems(&check, &specs), Vec::<String>::new());
    let on_screen: &[(&str, f64)] = &[("window", 100.0)];
    assert_eq!(
        describe(&specs, &["window", "min_calls"], on_screen),
        "Breaker window 100 calls, Minimum calls 10 calls"
    );
}
