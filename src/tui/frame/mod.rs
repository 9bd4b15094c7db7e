//! The lab screen's frame: one lab's screen (its pages, their sliders, the guided steps and
//! predictions, the lesson), with `update(Msg) -> LabOutcome` and `on_event(LabEvent)`.
//!
//! The app routes messages and events here and applies the [`LabOutcome`]; it knows nothing
//! of a lab's insides. What differs between labs is its pages, which the app builds from the
//! lab's row of the registry (`tui::labs::LABS`) and hands the screen: the screen matches on
//! no `LabId` and names no lab. Which page a slider, guided step or check is on is the lab
//! file's (`content::page`). The parts:
//!
//! - [`page_sliders`]: one page's sliders, focus and drag; the screen holds one per page and
//!   moves the showing page's with the one slider and mouse handler.
//! - `tui::labs::page`: a lab's pages (every lab's first page, on the one first-page shape
//!   `tui::labs::sim_page`, and Lab 1's fleet), each behind the one trait [`Page`]: the
//!   screen asks a page for its numbers and hands it its keys, its mode and its live part
//!   are its own; it draws its regions.
//! - [`predict`]: the guided steps and predict-then-observe checks.
//! - [`crate::learning::reveal`] (in `learning`, which knows no terminal): the run a
//!   step's unanswered check asks about waits for a prediction (or `x`).
//! - [`live`]: the shape every page's live part has ([`live::LivePart`]).
//! - [`chapter_cache`]: the lesson panel's book chapter, rendered once per width and theme.
//! - [`view`]: the frame's drawing, from a [`view::LabView`] (the screen and what the app
//!   lends it): the title, parameter panel, lesson, prompt and footer around the page's regions.

