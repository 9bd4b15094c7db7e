//! A lab page's first visit: the lesson panel opens by itself, with the lab's lesson, then
//! the guided steps with the page's first step expanded, and a line on how to close it and
//! go on.
//!
//! Each page of a lab screen (the lab itself, Lab 1's fleet view) has a first visit of its
//! own, remembered per lab in the progress file ([`crate::learning::progress::LabProgress::visited`]):
//! the lesson opens once per page, later visits open to the lab, and `L` shows the lesson
//! whenever asked.

use crate::content::{LabFile, Question};

/// Lab 1's fleet checks are scored by the fleet simulation, whose metrics all carry this
/// prefix (`metrics::fleet_metrics`): their steps are the fleet view's.
const FLEET_METRIC_PREFIX: &str = "fleet.";

/// A page of a lab screen with a first visit of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabPage {
    /// The lab screen, sim or live.
    Main,
    /// Lab 1's fleet view (key `F`).
    Fleet,
}

impl LabPage {
    pub const ALL: [LabPage; 2] = [LabPage::Main, LabPage::Fleet];

    /// The page's name in the progress file.
    pub fn key(self) -> &'static str {
        match self {
            LabPage::Main => "lab",
            LabPage::Fleet => "fleet",
        }
    }
}

/// The guided step a page's first visit expands: the lab's step 1, or the fleet view's
/// first step (the first whose check the fleet simulation scores).
pub fn first_step(lab: &LabFile, page: LabPage) -> usize {
    match page {
        LabPage::Main => 0,
        LabPage::Fleet => (0..lab.steps.len())
            .find(|step| step_check_page(lab, *step) == Some(LabPage::Fleet))
            .unwrap_or(0),
    }
}

/// Whether `check` is scored by the fleet simulation (its metric is a fleet one): a check of
/// the fleet view, whose prompt compares the fleet sliders with its settings.
pub fn is_fleet_check(check: &Question) -> bool {
    check
        .metric
        .as_deref()
        .is_some_and(|metric| metric.starts_with(FLEET_METRIC_PREFIX))
}

/// The page of step `step`'s check, if the step has one.
fn step_check_page(lab: &LabFile, step: usize) -> Option<LabPage> {
    let id = lab.steps.get(step)?.check.as_deref()?;
    let check = lab.checks.iter().find(|c| c.id == id)?;
    Some(if is_fleet_check(check) {
        LabPage::Fleet
    } else {
        LabPage::Main
    })
}

/// The page step `step` of `lab` belongs to: its check's, or for a step without a check, that
/// of the nearest step before it with one (the lab screen's when there is none), so that a
/// page's `p`, `[` and `]` stay among the steps that page can show.
pub fn step_page(lab: &LabFile, step: usize) -> LabPage {
    (0..=step)
        .rev()
        .find_map(|s| step_check_page(lab, s))
        .unwrap_or(LabPage::Main)
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
    let view = match page {
        LabPage::Main => "the fleet view",
        LabPage::Fleet => "the single-server view",
    };
    Some(if first == last {
        format!("Step {} is in {view}: press F", first + 1)
    } else {
        format!("Steps {}–{} are in {view}: press F", first + 1, last + 1)
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
        assert_eq!(first_step(health, LabPage::Main), 0);
        let fleet = first_step(health, LabPage::Fleet);
        assert_eq!(health.steps[fleet].title, "The mistake at fleet scale");
        assert!(
            health.steps[..fleet]
                .iter()
                .all(|step| step.check.as_deref().is_none_or(|id| !id.starts_with("fleet"))),
            "no fleet check before it"
        );
        assert_eq!(first_step(content.lab(LabId::Retry), LabPage::Fleet), 0);
    }

    #[test]
    fn each_page_keeps_to_its_own_steps() {
        let content = Content::load(None).expect("the built-in labs load");
        let health = content.lab(LabId::Health);
        let fleet = first_step(health, LabPage::Fleet);
        // Step 3 has no check: it follows step 2's page, the single server's.
        assert_eq!(step_page(health, 2), LabPage::Main);
        assert_eq!(next_step(health, LabPage::Main, 1, true), Some(2));
        assert_eq!(
            next_step(health, LabPage::Main, 2, true),
            None,
            "the last single-server step"
        );
        assert_eq!(
            next_step(health, LabPage::Fleet, fleet, false),
            None,
            "the first fleet step"
        );
        assert_eq!(next_step(health, LabPage::Fleet, fleet, true), Some(fleet + 1));
        let last = health.steps.len() - 1;
        assert_eq!(step_page(health, last), LabPage::Fleet);
        assert_eq!(next_step(health, LabPage::Fleet, last, true), None);
    }

    #[test]
    fn the_last_step_of_a_page_says_where_the_steps_go_on() {
        let content = Content::load(None).expect("the built-in labs load");
        let health = content.lab(LabId::Health);
        let fleet = first_step(health, LabPage::Fleet);
        let last = health.steps.len();
        assert_eq!(steps_elsewhere(health, LabPage::Main, 1), None, "step 3 comes next");
        assert_eq!(
            steps_elsewhere(health, LabPage::Main, fleet - 1),
            Some(format!("Steps {}–{last} are in the fleet view: press F", fleet + 1))
        );
        assert_eq!(
            steps_elsewhere(health, LabPage::Fleet, last - 1),
            None,
            "the lab's last step"
        );
        assert_eq!(steps_elsewhere(content.lab(LabId::Retry), LabPage::Main, 1), None);
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
                let page = if is_fleet_check(check) {
                    LabPage::Fleet
                } else {
                    LabPage::Main
                };
                assert_eq!(step_page(lab, step), page, "{}: {}", lab.id, check.id);
            }
        }
    }
}
