//! Predict, then observe, before any prompt opens: while the current step's check is still
//! unanswered, the simulated run it asks about stays hidden, so the learner cannot read the
//! answer off the screen and type it in.
//!
//! The run shows again once the check is answered (right or not, in this lab's progress),
//! or once the learner asks to see it without predicting (`x`, that step only, for this
//! session: the check stays unanswered and can still be predicted). A step without a check
//! hides nothing, and neither does a live screen: a live prediction is asked before the
//! action that decides it, and live numbers come only from a run the learner starts.

use std::collections::BTreeSet;

use crate::content::LabFile;
use crate::progress::Progress;
use crate::tui::screens::lab::predict::step_check;

/// The steps whose run the learner chose to see without predicting: kept in the screen for
/// the session, never saved (revealing is not answering).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Revealed(BTreeSet<usize>);

impl Revealed {
    /// Marks `step` revealed; true if it was not already.
    pub fn insert(&mut self, step: usize) -> bool {
        self.0.insert(step)
    }

    pub fn contains(&self, step: usize) -> bool {
        self.0.contains(&step)
    }
}

/// Whether the check `check_id` of `lab` was predicted in the lab, right or not (a file from
/// before answers were kept per lab still lists the checks passed).
pub fn answered(progress: &Progress, lab: &LabFile, check_id: &str) -> bool {
    progress.labs.get(lab.lab.name()).is_some_and(|saved| {
        saved
            .check_answers
            .get(check_id)
            .is_some_and(|answers| answers.answered > 0)
            || saved.checks_passed.iter().any(|id| id == check_id)
    })
}

/// Whether step `step` of `lab`, on a simulated page, hides its run: it has a check that is
/// neither answered in `progress` nor `revealed`.
pub fn step_hides_run(lab: &LabFile, step: usize, revealed: &Revealed, progress: &Progress) -> bool {
    step_check(lab, step).is_some_and(|check| !revealed.contains(step) && !answered(progress, lab, &check.id))
}
