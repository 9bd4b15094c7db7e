//! The shape a lab's first page shares with every other lab's first page: a simulation at
//! the sliders (computed again once before the next frame, however many steps were queued),
//! the run at a check's own settings while its verdict is open, and a live part that `m`
//! switches to and `s` starts. [`SimPage`] is that page, written once; what differs between
//! labs is one [`LabSim`] impl in the lab's folder (its simulation, its named numbers, its
//! live part, its drawing), so five labs do not carry five copies of the same page.
//!
//! A lab's view draws a `SimPage<S>` for any `S: LabSim` with that lab's results and live
//! types, not the lab's page alias: it imports its siblings (the run, the live part) and not
//! the lab's module, which calls it, so no view and its lab import each other in a loop.

use std::fmt::Debug;
use std::marker::PhantomData;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::content::{LabFile, Question};
use crate::learning::metrics::Metric;
use crate::live::run::{LabBody, LabEvent};
use crate::tui::frame::live::{LiveCtx, LivePart};
use crate::tui::frame::page_sliders::PageSliders;
use crate::tui::frame::predict::{self, Observed};
use crate::tui::keys::Context;
use crate::tui::labs::page::{self, LabPages, OpenVerdict, Page, PageCtx, PageFrame, ScoredCheck};
use crate::tui::layout::{LabLayout, ResultsRows};
use crate::tui::msg::Msg;
use crate::tui::slider::Slider;

/// What one lab's first page is made of: the rest is [`SimPage`]'s.
pub trait LabSim: Debug + Sized + 'static {
    /// What the simulation at the sliders gives the page to draw.
    type Results: Clone + Debug + PartialEq;
    type Live: LivePart + Default + Debug;

    /// The simulation at the sliders.
    fn compute(lab: &LabFile, sliders: &[Slider]) -> Self::Results;

    /// Again after a slider change, reusing what `previous` holds that it cannot have moved.
    fn recompute(lab: &LabFile, sliders: &[Slider], _previous: &Self::Results) -> Self::Results {
        Self::compute(lab, sliders)
    }

    /// The run a verdict on `check` speaks of, at `sliders` (the check's settings).
    fn compute_for_check(lab: &LabFile, sliders: &[Slider], _check: &Question) -> Self::Results {
        Self::compute(lab, sliders)
    }

    /// Whether `results` wait for work too slow for one frame (Lab 2's p-curve).
    fn pending(_results: &Self::Results) -> bool {
        false
    }

    /// Does that work; true if there was some.
    fn finish_pending(_results: &mut Self::Results) -> bool {
        false
    }

    /// The named numbers of a simulated run.
    fn metrics(results: &Self::Results) -> Vec<Metric>;

    /// The named numbers the live screen draws now.
    fn live_metrics(live: &Self::Live) -> Vec<Metric> {
        Self::live_run_metrics(live).unwrap_or_default()
    }

    /// The named numbers of a finished live run, if any.
    fn live_run_metrics(_live: &Self::Live) -> Option<Vec<Metric>> {
        None
    }

    /// The Results panel's rows, sim or live.
    fn rows(live_showing: bool) -> ResultsRows;

    /// The title's right end in the simulation, wide and narrow.
    fn sim_title() -> (&'static str, &'static str) {
        ("simulated clock · m live ", "simulated clock · m live ")
    }

    /// A key the page takes before its mode's (Lab 4's views switch in both modes).
    fn key(_page: &mut SimPage<Self>, _msg: Msg) -> Option<bool> {
        None
    }

    /// A check of the page was scored (Lab 4 shows the view that draws what it counts).
    fn checked(_page: &mut SimPage<Self>, _check: &Question) {}

    /// The key context the live screen adds, if not [`Context::Live`] (start, stop, back to
    /// the simulation, and the footer that lists them).
    fn key_context(_page: &SimPage<Self>) -> Option<Context> {
        None
    }

    /// Whether a live event with `body` is one of the live part's runs'.
    fn takes_event(_body: &LabBody) -> bool {
        false
    }

    /// See [`Page::slider_note`].
    fn slider_note(_page: &SimPage<Self>, _sliders: &[Slider], _focus: usize) -> Option<String> {
        None
    }

    /// See [`Page::scored_by`].
    fn scored_by(_page: &SimPage<Self>, _check: Option<&Question>, _sliders: &[Slider]) -> Option<&'static str> {
        None
    }

    /// See [`Page::predict_live`].
    fn predict_live(_live: &mut Self::Live, _check: &Question, _predicted: f64, _step: (usize, &str)) -> bool {
        false
    }

    /// See [`Page::take_live_verdict`].
    fn take_live_verdict(_live: &mut Self::Live) -> Option<(usize, String, Observed)> {
        None
    }

    /// A whole screen of its own, if it draws one now (Lab 1 live).
    fn render_whole(_page: &SimPage<Self>, _frame: &dyn PageFrame, _layout: &LabLayout, _buf: &mut Buffer) -> bool {
        false
    }

    fn render_results(page: &SimPage<Self>, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer);

    fn render_charts(page: &SimPage<Self>, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer);

    /// Its own footer in the lab context; true when it drew one.
    fn render_footer(_page: &SimPage<Self>, _frame: &dyn PageFrame, _area: Rect, _buf: &mut Buffer) -> bool {
        false
    }
}

