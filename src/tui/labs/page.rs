//! A lab screen's page behind one trait: the lab screen holds each of a lab's pages (the
//! lab file's `[[page]]`s, in order) as a [`Page`] and knows none of their insides. A page
//! computes at its sliders, keeps its run at a check's own settings, reports the named
//! numbers it shows (the hiding rule and the scoring ask for these), takes its own keys
//! (its mode, its live part) and draws its regions. The frame keeps what every page shares:
//! the sliders and the mouse (`frame::page_sliders`), the steps, prompts and
//! verdicts, the lesson, and (unless the page draws a whole screen of its own) the title,
//! parameter panel and footer around the page's results and charts. No downcasts: the
//! screen asks, the page answers.
//!
//! The page draws through [`PageFrame`], what the frame lends it (the lab, the theme, what is
//! hidden, the lesson and the prompt), so this trait names no screen or view type and the
//! screen that holds pages does not import the views that draw it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::content::{LabFile, Question};
use crate::learning::metrics::Metric;
use crate::learning::reveal::Masked;
use crate::live::run::{LabBody, LabEvent};
use crate::tui::event::Event;
use crate::tui::frame::live::LivePart;
use crate::tui::frame::page_sliders::{PageSliders, SliderWindow};
use crate::tui::frame::predict::Observed;
use crate::tui::keys::Context;
use crate::tui::layout::{LabLayout, ResultsRows};
use crate::tui::msg::Msg;
use crate::tui::slider::Slider;
use crate::tui::theme::Theme;

/// An open verdict as a page sees it: the check it scored, and whether a live run decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenVerdict<'a> {
    pub check_id: &'a str,
    pub scored_live: bool,
}

/// A lab's pages, in the lab file's order.
pub type LabPages = Vec<Box<dyn Page>>;

/// How a lab's registry row builds its pages, each at its sliders (the lab file's pages', in
/// order).
pub type NewPages = fn(&LabFile, &[PageSliders]) -> LabPages;

/// What a page may read of the screen when it takes a key or its sliders move.
pub struct PageCtx<'a> {
    pub lab: &'a LabFile,
    /// The guided step the page is at (Lab 5 runs the scenario that step is about).
    pub step: usize,
    /// The app's event queue, for live runs; `None` without a runtime.
    pub events: Option<&'a mpsc::Sender<Event>>,
}

/// A check just scored, as a page sees it.
#[derive(Clone, Copy, Debug)]
pub struct ScoredCheck<'a> {
    pub check: &'a Question,
    /// A live run decided it (there is no simulated run to keep).
    pub scored_live: bool,
    /// The check is asked on this page (the lab file says which page asks it).
    pub on_this_page: bool,
}

/// A lab screen's page.
pub trait Page: std::fmt::Debug {
    /// How its parameter panel lays its sliders out.
    fn slider_window(&self) -> SliderWindow {
        SliderWindow::Scrolled
    }

    /// The Results panel's rows as it shows now (sim or live): the layout and the mouse
    /// share them.
    fn results_rows(&self) -> ResultsRows;

    /// Its own keys (its mode, its live part, keys that set its sliders): `Some(changed)`
    /// when `msg` was one of them.
    fn key(&mut self, msg: Msg, ctx: &PageCtx, sliders: &mut [Slider]) -> Option<bool>;

    /// Its sliders moved from `before` (the frame's keys or the mouse): it computes again
    /// (now, or at [`Page::settle`]).
    fn sliders_moved(&mut self, ctx: &PageCtx, sliders: &mut [Slider], before: &[f64]);

    /// A key of the frame's changed the screen but no slider (the focus, the lesson): a live
    /// run takes the sliders again (most ignore it: nothing moved).
    fn view_moved(&mut self, _ctx: &PageCtx, _sliders: &[Slider]) {}

    /// Before a frame is drawn: what a slider change left is computed, once however many
    /// steps were queued; true if it was.
    fn settle(&mut self, _lab: &LabFile, _sliders: &[Slider]) -> bool {
        false
    }

    /// Whether a slider moved since its run was computed: [`Page::settle`] computes it.
    fn settle_pending(&self) -> bool {
        false
    }

