//! The lab registry: one row per lab, the one place the lab screen's frame, its layout, the
//! key table's help and the live part learn what differs between labs.
//!
//! Adding a lab is its `LabId` variant, its row in [`LABS`], its book chapter in the summary
//! and its folder here: the frame reads the row and matches on no lab. A lab's pages are
//! folders here, each behind [`page::Page`]; a first page is one [`sim_page::LabSim`] impl
//! (Lab 2's `retry/`, Lab 3's `breaker/`, Lab 4's `overload/`, Lab 5's `budget/`), its row
//! `sim: None, pages: sim_page::one_page::<TheLab>`. Lab 1 still gives its first page as
//! [`LabParts`]' simulation and a [`LabDraw`], until it moves too. Before the table, a lab's
//! differences were 18 `match` arms on `LabId` the compiler listed and four `==` and
//! `matches!` checks it did not (the help's live keys, the frame's live title), so a new lab
//! compiled with some of them silently wrong.

use crate::content::{LabFile, LabId};
use crate::tui::keys::Context;
use crate::tui::layout::ResultsRows;
use crate::tui::msg::{LiveMsg, Msg};
use crate::tui::screens::lab::health::LiveHealth;
use crate::tui::screens::lab::sim;
use crate::tui::screens::lab::{LabLive, LabParts, NoLive, SimParts};
use crate::tui::view::lab::{LabDraw, LiveScreen, health};

pub mod breaker;
pub mod budget;
pub mod fleet;
pub mod overload;
pub mod page;
pub mod retry;
pub mod sim_page;

/// What the frame needs of one lab: its screen's parts, its drawing's, and its keys. The
/// parts' types are the frame's own (`LabParts` in the screen, `LabDraw` in the view), so the
/// frame never imports this table: the app reads a row and hands the frame its parts.
#[derive(Clone, Copy)]
pub struct LabEntry {
    pub lab: LabId,
    pub parts: LabParts,
    pub draw: LabDraw,
    /// The live keys the lab takes (the help lists only these: another lab's would mislead).
    pub live_keys: &'static [LiveMsg],
}

/// The drawing of a lab whose first page draws itself (a `Page`): nothing of its own here.
const ON_PAGE: LabDraw = LabDraw {
    sim_title: ("", ""),
    live_screen: LiveScreen::Frame {
        results: |_, _, _| {},
        charts: |_, _, _| {},
    },
    footer: None,
};

/// Every lab's row, in [`LabId::ALL`]'s order.
#[rustfmt::skip]
pub const LABS: [LabEntry; LabId::ALL.len()] = [
    LabEntry {
        lab: LabId::Health,
        parts: LabParts {
            rows: (ResultsRows::Fixed(5), ResultsRows::Fixed(5)),
            live_context: Some(Context::LiveHealth),
            new_live: || LabLive::Health(LiveHealth::default()),
            sim: Some(SimParts { compute: sim::compute_health, recompute: sim::recompute_health }),
            pages: fleet::pages,
        },
        draw: LabDraw {
            sim_title: ("simulated clock · m live · F fleet ", "m live · F fleet "),
            live_screen: LiveScreen::Own(health::render),
            footer: None,
        },
        live_keys: &[],
    },
    LabEntry {
        lab: LabId::Retry,
        parts: LabParts {
            // Its one page is a `Page` (`labs/retry/`): its rows, live part and drawing are its own.
            rows: (ResultsRows::Fixed(6), ResultsRows::Fixed(7)),
            live_context: None,
            new_live: || LabLive::OnPage(NoLive),
            sim: None,
            pages: sim_page::one_page::<retry::RetryLab>,
        },
        draw: ON_PAGE,
        live_keys: &[LiveMsg::ToggleView, LiveMsg::Trigger, LiveMsg::CyclePolicy, LiveMsg::CutLoad, LiveMsg::Load(0)],
    },
    LabEntry {
        lab: LabId::Breaker,
        parts: LabParts {
            // Its one page is a `Page` (`labs/breaker/`): its rows, live part and drawing are its own.
            rows: (ResultsRows::Log { at_least: 0 }, ResultsRows::Log { at_least: 7 }),
            live_context: None,
            new_live: || LabLive::OnPage(NoLive),
            sim: None,
            pages: sim_page::one_page::<breaker::BreakerLab>,
        },
        draw: ON_PAGE,
        live_keys: &[LiveMsg::BrownOut, LiveMsg::CycleFault],
    },
    LabEntry {
        lab: LabId::Overload,
        parts: LabParts {
            // Its one page is a `Page` (`labs/overload/`): its rows, live part and drawing are its own.
            rows: (ResultsRows::Fixed(5), ResultsRows::Fixed(7)),
            live_context: None,
            new_live: || LabLive::OnPage(NoLive),
            sim: None,
            pages: sim_page::one_page::<overload::OverloadLab>,
        },
        draw: ON_PAGE,
        live_keys: &[LiveMsg::ToggleView],
    },
    LabEntry {
        lab: LabId::Budget,
        parts: LabParts {
            // Its one page is a `Page` (`labs/budget/`): its rows, live part and drawing are its own.
            rows: (ResultsRows::Fixed(6), ResultsRows::Fixed(8)),
            live_context: None,
            new_live: || LabLive::OnPage(NoLive),
            sim: None,
            pages: sim_page::one_page::<budget::BudgetLab>,
        },
        draw: ON_PAGE,
        live_keys: &[],
    },
];

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
        Msg::ToggleFleet => lab.pages.len() > 1,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::learning::metrics;
    use crate::tui::labs::fleet::FleetPage;
    use crate::tui::screens::lab::page_sliders::{PageSliders, SliderWindow};
    use crate::tui::screens::lab::{LabScreen, predict};
    use crate::tui::slider::Slider;

    #[test]
    fn every_lab_check_has_a_metric_in_its_screens_run() {
        let content = Content::load(None).expect("content");
        for lab in &content.labs {
            let sliders: Vec<Slider> = lab.parameters.iter().cloned().map(Slider::new).collect();
            let mut run = match entry(lab.lab).parts.sim {
                Some(sim) => predict::lab_metrics(&(sim.compute)(lab, &sliders)),
                None => LabScreen::new(lab, entry(lab.lab).parts).shown_metrics(),
            };
            // Lab 1's fleet view shows the fleet simulation: its checks' metrics are there.
            let fleet_page = PageSliders::new(lab.page_parameters(1), SliderWindow::AroundFocus);
            if let Some(panel) = FleetPage::new(lab, Some(&fleet_page)) {
                run.extend(metrics::fleet_metrics(&panel.run));
            }
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
        assert!(takes(LabId::Health, Msg::ToggleFleet), "Lab 1 has a second page");
        assert!(!takes(LabId::Breaker, Msg::ToggleFleet));
    }
}
