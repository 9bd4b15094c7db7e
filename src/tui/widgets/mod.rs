//! Small widgets the views share.

pub mod slider_bar;
pub mod state_band;