/// A lab whose one page is `S`'s, at its first page's sliders (a registry row names this).
pub fn one_page<S: LabSim>(lab: &LabFile, pages: &[PageSliders]) -> LabPages {
    let sliders = pages.first().map_or(&[][..], |page| &page.sliders[..]);
    vec![Box::new(SimPage::<S>::new(lab, sliders))]
}

/// A lab's first page: its simulation at the sliders, the run a verdict speaks of, its mode
/// and live part.
#[derive(Debug)]
pub struct SimPage<S: LabSim> {
    pub results: S::Results,
    /// The run at a check's own settings, kept when the simulation scored that check there
    /// (check id, run): while its verdict is open the page shows this run, not the sliders'.
    pub verdict_results: Option<(String, S::Results)>,
    /// A slider moved since `results` were computed: [`Page::settle`] computes once.
    pub stale: bool,
    /// The live screen shows (key `m`).
    pub live_showing: bool,
    pub live: S::Live,
    lab: PhantomData<S>,
}

impl<S: LabSim> SimPage<S> {
    pub fn new(lab: &LabFile, sliders: &[Slider]) -> Self {
        Self {
            results: S::compute(lab, sliders),
            verdict_results: None,
            stale: false,
            live_showing: false,
            live: S::Live::default(),
            lab: PhantomData,
        }
    }

    /// The run at an open verdict's own settings, if the page shows that one.
    pub fn verdict_run(&self, verdict: OpenVerdict) -> Option<&S::Results> {
        self.verdict_results
            .as_ref()
            .filter(|(id, _)| !verdict.scored_live && *id == verdict.check_id)
            .map(|(_, results)| results)
    }

    /// The run the page shows: that of an open verdict's own settings, else the sliders'.
    pub fn shown_results(&self, verdict: Option<OpenVerdict>) -> &S::Results {
        verdict
            .and_then(|verdict| self.verdict_run(verdict))
            .unwrap_or(&self.results)
    }

    /// Whether the run shown is that of `frame`'s open verdict's own settings.
    pub fn shows_verdict_run(&self, frame: &dyn PageFrame) -> bool {
        frame
            .verdict()
            .is_some_and(|verdict| self.verdict_run(verdict).is_some())
    }

    fn live_ctx<'a>(ctx: &'a PageCtx, sliders: &'a [Slider]) -> LiveCtx<'a> {
        LiveCtx {
            lab: ctx.lab,
            sliders,
            step: ctx.step,
            events: ctx.events,
        }
    }
}

impl<S: LabSim> Page for SimPage<S> {
    fn results_rows(&self) -> ResultsRows {
        S::rows(self.live_showing)
    }

    fn key(&mut self, msg: Msg, ctx: &PageCtx, sliders: &mut [Slider]) -> Option<bool> {
        if msg == Msg::ToggleMode {
            return Some(page::toggle_mode(&mut self.live_showing, &mut self.live));
        }
        if let Some(changed) = S::key(self, msg) {
            return Some(changed);
        }
        match msg {
            Msg::StartStop | Msg::Live(_) if !self.live_showing => Some(false),
            Msg::StartStop => {
                let live_ctx = Self::live_ctx(ctx, sliders);
                Some(if self.live.running() {
                    self.live.stop()
                } else {
                    self.live.start(&live_ctx)
                })
            }
            _ if self.live_showing => self.live.key(msg, &Self::live_ctx(ctx, sliders)),
            _ => None,
        }
    }

