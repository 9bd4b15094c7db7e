//! A lab page's first visit: the lesson panel opens by itself, with the lab's lesson, then
//! the guided steps with the page's first step expanded, and a line on how to close it and
//! go on.
//!
//! Each page of a lab screen (the lab itself, Lab 1's fleet view) has a first visit of its
//! own, remembered per lab in the progress file ([`crate::progress::LabProgress::visited`]):
//! the lesson opens once per page, later visits open to the lab, and `L` shows the lesson
//! whenever asked.

use crate::content::LabFile;

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
        LabPage::Fleet => lab
            .steps
            .iter()
            .position(|step| {
                let check = step
                    .check
                    .as_deref()
                    .and_then(|id| lab.checks.iter().find(|c| c.id == id));
                check
                    .and_then(|c| c.metric.as_deref())
                    .is_some_and(|metric| metric.starts_with(FLEET_METRIC_PREFIX))
            })
            .unwrap_or(0),
    }
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
}
