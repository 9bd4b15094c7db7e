//! A lab's slider spec: one tunable input, with its unit, range and step.

use serde::Deserialize;

/// A slider: one tunable input of the lab, with its unit and range.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ParameterSpec {
    /// The key the engine and the CLI know it by, e.g. `timeout_ms`.
    pub name: String,
    pub label: String,
    /// Shown after the value; empty for plain numbers.
    #[serde(default)]
    pub unit: String,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub default: f64,
    /// One line shown when the slider has focus.
    pub help: String,
    /// For a slider that stands for a choice (min 0, step 1): the name of each value in
    /// order, shown instead of the number.
    #[serde(default)]
    pub choices: Vec<String>,
    /// A setting of the live lab only (Lab 1's port): no simulation reads it, so a check's
    /// settings leave it out and moving it never makes the sliders differ from a check's.
    #[serde(default)]
    pub live_only: bool,
}

impl ParameterSpec {
    /// Decimals needed to show a value of this slider without noise.
    pub fn decimals(&self) -> usize {
        let step = self.step.abs();
        (0..6)
            .find(|d| (step * 10f64.powi(*d as i32)).fract().abs() < 1e-9)
            .unwrap_or(6)
    }

    /// The name of the choice `value` stands for, if this slider is a choice.
    pub fn choice(&self, value: f64) -> Option<&str> {
        let index = (value - self.min) / self.step.max(1e-9);
        self.choices
            .get(index.round().clamp(0.0, self.choices.len() as f64) as usize)
            .map(String::as_str)
    }

    /// The value with the slider's decimals and unit, e.g. `200 ms` or `0.50`; a choice's name.
    pub fn display(&self, value: f64) -> String {
        if let Some(name) = self.choice(value) {
            return name.to_string();
        }
        let decimals = self.decimals();
        crate::words::with_unit(&format!("{value:.decimals$}"), &self.unit)
    }
}
