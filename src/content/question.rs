//! One question schema for the quiz bank and for the checks inside lab files.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use crate::content::lab_id::LabId;

/// How a question is answered.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    /// Pick the one right answer among 3 to 5.
    Choice,
    /// Type a number; right within `tolerance`.
    Number,
    /// Type a number before a run; scored against a named metric of that run.
    Predict,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub fn label(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// A right answer: the text of a choice, or a number.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Answer {
    Number(f64),
    Text(String),
}

/// A question, as written in `assets/quiz/*.toml` (`[[question]]`) or a lab's `[[check]]`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// Unique across the bank and the labs; progress is saved under it.
    pub id: String,
    pub topic: String,
    /// The lab it belongs to, if any, by its name (one of `LabId::ALL`'s).
    #[serde(default)]
    pub lab: Option<String>,
    pub difficulty: Difficulty,
    pub kind: QuestionKind,
    pub prompt: String,
    #[serde(default)]
    pub choices: Vec<String>,
    /// Absent for `predict`, whose answer is what the run measures.
    #[serde(default)]
    pub answer: Option<Answer>,
    /// How far a typed number may be from the answer and still be right.
    #[serde(default)]
    pub tolerance: Option<f64>,
    #[serde(default)]
    pub unit: Option<String>,
    /// For `predict`: the run's metric, e.g. `breaker.with_breaker.sick_calls`.
    #[serde(default)]
    pub metric: Option<String>,
    /// For a lab's check: the parameter values it is scored at, or "on screen"
    /// (`content::settings`). The bank's questions have none.
    #[serde(default)]
    pub settings: Option<CheckSettings>,
    /// For a check at the settings on screen: the parameters its prompt shows.
    #[serde(default)]
    pub shows: Vec<String>,
    /// For a lab's check: other named numbers its answer follows from by a step of arithmetic
    /// (Lab 4's mean goodput against the offered load gives the refused share). Wherever the
    /// check's own number is hidden, these are hidden with it (`learning::reveal`).
    #[serde(default)]
    pub given_away_by: Vec<String>,
    /// For a lab's check: any run that shows its number gives the answer away, whatever its
    /// settings, because the view draws the arithmetic itself (Lab 4's bulkhead view: the
    /// pool, X's pool and what is left, at any pool size). Its number and `given_away_by`
    /// are hidden in every run that shows them until it is predicted (`learning::reveal`).
    #[serde(default)]
    pub given_away_at_any_settings: bool,
    /// A name shared by the bank's questions that give each other's answers away (one's
    /// explanation states another's number): a session draws at most one of them.
    #[serde(default)]
    pub fact: Option<String>,
    /// Why the answer is right, in one to four sentences.
    pub explanation: String,
    /// Where the fact comes from.
    pub source: String,
}

impl Question {
    /// Whether `typed` is within tolerance of `expected` (`typed` as `quiz::answer` read it).
    pub fn number_is_right(&self, typed: f64, expected: f64) -> bool {
        (typed - expected).abs() <= self.tolerance.unwrap_or(0.0) + 1e-9
    }

    /// Whether `typed` may be a percentage written as a fraction (0.782 for 78.2 %): a learner
    /// who writes a rate the way code stores it knows the answer, and no percentage answer
    /// above 1 % is near its own fraction.
    pub fn percent_fraction(&self, typed: f64, expected: f64) -> bool {
        let percent = self.unit.as_deref().is_some_and(|unit| unit.trim() == "%");
        percent && expected > 1.0 && (0.0..=1.0).contains(&typed)
    }

    /// The index of the right choice, for `choice` questions.
    pub fn right_choice(&self) -> Option<usize> {
        match &self.answer {
            Some(Answer::Text(text)) => self.choices.iter().position(|choice| choice == text),
            _ => None,
        }
    }
}

