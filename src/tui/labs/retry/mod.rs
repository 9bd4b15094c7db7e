//! Lab 2's page: retries through the layers simulated at the sliders ([`run`]: the A, B and
//! C rows, the p-curve, left to the frame after when its settings move, and the Full Jitter
//! sleeps; drawn by [`results`] and [`charts`]), and live ([`live`]): the retry chain on
//! 127.0.0.1, a counting run or the metastable steady load; [`view`] draws its live regions.

pub mod charts;
pub mod live;
pub mod results;
pub mod run;
pub mod view;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::content::LabFile;
use crate::engine::retry::RetryPolicy;
use crate::learning::metrics::{self, Metric};
use crate::live::run::LabBody;
use crate::tui::frame::view::results_title_of;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::layout::ResultsRows;
use crate::tui::slider::Slider;
use live::RetryLive;
use run::{CURVE_ACTIONS_MAX, RetryResults};

/// Lab 2's page.
pub type RetryPage = SimPage<RetryLab>;

/// What Lab 2's page is made of.
#[derive(Debug)]
pub struct RetryLab;

impl LabSim for RetryLab {
    type Results = RetryResults;
    type Live = RetryLive;

    fn compute(lab: &LabFile, sliders: &[Slider]) -> RetryResults {
        run::compute_retry(lab, sliders, CURVE_ACTIONS_MAX)
    }

    fn recompute(lab: &LabFile, sliders: &[Slider], previous: &RetryResults) -> RetryResults {
        run::recompute_retry(lab, sliders, previous)
    }

    fn pending(results: &RetryResults) -> bool {
        run::pending(results)
    }

    fn finish_pending(results: &mut RetryResults) -> bool {
        run::finish_pending(results)
    }

    fn metrics(retry: &RetryResults) -> Vec<Metric> {
        // The rows are in `RetryPolicy::ALL` order (A, B, C), as `compare_policies` returns them.
        let rows: Vec<_> = RetryPolicy::ALL
            .iter()
            .zip(&retry.rows)
            .map(|(policy, (_, result))| (*policy, result.clone()))
            .collect();
        let mut shown = metrics::retry_metrics(&rows);
        shown.extend(metrics::retry_jitter_metrics(&retry.ceilings_s));
        shown
    }

    /// A finished run's numbers, or the per-action cost so far, which closes in on the
    /// finished run's while it runs: the hiding rule masks them as it masks the simulation's.
    fn live_metrics(live: &RetryLive) -> Vec<Metric> {
        if let Some(finished) = Self::live_run_metrics(live) {
            return finished;
        }
        live.series
            .as_ref()
            .and_then(|series| Some((series.policy?, series.db_per_action())))
            .map(|(policy, so_far)| vec![(metrics::retry_metric(policy, "db_attempts_per_action"), so_far)])
            .unwrap_or_default()
    }

    fn live_run_metrics(live: &RetryLive) -> Option<Vec<Metric>> {
        let series = live.series.as_ref()?;
        let result = series.result.clone()?;
        Some(metrics::retry_metrics(&[(series.policy?, result)]))
    }

    fn rows(live_showing: bool) -> ResultsRows {
        // A, B and C, and the jitter line; live: the status, two counter lines, the
        // measured line and what the sim compares.
        ResultsRows::Fixed(if live_showing { 7 } else { 6 })
    }

    fn takes_event(body: &LabBody) -> bool {
        matches!(body, LabBody::Retry(_))
    }

    fn render_results(page: &RetryPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        if page.live_showing {
            return view::render_results(page, frame, area, buf);
        }
        let title = results_title_of(page.shows_verdict_run(frame));
        let retry = page.shown_results(frame.verdict());
        results::retry_results(retry, &frame.masked(), title, frame.theme(), area, buf);
    }

    fn render_charts(page: &RetryPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        if page.live_showing {
            return view::render_charts(&page.live, frame.theme(), area, buf);
        }
        // The p-curve spans every p: a check at any p of its settings is on it.
        let masked_curve = frame.masked_spanning(&["p"]);
        charts::retry_charts(
            page.shown_results(frame.verdict()),
            [&frame.masked(), &masked_curve],
            frame.theme(),
            area,
            buf,
        );
    }
}
