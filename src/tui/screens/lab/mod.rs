//! A lab screen: everything of one lab (sliders, results, guided steps and predictions,
//! the mode, the live part), with `update(Msg) -> LabOutcome` and `on_event(LabEvent)`.
//!
//! The app routes messages and events here and applies the [`LabOutcome`]; it knows nothing
//! of a lab's insides. What differs between labs arrives as [`LabParts`], from the lab's row
//! of the registry (`tui::labs::LABS`): the screen matches on no `LabId`. Which page a slider,
//! guided step or check is on is the lab file's (`content::page`). The parts:
//!
//! - [`page_sliders`]: one page's sliders, focus and drag; the screen holds one per page and
//!   moves the showing page's with the one slider and mouse handler.
//! - `tui::labs::page`: a lab's pages (Labs 2 to 5's, Lab 1's fleet view), each behind the one
//!   trait [`Page`]: the screen asks a page for its numbers and hands it its keys; it draws
//!   its regions. A first page not yet behind the trait is still [`LabParts`]' simulation
//!   and [`LabLive`].
//! - [`sim`]: the engines run on the sliders' values (the simulated clock).
//! - [`predict`]: the guided steps and predict-then-observe checks.
//! - [`crate::learning::reveal`] (in `learning`, which knows no terminal): the run a
//!   step's unanswered check asks about waits for a prediction (or `x`).
//! - [`live`]: the shape every lab's live part has ([`live::LivePart`]).
//! - [`health`]: the live part of Lab 1, whose first page is not yet a `Page` (Labs 2 to 5's
//!   are, in `tui/labs/retry/`, `breaker/`, `overload/` and `budget/`, on the one first-page
//!   shape `tui::labs::sim_page`).
//! - [`chapter_cache`]: the lesson panel's book chapter, rendered once per width and theme.

pub mod chapter_cache;
pub mod first_visit;
pub mod health;
pub mod live;
pub mod page_sliders;
pub mod predict;
pub mod sim;

use ratatui::layout::Rect;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::content::{LabFile, LabId};
use crate::learning::metrics::{self, Metric};
use crate::learning::progress::Progress;
use crate::learning::reveal::{self, Revealed};
use crate::live::run::LabEvent;
use crate::tui::event::Event;
use crate::tui::keys::Context;
use crate::tui::labs::page::{LabPages, OpenVerdict, Page, PageCtx, ScoredCheck};
use crate::tui::layout::{self, ResultsRows};
use crate::tui::msg::Msg;
use crate::tui::slider::Slider;
use crate::tui::widgets::number_input::NumberInput;
use first_visit::LabPage;
use health::LiveHealth;
use live::{LiveCtx, LivePart};
use page_sliders::{PageSliders, SliderWindow};
use predict::{Observed, PredictState};
use sim::LabResults;

/// Whether a lab screen shows the simulation or the live lab.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Sim,
    Live,
}

/// What a lab screen needs of its lab's registry row (`tui::labs::LABS`), handed to
/// [`LabScreen::new`] by the app: the screen matches on no lab.
#[derive(Clone, Copy, Debug)]
pub struct LabParts {
    /// The Results panel's rows, simulated and live (the layout and the mouse share them).
    pub rows: (ResultsRows, ResultsRows),
    /// The key context the live screen consults before the lab's (Lab 1's live keys).
    pub live_context: Option<Context>,
    pub new_live: fn() -> LabLive,
    /// The first page's simulation while that page is not a [`Page`] of its own; `None`
    /// when it is (Lab 5), and `pages` builds it.
    pub sim: Option<SimParts>,
    /// The lab's pages that are [`Page`]s, at their sliders, in the lab file's order (Lab 1's
    /// fleet view; Lab 5's one page).
    pub pages: fn(&LabFile, &[PageSliders]) -> LabPages,
}

/// A first page's simulation, run by the screen while the page is not a [`Page`] of its own.
#[derive(Clone, Copy, Debug)]
pub struct SimParts {
    /// The simulation at the sliders, and again reusing what a change cannot have moved.
    pub compute: fn(&LabFile, &[Slider]) -> LabResults,
    pub recompute: fn(&LabFile, &[Slider], &LabResults) -> LabResults,
}

/// The live part of a lab whose first page is a [`Page`]: the page has its own.
#[derive(Debug, Default)]
pub struct NoLive;

impl LivePart for NoLive {
    fn start(&mut self, _ctx: &LiveCtx) -> bool {
        false
    }

    fn stop(&mut self) -> bool {
        false
    }

    fn running(&self) -> bool {
        false
    }

    fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        Vec::new()
    }
}

/// Each lab's live part, one variant per lab: a new lab is one more variant here, and the
/// compiler lists the matches below.
#[derive(Debug)]
// One per lab screen, five in the app, and going as the labs' first pages become `Page`s:
// boxing the large variants would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum LabLive {
    Health(LiveHealth),
    /// The first page is a [`Page`] with a live part of its own.
    OnPage(NoLive),
}

impl LabLive {
    pub fn part(&mut self) -> &mut dyn LivePart {
        match self {
            LabLive::Health(part) => part,
            LabLive::OnPage(part) => part,
        }
    }

    pub fn part_ref(&self) -> &dyn LivePart {
        match self {
            LabLive::Health(part) => part,
            LabLive::OnPage(part) => part,
        }
    }

    pub fn health(&self) -> Option<&LiveHealth> {
        match self {
            LabLive::Health(part) => Some(part),
            _ => None,
        }
    }

    pub fn health_mut(&mut self) -> Option<&mut LiveHealth> {
        match self {
            LabLive::Health(part) => Some(part),
            _ => None,
        }
    }
}

