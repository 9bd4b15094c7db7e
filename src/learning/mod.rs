//! What the app and the command line share about a learner: [`progress`] (the progress
//! file), [`quiz`] (drawing and grading questions, and reading a typed answer), [`review`]
//! (spaced repetition for `quiz --review`, on [`schedule`]'s Leitner boxes), [`drill`]
//! (interview drills for `quiz --drill`), [`metrics`] (the one map of a run's named numbers,
//! for scoring a check and for the screen alike) and [`reveal`] (the hiding rule: which of
//! those numbers a screen must not show yet, and the one placeholder that stands in for them);
//! [`debrief`] keeps the on-call drill's debriefs beside the progress file.

pub mod debrief;
pub mod drill;
pub mod metrics;
pub mod progress;
pub mod quiz;
pub mod reveal;
pub mod review;
pub mod schedule;
