//! The lesson opens before step 1 and a step's text stays on the card while its check is
//! asked, so neither may state a check's answer; nor may a verdict's "why" state the answer of
//! a check asked after it. A number in those texts that a check would count right is a give-away,
//! unless it is one of that check's own settings (the conditions a question has to state).

use resilience_lab::content::question::CheckSettings;
use resilience_lab::content::{Content, LabFile, Question};
use resilience_lab::learning::metrics;
use resilience_lab::learning::quiz::trim_number;

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

/// The checks of `lab` in the order its steps ask them.
fn asked_in_order(lab: &LabFile) -> Vec<&Question> {
    lab.steps
        .iter()
        .filter_map(|step| step.check.as_deref())
        .filter_map(|id| lab.checks.iter().find(|check| check.id == id))
        .collect()
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
        let asked = asked_in_order(lab);
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
            for earlier in &asked[..index] {
                texts.push((format!("the why of {}", earlier.id), earlier.explanation.clone()));
            }
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

/// The calls a breaker lets through in the brownout before it first opens, at `check`'s
/// settings (the lab's defaults for a check on screen): a text that says how many says when
/// it opens (one call every 1/rate s).
fn calls_before_opening(lab: &LabFile, check: &Question, first_open_s: f64) -> Option<f64> {
    let own = check.settings.as_ref().and_then(CheckSettings::fixed);
    let setting = |name: &str| match own {
        Some(own) => own.iter().find(|(n, _)| n == name).map(|(_, v)| *v),
        None => lab.parameters.iter().find(|p| p.name == name).map(|p| p.default),
    };
    Some(((first_open_s - setting("brownout_start_s")?) * setting("rate")?).round())
}

#[test]
fn no_earlier_card_or_verdict_shows_a_later_answer_as_its_check_writes_it() {
    // What a step's card and verdict put on screen besides the lesson: its question, the
    // number the run measured (as the verdict writes it) and its why. A later check's answer,
    // written as its own verdict writes it, must be in none of them (a tolerance would count
    // a prompt's "12 s" as a count of 10 ± 2: this compares the written number).
    let content = Content::load(None).expect("content");
    let mut problems = Vec::new();
    let mut compared = 0;
    for lab in &content.labs {
        let asked = asked_in_order(lab);
        let answers: Vec<Option<f64>> = asked.iter().map(|check| answer(lab, check)).collect();
        for (later_index, later) in asked.iter().enumerate() {
            let Some(expected) = answers[later_index] else { continue };
            let written = trim_number(expected);
            for (earlier, measured) in asked[..later_index].iter().zip(&answers) {
                let verdict = measured.map(trim_number).unwrap_or_default();
                // Two checks with one answer (/readyz says 503 warming up and draining; step 7
                // on screen at the defaults is step 6): the later asks what the earlier taught.
                if verdict == written {
                    continue;
                }
                let shown = [&earlier.prompt, &verdict, &earlier.explanation];
                for text in shown {
                    compared += 1;
                    let words: Vec<String> = numbers(text).into_iter().map(trim_number).collect();
                    if words.contains(&written) && !is_setting(later, expected) {
                        problems.push(format!(
                            "{}: {} shows {written}, the answer of {}",
                            lab.id, earlier.id, later.id
                        ));
                    }
                }
            }
        }
    }
    assert!(compared > 0, "no card was compared");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Whether `value` is one of `check`'s own settings (a condition its question states).
fn is_setting(check: &Question, value: f64) -> bool {
    check
        .settings
        .as_ref()
        .and_then(CheckSettings::fixed)
        .is_some_and(|own| own.iter().any(|(_, setting)| (setting - value).abs() < 1e-9))
}

#[test]
fn no_earlier_text_counts_the_calls_that_date_the_first_opening() {
    let content = Content::load(None).expect("content");
    let mut compared = 0;
    for lab in &content.labs {
        let asked = asked_in_order(lab);
        for (index, check) in asked.iter().enumerate() {
            if check.metric.as_deref() != Some("breaker.with_breaker.first_open_s") {
                continue;
            }
            let opened_s = answer(lab, check).expect("the first opening at its settings");
            let calls = calls_before_opening(lab, check, opened_s).expect("rate and brownout start");
            for earlier in &asked[..index] {
                compared += 1;
                assert!(
                    !numbers(&earlier.explanation).contains(&calls),
                    "the why of {} counts {calls} calls before the first opening, which dates it at {opened_s} s",
                    earlier.id
                );
            }
        }
    }
    assert!(compared > 0, "no explanation came before a first-opening check");
}

#[test]
fn a_number_that_gives_an_answer_away_is_one_the_checks_run_shows() {
    let content = Content::load(None).expect("content");
    let mut named = 0;
    for lab in &content.labs {
        let defaults: Vec<(String, f64)> = lab.parameters.iter().map(|p| (p.name.clone(), p.default)).collect();
        for check in &lab.checks {
            let run = metrics::check_run(lab, check, &defaults[..]);
            for metric in &check.given_away_by {
                named += 1;
                assert!(
                    metrics::lookup(&run, metric).is_some(),
                    "{}: its run names no {metric}",
                    check.id
                );
            }
        }
    }
    assert!(named > 0, "no check names a number that gives it away");
}

#[test]
fn the_readmes_opening_states_no_checks_answer() {
    // A newcomer reads the README before any lab (a trial's learner met 64, 44 and 3,133 there
    // before predicting them). Its opening, before the set-up commands, may name what each lab
    // counts but not a count a check asks for, written as that check's verdict writes it. A
    // whole number under 10 is left out: the opening numbers its labs 1 to 5.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md");
    let opening = readme.split("## Set up").next().expect("an opening");
    let written: Vec<String> = numbers(opening).into_iter().map(trim_number).collect();
    let content = Content::load(None).expect("content");
    let mut problems = Vec::new();
    let mut compared = 0;
    for lab in &content.labs {
        for check in asked_in_order(lab) {
            let Some(expected) = answer(lab, check) else { continue };
            if expected.fract() == 0.0 && expected.abs() < 10.0 {
                continue;
            }
            compared += 1;
            let answer = trim_number(expected);
            if written.contains(&answer) {
                problems.push(format!(
                    "the README's opening says {answer}, the answer of {}",
                    check.id
                ));
            }
        }
    }
    assert!(compared > 20, "only {compared} checks compared");
    assert!(problems.is_empty(), "{problems:#?}");
}
