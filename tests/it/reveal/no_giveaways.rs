//! The lesson opens before step 1 and a step's text stays on the card while its check is
//! asked, so neither may state a check's answer; nor may a verdict's "why" state the answer of
//! a check asked after it. A number in those texts that a check would count right is a give-away,
//! unless it is one of that check's own settings (the conditions a question has to state).

use resilience_lab::content::question::CheckSettings;
use resilience_lab::content::{Content, LabFile, Question};
use resilience_lab::learning::metrics;

/// The numbers written in `text`, thousands separators dropped; `20%` also counts as 0.2.
fn numbers(text: &str) -> Vec<f64> {
    let mut found = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == ',' || chars[i] == '.') {
            i += 1;
        }
        let raw: String = chars[start..i].iter().collect();
        let raw = raw.trim_end_matches([',', '.']).replace(',', "");
        if let Ok(value) = raw.parse::<f64>() {
            found.push(value);
            if chars.get(i) == Some(&'%') {
                found.push(value / 100.0);
            }
        }
    }
    found
}

/// The check's answer at its own settings (at the lab's defaults for a check on screen).
fn answer(lab: &LabFile, check: &Question) -> Option<f64> {
    let defaults: Vec<(String, f64)> = lab.parameters.iter().map(|p| (p.name.clone(), p.default)).collect();
    let run = metrics::check_run(lab, check, &defaults[..]);
    metrics::lookup(&run, check.metric.as_deref()?)
}

/// The first number of `text` that `check` would count right and that is not one of its settings.
fn gives_away(text: &str, check: &Question, expected: f64) -> Option<f64> {
    let settings: Vec<f64> = match check.settings.as_ref().and_then(CheckSettings::fixed) {
        Some(own) => own.iter().map(|(_, value)| *value).collect(),
        None => Vec::new(),
    };
    numbers(text)
        .into_iter()
        .find(|value| check.number_is_right(*value, expected) && !settings.iter().any(|s| (s - value).abs() < 1e-9))
}

#[test]
fn numbers_are_read_as_written() {
    assert_eq!(numbers("holds 1,000 after 2 s, waits 0.5 s."), vec![1000.0, 2.0, 0.5]);
    assert_eq!(numbers("the excess 20%"), vec![20.0, 0.2]);
}

#[test]
fn no_lesson_step_or_earlier_verdict_states_a_checks_answer() {
    let content = Content::load(None).expect("content");
    let mut problems = Vec::new();
    let mut compared = 0;
    for lab in &content.labs {
        // The checks in the order the steps ask them.
        let asked: Vec<&Question> = lab
            .steps
            .iter()
            .filter_map(|step| step.check.as_deref())
            .filter_map(|id| lab.checks.iter().find(|check| check.id == id))
            .collect();
        for (index, check) in asked.iter().enumerate() {
            let Some(expected) = answer(lab, check) else {
                problems.push(format!("{}: no answer at its settings", check.id));
                continue;
            };
            let mut texts = vec![("the lesson".to_string(), lab.lesson.clone())];
            texts.extend(
                lab.steps
                    .iter()
                    .map(|step| (format!("step \"{}\"", step.title), step.text.clone())),
            );
            texts.extend(
                asked[..index]
                    .iter()
                    .map(|earlier| (format!("the why of {}", earlier.id), earlier.explanation.clone())),
            );
            for (place, text) in texts {
                compared += 1;
                if let Some(value) = gives_away(&text, check, expected) {
                    problems.push(format!("{}: {place} says {value}, the answer of {}", lab.id, check.id));
                }
            }
        }
    }
    assert!(compared > 0, "no check was compared");
    assert!(problems.is_empty(), "{problems:#?}");
}
