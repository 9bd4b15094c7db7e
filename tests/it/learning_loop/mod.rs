//! The learning loop: predict, then observe; a verdict at the check's settings; progress that
//! counts only what was done; steps without a check.

mod rules;
mod step_without_check;
