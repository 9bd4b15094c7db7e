//! The shape every page's live part has, and what the live parts share.
//!
//! A page in live mode hands its keys and the events of its runs to its live part through
//! [`LivePart`]: the same five methods for every lab (`start`, `retune`, `key`, `on_event`,
//! `stop`), plus what the screen asks of any part (is it running, the frame tick, whether
//! leaving stops it, what quitting says, and the handles quitting awaits). [`LiveCtx`] is
//! what a part may read of its screen: the lab file, the sliders, and the app's event queue.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::content::{LabFile, LabId};
use crate::live::run::{LabEvent, LabSender, LiveRun};
use crate::tui::event::Event;
use crate::tui::msg::Msg;
use crate::tui::slider::Slider;

/// How long quitting waits for live labs to shut down before aborting their tasks: a
/// brownout run ends its calls still out by their timeout (at most 2 s on the slider), and
/// the Lab 1 server gets 3 s before its kill.
pub const SHUTDOWN_DEADLINE: Duration = Duration::from_secs(10);

/// What a live part may read of its lab screen.
pub struct LiveCtx<'a> {
    pub lab: &'a LabFile,
    pub sliders: &'a [Slider],
    /// The guided step the screen is at (Lab 5 runs the scenario that step is about).
    pub step: usize,
    /// The app's event queue; `None` without an async runtime (unit tests of the views).
    pub events: Option<&'a mpsc::Sender<Event>>,
}

impl LiveCtx<'_> {
    /// A sender for run `run` of lab `lab`, if the app has a queue and a runtime.
    pub fn sender(&self, lab: LabId, run: u64) -> Option<LabSender<Event>> {
        let queue = self.events?;
        tokio::runtime::Handle::try_current().ok()?;
        Some(LabSender::new(lab, run, queue.clone()))
    }
}

/// A lab's live part: the same five methods for every lab.
pub trait LivePart {
    /// Starts a run with the screen's settings (`s` when nothing runs).
    fn start(&mut self, ctx: &LiveCtx) -> bool;
    /// A slider moved: what applies at once goes to the running run (by default nothing:
    /// a slider applies at the next start).
    fn retune(&mut self, _ctx: &LiveCtx) -> bool {
        false
    }
    /// A key of this lab's live screen; `None` leaves it to the lab screen.
    fn key(&mut self, _msg: Msg, _ctx: &LiveCtx) -> Option<bool> {
        None
    }
    /// An event of one of this lab's runs arrived on the app's queue.
    fn on_event(&mut self, _event: LabEvent) -> bool {
        false
    }
    /// Stops the run (`s` while it runs, or leaving the screen); it ends in the background.
    fn stop(&mut self) -> bool;

    /// Whether a run is going (so `s` stops rather than starts).
    fn running(&self) -> bool;
    /// The frame tick, for clocks that move without events; true if the screen changed.
    fn tick(&mut self) -> bool {
        false
    }
    /// The learner left the screen (home, or back to sim): most labs stop their run, quietly.
    fn leave(&mut self) {}
    /// The app is about to stop every run and wait for them: a part whose run takes a moment
    /// to stop says so on its screen (Lab 1's server gets its grace period, then a kill).
    fn quitting(&mut self) {}
    /// Stops everything and hands over the tasks still ending, for the bounded wait
    /// before the app leaves.
    fn shutdown(&mut self) -> Vec<JoinHandle<()>>;
}

/// Why a live part could not start: no event queue or no async runtime (the views' unit tests).
pub const NO_RUNTIME: &str = "live runs need the app's async runtime";

/// The runs of one lab's live part: the current run, the ids handed out, and the runs asked
/// to stop that are still ending. Labs 2 to 4 keep one each, so starting, stopping, leaving
/// and quitting mean the same in every lab.
#[derive(Debug)]
pub struct Runs<Control> {
    current: Option<LiveRun<Control>>,
    next_id: u64,
    /// Runs asked to stop, still shutting down: quitting waits on them.
    stopping: Vec<JoinHandle<()>>,
}

impl<Control> Default for Runs<Control> {
    fn default() -> Self {
        Self {
            current: None,
            next_id: 0,
            stopping: Vec::new(),
        }
    }
}

impl<Control: Send + Sync + 'static> Runs<Control> {
    /// A sender for the next run of `lab` ([`NO_RUNTIME`] without the app's queue and
    /// runtime). The id is used up either way, so a late event never matches a new run.
    pub fn sender(&mut self, ctx: &LiveCtx, lab: LabId) -> Result<LabSender<Event>, &'static str> {
        self.next_id += 1;
        ctx.sender(lab, self.next_id).ok_or(NO_RUNTIME)
    }

    /// Makes `run` the current run; stopped runs that have ended are let go.
    pub fn begin(&mut self, run: LiveRun<Control>) {
        self.stopping.retain(|task| !task.is_finished());
        self.current = Some(run);
    }

    pub fn current(&self) -> Option<&LiveRun<Control>> {
        self.current.as_ref()
    }

    /// Whether `event` comes from the current run (a stopped run's late events do not).
    pub fn is_current(&self, event: &LabEvent) -> bool {
        self.current.as_ref().is_some_and(|run| run.id == event.run)
    }

    pub fn running(&self) -> bool {
        self.current.is_some()
    }

    /// The runs still ending.
    pub fn stopping(&self) -> &[JoinHandle<()>] {
        &self.stopping
    }

    /// Asks the current run to stop (it ends in the background); true if there was one.
    pub fn stop(&mut self) -> bool {
        let Some(run) = self.current.take() else {
            return false;
        };
        self.stopping.push(run.stop());
        true
    }

    /// Stops the current run and hands over every task still ending, for the bounded wait
    /// before the app leaves.
    pub fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        self.stop();
        std::mem::take(&mut self.stopping)
    }
}

/// The four [`LivePart`] methods that are the same wherever a part keeps its runs in a
/// [`Runs`] field `runs`, a `status: Option<String>` line, and a
/// `stop_run(&mut self) -> bool` (what stopping also does to that lab's record): `stop`
/// (the status says `$stopped`), `running`, `leave` (stops the run quietly) and `shutdown`.
macro_rules! runs_methods {
    ($stopped:expr) => {
        fn stop(&mut self) -> bool {
            if self.stop_run() {
                self.status = Some($stopped.into());
            }
            true
        }

        fn running(&self) -> bool {
            self.runs.running()
        }

        fn leave(&mut self) {
            self.stop_run();
        }

        fn shutdown(&mut self) -> Vec<tokio::task::JoinHandle<()>> {
            self.stop_run();
            self.runs.shutdown()
        }
    };
}
pub(crate) use runs_methods;
