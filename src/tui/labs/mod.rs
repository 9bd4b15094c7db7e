//! The lab registry: one row per lab, the one place the app, the key table's help and the
//! live keys learn what differs between labs: its pages and its live keys.
//!
//! Adding a lab is its `LabId` variant, its row in [`LABS`], its book chapter in the summary
//! and its folder here: the lab screen's frame (`tui/frame/`: its state, and its drawing in `frame/view/`) reads
//! no row and names no lab; the app builds a lab's pages from its row and hands them to the
//! frame. A lab's pages are folders here, each behind [`page::Page`]; a first page is one
//! [`sim_page::LabSim`] impl (Lab 1's `health/`, Lab 2's `retry/`, Lab 3's `breaker/`, Lab
//! 4's `overload/`, Lab 5's `budget/`), its row `pages: sim_page::one_page::<TheLab>`; Lab 1's
//! second page is the fleet (`fleet/`). Before the table, a lab's differences were 18
//! `match` arms on `LabId` the compiler listed and four `==` and `matches!` checks it did
//! not (the help's live keys, the frame's live title), so a new lab compiled with some of
//! them silently wrong.

use crate::content::{LabFile, LabId};
use crate::tui::frame::page_sliders::PageSliders;
use crate::tui::msg::{LiveMsg, Msg};
use page::{LabPages, NewPages};

pub mod breaker;
pub mod budget;
pub mod fleet;
pub mod health;
pub mod overload;
pub mod page;
pub mod retry;
pub mod sim_page;

/// What differs between labs: its pages, and its live keys.
#[derive(Clone, Copy)]
pub struct LabEntry {
    pub lab: LabId,
    /// Builds the lab's pages at their sliders, in the lab file's order (the app hands them
    /// to the lab screen).
    pub pages: NewPages,
    /// The live keys the lab takes (the help lists only these: another lab's would mislead).
    pub live_keys: &'static [LiveMsg],
}

/// Every lab's row, in [`LabId::ALL`]'s order.
#[rustfmt::skip]
pub const LABS: [LabEntry; LabId::ALL.len()] = [
    LabEntry { lab: LabId::Health,   pages: health_pages,                                live_keys: &[] },
    LabEntry { lab: LabId::Retry,    pages: sim_page::one_page::<retry::RetryLab>,       live_keys: &[LiveMsg::ToggleView, LiveMsg::Trigger, LiveMsg::CyclePolicy, LiveMsg::CutLoad, LiveMsg::Load(0)] },
    LabEntry { lab: LabId::Breaker,  pages: sim_page::one_page::<breaker::BreakerLab>,   live_keys: &[LiveMsg::BrownOut, LiveMsg::CycleFault] },
    LabEntry { lab: LabId::Overload, pages: sim_page::one_page::<overload::OverloadLab>, live_keys: &[LiveMsg::ToggleView] },
    LabEntry { lab: LabId::Budget,   pages: sim_page::one_page::<budget::BudgetLab>,     live_keys: &[] },
];

/// Lab 1's pages: the single server (`health/`), then the fleet (`fleet/`).
fn health_pages(lab: &LabFile, pages: &[PageSliders]) -> LabPages {
    let mut all = sim_page::one_page::<health::HealthLab>(lab, pages);
    all.extend(fleet::pages(lab, pages));
    all
}

/// The row of `lab`.
pub fn entry(lab: LabId) -> &'static LabEntry {
    LABS.iter()
        .find(|entry| entry.lab == lab)
        .expect("every LabId has a row in LABS (the registry test checks it)")
}

/// Whether the lab screen of `lab` takes `msg`: each lab's help lists its own live keys, not
/// the other labs' (Lab 3's faults on Lab 1's screen would only mislead), and `F` only where
/// there is another page to switch to.
pub fn lab_takes(lab: &LabFile, msg: Msg) -> bool {
    match msg {
        Msg::Live(key) => entry(lab.lab)
            .live_keys
            .iter()
            .any(|taken| std::mem::discriminant(taken) == std::mem::discriminant(&key)),
        Msg::NextPage => lab.pages.len() > 1,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::learning::metrics;
    use crate::tui::frame::LabScreen;
    use crate::tui::slider::Slider;

    #[test]
    fn every_lab_check_has_a_metric_in_its_screens_run() {
        let content = Content::load(None).expect("content");
        for lab in &content.labs {
            let sliders: Vec<Slider> = lab.parameters.iter().cloned().map(Slider::new).collect();
            // Every page's simulated run (Lab 1's fleet page shows the fleet's: its checks'
            // metrics are there).
            let screen = LabScreen::new(lab, entry(lab.lab).pages);
            let run: Vec<_> = screen
                .page_states
                .iter()
                .flat_map(|page| page.shown_metrics(None))
                .collect();
            for check in &lab.checks {
                // Lab 4's checks ask about cases beside the screen's run (a hanging
                // dependency, the throttle at 3x, the metastable model): at their settings.
                let metric = check.metric.as_deref().expect("a predict check names a metric");
                // Lab 2's five-layer chain is not on screen either (the rows have three).
                let run = match (lab.lab, metric) {
                    (LabId::Overload, _) | (_, "retry.five_layers.db_attempts_per_action") => {
                        metrics::check_run(lab, check, &sliders[..])
                    }
                    _ => run.clone(),
                };
                assert!(metrics::lookup(&run, metric).is_some(), "{}: {metric}", lab.id);
            }
        }
    }

    #[test]
    fn every_lab_has_one_row_in_its_order() {
        let labs: Vec<LabId> = LABS.iter().map(|entry| entry.lab).collect();
        assert_eq!(labs, LabId::ALL);
    }

    #[test]
    fn each_lab_takes_its_own_live_keys_only() {
        let content = Content::load(None).expect("the built-in labs load");
        let takes = |lab, msg| lab_takes(content.lab(lab), msg);
        assert!(takes(LabId::Breaker, Msg::Live(LiveMsg::CycleFault)));
        assert!(!takes(LabId::Retry, Msg::Live(LiveMsg::CycleFault)));
        assert!(takes(LabId::Retry, Msg::Live(LiveMsg::Load(-1))));
        assert!(!takes(LabId::Overload, Msg::Live(LiveMsg::Load(1))));
        assert!(takes(LabId::Overload, Msg::Live(LiveMsg::ToggleView)));
        assert!(!takes(LabId::Health, Msg::Live(LiveMsg::ToggleView)));
        assert!(takes(LabId::Health, Msg::NextPage), "Lab 1 has a second page");
        assert!(!takes(LabId::Breaker, Msg::NextPage));
    }
}
