//! Every line reads whole at the smallest supported screen (80x24) and at 100x30: nothing cut
//! at a panel's edge, every number and key kept.

mod layout;
mod lines_whole;
mod panel_edges;
mod params_title;
mod predict;
mod wordings;
