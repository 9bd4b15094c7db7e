//! Small widgets the views share.

pub mod number_input;
pub mod panel;
pub mod slider_bar;
pub mod state_band;