pub mod chapter_cache;
pub mod first_visit;
pub mod live;
pub mod page_sliders;
pub mod predict;
pub mod view;

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
use crate::tui::labs::page::{LabPages, NewPages, OpenVerdict, Page, PageCtx, ScoredCheck};
use crate::tui::layout;
use crate::tui::msg::Msg;
use crate::tui::slider::Slider;
use crate::tui::widgets::number_input::NumberInput;
use first_visit::LabPage;
use page_sliders::{PageSliders, SliderWindow};
use predict::{Observed, PredictState};

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
    /// learner goes on from the verdict ([`LabScreen::lesson_gives_way`]).
    pub lesson_folded: bool,
    /// The last first line the lesson can show, as it was last drawn (`u16::MAX` before it
    /// is): PgDn stops there, so PgUp from the end moves a page at once.
    pub lesson_scroll_end: std::cell::Cell<u16>,
    /// The lesson's book chapter as last drawn, so a frame does not render it again.
    pub lesson_chapter: chapter_cache::ChapterCache,
    /// First line shown of a page's log (Lab 3's transitions, Lab 1's timeline).
    pub log_scroll: u16,
    /// The guided step and the prediction.
    pub predict: PredictState,
    /// The lab's pages (key `F` switches between them where there are two), each at the
    /// sliders of its page in `pages`: `page_states[i]` is page `i`.
    pub page_states: LabPages,
    /// What a live event decided (a live check a page's run decided), until the app applies it.
    pub outcome: Option<LabOutcome>,
    /// Steps whose unanswered check's run the learner chose to see without predicting (`x`).
    pub revealed: Revealed,
    /// The step and check whose run `x` showed at the check's own settings, until a slider
    /// moves (then the learner looks at the sliders' run; `x` shows the step's again). It
    /// belongs to its step: another step shows its own run, and coming back shows this one
    /// again, as a verdict's run stays its step's.
    revealed_check: Option<(usize, String)>,
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
    /// The screen of `lab`, its pages built by `new_pages` (its registry row's) at their sliders.
    pub fn new(lab: &LabFile, new_pages: NewPages) -> Self {
        // Each page's parameters are its sliders (Lab 1's first page: not the fleet view's),
        // laid out as the page asks.
        let mut pages: Vec<PageSliders> = (0..lab.pages.len().max(1))
            .map(|page| PageSliders::new(lab.page_parameters(page), SliderWindow::Scrolled))
            .collect();
        let page_states = new_pages(lab, &pages);
        for (sliders, page) in pages.iter_mut().zip(&page_states) {
            sliders.window = page.slider_window();
        }
        Self {
            id: lab.lab,
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
            predict: PredictState::default(),
            page_states,
            outcome: None,
            revealed: Revealed::default(),
            revealed_check: None,
            check_answers: std::cell::OnceCell::new(),
        }
    }

    /// Page `page`, if the lab has it.
    pub fn page_state(&self, page: usize) -> Option<&dyn Page> {
        self.page_states.get(page).map(AsRef::as_ref)
    }

    /// The page showing (a lab without pages, which its registry row never gives, has none).
    pub fn showing_state(&self) -> Option<&dyn Page> {
        self.page_state(self.showing_page)
    }

    /// The page showing when it is one after the first (Lab 1's fleet view, after `F`).
    pub fn later_page(&self) -> Option<&dyn Page> {
        self.showing_state().filter(|_| self.showing_page > 0)
    }

    /// The lab screen's layout at `area`, for the page showing (the views and the mouse share it).
    pub fn layout(&self, area: Rect) -> Option<layout::LabLayout> {
        layout::lab_rows(area, self.showing_state()?.results_rows())
    }

    /// The first page's sliders: the lab's engines and its live part run at these.
    pub fn lab_sliders(&self) -> &[Slider] {
        &self.pages[0].sliders
    }

    /// The showing page's sliders, which the slider keys and the mouse move.
    pub fn showing_sliders(&self) -> &PageSliders {
        &self.pages[self.showing_page]
    }

    /// The verdict whose run the pages show, as a page sees it: an open verdict's, else,
    /// while no prompt is open, the run `x` showed at its check's own settings (on its step,
    /// until a slider moves): one path for both, so every page shows them alike.
    pub fn open_verdict(&self) -> Option<OpenVerdict<'_>> {
        if let Some(observed) = self.predict.observed.as_ref() {
            return Some(OpenVerdict {
                check_id: &observed.check_id,
                scored_live: observed.live,
            });
        }
        self.revealed_check
            .as_ref()
            .filter(|(step, _)| !self.predict.is_open() && *step == self.predict.step && self.simulated())
            .map(|(_, check_id)| OpenVerdict {
                check_id,
                scored_live: false,
            })
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
        self.showing_state().is_none_or(|page| page.simulated())
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
        let live = self.showing_state().map(|page| page.live_metrics()).unwrap_or_default();
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

    /// The named numbers of the simulated run on screen, the page showing's: an open
    /// verdict's own run, else the sliders'.
    pub fn shown_metrics(&self) -> Vec<Metric> {
        self.showing_state()
            .map(|page| page.shown_metrics(self.open_verdict()))
            .unwrap_or_default()
    }

    /// The named numbers of a finished live run on the page showing, if its live screen
    /// shows one: a prediction made there is scored against what really happened.
    pub fn live_run_metrics(&self) -> Option<Vec<Metric>> {
        self.showing_state()
            .filter(|page| !page.simulated())
            .and_then(|page| page.live_run_metrics())
    }

    /// The parameter values of the simulated run on screen: an open verdict's check's own
    /// settings when the view shows the run at them, else every slider (the fleet's too).
    fn shown_values(&self, lab: &LabFile) -> Vec<(String, f64)> {
        let verdict_check = match (self.showing_state(), self.open_verdict()) {
            (Some(page), Some(verdict)) if page.shows_check_run(verdict) => Some(verdict.check_id),
            _ => None,
        };
        let own = verdict_check
            .and_then(|check_id| lab.checks.iter().find(|check| check.id == check_id))
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

    /// Every page's slider values, in order.
    fn all_values(&self) -> Vec<f64> {
        self.pages.iter().flat_map(|page| page.values()).collect()
    }

    /// Whether step `step`'s check has settings of its own that the sliders of its page do
    /// not stand at: its run is then another than the sliders' (Lab 1's fleet at step 7).
    fn check_run_differs(&self, lab: &LabFile, step: usize) -> Option<crate::content::Question> {
        let check = reveal::step_check(lab, step)?;
        let own = check
            .settings
            .as_ref()
            .and_then(crate::content::question::CheckSettings::fixed)
            .is_some();
        (own && !predict::sliders_at_settings(&check, self.check_sliders(lab, &check))).then_some(check)
    }

    /// `x` shows step `step`'s run, the one its verdict would: at its check's own settings
    /// where the sliders do not stand at them (Lab 1's fleet showed the sliders' run, not
    /// step 7's). The pages keep that run as they keep an open verdict's and show it until
    /// a slider moves (the sliders stay where the learner left them); where the sliders
    /// stand at the settings, or the check has none, their run is the step's.
    fn keep_revealed_run(&mut self, lab: &LabFile, step: usize) {
        let Some(check) = self.check_run_differs(lab, step) else {
            self.revealed_check = None;
            return;
        };
        let check_page = lab.check_page(&check.id);
        for (index, page) in self.page_states.iter_mut().enumerate() {
            let scored = ScoredCheck {
                check: &check,
                scored_live: false,
                on_this_page: index == check_page,
            };
            page.keep_check_run(lab, scored, &self.pages[index].sliders);
        }
        self.revealed_check = Some((step, check.id.clone()));
    }

    /// Whether `x` would change the screen, so the footer and the help offer it: the run
    /// waits for the current step's check, or the step's run (at its check's own settings)
    /// is not the one showing. One rule for every page.
    pub fn reveal_offered(&self, lab: &LabFile, progress: &Progress) -> bool {
        if self.run_hidden(lab, progress) {
            return true;
        }
        let step = self.current_step(lab);
        let shows_check_run = match (self.showing_state(), self.open_verdict()) {
            (Some(page), Some(verdict)) => page.shows_check_run(verdict),
            _ => false,
        };
        self.simulated()
            && self.predict.observed.is_none()
            && !self.predict.is_open()
            && !shows_check_run
            && self.check_run_differs(lab, step).is_some()
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
        self.page_state(0).is_some_and(|page| !page.simulated())
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
        self.showing_state()?.key_context()
    }

    /// Applies `msg`; the outcome says what changed and what the app must do. A slider moved
    /// (by the frame's keys, the mouse or a page's own keys) ends the run `x` showed.
    pub fn update(&mut self, msg: Msg, ctx: &ScreenCtx) -> LabOutcome {
        let before = self.revealed_check.is_some().then(|| self.all_values());
        let outcome = self.update_msg(msg, ctx);
        if before.is_some_and(|before| before != self.all_values()) {
            self.revealed_check = None;
        }
        outcome
    }

    /// [`LabScreen::update`] but for the run `x` showed.
    fn update_msg(&mut self, msg: Msg, ctx: &ScreenCtx) -> LabOutcome {
        // `F` from a verdict or a note (which may say the lab goes on in the other view)
        // closes it and switches views.
        if msg == Msg::NextPage && self.page_count() > 1 && self.predict.is_showing_outcome() {
            let verdict_before = self.predict.observed.is_some();
            self.predict.close();
            // The lesson the verdict folded stays folded away: the page it belonged to goes.
            self.lesson_gives_way(verdict_before, true);
        }
        // Seeing the run without predicting: this step only; its check stays open to predict.
        if msg == Msg::Reveal {
            let step = self.revealable(ctx.lab);
            let revealed = step.is_some_and(|step| self.revealed.insert(step));
            // The step's run is its check's: at the check's own settings, as a verdict shows it
            // (again, once a slider moved since: `x` on a revealed step shows it once more).
            let before = self.open_verdict().map(|verdict| verdict.check_id.to_string());
            if let Some(step) = step.filter(|_| self.simulated()) {
                self.keep_revealed_run(ctx.lab, step);
            }
            let shown_again = self.open_verdict().map(|verdict| verdict.check_id.to_string()) != before;
            // The run was asked for: it shows where the lesson was (they share the right panel).
            if (revealed || shown_again) && self.show_lesson {
                self.show_lesson = false;
                self.first_visit = false;
            }
            return LabOutcome::changed(revealed || shown_again);
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
            self.lesson_gives_way(verdict_before, msg == Msg::Back);
            return outcome;
        }
        // Esc closes the lesson before it leaves the lab (the first visit's lesson says so).
        if msg == Msg::Back && self.show_lesson {
            self.show_lesson = false;
            self.first_visit = false;
            return LabOutcome::Changed;
        }
        if msg == Msg::NextPage && self.page_count() > 1 {
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
        if let Some(outcome) = self.update_page(msg, ctx) {
            return outcome;
        }
        let before = self.showing_sliders().values();
        let outcome = self.update_view(msg, ctx);
        let values_changed = self.showing_sliders().values() != before;
        let page_ctx = PageCtx {
            lab: ctx.lab,
            step: self.current_step(ctx.lab),
            events: ctx.events,
        };
        let sliders = &mut self.pages[self.showing_page].sliders;
        if let Some(page) = self.page_states.get_mut(self.showing_page) {
            if values_changed {
                page.sliders_moved(&page_ctx, sliders, &before);
            } else if outcome == LabOutcome::Changed {
                page.view_moved(&page_ctx, sliders);
            }
        }
        outcome
    }

    /// The keys of the [`Page`] showing (its mode and live keys; Lab 1's fleet: `m`, `s`,
    /// `d`/`w`/`u`, `l`/`r`, `o`, `c`): `Some` when `msg` was one of them.
    fn update_page(&mut self, msg: Msg, ctx: &ScreenCtx) -> Option<LabOutcome> {
        let index = self.showing_page;
        if msg == Msg::Back {
            // Leaving the lab ends every page's live run, the first page's too.
            self.page_states.iter_mut().for_each(|page| page.leave());
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
        let sliders = &mut self.pages[index].sliders;
        self.page_states
            .get_mut(index)?
            .key(msg, &page_ctx, sliders)
            .map(LabOutcome::changed)
    }

    /// How many pages the lab has.
    fn page_count(&self) -> usize {
        self.page_states.len()
    }

    /// Every page computes again at its sliders as they stand, for sliders set from outside
    /// the handler (a test moving a check's settings onto them at once).
    pub fn sliders_set(&mut self, lab: &LabFile) {
        let ctx = PageCtx {
            lab,
            step: self.current_step(lab),
            events: None,
        };
        for (page, sliders) in self.page_states.iter_mut().zip(self.pages.iter_mut()) {
            let now = sliders.values();
            page.sliders_moved(&ctx, &mut sliders.sliders, &now);
        }
    }

    /// Recomputes the results if a slider moved since they were computed; true if it did.
    /// What does not fit the frame (Lab 2's p-curve) is left to [`LabScreen::finish_slow_work`].
    pub fn settle(&mut self, lab: &LabFile) -> bool {
        let mut settled = false;
        for (page, sliders) in self.page_states.iter_mut().zip(self.pages.iter()) {
            settled |= page.settle(lab, &sliders.sliders);
        }
        settled
    }

    /// Whether a slider moved since the run on screen was computed: [`LabScreen::settle`]
    /// computes it (a page's).
    pub fn settle_pending(&self) -> bool {
        self.page_states.iter().any(|page| page.settle_pending())
    }

    /// Whether the results wait for work [`LabScreen::settle`] left.
    pub fn slow_work_pending(&self) -> bool {
        self.page_states.iter().any(|page| page.slow_work_pending())
    }

    /// The lesson and the charts share the right panel: a verdict speaks of the run, so
    /// while it is open the run shows there (the lesson folds), and the lesson comes back
    /// when the learner goes on, at the step it went on to. At 80x24 the lesson covered Lab
    /// 1's timeline and Lab 2's jitter chart while their verdicts spoke of them. Closed with
    /// Esc (`stays`: on this step, to look at the run, a miss to try again) the run stays in
    /// view and `L` opens the lesson: it came back over the chart a miss had just sent the
    /// learner to (Lab 4, in a new user's trial).
    fn lesson_gives_way(&mut self, verdict_before: bool, stays: bool) {
        let verdict_now = self.predict.observed.is_some();
        if verdict_now && !verdict_before && self.show_lesson {
            self.show_lesson = false;
            self.lesson_folded = true;
        } else if !verdict_now && verdict_before && self.lesson_folded {
            self.lesson_folded = false;
            if stays {
                // The first visit's lesson has been read past: `L` opens the lesson itself.
                self.first_visit = false;
            } else {
                self.show_lesson = true;
            }
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
        // With the lesson open, Home and End go to its top and its end (as PgUp and PgDn page
        // it): a slider moved under the lesson was a change the learner did not see.
        let lesson_end = self.show_lesson && matches!(msg, Msg::SliderMin | Msg::SliderMax);
        if lesson_end {
            self.lesson_to_step = false;
            self.lesson_scroll = match msg {
                Msg::SliderMin => 0,
                _ => self.lesson_scroll_end.get().min(500),
            };
        } else if !self.pages[page].update(msg, layout.as_ref()) {
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
                        // A first page's live run may decide it, asked before the action that
                        // decides it (Lab 1's probes), but only of a run at the check's own
                        // settings (else the simulation at them does, as for every other live screen).
                        let step_title = lab.steps.get(state.step).map_or("", |s| s.title.as_str());
                        let step = state.step;
                        let decided_live = self.page_states.first_mut().is_some_and(|first| {
                            first.predict_live(&check, value, (step, step_title), &self.pages[0].sliders)
                        });
                        if decided_live {
                            self.predict.close();
                            return LabOutcome::Changed;
                        }
                        let live_run = self.live_run_metrics();
                        let observed = predict::observe(lab, &check, reading, &self.pages[0].sliders, live_run);
                        // The view shows the run the verdict is about while it is open.
                        let check_page = lab.check_page(&check.id);
                        for (index, page) in self.page_states.iter_mut().enumerate() {
                            let scored = ScoredCheck {
                                check: &check,
                                scored_live: observed.live,
                                on_this_page: index == check_page,
                            };
                            page.keep_check_run(lab, scored, &self.pages[index].sliders);
                        }
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
        let changed = self
            .page_states
            .iter_mut()
            .find(|page| page.takes_event(&event.body))
            .is_some_and(|page| page.on_event(event));
        self.show_live_verdict() || changed
    }

    /// Moves a live check a page's live run decided into the verdict box and the outcome;
    /// true if there was one.
    pub fn show_live_verdict(&mut self) -> bool {
        let decided = self.page_states.iter_mut().find_map(|page| page.take_live_verdict());
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
        self.page_states
            .iter_mut()
            .fold(false, |changed, page| page.tick() | changed)
    }

    /// Whether a live run (or server) of this lab is going.
    pub fn live_running(&self) -> bool {
        self.page_states.iter().any(|page| page.running())
    }

    /// The app is about to stop every live run: each live part says so if its stop takes a
    /// moment ([`live::LivePart::quitting`]).
    pub fn quitting(&mut self) {
        for page in &mut self.page_states {
            if let Some(live) = page.live_part_mut() {
                live.quitting();
            }
        }
    }

    /// Stops every live run of this lab; the tasks are for the bounded wait before leaving.
    pub fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        self.page_states.iter_mut().flat_map(|page| page.shutdown()).collect()
    }
}

/// The note after step `from` (from 0) is marked done when the lab goes on in the other
/// view (`elsewhere`, from [`first_visit::steps_elsewhere`]); `None` when it goes on here.
pub fn done_note(from: usize, elsewhere: Option<&str>) -> Option<String> {
    elsewhere.map(|elsewhere| format!("Step {} done. {elsewhere}", from + 1))
}
