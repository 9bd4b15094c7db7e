//! Slider arithmetic: a value on a grid of `min + k * step`, clamped to `[min, max]`.
//!
//! The slider stores the grid index `k`, never a running float, so a thousand steps right
//! and back land exactly where they started; the value is rounded to the slider's decimals.

use crate::content::ParameterSpec;
use crate::content::params::Values;

/// One lab parameter the learner can move.
#[derive(Clone, Debug, PartialEq)]
pub struct Slider {
    pub spec: ParameterSpec,
    /// Grid index: the value is `min + index * step`.
    index: u64,
}

impl Slider {
    /// A slider at its default.
    pub fn new(spec: ParameterSpec) -> Self {
        let mut slider = Self { spec, index: 0 };
        slider.reset();
        slider
    }

    /// The number of steps from `min` to the last grid point at or below `max`.
    pub fn steps(&self) -> u64 {
        if self.spec.step <= 0.0 || self.spec.max <= self.spec.min {
            return 0;
        }
        // The epsilon keeps 19.999999 steps (float noise) from becoming 19.
        ((self.spec.max - self.spec.min) / self.spec.step + 1e-9).floor() as u64
    }

    /// The nearest grid index to `value`, within bounds.
    fn index_of(&self, value: f64) -> u64 {
        if self.spec.step <= 0.0 {
            return 0;
        }
        let k = ((value - self.spec.min) / self.spec.step).round();
        k.clamp(0.0, self.steps() as f64) as u64
    }

    pub fn value(&self) -> f64 {
        let raw = self.spec.min + self.index as f64 * self.spec.step;
        if !raw.is_finite() {
            // A step `check` refuses (NaN, infinite): the slider stays at its minimum.
            return self.spec.min;
        }
        let scale = 10f64.powi(self.spec.decimals() as i32);
        ((raw * scale).round() / scale).clamp(self.spec.min, self.spec.max)
    }

    /// Sets the value, snapped to the grid and clamped.
    pub fn set_value(&mut self, value: f64) {
        self.index = self.index_of(value);
    }

    /// Moves `delta` steps (negative to the left), stopping at the ends.
    pub fn step_by(&mut self, delta: i64) {
        // Saturating: `check` bounds the grid, but no spec may make this overflow or panic.
        let moved = self.index.saturating_add_signed(delta);
        self.index = moved.min(self.steps());
    }

    pub fn to_min(&mut self) {
        self.index = 0;
    }

    pub fn to_max(&mut self) {
        self.index = self.steps();
    }

    pub fn reset(&mut self) {
        self.index = self.index_of(self.spec.default);
    }

    /// Position on the bar from 0 (min) to 1 (max).
    pub fn fraction(&self) -> f64 {
        let steps = self.steps();
        if steps == 0 {
            0.0
        } else {
            self.index as f64 / steps as f64
        }
    }

    /// Sets the value from a position on the bar, 0 (min) to 1 (max).
    pub fn set_fraction(&mut self, fraction: f64) {
        self.index = (fraction.clamp(0.0, 1.0) * self.steps() as f64).round() as u64;
    }

    /// The value with its unit, e.g. `200 ms`.
    pub fn display(&self) -> String {
        self.spec.display(self.value())
    }
}

/// The current value of the slider named `name`, or its spec's absence as `None`.
pub fn value_of(sliders: &[Slider], name: &str) -> Option<f64> {
    sliders
        .iter()
        .find(|slider| slider.spec.name == name)
        .map(Slider::value)
}

/// The sliders as a source of a lab's parameters, by their specs' names.
impl Values for [Slider] {
    fn value(&self, name: &str) -> Option<f64> {
        value_of(self, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(min: f64, max: f64, step: f64, default: f64, unit: &str) -> ParameterSpec {
        ParameterSpec {
            name: "x".into(),
            label: "X".into(),
            unit: unit.into(),
            min,
            max,
            step,
            default,
            help: String::new(),
            choices: Vec::new(),
            live_only: false,
        }
    }

    #[test]
    fn steps_snap_clamp_and_do_not_drift() {
        let mut p = Slider::new(spec(0.0, 1.0, 0.05, 1.0, ""));
        assert_eq!(p.steps(), 20);
        assert_eq!(p.value(), 1.0);
        p.step_by(1);
        assert_eq!(p.value(), 1.0, "clamped at max");
        p.step_by(-14);
        assert_eq!(p.value(), 0.3, "0.3 exactly, not 0.30000000000000004");
        for _ in 0..1000 {
            p.step_by(1);
            p.step_by(-1);
        }
        assert_eq!(p.value(), 0.3);
        p.step_by(-100);
        assert_eq!(p.value(), 0.0);
        p.reset();
        assert_eq!(p.value(), 1.0);
    }

    #[test]
    fn ends_defaults_and_off_grid_values() {
        let mut t = Slider::new(spec(0.05, 1.0, 0.05, 0.5, ""));
        assert_eq!(t.steps(), 19);
        t.to_max();
        assert_eq!(t.value(), 1.0);
        t.to_min();
        assert_eq!(t.value(), 0.05);
        t.set_value(0.512);
        assert_eq!(t.value(), 0.5, "snapped to the grid from min");
        t.set_value(7.0);
        assert_eq!(t.value(), 1.0, "clamped");
        // A max off the grid: the last grid point below it.
        let mut odd = Slider::new(spec(0.0, 1.0, 0.3, 0.0, ""));
        odd.to_max();
        assert_eq!(odd.value(), 0.9);
    }

    #[test]
    fn units_and_decimals_show() {
        let mut timeout = Slider::new(spec(10.0, 2000.0, 10.0, 200.0, "ms"));
        assert_eq!(timeout.display(), "200 ms");
        timeout.step_by(10);
        assert_eq!(timeout.display(), "300 ms");
        let open = Slider::new(spec(0.5, 60.0, 0.5, 5.0, "s"));
        assert_eq!(open.display(), "5.0 s");
        let mut p = Slider::new(spec(0.0, 1.0, 0.05, 1.0, ""));
        p.set_fraction(0.5);
        assert_eq!(p.display(), "0.50");
        assert_eq!(p.fraction(), 0.5);
    }

    #[test]
    fn no_spec_makes_a_step_panic() {
        // `check` refuses these; the slider must still survive them.
        for step in [1e-300, f64::MIN_POSITIVE, 0.0, -1.0, f64::NAN, f64::INFINITY] {
            let mut s = Slider::new(spec(0.0, 1.0, step, 0.5, "s"));
            s.step_by(1);
            s.step_by(-1);
            s.step_by(i64::MAX);
            s.step_by(i64::MIN);
            s.to_max();
            s.step_by(1);
            s.set_fraction(0.5);
            s.set_value(0.25);
            assert!((0.0..=1.0).contains(&s.value()), "step {step}: value {}", s.value());
            let _ = s.display();
        }
    }
}
