//! What a lab file may ask of the app: every slider position must be reachable and showable,
//! and every slider step must recompute within one frame.
//!
//! `check` (and every load) holds lab files to these bounds, so that content a facilitator
//! ships cannot make a slider panic or freeze the screen.

/// The most grid positions one slider may have: more cannot be reached with the keys, and a
/// step far below the range's size is a typo (`1e-300`) rather than a choice.
pub const MAX_SLIDER_POSITIONS: f64 = 10_000.0;

/// The most decimals a slider shows; a finer step would show rounded, repeated values.
pub const MAX_STEP_DECIMALS: i32 = 6;

/// What is wrong with one slider's step (`min`, `max` and `step` of its spec), in words
/// that say what to fix. Takes the numbers, not the spec, so that `lab.rs` can call this
/// without the two modules importing each other.
pub fn step_problems(min: f64, max: f64, step: f64) -> Vec<String> {
    let mut problems = Vec::new();
    if step.is_infinite() {
        problems.push(format!("step is {}; allowed: a finite step", step));
    }
    // Only meaningful once the step and range are sane; the caller reports those first.
    if !(step > 0.0 && step.is_finite() && min < max) {
        return problems;
    }
    if step > max - min {
        problems.push(format!(
            "step {} is larger than the range {} to {}: the slider could not move; allowed: up to {}",
            step,
            min,
            max,
            max - min
        ));
    }
    let positions = (max - min) / step;
    if positions > MAX_SLIDER_POSITIONS {
        problems.push(format!(
            "step {} makes {positions:.0} positions from {} to {}; allowed: at most {MAX_SLIDER_POSITIONS} \
             (a step of at least {})",
            step,
            min,
            max,
            (max - min) / MAX_SLIDER_POSITIONS
        ));
    }
    let scaled = step * 10f64.powi(MAX_STEP_DECIMALS);
    if (scaled - scaled.round()).abs() > 1e-6 * scaled.max(1.0) || scaled.round() == 0.0 {
        problems.push(format!(
            "step {} needs more than {MAX_STEP_DECIMALS} decimals; allowed: a multiple of 0.000001",
            step
        ));
    }
    problems
}
