//! What a lab screen shows while its first page is not a `Page` of its own (Lab 1's
//! simulated driver), and the brownout parameters Lab 3's page runs at. Lab 2's rows and
//! p-curve are its page's (`tui/labs/retry/run.rs`).

use crate::content::LabFile;
use crate::content::params;
use crate::engine::brownout::BrownoutParams;
use crate::engine::health::{self, DriverRun};
use crate::tui::slider::Slider;

/// What one lab screen shows.
#[derive(Clone, Debug, PartialEq)]
pub enum LabResults {
    Health(DriverRun),
}

/// Lab 1's simulated driver at the sliders.
pub fn compute_health(lab: &LabFile, sliders: &[Slider]) -> LabResults {
    LabResults::Health(health::simulate_driver(
        &params::health_config(lab, sliders),
        health::SIM_DRIVER_PORT,
    ))
}

/// Lab 1 keeps nothing between runs: it runs again.
pub fn recompute_health(lab: &LabFile, sliders: &[Slider], _previous: &LabResults) -> LabResults {
    compute_health(lab, sliders)
}

/// The brownout parameters the sliders describe. The sliders' ranges always make at least
/// one call; a lab file that does not is refused by `resilience-lab check`, so fall back to
/// the Atlas's run.
pub fn breaker_params(lab: &LabFile, sliders: &[Slider]) -> BrownoutParams {
    params::brownout_params(lab, sliders).unwrap_or_default()
}