    /// Whether its run waits for work too slow for one frame (Lab 2's p-curve).
    fn slow_work_pending(&self) -> bool {
        false
    }

    /// Does the work [`Page::settle`] left; true if there was some.
    fn finish_slow_work(&mut self) -> bool {
        false
    }

    /// A check was scored: the page keeps its run at the check's own settings, if it is
    /// one of its checks with settings of its own, to show while the verdict is open.
    /// `sliders` are this page's.
    fn keep_check_run(&mut self, lab: &LabFile, scored: ScoredCheck, sliders: &[Slider]);

    /// Whether the page shows the run at `verdict`'s check's own settings.
    fn shows_check_run(&self, verdict: OpenVerdict) -> bool;

    /// The named numbers of the simulated run it shows (that of an open verdict's own
    /// settings, else the sliders').
    fn shown_metrics(&self, verdict: Option<OpenVerdict>) -> Vec<Metric>;

    /// The named numbers its live screen draws now (the hiding rule masks them as it masks
    /// the simulation's): none unless a live run shows numbers.
    fn live_metrics(&self) -> Vec<Metric> {
        self.live_run_metrics().unwrap_or_default()
    }

    /// The named numbers of a finished live run, if its live screen shows one: a prediction
    /// made there is scored against what really happened on 127.0.0.1.
    fn live_run_metrics(&self) -> Option<Vec<Metric>> {
        None
    }

    /// The learner predicted `predicted` for `check` at guided step `step` (number, title)
    /// with the page's `sliders`: true when a live run of the page decides it (Lab 1's
    /// probes), which says so and leaves the verdict for [`Page::take_live_verdict`]; false
    /// leaves it to the simulation at the check's settings.
    fn predict_live(&mut self, _check: &Question, _predicted: f64, _step: (usize, &str), _sliders: &[Slider]) -> bool {
        false
    }

    /// A live check its run decided, for the verdict box: its step, the step's title, and
    /// what was observed.
    fn take_live_verdict(&mut self) -> Option<(usize, String, Observed)> {
        None
    }

    /// Whether it shows a simulation (else a live run): only there can a run show before
    /// the learner predicts.
    fn simulated(&self) -> bool;

    /// The key context it adds before the lab screen's, if any.
    fn key_context(&self) -> Option<Context> {
        None
    }

    /// What its `sliders`' values mean here that their help alone does not say, the slider
    /// at `focus` focused (a setting its simulation ignores, a combination the command line
    /// refuses): the frame's parameter panel shows it above the help.
    fn slider_note(&self, _sliders: &[Slider], _focus: usize) -> Option<String> {
        None
    }

    /// How a prediction of `check` is scored, for the prompt, when not by running the
    /// simulation at once: the lab's first page is asked, as for [`Page::predict_live`]
    /// (Lab 1 live: a probe, or the simulation at the check's own settings). `sliders` are
    /// this page's.
    fn scored_by(&self, _check: Option<&Question>, _sliders: &[Slider]) -> Option<&'static str> {
        None
    }

    /// Its live part, if it has one: the defaults below hand it the events, the tick,
    /// leaving and quitting.
    fn live_part(&self) -> Option<&dyn LivePart> {
        None
    }

    fn live_part_mut(&mut self) -> Option<&mut dyn LivePart> {
        None
    }

    /// Whether a live event with `body` is one of this page's runs'.
    fn takes_event(&self, _body: &LabBody) -> bool {
        false
    }

    /// An event of its live runs; true if the page changed.
    fn on_event(&mut self, event: LabEvent) -> bool {
        self.live_part_mut().is_some_and(|live| live.on_event(event))
    }

    /// The frame tick; true if the page changed.
    fn tick(&mut self) -> bool {
        self.live_part_mut().is_some_and(|live| live.tick())
    }

    /// Whether a live run of the page is going.
    fn running(&self) -> bool {
        self.live_part().is_some_and(|live| live.running())
    }

    /// The learner left the page (or the lab): its live run ends, no child runs unseen.
    fn leave(&mut self) {
        if let Some(live) = self.live_part_mut() {
            live.leave();
        }
    }

    /// Stops every live run; the tasks are for the bounded wait before the app exits.
    fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        self.live_part_mut().map(|live| live.shutdown()).unwrap_or_default()
    }

    /// Draws the page's whole screen at `sliders` into `layout`, if it draws one of its own
    /// (Lab 1's fleet, Lab 1's live server); false leaves the frame to draw its title, parameter panel, lesson,
    /// prompt and footer around [`Page::render_results`] and [`Page::render_charts`].
    fn render_whole(
        &self,
        _frame: &dyn PageFrame,
        _sliders: &PageSliders,
        _layout: &LabLayout,
        _buf: &mut Buffer,
    ) -> bool {
        false
    }

    /// The right end of the frame's title, wide and narrow (the clock's name gives way on a
    /// narrow screen rather than the keys).
    fn title_right(&self) -> (&'static str, &'static str) {
        if self.simulated() {
            ("simulated clock · m live ", "simulated clock · m live ")
        } else {
            ("live · 127.0.0.1 · m sim ", "live · 127.0.0.1 · m sim ")
        }
    }

    /// The Results panel, its numbers masked as `frame` says.
    fn render_results(&self, _frame: &dyn PageFrame, _area: Rect, _buf: &mut Buffer) {}

    /// The Charts panel (the lesson takes its place when it shows).
    fn render_charts(&self, _frame: &dyn PageFrame, _area: Rect, _buf: &mut Buffer) {}

    /// Its own footer in the lab context, if not the frame's: true when it drew one.
    fn render_footer(&self, _frame: &dyn PageFrame, _area: Rect, _buf: &mut Buffer) -> bool {
        false
    }
}