/// Everything wrong with a question's shape, each in words that say what to fix.
/// (Whether a predict metric exists is checked against real runs by `check`.)
pub fn problems(question: &Question) -> Vec<String> {
    let mut problems = Vec::new();
    let blank = |s: &str| s.trim().is_empty();
    if blank(&question.id) || question.id.contains(char::is_whitespace) {
        problems.push("id must be a non-empty word without spaces".to_string());
    }
    if blank(&question.prompt) {
        problems.push("prompt is empty".to_string());
    }
    if blank(&question.explanation) {
        problems.push("explanation is empty: say why the answer is right".to_string());
    }
    if blank(&question.source) {
        problems.push("source is empty: name where the fact comes from".to_string());
    }
    if let Some(lab) = &question.lab
        && LabId::from_name(lab).is_none()
    {
        // The names come from `LabId::ALL`: a written-out list here had left Labs 4 and 5 out.
        let names: Vec<&str> = LabId::ALL.iter().map(|lab| lab.name()).collect();
        problems.push(format!(
            "lab \"{lab}\" is unknown; use {}, or leave it out",
            names.join(", ")
        ));
    }
    if question.tolerance.is_some_and(|t| t.is_nan() || t < 0.0) {
        problems.push("tolerance must be 0 or more".to_string());
    }
    match question.kind {
        QuestionKind::Choice => {
            if !(3..=5).contains(&question.choices.len()) {
                problems.push(format!(
                    "a choice question needs 3 to 5 choices, not {}",
                    question.choices.len()
                ));
            }
            for (i, choice) in question.choices.iter().enumerate() {
                if question.choices[..i].contains(choice) {
                    problems.push(format!("choice \"{choice}\" appears twice"));
                }
            }
            match &question.answer {
                Some(Answer::Text(text)) if question.choices.contains(text) => {}
                Some(Answer::Text(text)) => problems.push(format!("answer \"{text}\" is not one of the choices")),
                _ => problems.push("a choice question needs answer = \"the text of the right choice\"".to_string()),
            }
        }
        QuestionKind::Number => {
            if !matches!(question.answer, Some(Answer::Number(_))) {
                problems.push("a number question needs a numeric answer".to_string());
            }
            if question.tolerance.is_none() {
                problems.push("a number question needs a tolerance (0 for exact)".to_string());
            }
        }
        QuestionKind::Predict => {
            if question.metric.as_deref().is_none_or(blank) {
                problems.push("a predict check needs metric = \"lab.caller.name\"".to_string());
            }
            if question.tolerance.is_none() {
                problems.push("a predict check needs a tolerance".to_string());
            }
        }
    }
    problems
}

/// The word a check writes to be scored at the sliders' values.
pub const ON_SCREEN: &str = "on screen";

/// Where a check's run takes its parameters from.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckSettings {
    /// These values, in the file's order: scored at them whatever the sliders say.
    Fixed(Vec<(String, f64)>),
    /// The sliders' values at the moment of the answer; the prompt shows the `shows` ones.
    OnScreen,
}

impl CheckSettings {
    /// The fixed values, or `None` for a check at the settings on screen.
    pub fn fixed(&self) -> Option<&[(String, f64)]> {
        match self {
            CheckSettings::Fixed(values) => Some(values),
            CheckSettings::OnScreen => None,
        }
    }
}

impl<'de> Deserialize<'de> for CheckSettings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SettingsVisitor)
    }
}

struct SettingsVisitor;

impl<'de> Visitor<'de> for SettingsVisitor {
    type Value = CheckSettings;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(
            formatter,
            "a table of parameter = value ([check.settings]) or the text \"{ON_SCREEN}\""
        )
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        if text == ON_SCREEN {
            Ok(CheckSettings::OnScreen)
        } else {
            Err(E::custom(format!(
                "settings = \"{text}\" is not understood; write settings = \"{ON_SCREEN}\" or a [check.settings] table of parameter = value"
            )))
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut values = Vec::new();
        while let Some((name, value)) = map.next_entry::<String, f64>()? {
            values.push((name, value));
        }
        Ok(CheckSettings::Fixed(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A question of a lab that does not exist is refused with every lab's name to use.
    #[test]
    fn an_unknown_lab_is_refused_naming_every_lab() {
        let question: Question = toml::from_str(
            r#"
            id = "q"
            topic = "retries"
            lab = "fleet"
            difficulty = "easy"
            kind = "choice"
            prompt = "?"
            choices = ["a", "b", "c"]
            answer = "a"
            explanation = "because"
            source = "the lab"
            "#,
        )
        .expect("a question's shape");
        let problems = problems(&question);
        let unknown = problems
            .iter()
            .find(|problem| problem.starts_with("lab \"fleet\" is unknown; use "))
            .expect("the lab is refused");
        for lab in LabId::ALL {
            assert!(unknown.contains(lab.name()), "{unknown} names {lab}");
        }
    }
}
