//! A lab screen's page after its first (Lab 1's fleet view), behind one trait: the lab
//! screen holds each as a [`Page`] and knows none of their insides. A page computes at its
//! sliders, keeps its run at a check's own settings, reports the named numbers it shows (the
//! hiding rule and the scoring ask for these), takes its own keys and draws its regions. The
//! frame keeps what every page shares: the sliders and the mouse (`screens::lab::page_sliders`),
//! the steps, prompts and verdicts, the lesson. No downcasts: the screen asks, the page answers.
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
use crate::tui::keys::Context;
use crate::tui::layout::LabLayout;
use crate::tui::msg::Msg;
use crate::tui::screens::lab::page_sliders::{PageSliders, SliderWindow};
use crate::tui::slider::Slider;
use crate::tui::theme::Theme;

/// An open verdict as a page sees it: the check it scored, and whether a live run decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenVerdict<'a> {
    pub check_id: &'a str,
    pub scored_live: bool,
}

/// A lab's pages after its first, in the lab file's order.
pub type LaterPages = Vec<Box<dyn Page>>;

/// A lab screen's page after its first.
pub trait Page: std::fmt::Debug {
    /// How its parameter panel lays its sliders out.
    fn slider_window(&self) -> SliderWindow {
        SliderWindow::Scrolled
    }

    /// Its own keys (its mode, its live part, keys that set its sliders): `Some(changed)`
    /// when `msg` was one of them. `events` is the app's queue, for live runs.
    fn key(
        &mut self,
        msg: Msg,
        lab: &LabFile,
        sliders: &mut [Slider],
        events: Option<&mpsc::Sender<Event>>,
    ) -> Option<bool>;

    /// Its sliders moved from `before` (the frame's keys or the mouse): it computes again.
    fn sliders_moved(
        &mut self,
        lab: &LabFile,
        sliders: &mut [Slider],
        before: &[f64],
        events: Option<&mpsc::Sender<Event>>,
    );

    /// A check was scored: the page keeps its run at the check's own settings, if it is
    /// one of its checks with settings of its own, to show while the verdict is open.
    fn keep_check_run(&mut self, lab: &LabFile, check: &Question);

    /// Whether the page shows the run at `verdict`'s check's own settings.
    fn shows_check_run(&self, verdict: OpenVerdict) -> bool;

    /// The named numbers of the simulated run it shows (that of an open verdict's own
    /// settings, else the sliders').
    fn shown_metrics(&self, verdict: Option<OpenVerdict>) -> Vec<Metric>;

    /// Whether it shows a simulation (else a live run): only there can a run show before
    /// the learner predicts.
    fn simulated(&self) -> bool;

    /// The key context it adds before the lab screen's.
    fn key_context(&self) -> Context;

    /// Whether a live event with `body` is one of this page's runs'.
    fn takes_event(&self, body: &LabBody) -> bool;

    /// An event of its live runs; true if the page changed.
    fn on_event(&mut self, event: LabEvent) -> bool;

    /// The frame tick; true if the page changed.
    fn tick(&mut self) -> bool;

    /// Whether a live run of the page is going.
    fn running(&self) -> bool;

    /// The learner left the page (or the lab): its live run ends, no child runs unseen.
    fn leave(&mut self);

    /// Stops every live run; the tasks are for the bounded wait before the app exits.
    fn shutdown(&mut self) -> Vec<JoinHandle<()>>;

    /// Draws the page's whole screen at `sliders` into `layout`.
    fn render(&self, frame: &dyn PageFrame, sliders: &PageSliders, layout: &LabLayout, buf: &mut Buffer);
}

/// What the frame lends a page to draw with.
pub trait PageFrame {
    fn lab(&self) -> &LabFile;
    /// The lab's number on the home screen, from 1.
    fn number(&self) -> usize;
    fn theme(&self) -> Theme;
    /// The verdict open on screen, if any.
    fn verdict(&self) -> Option<OpenVerdict<'_>>;
    /// The numbers of the run on screen that must not show yet.
    fn masked(&self) -> Masked;
    /// Why the run's panels are hidden whole, if they are.
    fn hidden_why(&self) -> Option<String>;
    /// Whether the run waits for the current step's check (`x` reveals it).
    fn run_hidden(&self) -> bool;
    /// The key context, for the footer.
    fn context(&self) -> Context;
    fn show_lesson(&self) -> bool;
    fn render_lesson(&self, area: Rect, buf: &mut Buffer);
    /// The prompt or the verdict over `area`, if one is open.
    fn render_predict(&self, area: Rect, buf: &mut Buffer);
}