/// What a message did to the screen, for the app to apply.
#[derive(Clone, Debug, PartialEq)]
pub enum LabOutcome {
    Unchanged,
    Changed,
    /// Back to the home screen.
    Home,
    /// The learner went on (Enter or `]`) from a guided step without a check: it counts as done.
    StepDone {
        lab: LabId,
        title: String,
    },
    /// A prediction was scored: the answer counts, and its step is done if it was right.
    Predicted {
        lab: LabId,
        check_id: String,
        right: bool,
        step_title: Option<String>,
        /// The step's run was seen (`x`) before the answer ([`Observed::seen_first`]).
        seen_first: bool,
    },
}

impl LabOutcome {
    fn changed(yes: bool) -> Self {
        if yes {
            LabOutcome::Changed
        } else {
            LabOutcome::Unchanged
        }
    }
}

/// What a lab screen may read of the app when it takes a message.
pub struct ScreenCtx<'a> {
    pub lab: &'a LabFile,
    /// The terminal's size, for mouse hit tests against the layout the views draw.
    pub area: Rect,
    /// The app's event queue, for live runs; `None` without a runtime.
    pub events: Option<&'a mpsc::Sender<Event>>,
}

/// One lab's screen state, kept when the learner goes back home.
#[derive(Debug)]
pub struct LabScreen {
    pub id: LabId,
    /// What differs between labs, from the lab's registry row.
    pub parts: LabParts,
    /// Each page's sliders, in the lab file's order of `[[page]]`s: the first page's are
    /// those the lab's engines and live part run at.
    pub pages: Vec<PageSliders>,
    /// The page showing, by its index in `pages`.
    pub showing_page: LabPage,
    pub show_lesson: bool,
    /// The lesson opened by itself on a page's first visit: it says how to close it and go
    /// on, until it is closed.
    pub first_visit: bool,
    /// On this first visit another page of the lab had its own first visit before, so the
    /// learner has read the lab's paragraphs: the panel leads with this page's steps instead
    /// of opening the same paragraphs again.
    pub lab_lesson_seen: bool,
    /// First line shown of the lesson.
    pub lesson_scroll: u16,
    /// The guided step changed since the learner last scrolled the lesson: it shows that
    /// step's title and text, wherever `lesson_scroll` had left it (at the chapter's end,
    /// "Enter: next step" left the next step out of sight).
    pub lesson_to_step: bool,
    /// The first line the lesson showed when last drawn: scrolling from a step it moved to
    /// starts there.
    pub lesson_scroll_drawn: std::cell::Cell<u16>,
    /// The lesson folded to show the run a verdict speaks of: it opens again when the
    /// verdict closes ([`LabScreen::lesson_gives_way`]).
    pub lesson_folded: bool,
    /// The last first line the lesson can show, as it was last drawn (`u16::MAX` before it
    /// is): PgDn stops there, so PgUp from the end moves a page at once.
    pub lesson_scroll_end: std::cell::Cell<u16>,
    /// The lesson's book chapter as last drawn, so a frame does not render it again.
    pub lesson_chapter: chapter_cache::ChapterCache,
    /// First line shown of the transition log (Lab 3) or the timeline (Lab 1).
    pub log_scroll: u16,
    /// The first page's simulation while it is not a [`Page`] (`None` when it is).
    pub results: Option<LabResults>,
    /// The lab's run at a check's own settings, kept when the simulation scored that check
    /// there (check id, run): while its verdict is open the results and charts show this run,
    /// the one the verdict speaks of, not the sliders'.
    pub verdict_results: Option<(String, LabResults)>,
    /// A slider moved since `results` were computed: [`LabScreen::settle`] recomputes once,
    /// before the next frame, however many steps were queued.
    pub results_stale: bool,
    /// The guided step and the prediction.
    pub predict: PredictState,
    pub mode: Mode,
    pub live: LabLive,
    /// The lab's pages that are [`Page`]s (Lab 1's fleet view, key `F`; Lab 5's page), each
    /// at the sliders of its page in `pages`: `page_states[0]` is page 0's when the first
    /// page is one, else page 1's ([`LabScreen::page_state`]).
    pub page_states: LabPages,
    /// What a live event decided (a Lab 1 live check), until the app applies it.
    pub outcome: Option<LabOutcome>,
    /// Steps whose unanswered check's run the learner chose to see without predicting (`x`).
    pub revealed: Revealed,
    /// Each check's answer at its own settings (`None` on screen), computed once when a
    /// view first asks what to mask: the lab file does not change while the app runs.
    check_answers: std::cell::OnceCell<Vec<(String, Option<f64>)>>,
}

/// `check`'s answer at its own settings, or `None` for a check on screen (its answer moves
/// with the sliders).
fn fixed_answer(lab: &LabFile, check: &crate::content::Question) -> Option<f64> {
    let own = check
        .settings
        .as_ref()
        .and_then(crate::content::question::CheckSettings::fixed)?;
    metrics::lookup(&metrics::run_metrics(lab, own), check.metric.as_deref()?)
}

/// How far PgUp/PgDn move the lesson drawn in `panel`: its rows inside the border less one,
/// so the line at the foot of one page heads the next and the reader keeps their place.
pub fn lesson_page_rows(panel: Rect) -> u16 {
    panel.height.saturating_sub(3).max(1)
}

