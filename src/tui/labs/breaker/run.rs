//! The brownout Lab 3's page runs at, simulated and live: the parameters its sliders describe.

use crate::content::LabFile;
use crate::content::params;
use crate::engine::brownout::BrownoutParams;
use crate::tui::slider::Slider;

/// The brownout parameters the sliders describe. The sliders' ranges always make at least
/// one call; a lab file that does not is refused by `resilience-lab check`, so fall back to
/// the Atlas's run.
pub fn breaker_params(lab: &LabFile, sliders: &[Slider]) -> BrownoutParams {
    params::brownout_params(lab, sliders).unwrap_or_default()
}
