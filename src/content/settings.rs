//! The conditions a lab's check is about: its own parameter values, or "the settings on screen".
//!
//! A check is scored by running the lab's simulation at its settings, whatever the sliders
//! show (`metrics::check_run`), so a learner who answers what the prompt asks is marked by
//! the run the prompt describes. In a lab file:
//!
//! ```toml
//! [[check]]
//! id = "retry-predict-layered"
//! prompt = "The database always fails (p = 1.0). How many ... with 4 attempts at each of 3 layers?"
//! # ...
//! [check.settings]          # every parameter of the lab, each on its slider's grid
//! p = 1.0
//! attempts_client = 4
//! # ...
//! ```
//!
//! or `settings = "on screen"` with `shows = ["window", "min_calls"]`: scored at the sliders'
//! values, which the prompt then shows. [`problems`] is what `resilience-lab check` enforces,
//! including the rule that a number the prompt writes next to a parameter agrees with the
//! settings ([`prompt_mentions`]).

use crate::content::parameter::ParameterSpec;
use crate::content::question::{CheckSettings, ON_SCREEN, Question, QuestionKind};

/// The value named `name` among a check's own settings.
fn setting(values: &[(String, f64)], name: &str) -> Option<f64> {
    values.iter().find(|(key, _)| key == name).map(|(_, value)| *value)
}

/// A number a prompt writes next to a parameter: `p = 1.0`, `4 attempts`, `30 s brownout`, `10% budget`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mention {
    /// As written, e.g. `30 s brownout`.
    pub text: String,
    /// The value it stands for (a percentage of a unitless ratio is divided by 100).
    pub value: f64,
    /// The parameters it may be about (indices into the lab's parameters); one must have `value`.
    pub parameters: Vec<usize>,
}

/// A prompt's words, lower case, with the punctuation around them stripped, each with the
/// number of its clause: a word ending in `,` `;` `:` `?` `!` `)` `.` ends one, a word starting
/// with `(` starts one, so `2 s warm-up, 0.2 s after SIGTERM` keeps its two numbers apart.
fn words(prompt: &str) -> Vec<(String, usize)> {
    let mut clause = 0;
    let mut words = Vec::new();
    for raw in prompt.split_whitespace() {
        if raw.starts_with('(') {
            clause += 1;
        }
        let word = raw
            .trim_start_matches(['(', '"'])
            .trim_end_matches([',', ';', ':', '?', '!', ')', '"', '.'])
            .to_lowercase();
        if !word.is_empty() {
            words.push((word, clause));
        }
        if raw.ends_with([',', ';', ':', '?', '!', ')', '.']) {
            clause += 1;
        }
    }
    words
}

/// `word` as a number (`10,000`, `0.30`, `10%`): the number and whether it was a percentage.
fn number(word: &str) -> Option<(f64, bool)> {
    let (digits, percent) = match word.strip_suffix('%') {
        Some(digits) => (digits, true),
        None => (word, false),
    };
    let starts_with_digit = digits.trim_start_matches('-').starts_with(|c: char| c.is_ascii_digit());
    if !starts_with_digit
        || !digits
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-'))
    {
        return None;
    }
    digits.replace(',', "").parse::<f64>().ok().map(|n| (n, percent))
}

/// The words of a parameter's label that name it in prose: four letters or more, not its unit.
fn label_words(spec: &ParameterSpec) -> Vec<String> {
    spec.label
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | '(' | ')' | ','))
        .filter(|word| word.len() >= 4 && *word != spec.unit.to_lowercase())
        .map(str::to_string)
        .collect()
}

