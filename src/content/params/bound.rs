//! What every parameter set shares: how a value past a bound is treated ([`AtBound`], one
//! [`Bound`] per parameter), and the lab file's default for a name the source does not give.
//! A module of its own so that `params` and each set's file reach it without a loop.

use crate::content::lab::LabFile;
use crate::content::values::Values;
use crate::error::UsageError;
use crate::words::same_text;

/// A check's own values as a source of a lab's parameters.
impl Values for [(String, f64)] {
    fn value(&self, name: &str) -> Option<f64> {
        self.iter().find(|(key, _)| key == name).map(|(_, value)| *value)
    }
}

/// What a value past one of its set's bounds becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtBound {
    /// The command line: refused in one line, nothing runs. A typed value past a bound is
    /// almost always a mistake, and running something else than asked would hide it.
    Refuse,
    /// The sliders and a check's settings: held at the bound, so every position of every
    /// slider is a run.
    Clamp,
}

impl AtBound {
    /// `value` if it is at most `max`; else `max` (clamp) or `refusal` (refuse).
    pub fn at_most(self, value: f64, max: f64, refusal: impl FnOnce() -> String) -> Result<f64, UsageError> {
        match self {
            _ if value <= max => Ok(value),
            AtBound::Clamp => Ok(max),
            AtBound::Refuse => Err(UsageError(refusal())),
        }
    }

    /// `value` if it is at least `min`; else `min` (clamp) or `refusal` (refuse).
    pub fn at_least(self, value: f64, min: f64, refusal: impl FnOnce() -> String) -> Result<f64, UsageError> {
        match self {
            _ if value >= min => Ok(value),
            AtBound::Clamp => Ok(min),
            AtBound::Refuse => Err(UsageError(refusal())),
        }
    }
}

/// The widest range a parameter takes, whoever sets it: the command line's flag refuses a
/// value outside it, a slider is held inside it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The parameter's name (a lab file's slider, or the set's own name for a flag no slider has).
    pub name: &'static str,
    /// The command-line flag that sets it.
    pub flag: &'static str,
    pub min: f64,
    pub max: f64,
}

impl Bound {
    /// A bound for a set's table.
    pub const fn new(name: &'static str, flag: &'static str, min: f64, max: f64) -> Self {
        Self { name, flag, min, max }
    }

    /// The bound of `name` in a set's table `bounds`, looked up while compiling (a table
    /// built from another, as a live run's bounds are from its lab's): a name not there
    /// stops the build, so the derived table cannot name a parameter the set lacks.
    pub const fn named(bounds: &[Bound], name: &str) -> Bound {
        let mut index = 0;
        while index < bounds.len() {
            if same_text(bounds[index].name, name) {
                return bounds[index];
            }
            index += 1;
        }
        panic!("no bound of that name in the table");
    }

    /// This bound with a lower maximum: a use of the parameter that must stay smaller.
    pub const fn up_to(self, max: f64) -> Bound {
        Bound { max, ..self }
    }

    /// This bound with a higher minimum: a use of the parameter that must stay larger.
    pub const fn from(self, min: f64) -> Bound {
        Bound { min, ..self }
    }

    /// No bound: what a name without one (a choice, a switch) is held to.
    const NONE: Bound = Bound::new("", "", f64::NEG_INFINITY, f64::INFINITY);

    /// The bound of `name` in a set's table `bounds`, else none.
    pub fn of(bounds: &[Bound], name: &str) -> Bound {
        bounds
            .iter()
            .copied()
            .find(|bound| bound.name == name)
            .unwrap_or(Bound::NONE)
    }

    /// `name` from `values`, if given, held inside its bound in `bounds` as `at` says.
    pub fn given(
        bounds: &[Bound],
        values: &(impl Values + ?Sized),
        name: &str,
        at: AtBound,
    ) -> Result<Option<f64>, UsageError> {
        values
            .value(name)
            .map(|v| Bound::of(bounds, name).hold(v, at))
            .transpose()
    }

    /// `value` inside the bound: held there (clamp) or refused naming the flag (refuse).
    pub fn hold(&self, value: f64, at: AtBound) -> Result<f64, UsageError> {
        let refusal = || format!("{} {value}; allowed: {} to {}", self.flag, self.min, self.max);
        let value = at.at_least(value, self.min, refusal)?;
        at.at_most(value, self.max, refusal)
    }
}

/// The default of parameter `name` in a lab file (present: `check` insists on it).
pub fn default_of(lab: &LabFile, name: &str) -> f64 {
    lab.parameters
        .iter()
        .find(|spec| spec.name == name)
        .map_or(0.0, |spec| spec.default)
}

/// `name` from `values`, else the lab file's default.
pub fn value(lab: &LabFile, values: &(impl Values + ?Sized), name: &str) -> f64 {
    values.value(name).unwrap_or_else(|| default_of(lab, name))
}

/// A whole-number parameter (attempts, actions, seeds), rounded as the sliders step.
pub(super) fn whole(lab: &LabFile, values: &(impl Values + ?Sized), name: &str) -> u64 {
    value(lab, values, name).round() as u64
}
