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
use crate::tui::screens::lab::first_visit;
use crate::tui::screens::lab::predict::step_check;
use crate::tui::screens::lab::{LabScreen, Mode};

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

/// The guided step the page showing is at: its own first step when the step kept belongs to
/// the other page (as `p`, `[` and `]` see it).
pub fn current_step(screen: &LabScreen, lab: &LabFile) -> usize {
    let page = screen.page();
    let step = screen.predict.step;
    if first_visit::step_page(lab, step) == page {
        step
    } else {
        first_visit::first_step(lab, page)
    }
}

/// Whether the page showing is the simulation (the lab screen in sim mode, or the fleet view
/// showing its simulated run).
fn simulated(screen: &LabScreen) -> bool {
    match screen.fleet.as_ref().filter(|panel| panel.showing) {
        Some(panel) => !panel.live_showing,
        None => screen.mode == Mode::Sim,
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

/// Whether the run on screen waits for a prediction: the page is simulated, no verdict is
/// open (it shows the run it scored), and the current step has a check neither answered nor
/// revealed.
pub fn run_hidden(screen: &LabScreen, lab: &LabFile, progress: &Progress) -> bool {
    if !simulated(screen) || screen.predict.observed.is_some() {
        return false;
    }
    let step = current_step(screen, lab);
    step_check(lab, step).is_some_and(|check| !screen.revealed.contains(step) && !answered(progress, lab, &check.id))
}

/// The step whose simulated run `x` would reveal: the current one, if it has a check and the
/// page showing is simulated.
pub fn revealable(screen: &LabScreen, lab: &LabFile) -> Option<usize> {
    let step = current_step(screen, lab);
    (simulated(screen) && step_check(lab, step).is_some()).then_some(step)
}