    fn sliders_moved(&mut self, ctx: &PageCtx, sliders: &mut [Slider], _before: &[f64]) {
        self.stale = true;
        self.live.retune(&Self::live_ctx(ctx, sliders));
    }

    fn view_moved(&mut self, ctx: &PageCtx, sliders: &[Slider]) {
        if self.live_showing {
            self.live.retune(&Self::live_ctx(ctx, sliders));
        }
    }

    fn settle(&mut self, lab: &LabFile, sliders: &[Slider]) -> bool {
        if !self.stale {
            return false;
        }
        self.results = S::recompute(lab, sliders, &self.results);
        self.stale = false;
        true
    }

    fn settle_pending(&self) -> bool {
        self.stale
    }

    fn slow_work_pending(&self) -> bool {
        S::pending(&self.results)
    }

    fn finish_slow_work(&mut self) -> bool {
        S::finish_pending(&mut self.results)
    }

    fn keep_check_run(&mut self, lab: &LabFile, scored: ScoredCheck, sliders: &[Slider]) {
        if scored.on_this_page {
            S::checked(self, scored.check);
        }
        self.verdict_results = (!scored.scored_live && scored.on_this_page)
            .then(|| predict::sliders_for_check(scored.check, sliders))
            .flatten()
            .map(|at_check| {
                let results = S::compute_for_check(lab, &at_check, scored.check);
                (scored.check.id.clone(), results)
            });
    }

    fn shows_check_run(&self, verdict: OpenVerdict) -> bool {
        self.verdict_run(verdict).is_some()
    }

    fn shown_metrics(&self, verdict: Option<OpenVerdict>) -> Vec<Metric> {
        S::metrics(self.shown_results(verdict))
    }

    fn live_metrics(&self) -> Vec<Metric> {
        S::live_metrics(&self.live)
    }

    fn live_run_metrics(&self) -> Option<Vec<Metric>> {
        S::live_run_metrics(&self.live)
    }

    fn simulated(&self) -> bool {
        !self.live_showing
    }

    fn key_context(&self) -> Option<Context> {
        S::key_context(self).or_else(|| self.live_showing.then_some(Context::Live))
    }

    fn slider_note(&self, sliders: &[Slider], focus: usize) -> Option<String> {
        S::slider_note(self, sliders, focus)
    }

    fn scored_by(&self, check: Option<&Question>, sliders: &[Slider]) -> Option<&'static str> {
        S::scored_by(self, check, sliders)
    }

    fn predict_live(&mut self, check: &Question, predicted: f64, step: (usize, &str), sliders: &[Slider]) -> bool {
        self.live_showing
            && predict::sliders_at_settings(check, sliders)
            && S::predict_live(&mut self.live, check, predicted, step)
    }

    fn take_live_verdict(&mut self) -> Option<(usize, String, Observed)> {
        S::take_live_verdict(&mut self.live)
    }

    fn live_part(&self) -> Option<&dyn LivePart> {
        Some(&self.live)
    }

    fn live_part_mut(&mut self) -> Option<&mut dyn LivePart> {
        Some(&mut self.live)
    }

    fn takes_event(&self, body: &LabBody) -> bool {
        S::takes_event(body)
    }

    fn on_event(&mut self, event: LabEvent) -> bool {
        self.live.on_event(event)
    }

    fn render_whole(
        &self,
        frame: &dyn PageFrame,
        _sliders: &PageSliders,
        layout: &LabLayout,
        buf: &mut Buffer,
    ) -> bool {
        S::render_whole(self, frame, layout, buf)
    }

    fn title_right(&self) -> (&'static str, &'static str) {
        if self.live_showing {
            ("live · 127.0.0.1 · m sim ", "live · 127.0.0.1 · m sim ")
        } else {
            S::sim_title()
        }
    }

    fn render_results(&self, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        S::render_results(self, frame, area, buf);
    }

    fn render_charts(&self, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        S::render_charts(self, frame, area, buf);
    }

    fn render_footer(&self, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) -> bool {
        S::render_footer(self, frame, area, buf)
    }
}