impl LabScreen {
    pub fn new(lab: &LabFile, parts: LabParts) -> Self {
        // Each page's parameters are its sliders (Lab 1's first page: not the fleet view's),
        // laid out as the page asks.
        let mut pages: Vec<PageSliders> = (0..lab.pages.len().max(1))
            .map(|page| PageSliders::new(lab.page_parameters(page), SliderWindow::Scrolled))
            .collect();
        let results = parts.sim.map(|sim| (sim.compute)(lab, &pages[0].sliders));
        let page_states = (parts.pages)(lab, &pages);
        let first_state = usize::from(parts.sim.is_some());
        for (sliders, page) in pages.iter_mut().skip(first_state).zip(&page_states) {
            sliders.window = page.slider_window();
        }
        Self {
            id: lab.lab,
            parts,
            pages,
            showing_page: 0,
            show_lesson: false,
            first_visit: false,
            lab_lesson_seen: false,
            lesson_scroll: 0,
            lesson_to_step: false,
            lesson_scroll_drawn: std::cell::Cell::new(0),
            lesson_folded: false,
            lesson_scroll_end: std::cell::Cell::new(u16::MAX),
            lesson_chapter: chapter_cache::ChapterCache::default(),
            log_scroll: 0,
            results,
            verdict_results: None,
            results_stale: false,
            predict: PredictState::default(),
            mode: Mode::Sim,
            live: (parts.new_live)(),
            page_states,
            outcome: None,
            revealed: Revealed::default(),
            check_answers: std::cell::OnceCell::new(),
        }
    }

    /// Where page `page` is in `page_states`, if it is a [`Page`]: the first page, while it
    /// is the screen's own simulation, is not.
    fn state_index(&self, page: usize) -> Option<usize> {
        page.checked_sub(usize::from(self.parts.sim.is_some()))
            .filter(|&index| index < self.page_states.len())
    }

    /// Page `page`, if it is a [`Page`].
    pub fn page_state(&self, page: usize) -> Option<&dyn Page> {
        self.state_index(page).map(|index| self.page_states[index].as_ref())
    }

    /// The page showing, if it is a [`Page`].
    pub fn showing_state(&self) -> Option<&dyn Page> {
        self.page_state(self.showing_page)
    }

    /// The page showing when it is one after the first (Lab 1's fleet view, after `F`).
    pub fn later_page(&self) -> Option<&dyn Page> {
        self.showing_state().filter(|_| self.showing_page > 0)
    }

    /// The lab screen's layout at `area`, for the page showing (the views and the mouse share it).
    pub fn layout(&self, area: Rect) -> Option<layout::LabLayout> {
        match self.showing_state() {
            Some(page) => layout::lab_rows(area, page.results_rows()),
            None => layout::lab(area, self.parts.rows, self.mode == Mode::Live),
        }
    }

    /// The first page's sliders: the lab's engines and its live part run at these.
    pub fn lab_sliders(&self) -> &[Slider] {
        &self.pages[0].sliders
    }

    /// The showing page's sliders, which the slider keys and the mouse move.
    pub fn showing_sliders(&self) -> &PageSliders {
        &self.pages[self.showing_page]
    }

