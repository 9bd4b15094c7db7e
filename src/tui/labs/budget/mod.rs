//! Lab 5's page: the seven scenarios of a request's budget ([`run`]: the simulation at the
//! sliders), one shown at a time, the one the current guided step asks about; `m` switches
//! to live, where `s` runs that scenario on 127.0.0.1 ([`live`]); [`view`] draws its
//! results and charts in the frame's.
//!
//! The steps walk the scenarios in the material's order, so `[` and `]` are how the learner
//! moves between them, and a verdict shows the scenario of the check it scored.

pub mod live;
pub mod run;
pub mod view;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::content::LabFile;
use crate::learning::metrics::Metric;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::layout::ResultsRows;
use crate::tui::slider::Slider;
use live::BudgetLive;
use run::BudgetResults;

/// Lab 5's page: its run at the sliders, the run a verdict speaks of, and its live part.
pub type BudgetPage = SimPage<BudgetLab>;

/// What Lab 5's page is made of.
#[derive(Debug)]
pub struct BudgetLab;

impl LabSim for BudgetLab {
    type Results = BudgetResults;
    // Its runs leave their result in a slot the tick reads, not on the queue: it takes no
    // event, and a slider applies at the next start.
    type Live = BudgetLive;

    fn compute(_lab: &LabFile, sliders: &[Slider]) -> BudgetResults {
        run::at_sliders(sliders, None)
    }

    fn recompute(_lab: &LabFile, sliders: &[Slider], previous: &BudgetResults) -> BudgetResults {
        run::at_sliders(sliders, Some(previous))
    }

    fn metrics(results: &BudgetResults) -> Vec<Metric> {
        results.metrics()
    }

    fn live_run_metrics(live: &BudgetLive) -> Option<Vec<Metric>> {
        live.run_metrics()
    }

    fn rows(live_showing: bool) -> ResultsRows {
        // The scenario's line and up to three of its numbers; live: the status, a note,
        // and the measured lines each above the simulation's.
        ResultsRows::Fixed(if live_showing { 8 } else { 6 })
    }

    fn sim_title() -> (&'static str, &'static str) {
        ("simulated clock · [ ] steps · m live ", "[ ] steps · m live ")
    }

    fn render_results(page: &BudgetPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        if page.live_showing {
            view::render_live_results(page, frame, area, buf);
        } else {
            view::render_results(page, frame, area, buf);
        }
    }

    fn render_charts(page: &BudgetPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        view::render_charts(page, frame, area, buf);
    }
}
