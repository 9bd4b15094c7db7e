//! The lab files and `resilience-lab check`: the shipped content passes, broken overrides are
//! located.

mod check;
mod wording;
