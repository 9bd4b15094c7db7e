//! Lab 4's page: overload and the queue simulated at the sliders ([`run`]), drawn in one of
//! four views that `v` switches in both modes (the curves and the queue, the outcomes and
//! the throttle, the bulkhead, the metastable model), and live ([`live`]): the same policy
//! on 127.0.0.1 at a smaller scale, read back at the lesson's; [`view`] draws its regions
//! and its footer.

pub mod charts;
pub mod live;
pub mod run;
pub mod view;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::content::{LabFile, Question};
use crate::learning::metrics::{self, Metric};
use crate::live::run::LabBody;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::layout::ResultsRows;
use crate::tui::msg::{LiveMsg, Msg};
use crate::tui::slider::Slider;
use live::{OverloadLive, OverloadView};
use run::OverloadResults;

/// Lab 4's page.
pub type OverloadPage = SimPage<OverloadLab>;

/// What Lab 4's page is made of.
#[derive(Debug)]
pub struct OverloadLab;

impl LabSim for OverloadLab {
    type Results = OverloadResults;
    type Live = OverloadLive;

    fn compute(lab: &LabFile, sliders: &[Slider]) -> OverloadResults {
        run::compute_overload(lab, sliders, None)
    }

    fn recompute(lab: &LabFile, sliders: &[Slider], previous: &OverloadResults) -> OverloadResults {
        run::compute_overload(lab, sliders, Some(previous))
    }

    fn compute_for_check(lab: &LabFile, sliders: &[Slider], check: &Question) -> OverloadResults {
        run::compute_for_check(lab, sliders, check.metric.as_deref())
    }

    fn metrics(results: &OverloadResults) -> Vec<Metric> {
        let mut shown = metrics::overload_metrics(&results.recompute.run);
        shown.extend(metrics::overload_case_metrics(results.slots_case, &results.bulkhead));
        // The metastable view draws the model's run: its numbers are on screen too.
        shown.extend(metrics::overload_metastable_metrics(&results.metastable));
        shown
    }

    fn live_run_metrics(live: &OverloadLive) -> Option<Vec<Metric>> {
        // At the lesson's scale, as the checks ask (the live run is the same ratios, smaller).
        live.record
            .as_ref()?
            .lesson_run()
            .as_ref()
            .map(metrics::overload_metrics)
    }

    fn rows(live_showing: bool) -> ResultsRows {
        // The run's numbers in three lines; live: the settings, the live scale, and a table
        // of the live run against the sim.
        ResultsRows::Fixed(if live_showing { 7 } else { 5 })
    }

    fn key(page: &mut OverloadPage, msg: Msg) -> Option<bool> {
        // The views switch in both modes.
        (msg == Msg::Live(LiveMsg::ToggleView)).then(|| {
            page.live.view = page.live.view.next();
            true
        })
    }

    fn checked(page: &mut OverloadPage, check: &Question) {
        // The view that draws what the check counts.
        if let Some(view) = check.metric.as_deref().and_then(OverloadView::showing) {
            page.live.view = view;
        }
    }

    fn takes_event(body: &LabBody) -> bool {
        matches!(body, LabBody::Overload(_))
    }

    fn render_results(page: &OverloadPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        view::render_results(page, frame, area, buf);
    }

    fn render_charts(page: &OverloadPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        view::render_charts(page, frame, area, buf);
    }

    fn render_footer(_page: &OverloadPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) -> bool {
        view::render_footer(frame, area, buf);
        true
    }
}