    /// The open verdict, as a page sees it.
    fn open_verdict(&self) -> Option<OpenVerdict<'_>> {
        self.predict.observed.as_ref().map(|observed| OpenVerdict {
            check_id: &observed.check_id,
            scored_live: observed.live,
        })
    }

    /// The results the view shows: those of an open verdict's check when it was scored at
    /// settings of its own, else the sliders'.
    pub fn shown_results(&self) -> Option<&LabResults> {
        self.verdict_showing().or(self.results.as_ref())
    }

    /// The run at an open verdict's own settings, if the view shows that one.
    pub fn verdict_showing(&self) -> Option<&LabResults> {
        let observed = self.predict.observed.as_ref().filter(|o| !o.live)?;
        self.verdict_results
            .as_ref()
            .filter(|(id, _)| *id == observed.check_id)
            .map(|(_, results)| results)
    }

    /// The sliders a check's prompt compares with its settings: those of the page whose
    /// steps ask it (the lab file says).
    pub fn check_sliders(&self, lab: &LabFile, check: &crate::content::Question) -> &[Slider] {
        let page = lab.check_page(&check.id);
        self.pages
            .get(page)
            .map_or(self.lab_sliders(), |page| &page.sliders[..])
    }

    /// The guided step the page showing is at: its own first step when the step kept belongs
    /// to the other page (as `p`, `[` and `]` see it).
    pub fn current_step(&self, lab: &LabFile) -> usize {
        let page = self.page();
        let step = self.predict.step;
        if first_visit::step_page(lab, step) == page {
            step
        } else {
            first_visit::first_step(lab, page)
        }
    }

    /// Whether the page showing is a simulation (the lab screen in sim mode, or the fleet view
    /// showing its simulated run): only there can a run show before the learner predicts.
    fn simulated(&self) -> bool {
        match self.showing_state() {
            Some(page) => page.simulated(),
            None => self.mode == Mode::Sim,
        }
    }

    /// Whether the run on screen waits for a prediction ([`reveal`]): the page is simulated,
    /// no verdict is open (it shows the run it scored), and the current step has a check
    /// neither answered in `progress` nor revealed.
    pub fn run_hidden(&self, lab: &LabFile, progress: &Progress) -> bool {
        self.simulated()
            && self.predict.observed.is_none()
            && reveal::step_hides_run(lab, self.current_step(lab), &self.revealed, progress)
    }

    /// What the run on screen must not show ([`reveal::Masked`]): all of it while a prompt is
    /// open or the step's check waits ([`LabScreen::run_hidden`]); else the numbers
    /// ([`reveal::masked_metrics`]): those
    /// unanswered checks ask for at the settings of the run shown (an open verdict's own,
    /// else the sliders'). A live page's too: its run's numbers wait for the verdict as the
    /// simulation's do (a finished run read off the screen was typed in and scored right).
    /// `spanning` names parameters the drawing covers whole (Lab 2's p-curve: every p).
    pub fn masked(&self, lab: &LabFile, progress: &Progress, spanning: &[&str]) -> reveal::Masked {
        if self.predict.input.is_some() {
            return reveal::Masked::all(reveal::Why::Predicting);
        }
        if self.run_hidden(lab, progress) {
            return reveal::Masked::all(reveal::Why::UntilPredicted);
        }
        let values = self.shown_values(lab);
        let simulated = self.masked_run(lab, progress, spanning, &values, &self.shown_metrics());
        if self.simulated() {
            return simulated;
        }
        // A live screen draws its run's numbers, and the simulated rows beside them: both are
        // named numbers, masked by the one rule at the sliders' settings, the live run's own.
        let live = match self.showing_state() {
            Some(page) => page.live_metrics(),
            // Lab 1's live screen, not yet a page's, draws no named numbers.
            None => Vec::new(),
        };
        simulated.union(self.masked_run(lab, progress, spanning, &values, &live))
    }

    /// [`reveal::masked_metrics`] of a run at `values` drawing `metrics`.
    fn masked_run(
        &self,
        lab: &LabFile,
        progress: &Progress,
        spanning: &[&str],
        values: &[(String, f64)],
        metrics: &[Metric],
    ) -> reveal::Masked {
        let shown = reveal::ShownRun { values, metrics };
        let answers = self.check_answers.get_or_init(|| {
            lab.checks
                .iter()
                .map(|check| (check.id.clone(), fixed_answer(lab, check)))
                .collect()
        });
        let answer = |check: &crate::content::Question| {
            answers
                .iter()
                .find(|(id, _)| *id == check.id)
                .and_then(|(_, answer)| *answer)
        };
        reveal::masked_metrics(lab, &shown, spanning, answer, (&self.revealed, progress))
    }

    /// The named numbers of the simulated run on screen: a later page's (the fleet's: an
    /// open verdict's own run, else the sliders'), or the lab screen's with Lab 4's slots case.
    pub fn shown_metrics(&self) -> Vec<Metric> {
        if let Some(page) = self.showing_state() {
            return page.shown_metrics(self.open_verdict());
        }
        self.shown_results().map(predict::lab_metrics).unwrap_or_default()
    }

    /// The named numbers of a finished live run on the page showing, if its live screen
    /// shows one: a prediction made there is scored against what really happened.
    pub fn live_run_metrics(&self) -> Option<Vec<Metric>> {
        match self.showing_state() {
            Some(page) if !page.simulated() => page.live_run_metrics(),
            Some(_) => None,
            None => None,
        }
    }

    /// The parameter values of the simulated run on screen: an open verdict's check's own
    /// settings when the view shows the run at them, else every slider (the fleet's too).
    fn shown_values(&self, lab: &LabFile) -> Vec<(String, f64)> {
        let verdict_check =
            self.predict
                .observed
                .as_ref()
                .filter(|_| match (self.showing_state(), self.open_verdict()) {
                    (Some(page), Some(verdict)) => page.shows_check_run(verdict),
                    _ => self.verdict_showing().is_some(),
                });
        let own = verdict_check
            .and_then(|observed| lab.checks.iter().find(|check| check.id == observed.check_id))
            .and_then(|check| check.settings.as_ref())
            .and_then(crate::content::question::CheckSettings::fixed);
        if let Some(own) = own {
            return own.to_vec();
        }
        self.pages
            .iter()
            .flat_map(|page| &page.sliders)
            .map(|slider| (slider.spec.name.clone(), slider.value()))
            .collect()
    }

    /// The step whose simulated run `x` would reveal: the current one, if it has a check and
    /// the page showing is simulated.
    fn revealable(&self, lab: &LabFile) -> Option<usize> {
        let step = self.current_step(lab);
        // Live too: a live screen masks the numbers an unanswered check asks for, as the sim does.
        reveal::step_check(lab, step).is_some().then_some(step)
    }

    /// The page showing, for its first visit.
    pub fn page(&self) -> LabPage {
        self.showing_page
    }

    /// A page's first visit: the lesson opens by itself at the page's first guided step.
    pub fn open_first_visit(&mut self, lab: &LabFile, page: LabPage, lab_lesson_seen: bool) {
        self.show_lesson = true;
        self.first_visit = true;
        self.lab_lesson_seen = lab_lesson_seen;
        self.lesson_scroll = 0;
        // The first visit's note heads the panel: it is read before the step.
        self.lesson_to_step = false;
        self.predict.step = first_visit::first_step(lab, page);
    }

    /// Whether the first page shows its live screen (on whichever page shows).
    pub fn live_showing(&self) -> bool {
        match self.page_state(0) {
            Some(page) => !page.simulated(),
            None => self.mode == Mode::Live,
        }
    }

    /// The key context of this screen under any overlay.
    pub fn context(&self) -> Context {
        if self.predict.is_showing_outcome() && self.predict.elsewhere_note {
            Context::Note
        } else if self.predict.is_showing_outcome() {
            Context::Observed
        } else if self.predict.is_open() {
            Context::Predict
        } else {
            Context::Lab
        }
    }

    /// The extra key context of the live screen, consulted before [`Context::Lab`].
    pub fn live_context(&self) -> Option<Context> {
        if let Some(page) = self.showing_state() {
            page.key_context()
        } else {
            self.parts.live_context.filter(|_| self.live_showing())
        }
    }

    /// Applies `msg`; the outcome says what changed and what the app must do.
    pub fn update(&mut self, msg: Msg, ctx: &ScreenCtx) -> LabOutcome {
        // `F` from a verdict or a note (which may say the lab goes on in the other view)
        // closes it and switches views.
        if msg == Msg::ToggleFleet && self.page_count() > 1 && self.predict.is_showing_outcome() {
            self.predict.close();
        }
        // Seeing the run without predicting: this step only; its check stays open to predict.
        if msg == Msg::Reveal {
            let step = self.revealable(ctx.lab);
            let revealed = step.is_some_and(|step| self.revealed.insert(step));
            // The run was asked for: it shows where the lesson was (they share the right panel).
            if revealed && self.show_lesson {
                self.show_lesson = false;
                self.first_visit = false;
            }
            return LabOutcome::changed(revealed);
        }
        if self.predict.is_open() || matches!(msg, Msg::Predict | Msg::PrevStep | Msg::NextStep) {
            // A verdict reads the results: they must be those of the sliders now.
            self.settle(ctx.lab);
            self.finish_slow_work();
            let (step_before, verdict_before) = (self.predict.step, self.predict.observed.is_some());
            let outcome = self.update_predict(msg, ctx.lab);
            if self.predict.step != step_before {
                self.lesson_to_step = true;
            }
            self.lesson_gives_way(verdict_before);
            return outcome;
        }
        // Esc closes the lesson before it leaves the lab (the first visit's lesson says so).
        if msg == Msg::Back && self.show_lesson {
            self.show_lesson = false;
            self.first_visit = false;
            return LabOutcome::Changed;
        }
        if msg == Msg::ToggleFleet && self.page_count() > 1 {
            self.showing_page = (self.showing_page + 1) % self.page_count();
            // Leaving a page ends its live run: no replica runs unseen.
            self.page_states.iter_mut().for_each(|page| page.leave());
            // Each view offers its own steps: the guided step moves to the view's first.
            let page = self.page();
            if first_visit::step_page(ctx.lab, self.predict.step) != page {
                self.predict.step = first_visit::first_step(ctx.lab, page);
            }
            return LabOutcome::Changed;
        }
        if self.showing_state().is_some() {
            if let Some(outcome) = self.update_page(msg, ctx) {
                return outcome;
            }
        } else if let Some(outcome) = self.update_live(msg, ctx) {
            return outcome;
        }
        let before = self.showing_sliders().values();
        let outcome = self.update_view(msg, ctx);
        let values_changed = self.showing_sliders().values() != before;
        if let Some(index) = self.state_index(self.showing_page) {
            let page_ctx = PageCtx {
                lab: ctx.lab,
                step: self.current_step(ctx.lab),
                events: ctx.events,
            };
            let sliders = &mut self.pages[self.showing_page].sliders;
            if values_changed {
                self.page_states[index].sliders_moved(&page_ctx, sliders, &before);
            } else if outcome == LabOutcome::Changed {
                self.page_states[index].view_moved(&page_ctx, sliders);
            }
            return outcome;
        }
        if values_changed {
            self.results_stale = true;
        }
        if values_changed || (outcome == LabOutcome::Changed && self.mode == Mode::Live) {
            let live_ctx = LiveCtx {
                lab: ctx.lab,
                sliders: &self.pages[0].sliders,
                step: self.current_step(ctx.lab),
                events: ctx.events,
            };
            self.live.part().retune(&live_ctx);
        }
        outcome
    }

    /// The first page's mode and live keys: `Some` when `msg` was one of them.
    fn update_live(&mut self, msg: Msg, ctx: &ScreenCtx) -> Option<LabOutcome> {
        match msg {
            Msg::ToggleMode => {
                if self.mode == Mode::Live {
                    self.live.part().leave();
                    self.mode = Mode::Sim;
                } else {
                    self.mode = Mode::Live;
                }
                return Some(LabOutcome::Changed);
            }
            Msg::StartStop | Msg::Live(_) if self.mode == Mode::Sim => return Some(LabOutcome::Unchanged),
            Msg::StartStop => {
                let live_ctx = LiveCtx {
                    lab: ctx.lab,
                    sliders: &self.pages[0].sliders,
                    step: self.current_step(ctx.lab),
                    events: ctx.events,
                };
                let part = self.live.part();
                let changed = if part.running() {
                    part.stop()
                } else {
                    part.start(&live_ctx)
                };
                return Some(LabOutcome::changed(changed));
            }
            Msg::Back => self.live.part().leave(),
            _ => {}
        }
        // The live screen takes its keys first; PgUp/PgDn scroll its log unless the lesson shows.
        let lesson_scroll = self.show_lesson && matches!(msg, Msg::ScrollUp | Msg::ScrollDown);
        if self.mode == Mode::Live && !lesson_scroll {
            let live_ctx = LiveCtx {
                lab: ctx.lab,
                sliders: &self.pages[0].sliders,
                step: self.current_step(ctx.lab),
                events: ctx.events,
            };
            if let Some(changed) = self.live.part().key(msg, &live_ctx) {
                return Some(LabOutcome::changed(changed));
            }
        }
        None
    }

    /// The keys of the [`Page`] showing (its mode and live keys; Lab 1's fleet: `m`, `s`,
    /// `d`/`w`/`u`, `l`/`r`, `o`, `c`): `Some` when `msg` was one of them.
    fn update_page(&mut self, msg: Msg, ctx: &ScreenCtx) -> Option<LabOutcome> {
        let index = self.state_index(self.showing_page)?;
        if msg == Msg::Back {
            // Leaving the lab ends every page's live run, the first page's too.
            self.page_states.iter_mut().for_each(|page| page.leave());
            self.live.part().leave();
            return None;
        }
        // PgUp/PgDn scroll a live screen's log unless the lesson shows (then they scroll it).
        let lesson_scroll = self.show_lesson && matches!(msg, Msg::ScrollUp | Msg::ScrollDown);
        if msg == Msg::ToggleLesson || lesson_scroll {
            return None;
        }
        let page_ctx = PageCtx {
            lab: ctx.lab,
            step: self.current_step(ctx.lab),
            events: ctx.events,
        };
        let sliders = &mut self.pages[self.showing_page].sliders;
        self.page_states[index]
            .key(msg, &page_ctx, sliders)
            .map(LabOutcome::changed)
    }

    /// How many pages the lab has.
    fn page_count(&self) -> usize {
        usize::from(self.parts.sim.is_some()) + self.page_states.len()
    }

    /// Every page computes again at its sliders as they stand, for sliders set from outside
    /// the handler (a test moving a check's settings onto them at once).
    pub fn sliders_set(&mut self, lab: &LabFile) {
        self.results_stale = true;
        let ctx = PageCtx {
            lab,
            step: self.current_step(lab),
            events: None,
        };
        let first = usize::from(self.parts.sim.is_some());
        for (page, sliders) in self.page_states.iter_mut().zip(self.pages.iter_mut().skip(first)) {
            let now = sliders.values();
            page.sliders_moved(&ctx, &mut sliders.sliders, &now);
        }
    }

    /// Recomputes the results if a slider moved since they were computed; true if it did.
    /// What does not fit the frame (Lab 2's p-curve) is left to [`LabScreen::finish_slow_work`].
    pub fn settle(&mut self, lab: &LabFile) -> bool {
        let first = usize::from(self.parts.sim.is_some());
        let mut settled = false;
        for (page, sliders) in self.page_states.iter_mut().zip(self.pages.iter().skip(first)) {
            settled |= page.settle(lab, &sliders.sliders);
        }
        if !self.results_stale {
            return settled;
        }
        if let (Some(sim), Some(results)) = (self.parts.sim, &self.results) {
            self.results = Some((sim.recompute)(lab, &self.pages[0].sliders, results));
        }
        self.results_stale = false;
        true
    }

    /// Whether a slider moved since the run on screen was computed: [`LabScreen::settle`]
    /// computes it (the first page's results, or a page's).
    pub fn settle_pending(&self) -> bool {
        self.results_stale || self.page_states.iter().any(|page| page.settle_pending())
    }

    /// Whether the results wait for work [`LabScreen::settle`] left.
    pub fn slow_work_pending(&self) -> bool {
        self.page_states.iter().any(|page| page.slow_work_pending())
    }

    /// The lesson and the charts share the right panel: a verdict speaks of the run, so
    /// while it is open the run shows there (the lesson folds), and the lesson comes back
    /// when it closes, at the step it went on to. At 80x24 the lesson covered Lab 1's
    /// timeline and Lab 2's jitter chart while their verdicts spoke of them.
    fn lesson_gives_way(&mut self, verdict_before: bool) {
        let verdict_now = self.predict.observed.is_some();
        if verdict_now && !verdict_before && self.show_lesson {
            self.show_lesson = false;
            self.lesson_folded = true;
        } else if !verdict_now && verdict_before && self.lesson_folded {
            self.show_lesson = true;
            self.lesson_folded = false;
        }
    }

    /// Does the work [`LabScreen::settle`] left; true if there was some.
    pub fn finish_slow_work(&mut self) -> bool {
        self.page_states
            .iter_mut()
            .fold(false, |finished, page| page.finish_slow_work() | finished)
    }

    /// The showing page's sliders, the lesson, scrolling and the mouse.
    fn update_view(&mut self, msg: Msg, ctx: &ScreenCtx) -> LabOutcome {
        let layout = self.layout(ctx.area);
        let page = self.showing_page;
        let view_before = (
            self.pages[page].focus,
            self.show_lesson,
            self.lesson_scroll,
            self.log_scroll,
        );
        let before = self.pages[page].values();
        if !self.pages[page].update(msg, layout.as_ref()) {
            match msg {
                Msg::Back => return LabOutcome::Home,
                Msg::ToggleLesson => {
                    self.show_lesson = !self.show_lesson;
                    self.first_visit = false;
                }
                Msg::ScrollUp | Msg::ScrollDown => {
                    let lines = if self.show_lesson {
                        layout.as_ref().map_or(3, |l| lesson_page_rows(l.right))
                    } else {
                        3
                    };
                    self.scroll(msg == Msg::ScrollDown, lines);
                }
                Msg::Wheel(_, _, down) => self.scroll(down, 1),
                _ => {}
            }
        }
        let view_after = (
            self.pages[page].focus,
            self.show_lesson,
            self.lesson_scroll,
            self.log_scroll,
        );
        LabOutcome::changed(self.pages[page].values() != before || view_before != view_after)
    }

    /// Scrolls the lesson when it shows, else the log; the views clamp to the text's end.
    fn scroll(&mut self, down: bool, lines: u16) {
        if self.show_lesson && self.lesson_to_step {
            self.lesson_scroll = self.lesson_scroll_drawn.get();
            self.lesson_to_step = false;
        }
        let target = if self.show_lesson {
            &mut self.lesson_scroll
        } else {
            &mut self.log_scroll
        };
        let end = if self.show_lesson {
            self.lesson_scroll_end.get().min(500)
        } else {
            500
        };
        *target = if down {
            target.saturating_add(lines).min(end)
        } else {
            target.saturating_sub(lines)
        };
    }

    /// Steps, the prediction prompt and its outcome.
    fn update_predict(&mut self, msg: Msg, lab: &LabFile) -> LabOutcome {
        let page = self.page();
        let before = self.predict.clone();
        let state = &mut self.predict;
        // `p`, `[` and `]` stay among the steps of the view showing (Lab 1's fleet steps in
        // the fleet view, its single-server steps elsewhere).
        if !state.is_open() && first_visit::step_page(lab, state.step) != page {
            state.step = first_visit::first_step(lab, page);
        }
        let next = |from: usize| first_visit::next_step(lab, page, from, true).unwrap_or(from);
        if state.is_showing_outcome() {
            match msg {
                // Seen: on to the next step; from a step without a check, that says it is done.
                Msg::Open => {
                    let note_only = state.observed.is_none();
                    let from = state.step;
                    // The note that the steps go on in the other view was read: it closes.
                    let elsewhere = first_visit::steps_elsewhere(lab, page, from);
                    if note_only && elsewhere.is_some() && state.hint == done_note(from, elsewhere.as_deref()) {
                        state.close();
                        return LabOutcome::Changed;
                    }
                    state.close();
                    state.step = next(from);
                    if let Some(step) = lab.steps.get(from).filter(|step| note_only && step.check.is_none()) {
                        // Nothing follows here: say where the lab goes on rather than show the step again.
                        state.hint = done_note(from, elsewhere.as_deref());
                        state.elsewhere_note = state.hint.is_some();
                        return LabOutcome::StepDone {
                            lab: self.id,
                            title: step.title.clone(),
                        };
                    }
                }
                Msg::Back => state.close(),
                Msg::ScrollDown if state.observed.is_some() => state.verdict_end = true,
                Msg::ScrollUp => state.verdict_end = false,
                _ => {}
            }
            return LabOutcome::changed(before != *state);
        }
        if let Some(input) = &mut state.input {
            match msg {
                Msg::Type(c) => {
                    // A key the input does not take says so rather than vanish (`4^3` is not `43`).
                    // Letters that begin no unit of the answer say so at once, not at Enter.
                    let check = reveal::step_check(lab, state.step);
                    state.hint = input.push(c).err().or_else(|| check.and_then(|q| input.hint(&q)));
                }
                Msg::Erase => {
                    input.erase();
                    state.hint = reveal::step_check(lab, state.step).and_then(|q| input.hint(&q));
                }
                Msg::Back => state.close(),
                Msg::Open => match reveal::step_check(lab, state.step).map(|check| (input.read(&check), check)) {
                    Some((Err(refusal), _)) => state.hint = Some(refusal),
                    Some((Ok(reading), check)) => {
                        let value = reading.value;
                        // Lab 1 live: asked before the action that decides it; a real probe scores it,
                        // but only of a server started at the check's own settings (else the
                        // simulation at them does, as for every other live screen).
                        let step_title = lab.steps.get(state.step).map_or("", |s| s.title.as_str());
                        let step = state.step;
                        let decided_live = match self.state_index(0) {
                            Some(first) => self.page_states[first].predict_live(
                                &check,
                                value,
                                (step, step_title),
                                &self.pages[0].sliders,
                            ),
                            None => {
                                self.mode == Mode::Live
                                    && predict::sliders_at_settings(&check, &self.pages[0].sliders)
                                    && self
                                        .live
                                        .health_mut()
                                        .is_some_and(|live| live.expect(&check, value, step, step_title).is_some())
                            }
                        };
                        if decided_live {
                            self.predict.close();
                            return LabOutcome::Changed;
                        }
                        let live_run = self.live_run_metrics();
                        let observed = predict::observe(lab, &check, reading, &self.pages[0].sliders, live_run);
                        // The view shows the run the verdict is about while it is open.
                        let check_page = lab.check_page(&check.id);
                        let first = usize::from(self.parts.sim.is_some());
                        for (index, page) in self.page_states.iter_mut().enumerate() {
                            let scored = ScoredCheck {
                                check: &check,
                                scored_live: observed.live,
                                on_this_page: index + first == check_page,
                            };
                            page.keep_check_run(lab, scored, &self.pages[index + first].sliders);
                        }
                        // (A check of a page behind the trait is kept by that page, just above.)
                        self.verdict_results =
                            self.parts
                                .sim
                                .filter(|_| !observed.live && check_page == 0)
                                .and_then(|sim| {
                                    let at_check = predict::sliders_for_check(&check, &self.pages[0].sliders)?;
                                    Some((check.id.clone(), (sim.compute)(lab, &at_check)))
                                });
                        return self.record_prediction(lab, observed);
                    }
                    None => state.close(),
                },
                _ => {}
            }
            return LabOutcome::changed(before != *state);
        }
        match msg {
            Msg::PrevStep => {
                state.step = first_visit::next_step(lab, page, state.step, false).unwrap_or(state.step);
                state.hint = None;
            }
            Msg::NextStep => {
                let from = state.step;
                state.step = next(from);
                // At the view's last step, a note says where the lab goes on.
                state.hint = first_visit::steps_elsewhere(lab, page, from);
                state.elsewhere_note = state.hint.is_some();
                // Going on from a step without a check is the learner saying it is done;
                // a step with a check is done when its check is answered right.
                if let Some(step) = lab.steps.get(from).filter(|step| step.check.is_none()) {
                    state.hint = done_note(from, state.hint.as_deref());
                    state.elsewhere_note = state.hint.is_some();
                    return LabOutcome::StepDone {
                        lab: self.id,
                        title: step.title.clone(),
                    };
                }
            }
            Msg::Predict => match lab.steps.get(state.step) {
                Some(step) if step.check.is_some() => {
                    state.input = Some(NumberInput::default());
                    state.hint = None;
                }
                Some(_) => {
                    let goes_on = if first_visit::steps_elsewhere(lab, page, state.step).is_some() {
                        "marks it done"
                    } else {
                        "marks it done and goes on"
                    };
                    state.hint = Some(format!(
                        "Nothing to predict on this step: try it on screen, then Enter (or ]) {goes_on}"
                    ));
                }
                None => state.hint = Some("this lab has no guided steps".to_string()),
            },
            _ => {}
        }
        LabOutcome::changed(before != *state)
    }

    /// Shows a prediction's outcome; the app records the answer and the step.
    fn record_prediction(&mut self, lab: &LabFile, mut observed: Observed) -> LabOutcome {
        let state = &mut self.predict;
        observed.seen_first = self.revealed.contains(state.step);
        let outcome = LabOutcome::Predicted {
            seen_first: observed.seen_first,
            lab: self.id,
            check_id: observed.check_id.clone(),
            right: observed.verdict.right,
            // Only a right answer does the step; a miss is saved as an answer, to try again.
            step_title: lab
                .steps
                .get(state.step)
                .filter(|_| observed.verdict.right)
                .map(|s| s.title.clone()),
        };
        state.input = None;
        state.hint = None;
        state.observed = Some(observed);
        outcome
    }

    /// An event of one of this lab's live runs. A live check it decides shows its verdict
    /// and leaves the outcome for [`LabScreen::take_outcome`].
    pub fn on_event(&mut self, event: LabEvent) -> bool {
        if let Some(page) = self.page_states.iter_mut().find(|page| page.takes_event(&event.body)) {
            let changed = page.on_event(event);
            return self.show_live_verdict() || changed;
        }
        let changed = self.live.part().on_event(event);
        self.show_live_verdict() || changed
    }

    /// Moves a live check the live part decided into the verdict box and the outcome;
    /// true if there was one.
    pub fn show_live_verdict(&mut self) -> bool {
        let from_page = self.page_states.iter_mut().find_map(|page| page.take_live_verdict());
        let decided = from_page.or_else(|| {
            let (check, observed) = *self.live.health_mut()?.decided.take()?;
            Some((check.step, check.step_title, observed))
        });
        let Some((step, step_title, mut observed)) = decided else {
            return false;
        };
        observed.seen_first = self.revealed.contains(step);
        self.outcome = Some(LabOutcome::Predicted {
            seen_first: observed.seen_first,
            lab: self.id,
            check_id: observed.check_id.clone(),
            right: observed.verdict.right,
            step_title: Some(step_title).filter(|_| observed.verdict.right),
        });
        self.predict.close();
        self.predict.step = step;
        self.predict.observed = Some(observed);
        true
    }

    /// The outcome a live event left (a live check decided), for the app to apply once.
    pub fn take_outcome(&mut self) -> Option<LabOutcome> {
        self.outcome.take()
    }

    /// The frame tick; true if the screen changed.
    pub fn tick(&mut self) -> bool {
        let later = self
            .page_states
            .iter_mut()
            .fold(false, |changed, page| page.tick() | changed);
        self.live.part().tick() | later
    }

    /// Whether a live run (or server) of this lab is going.
    pub fn live_running(&self) -> bool {
        self.live.part_ref().running() || self.page_states.iter().any(|page| page.running())
    }

    /// Stops every live run of this lab; the tasks are for the bounded wait before leaving.
    pub fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        let mut tasks = self.live.part().shutdown();
        for page in &mut self.page_states {
            tasks.extend(page.shutdown());
        }
        tasks
    }
}

