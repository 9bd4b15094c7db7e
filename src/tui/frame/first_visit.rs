//! A lab page's first visit: the lesson panel opens by itself, with the lab's lesson, then
//! the guided steps with the page's first step expanded, and a line on how to close it and
//! go on.
//!
//! Each page of a lab screen (the lab itself, Lab 1's fleet view) has a first visit of its
//! own, remembered per lab in the progress file ([`crate::learning::progress::LabProgress::visited`]):
//! the lesson opens once per page, later visits open to the lab, and `L` shows the lesson
//! whenever asked.

use crate::content::LabFile;
use crate::tui::keys;
use crate::tui::msg::Msg;

/// The key that switches a lab screen's pages, as the key table names it.
fn page_key() -> &'static str {
    keys::key_label(Msg::NextPage).unwrap_or_default()
}

/// A page of a lab screen, by its index in the lab file's `[[page]]` list: page 0 is the one
/// the lab opens on (for Lab 1 the single server, page 1 the fleet view).
pub type LabPage = usize;

/// The guided step a page's first visit expands: the first step the lab file puts on it.
pub fn first_step(lab: &LabFile, page: LabPage) -> usize {
    (0..lab.steps.len())
        .find(|step| lab.step_page(*step) == page)
        .unwrap_or(0)
}

/// The page step `step` of `lab` is on, as its file says, so that a page's `p`, `[` and `]`
/// stay among the steps that page can show.
pub fn step_page(lab: &LabFile, step: usize) -> LabPage {
    lab.step_page(step)
}

/// The step of `page` after `from` (`forward`) or before it, if there is one.
pub fn next_step(lab: &LabFile, page: LabPage, from: usize, forward: bool) -> Option<usize> {
    let on_page = |step: &usize| step_page(lab, *step) == page;
    if forward {
        (from + 1..lab.steps.len()).find(on_page)
    } else {
        (0..from).rev().find(on_page)
    }
}

/// Where the guided steps go on once `page` has none after `from`: e.g. "Steps 4–11 are in
/// the fleet view: press F", for the learner at the single-server view's last step. `None`
/// while `page` has a next step, or when no later step is on another page.
pub fn steps_elsewhere(lab: &LabFile, page: LabPage, from: usize) -> Option<String> {
    if next_step(lab, page, from, true).is_some() {
        return None;
    }
    let mut later = (from + 1..lab.steps.len()).filter(|step| step_page(lab, *step) != page);
    let first = later.next()?;
    let last = later.next_back().unwrap_or(first);
    let view = &lab.pages.get(step_page(lab, first))?.title;
    let key = page_key();
    Some(if first == last {
        format!("Step {} is in {view}: press {key}", first + 1)
    } else {
        format!("Steps {}–{} are in {view}: press {key}", first + 1, last + 1)
    })
}

/// The line that stands for a run of steps on one other page than `page`, on the run's first
/// step `step` ("Steps 1–3: one server (F)"); `None` on the run's later steps and on a step
/// of `page`.
pub fn other_page_run_from(lab: &LabFile, page: LabPage, step: usize) -> Option<String> {
    let run_page = step_page(lab, step);
    if run_page == page || (step > 0 && step_page(lab, step - 1) == run_page) {
        return None;
    }
    let last = (step..lab.steps.len())
        .take_while(|at| step_page(lab, *at) == run_page)
        .last()?;
    let view = lab.pages.get(run_page).map_or("another page", |p| p.short.as_str());
    let key = page_key();
    Some(if step == last {
        format!("  Step {}: {view} ({key})", step + 1)
    } else {
        format!("  Steps {}–{}: {view} ({key})", step + 1, last + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};

    #[test]
    fn the_fleet_view_starts_at_its_own_first_step() {
        let content = Content::load(None).expect("the built-in labs load");
        let health = content.lab(LabId::Health);
        assert_eq!(first_step(health, 0), 0);
        let fleet = first_step(health, 1);
        assert_eq!(health.steps[fleet].title, "The mistake at fleet scale");
        assert!(
            health.steps[..fleet]
                .iter()
                .all(|step| step.check.as_deref().is_none_or(|id| !id.starts_with("fleet"))),
            "no fleet check before it"
        );
        assert_eq!(first_step(content.lab(LabId::Retry), 1), 0);
    }

    #[test]
    fn each_page_keeps_to_its_own_steps() {
        let content = Content::load(None).expect("the built-in labs load");
        let health = content.lab(LabId::Health);
        let fleet = first_step(health, 1);
        // Step 3 has no check: it follows step 2's page, the single server's.
        assert_eq!(step_page(health, 2), 0);
        assert_eq!(next_step(health, 0, 1, true), Some(2));
        assert_eq!(next_step(health, 0, 2, true), None, "the last single-server step");
        assert_eq!(next_step(health, 1, fleet, false), None, "the first fleet step");
        assert_eq!(next_step(health, 1, fleet, true), Some(fleet + 1));
        let last = health.steps.len() - 1;
        assert_eq!(step_page(health, last), 1);
        assert_eq!(next_step(health, 1, last, true), None);
    }

    #[test]
    fn the_last_step_of_a_page_says_where_the_steps_go_on() {
        let content = Content::load(None).expect("the built-in labs load");
        let health = content.lab(LabId::Health);
        let fleet = first_step(health, 1);
        let last = health.steps.len();
        assert_eq!(steps_elsewhere(health, 0, 1), None, "step 3 comes next");
        assert_eq!(
            steps_elsewhere(health, 0, fleet - 1),
            Some(format!("Steps {}–{last} are in the fleet view: press F", fleet + 1))
        );
        assert_eq!(steps_elsewhere(health, 1, last - 1), None, "the lab's last step");
        assert_eq!(steps_elsewhere(content.lab(LabId::Retry), 0, 1), None);
    }

    #[test]
    fn another_pages_steps_fold_to_one_line_a_run() {
        let content = Content::load(None).expect("the built-in labs load");
        let health = content.lab(LabId::Health);
        let fleet = first_step(health, 1);
        let last = health.steps.len();
        assert_eq!(
            other_page_run_from(health, 1, 0),
            Some(format!("  Steps 1–{fleet}: one server (F)"))
        );
        assert_eq!(other_page_run_from(health, 1, 1), None, "inside the run");
        assert_eq!(other_page_run_from(health, 1, fleet), None, "the page's own step");
        assert_eq!(
            other_page_run_from(health, 0, fleet),
            Some(format!("  Steps {}–{last}: fleet view (F)", fleet + 1))
        );
    }

    #[test]
    fn every_check_has_a_step_on_the_page_that_scores_it() {
        let content = Content::load(None).expect("the built-in labs load");
        for lab in &content.labs {
            for check in &lab.checks {
                let step = lab
                    .steps
                    .iter()
                    .position(|s| s.check.as_deref() == Some(check.id.as_str()));
                // Without a step a check can never be answered in the lab: its count stops short.
                let step = step.unwrap_or_else(|| panic!("{}: no step names {}", lab.id, check.id));
                // A fleet metric is the fleet simulation's: its step must be on the fleet page.
                let fleet_metric = check.metric.as_deref().is_some_and(|m| m.starts_with("fleet."));
                assert_eq!(step_page(lab, step) == 1, fleet_metric, "{}: {}", lab.id, check.id);
            }
        }
    }
}
