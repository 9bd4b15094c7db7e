//! Lab 1's fleet view, the lab file's second page: the fleet simulation at that page's
//! sliders, run again on every change (about 2 ms, `cargo bench --bench fleet`), and its keys.
//! Key `F` switches between it and the single-server screen, whose sliders and results it
//! leaves as they are; the lab screen moves the sliders of both with one handler
//! (`frame::page_sliders`). Key `m` switches the view to live ([`live`]), where `s`
//! starts real replicas at the sliders' settings; [`view`] draws the page.

pub mod charts;
pub mod live;
pub mod state;
pub mod view;

use ratatui::buffer::Buffer;

use crate::content::LabFile;
use crate::learning::metrics::{self, Metric};
use crate::live::run::LabBody;
use crate::tui::frame::live::LivePart;
use crate::tui::frame::page_sliders::{PageSliders, SliderWindow};
use crate::tui::keys::Context;
use crate::tui::labs::page::{LabPages, OpenVerdict, Page, PageCtx, PageFrame, ScoredCheck};
use crate::tui::layout::{LabLayout, ResultsRows};
use crate::tui::msg::Msg;
use crate::tui::slider::Slider;
pub use state::FleetPage;

/// The fleet page of `lab` at its second page's sliders, if it has one (Lab 1's registry
/// row names this).
pub fn pages(lab: &LabFile, pages: &[PageSliders]) -> LabPages {
    FleetPage::new(lab, pages.get(1))
        .map(|page| Box::new(page) as Box<dyn Page>)
        .into_iter()
        .collect()
}

impl Page for FleetPage {
    fn slider_window(&self) -> SliderWindow {
        // Fifteen sliders with long help: a window around the focus keeps the help whole.
        SliderWindow::AroundFocus
    }

    fn results_rows(&self) -> ResultsRows {
        // The design and its totals in three lines, sim or live.
        ResultsRows::Fixed(5)
    }

    fn key(&mut self, msg: Msg, ctx: &PageCtx, sliders: &mut [Slider]) -> Option<bool> {
        let (lab, events) = (ctx.lab, ctx.events);
        if let Some(changed) = self.update_live(msg, lab, sliders, events) {
            return Some(changed);
        }
        match msg {
            Msg::Fleet(key) => {
                let before: Vec<f64> = sliders.iter().map(Slider::value).collect();
                self.set_by_key(key, sliders);
                let changed = sliders.iter().map(Slider::value).ne(before.iter().copied());
                if changed {
                    FleetPage::sliders_moved(self, lab, sliders, &before, events);
                }
                Some(changed)
            }
            // Other labs' live keys, and `s` in the simulation, do nothing here.
            Msg::StartStop | Msg::Live(_) => Some(false),
            _ => None,
        }
    }

    fn sliders_moved(&mut self, ctx: &PageCtx, sliders: &mut [Slider], before: &[f64]) {
        FleetPage::sliders_moved(self, ctx.lab, sliders, before, ctx.events);
    }

    fn keep_check_run(&mut self, lab: &LabFile, scored: ScoredCheck, _sliders: &[Slider]) {
        // The fleet's checks carry settings of their own: its sliders do not enter.
        FleetPage::keep_check_run(self, lab, scored.check);
    }

    fn shows_check_run(&self, verdict: OpenVerdict) -> bool {
        self.verdict_check(verdict.check_id, verdict.scored_live).is_some()
    }

    fn shown_metrics(&self, verdict: Option<OpenVerdict>) -> Vec<Metric> {
        let kept = verdict.and_then(|verdict| self.verdict_run(verdict.check_id, verdict.scored_live));
        metrics::fleet_metrics(kept.unwrap_or(&self.run))
    }

    fn simulated(&self) -> bool {
        !self.live_showing
    }

    fn key_context(&self) -> Option<Context> {
        Some(Context::Fleet)
    }

    fn takes_event(&self, body: &LabBody) -> bool {
        matches!(body, LabBody::Fleet(_))
    }

    fn live_part(&self) -> Option<&dyn LivePart> {
        Some(&self.live)
    }

    fn live_part_mut(&mut self) -> Option<&mut dyn LivePart> {
        Some(&mut self.live)
    }

    fn render_whole(&self, frame: &dyn PageFrame, sliders: &PageSliders, layout: &LabLayout, buf: &mut Buffer) -> bool {
        view::render(self, frame, sliders, layout, buf);
        true
    }
}