/// `m` on a page with a live screen: from live back to the simulation (its run ends, as on
/// leaving), or to live; the page changed.
pub fn toggle_mode(live_showing: &mut bool, live: &mut dyn LivePart) -> bool {
    if *live_showing {
        live.leave();
    }
    *live_showing = !*live_showing;
    true
}

/// What the frame lends a page to draw with.
pub trait PageFrame {
    fn lab(&self) -> &LabFile;
    /// The lab's number on the home screen, from 1.
    fn number(&self) -> usize;
    /// The sliders of the page showing, as they stand (a live screen names what the
    /// simulation beside it runs).
    fn sliders(&self) -> &[Slider];
    fn theme(&self) -> Theme;
    /// The verdict open on screen, if any, else the run `x` revealed at its check's own
    /// settings: the check whose run the page shows.
    fn verdict(&self) -> Option<OpenVerdict<'_>>;
    /// The guided step the run on screen is about: an open verdict's, else the current one.
    fn shown_step(&self) -> usize;
    /// The guided step the screen is at, whichever page it is on.
    fn step(&self) -> usize;
    /// Where the lab's guided steps go on after step `from`, when the next is on another page.
    fn steps_elsewhere(&self, from: usize) -> Option<String>;
    /// Whether guided step `step` is done (its ✓ in the lesson), so a hint does not ask for it again.
    fn step_done(&self, step: usize) -> bool;
    /// First line shown of a page's log (Lab 3's transitions, Lab 1's timeline).
    fn log_scroll(&self) -> u16;
    /// The numbers of the run on screen that must not show yet.
    fn masked(&self) -> Masked;
    /// As [`PageFrame::masked`], for a drawing that covers every value of `spanning` at once.
    fn masked_spanning(&self, spanning: &[&str]) -> Masked;
    /// Why the run's panels are hidden whole, if they are.
    fn hidden_why(&self) -> Option<String>;
    /// Whether `x` would change the screen: the run waits for the current step's check, or
    /// the step's run (at its check's own settings) is not the one showing.
    fn reveal_offered(&self) -> bool;
    /// The key context, for the footer.
    fn context(&self) -> Context;
    /// The key context of the page's live screen, if it shows one: its keys come first.
    fn live_context(&self) -> Option<Context>;
    fn show_lesson(&self) -> bool;
    /// The parameter panel of the page showing, over `area`.
    fn render_params(&self, area: Rect, buf: &mut Buffer);
    fn render_lesson(&self, area: Rect, buf: &mut Buffer);
    /// The prompt or the verdict over `area`, if one is open.
    fn render_predict(&self, area: Rect, buf: &mut Buffer);
}