/// The note after step `from` (from 0) is marked done when the lab goes on in the other
/// view (`elsewhere`, from [`first_visit::steps_elsewhere`]); `None` when it goes on here.
pub fn done_note(from: usize, elsewhere: Option<&str>) -> Option<String> {
    elsewhere.map(|elsewhere| format!("Step {} done. {elsewhere}", from + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    #[test]
    fn keys_without_a_server_say_why_and_flags_wait_for_the_next_start() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        // Lab 1's parts, as its registry row has them (the row is the app's to read).
        let parts = LabParts {
            rows: (ResultsRows::Fixed(5), ResultsRows::Fixed(5)),
            live_context: Some(Context::LiveHealth),
            new_live: || LabLive::Health(LiveHealth::default()),
            sim: Some(SimParts {
                compute: sim::compute_health,
                recompute: sim::recompute_health,
            }),
            // The live keys are the first page's: no later page is needed here.
            pages: |_, _| Vec::new(),
        };
        let mut screen = LabScreen::new(lab, parts);
        let ctx = ScreenCtx {
            lab,
            area: ratatui::layout::Rect::new(0, 0, 100, 30),
            events: None,
        };
        assert_eq!(
            screen.update(Msg::LiveWork, &ctx),
            LabOutcome::Unchanged,
            "hidden: the lab screen handles it"
        );
        screen.update(Msg::ToggleMode, &ctx);
        assert!(screen.live_showing());
        screen.update(Msg::LiveWork, &ctx);
        screen.update(Msg::LiveLivenessDb, &ctx);
        let live = screen.live.health().expect("Lab 1's live part");
        assert!(live.next_liveness_checks_db);
        assert!(live.status.as_deref().unwrap_or_default().contains("next start"));
        let mut live = LiveHealth::default();
        live.update(Msg::LiveWork);
        assert!(live.status.as_deref().unwrap_or_default().contains("s starts one"));
        assert_eq!(live.update(Msg::NextSlider), None);
    }
}