/// Every number the prompt writes next to a parameter. The rule, for the number at word `i`:
///
/// - `KEY = N` or `KEY N`, where KEY is a parameter's name (`p = 1.0`, `window 20`), names it;
/// - `N UNIT` where UNIT is a word of three letters or more (`4 attempts`, `10 calls`) names
///   every parameter with that unit;
/// - `N UNIT` with a short unit (`2 s`, `200 ms`), or `N%` for a unitless ratio, names the
///   parameters of that unit one of whose label words is among the two words after or before
///   (`2 s warm-up`, `30 s brownout`, `10% budget`, `open time 5 s`).
///
/// Numbers that name nothing (`3 layers`, `0.2 s after SIGTERM`) are not checked.
pub fn prompt_mentions(prompt: &str, specs: &[ParameterSpec]) -> Vec<Mention> {
    let words = words(prompt);
    let mut mentions = Vec::new();
    for (i, (word, clause)) in words.iter().enumerate() {
        let Some((written, percent)) = number(word) else {
            continue;
        };
        // Only words of the same clause count as next to the number.
        let at = |index: Option<usize>| {
            index
                .and_then(|index| words.get(index))
                .filter(|(_, other)| other == clause)
                .map(|(word, _)| word.as_str())
        };
        let before = |back: usize| at(i.checked_sub(back));
        let next = at(Some(i + 1));
        let near: Vec<&str> = [before(2), before(1), next, at(Some(i + 2)), at(Some(i + 3))]
            .into_iter()
            .flatten()
            .collect();
        let mut parameters = Vec::new();
        let mut last_word = i;
        let mut first_word = i;
        for (index, spec) in specs.iter().enumerate() {
            let key = spec.name.to_lowercase();
            let by_key = before(1) == Some(key.as_str()) || (before(1) == Some("=") && before(2) == Some(key.as_str()));
            let unit = spec.unit.to_lowercase();
            let labelled = || label_words(spec).iter().any(|label| near.contains(&label.as_str()));
            let by_unit =
                !percent && !unit.is_empty() && next == Some(unit.as_str()) && (unit.len() >= 3 || labelled());
            let by_percent = percent && unit.is_empty() && labelled();
            if by_key || by_unit || by_percent {
                parameters.push(index);
                if by_key {
                    first_word = if before(1) == Some("=") { i - 2 } else { i - 1 };
                }
                if by_unit {
                    last_word = i + 1;
                }
            }
        }
        if parameters.is_empty() {
            continue;
        }
        let value = if percent { written / 100.0 } else { written };
        mentions.push(Mention {
            text: words[first_word..=last_word]
                .iter()
                .map(|(word, _)| word.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            value,
            parameters,
        });
    }
    mentions
}

/// Whether `a` and `b` are the same setting, float noise aside.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Whether `value` is a point a slider can reach: within its range and on `min + k * step`.
pub fn reachable(spec: &ParameterSpec, value: f64) -> bool {
    let steps = (value - spec.min) / spec.step;
    spec.min - 1e-9 <= value && value <= spec.max + 1e-9 && (steps - steps.round()).abs() < 1e-6
}

/// Everything wrong with a lab check's settings, `shows` and prompt, each in words that say
/// what to fix; `specs` are the lab's parameters.
pub fn problems(check: &Question, specs: &[ParameterSpec]) -> Vec<String> {
    let mut problems = Vec::new();
    let names: Vec<&str> = specs.iter().map(|spec| spec.name.as_str()).collect();
    let spec_named = |name: &str| specs.iter().find(|spec| spec.name == name);
    match &check.settings {
        None if check.kind == QuestionKind::Predict => problems.push(format!(
            "a predict check needs its settings: a [check.settings] table naming every parameter \
             ({}), or settings = \"{ON_SCREEN}\" with shows = [...]",
            names.join(", ")
        )),
        None => {}
        Some(CheckSettings::Fixed(values)) => {
            for (index, (name, value)) in values.iter().enumerate() {
                if values[..index].iter().any(|(earlier, _)| earlier == name) {
                    problems.push(format!("settings name \"{name}\" twice; keep one"));
                }
                match spec_named(name) {
                    None => problems.push(format!(
                        "settings name \"{name}\", which is no parameter of this lab; use: {}",
                        names.join(", ")
                    )),
                    Some(spec) if spec.live_only => problems.push(format!(
                        "settings name \"{name}\", which only the live lab reads (live_only); leave it out"
                    )),
                    Some(spec) if !reachable(spec, *value) => problems.push(format!(
                        "settings give {name} = {value}, which its slider cannot reach: {} to {} in steps of {}",
                        spec.min, spec.max, spec.step
                    )),
                    Some(_) => {}
                }
            }
            let missing: Vec<&str> = specs
                .iter()
                .filter(|spec| !spec.live_only)
                .map(|spec| spec.name.as_str())
                .filter(|name| !values.iter().any(|(named, _)| named == name))
                .collect();
            if !missing.is_empty() {
                problems.push(format!(
                    "settings lack {}: a check names every parameter of its lab, so a class's changed \
                     defaults never change what it asks",
                    missing.join(", ")
                ));
            }
            if !check.shows.is_empty() {
                problems.push(format!(
                    "shows is for checks at settings = \"{ON_SCREEN}\"; the app shows fixed settings itself"
                ));
            }
            for mention in prompt_mentions(&check.prompt, specs) {
                let agrees = mention
                    .parameters
                    .iter()
                    .any(|&index| setting(values, &specs[index].name).is_some_and(|set| same(set, mention.value)));
                if !agrees {
                    let set: Vec<String> = mention
                        .parameters
                        .iter()
                        .map(|&index| {
                            let name = &specs[index].name;
                            let value = setting(values, name).map_or("unset".to_string(), |v| v.to_string());
                            format!("{name} = {value}")
                        })
                        .collect();
                    problems.push(format!(
                        "the prompt says \"{}\" but the settings give {}; make them agree",
                        mention.text,
                        set.join(", ")
                    ));
                }
            }
        }
        Some(CheckSettings::OnScreen) => {
            if check.shows.is_empty() {
                problems.push(format!(
                    "a check at settings = \"{ON_SCREEN}\" needs shows = [...]: the parameters its prompt shows"
                ));
            }
            for name in &check.shows {
                if spec_named(name).is_none() {
                    problems.push(format!(
                        "shows names \"{name}\", which is no parameter of this lab; use: {}",
                        names.join(", ")
                    ));
                }
            }
            for mention in prompt_mentions(&check.prompt, specs) {
                problems.push(format!(
                    "the prompt says \"{}\" but this check is at the settings on screen: leave the \
                     value out (the app shows it) or give the check its own settings",
                    mention.text
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shipped lab file's parameters and checks, read without the loader (which imports
    /// this module).
    #[derive(serde::Deserialize)]
    struct Shipped {
        #[serde(rename = "parameter")]
        parameters: Vec<ParameterSpec>,
        #[serde(rename = "check")]
        checks: Vec<Question>,
    }

    #[derive(Clone, Copy)]
    enum Lab {
        Health,
        Retry,
        Breaker,
    }

    fn file(lab: Lab) -> Shipped {
        let text = match lab {
            Lab::Health => include_str!("../../labs/health.toml"),
            Lab::Retry => include_str!("../../labs/retry.toml"),
            Lab::Breaker => include_str!("../../labs/breaker.toml"),
        };
        toml::from_str(text).expect("a shipped lab file parses")
    }

    fn check_with(lab: Lab, prompt: &str, settings: Option<CheckSettings>) -> (Question, Vec<ParameterSpec>) {
        let file = file(lab);
        let mut check = file.checks[0].clone();
        check.prompt = prompt.to_string();
        check.settings = settings;
        (check, file.parameters)
    }

    fn shipped(lab: Lab, index: usize) -> Vec<(String, f64)> {
        let check = &file(lab).checks[index];
        check
            .settings
            .as_ref()
            .and_then(CheckSettings::fixed)
            .expect("fixed")
            .to_vec()
    }

    #[test]
    fn the_prompt_rule_finds_keys_units_and_labels() {
        let retry = &file(Lab::Retry).parameters;
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
        let health = &file(Lab::Health).parameters;
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
        let breaker = &file(Lab::Breaker).parameters;
        let found = prompt_mentions("during the 30 s brownout, with window 20 and minimum 10 calls", breaker);
        let values: Vec<f64> = found.iter().map(|m| m.value).collect();
        assert_eq!(values, [30.0, 20.0, 10.0]);
    }

    #[test]
    fn a_prompt_that_disagrees_with_its_settings_is_refused() {
        let settings = CheckSettings::Fixed(shipped(Lab::Retry, 0));
        let (check, specs) = check_with(
            Lab::Retry,
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
        let (check, specs) = check_with(Lab::Retry, "With p = 1.0, how many?", Some(settings));
        assert_eq!(problems(&check, &specs), Vec::<String>::new());
    }

    #[test]
    fn settings_are_complete_known_and_reachable() {
        let mut values = shipped(Lab::Retry, 0);
        values.retain(|(name, _)| name != "seed");
        values.push(("colour".to_string(), 1.0));
        values
            .iter_mut()
            .filter(|(name, _)| name == "p")
            .for_each(|(_, p)| *p = 0.33);
        let (check, specs) = check_with(Lab::Retry, "How many?", Some(CheckSettings::Fixed(values)));
        let found = problems(&check, &specs).join("\n");
        assert!(found.contains("\"colour\", which is no parameter"), "{found}");
        assert!(found.contains("p = 0.33, which its slider cannot reach"), "{found}");
        assert!(found.contains("settings lack seed"), "{found}");
        let (check, specs) = check_with(Lab::Retry, "How many?", None);
        assert!(problems(&check, &specs)[0].contains("needs its settings"));
    }

    /// Lab 1's port is read by its live server only: a check neither needs it nor may name it.
    #[test]
    fn a_live_only_parameter_stays_out_of_a_checks_settings() {
        let values = shipped(Lab::Health, 0);
        assert!(
            !values.iter().any(|(name, _)| name == "port"),
            "the shipped check leaves the port out"
        );
        let (check, specs) = check_with(
            Lab::Health,
            "What will /readyz say?",
            Some(CheckSettings::Fixed(values.clone())),
        );
        assert!(specs.iter().any(|spec| spec.name == "port" && spec.live_only));
        assert_eq!(problems(&check, &specs), Vec::<String>::new());
        let mut with_port = values;
        with_port.push(("port".to_string(), 18080.0));
        let (check, specs) = check_with(
            Lab::Health,
            "What will /readyz say?",
            Some(CheckSettings::Fixed(with_port)),
        );
        let found = problems(&check, &specs).join("\n");
        assert!(found.contains("\"port\", which only the live lab reads"), "{found}");
    }

    #[test]
    fn a_check_on_screen_shows_parameters_and_names_no_value() {
        let (mut check, specs) = check_with(
            Lab::Breaker,
            "With window 20, when does it open?",
            Some(CheckSettings::OnScreen),
        );
        let found = problems(&check, &specs).join("\n");
        assert!(found.contains("needs shows"), "{found}");
        assert!(found.contains("\"window 20\""), "{found}");
        check.prompt = "With the sliders as they are, when does it open?".to_string();
        check.shows = vec!["window".to_string(), "min_calls".to_string()];
        assert_eq!(problems(&check, &specs), Vec::<String>::new());
    }
}
