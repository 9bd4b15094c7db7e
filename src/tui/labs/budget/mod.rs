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
use crate::tui::labs::page::{self, LabPages, OpenVerdict, Page, PageCtx, PageFrame, ScoredCheck};
use crate::tui::layout::ResultsRows;
use crate::tui::msg::Msg;
use crate::tui::screens::lab::live::{LiveCtx, LivePart};
use crate::tui::screens::lab::page_sliders::PageSliders;
use crate::tui::screens::lab::predict;
use crate::tui::slider::Slider;
use live::BudgetLive;
use run::BudgetResults;

/// Lab 5's one page at its first page's sliders (its registry row names this).
pub fn pages(_lab: &LabFile, pages: &[PageSliders]) -> LabPages {
    let sliders = pages.first().map_or(&[][..], |page| &page.sliders[..]);
    vec![Box::new(BudgetPage::new(sliders))]
}

/// Lab 5's page: its run at the sliders, the run a verdict speaks of, and its live part.
#[derive(Debug)]
pub struct BudgetPage {
    pub results: BudgetResults,
    /// The run at a check's own settings, kept when the simulation scored that check there
    /// (check id, run): while its verdict is open the page shows this run, not the sliders'.
    pub verdict_results: Option<(String, BudgetResults)>,
    /// A slider moved since `results` were computed: [`Page::settle`] computes once,
    /// before the next frame, however many steps were queued.
    pub stale: bool,
    /// The live page shows (key `m`).
    pub live_showing: bool,
    pub live: BudgetLive,
}

impl BudgetPage {
    pub fn new(sliders: &[Slider]) -> Self {
        Self {
            results: run::at_sliders(sliders, None),
            verdict_results: None,
            stale: false,
            live_showing: false,
            live: BudgetLive::default(),
        }
    }

    /// The run at an open verdict's own settings, if the page shows that one.
    fn verdict_run(&self, verdict: OpenVerdict) -> Option<&BudgetResults> {
        self.verdict_results
            .as_ref()
            .filter(|(id, _)| !verdict.scored_live && *id == verdict.check_id)
            .map(|(_, results)| results)
    }

    /// The run the page shows: that of an open verdict's own settings, else the sliders'.
    pub fn shown_results(&self, verdict: Option<OpenVerdict>) -> &BudgetResults {
        verdict
            .and_then(|verdict| self.verdict_run(verdict))
            .unwrap_or(&self.results)
    }
}

impl Page for BudgetPage {
    fn results_rows(&self) -> ResultsRows {
        // The scenario's line and up to three of its numbers; live: the status, a note,
        // and the measured lines each above the simulation's.
        ResultsRows::Fixed(if self.live_showing { 8 } else { 6 })
    }

    fn key(&mut self, msg: Msg, ctx: &PageCtx, sliders: &mut [Slider]) -> Option<bool> {
        match msg {
            Msg::ToggleMode => Some(page::toggle_mode(&mut self.live_showing, &mut self.live)),
            Msg::StartStop | Msg::Live(_) if !self.live_showing => Some(false),
            Msg::StartStop => {
                let live_ctx = LiveCtx {
                    lab: ctx.lab,
                    sliders,
                    step: ctx.step,
                    events: ctx.events,
                };
                Some(if self.live.running() {
                    self.live.stop()
                } else {
                    self.live.start(&live_ctx)
                })
            }
            _ => None,
        }
    }

    fn sliders_moved(&mut self, _ctx: &PageCtx, _sliders: &mut [Slider], _before: &[f64]) {
        // A live run goes to its end at the settings it started with: a slider applies at
        // the next start.
        self.stale = true;
    }

    fn settle(&mut self, _lab: &LabFile, sliders: &[Slider]) -> bool {
        if !self.stale {
            return false;
        }
        self.results = run::at_sliders(sliders, Some(&self.results));
        self.stale = false;
        true
    }

    fn keep_check_run(&mut self, _lab: &LabFile, scored: ScoredCheck, sliders: &[Slider]) {
        self.verdict_results = (!scored.scored_live && scored.on_this_page)
            .then(|| predict::sliders_for_check(scored.check, sliders))
            .flatten()
            .map(|at_check| (scored.check.id.clone(), run::at_sliders(&at_check, None)));
    }

    fn shows_check_run(&self, verdict: OpenVerdict) -> bool {
        self.verdict_run(verdict).is_some()
    }

    fn shown_metrics(&self, verdict: Option<OpenVerdict>) -> Vec<Metric> {
        self.shown_results(verdict).metrics()
    }

    fn live_run_metrics(&self) -> Option<Vec<Metric>> {
        self.live.run_metrics()
    }

    fn simulated(&self) -> bool {
        !self.live_showing
    }

    // Its runs leave their result in a slot the tick reads, not on the queue: it takes no event.
    fn live_part(&self) -> Option<&dyn LivePart> {
        Some(&self.live)
    }

    fn live_part_mut(&mut self) -> Option<&mut dyn LivePart> {
        Some(&mut self.live)
    }

    fn title_right(&self) -> (&'static str, &'static str) {
        if self.live_showing {
            ("live · 127.0.0.1 · m sim ", "live · 127.0.0.1 · m sim ")
        } else {
            ("simulated clock · [ ] steps · m live ", "[ ] steps · m live ")
        }
    }

    fn render_results(&self, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        if self.live_showing {
            view::render_live_results(self, frame, area, buf);
        } else {
            view::render_results(self, frame, area, buf);
        }
    }

    fn render_charts(&self, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        view::render_charts(self, frame, area, buf);
    }
}
