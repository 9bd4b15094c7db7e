//! Lab 3's page: the brownout simulated with and without a breaker at the sliders ([`run`]
//! says at which parameters), and live ([`live`]): both callers against one dependency on
//! 127.0.0.1, the breaker sliders retuning the running breaker at once; [`view`] draws the
//! live screen's regions.

pub mod charts;
pub mod live;
pub mod results;
pub mod run;
pub mod view;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::content::LabFile;
use crate::engine::brownout::{self, BrownoutComparison};
use crate::learning::metrics::{self, Metric};
use crate::live::run::LabBody;
use crate::tui::frame::view::results_title_of;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::layout::ResultsRows;
use crate::tui::slider::{Slider, value_of};
use live::BreakerLive;

/// Lab 3's page.
pub type BreakerPage = SimPage<BreakerLab>;

/// What Lab 3's page is made of.
#[derive(Debug)]
pub struct BreakerLab;

impl LabSim for BreakerLab {
    type Results = BrownoutComparison;
    type Live = BreakerLive;

    fn compute(lab: &LabFile, sliders: &[Slider]) -> BrownoutComparison {
        brownout::compare(&run::breaker_params(lab, sliders))
    }

    fn metrics(run: &BrownoutComparison) -> Vec<Metric> {
        metrics::breaker_metrics(run)
    }

    fn live_run_metrics(live: &BreakerLive) -> Option<Vec<Metric>> {
        live.series.as_ref()?.measured.as_ref().map(metrics::breaker_metrics)
    }

    fn rows(live_showing: bool) -> ResultsRows {
        // Live: the status, the two live rows or the per-caller notes, and the two sim rows.
        ResultsRows::Log {
            at_least: if live_showing { 7 } else { 0 },
        }
    }

    fn takes_event(body: &LabBody) -> bool {
        matches!(body, LabBody::Breaker(_))
    }

    fn slider_note(_page: &BreakerPage, sliders: &[Slider], _focus: usize) -> Option<String> {
        // Said where the sliders are; the Results panel gives the reason in full.
        let min_calls = value_of(sliders, "min_calls")?;
        let window = value_of(sliders, "window")?;
        // The command line refuses this with the same reason (commands/run.rs).
        // Short enough for the panel's two lines at 80x24: the reason stays whole.
        (min_calls > window).then(|| format!("Above the window ({window:.0}): the breaker can never open."))
    }

    fn render_results(page: &BreakerPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        if page.live_showing {
            return view::render_results(page, frame, area, buf);
        }
        let run = page.shown_results(frame.verdict());
        let title = results_title_of(page.shows_verdict_run(frame));
        results::breaker_results(
            run,
            (&frame.masked(), frame.log_scroll()),
            title,
            frame.theme(),
            area,
            buf,
        );
    }

    fn render_charts(page: &BreakerPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        if page.live_showing {
            return view::render_charts(&page.live, frame.theme(), area, buf);
        }
        charts::breaker_charts(
            page.shown_results(frame.verdict()),
            &frame.masked(),
            frame.theme(),
            area,
            buf,
        );
    }
}
