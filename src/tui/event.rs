//! The app's one event queue: terminal input, a frame tick and signals from the event
//! task, and the live labs' samples, all as one [`Event`] stream.
//!
//! The app's loop owns the state and only receives; the event task and the live runs only
//! send. The queue is bounded: the event task waits for room (input is small and drained at
//! once), a live run drops a sample rather than wait (`live::run::LabSender`).

use std::time::Duration;

use crossterm::event::{Event as TermEvent, EventStream};
use futures::StreamExt;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;

use crate::content::LabId;
use crate::live::run::LabEvent;
use crate::tui::log;

/// How often the loop may redraw without input; it redraws on a tick only if something changed.
pub const FRAME_INTERVAL: Duration = Duration::from_millis(250);

/// Events the queue holds before the event task waits and live runs drop samples: input is
/// small and drained at once; live runs send a few samples per second each.
pub const CHANNEL_CAPACITY: usize = 256;

/// Everything the app loop reacts to.
#[derive(Debug)]
pub enum Event {
    Terminal(TermEvent),
    Tick,
    /// SIGTERM, SIGHUP or SIGINT arrived: restore the terminal and leave, exiting with
    /// 128 + the signal's number as a shell expects of a process a signal stopped.
    Signal {
        name: &'static str,
        number: i32,
    },
    /// The terminal input failed or closed: nothing more can be read.
    InputClosed(String),
    /// A live run's sample or end, for that lab's screen.
    Lab(LabId, LabEvent),
    /// SIGTSTP (`kill -TSTP`; Ctrl-Z is a key in raw mode): give the terminal back, then stop.
    Suspend,
    /// SIGCONT: the app was stopped and goes on (`fg`); take the terminal again and redraw.
    Resumed,
}

impl From<(LabId, LabEvent)> for Event {
    fn from((lab, event): (LabId, LabEvent)) -> Self {
        Event::Lab(lab, event)
    }
}

/// Starts the event task; returns a sender for the live runs and the queue's receiver.
pub fn spawn() -> color_eyre::Result<(mpsc::Sender<Event>, mpsc::Receiver<Event>)> {
    let (sender, receiver) = mpsc::channel(CHANNEL_CAPACITY);
    let for_runs = sender.clone();
    // Signals are registered before the task starts, so none is missed between the two.
    let mut terminate = signal(SignalKind::terminate())?;
    let mut hangup = signal(SignalKind::hangup())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut suspend = signal(SignalKind::from_raw(libc::SIGTSTP))?;
    let mut resumed = signal(SignalKind::from_raw(libc::SIGCONT))?;
    tokio::spawn(async move {
        let mut input = EventStream::new();
        let mut tick = tokio::time::interval(FRAME_INTERVAL);
        tick.set_missed_tick_behavior(MissedTickBehavior::Skip);
        loop {
            let event = tokio::select! {
                next = input.next() => match next {
                    Some(Ok(event)) => Event::Terminal(event),
                    Some(Err(error)) => Event::InputClosed(error.to_string()),
                    None => Event::InputClosed("end of terminal input".to_string()),
                },
                _ = tick.tick() => Event::Tick,
                _ = terminate.recv() => Event::Signal { name: "SIGTERM", number: libc::SIGTERM },
                _ = hangup.recv() => Event::Signal { name: "SIGHUP", number: libc::SIGHUP },
                _ = interrupt.recv() => Event::Signal { name: "SIGINT", number: libc::SIGINT },
                _ = suspend.recv() => Event::Suspend,
                _ = resumed.recv() => Event::Resumed,
            };
            let last = matches!(event, Event::InputClosed(_));
            if sender.send(event).await.is_err() || last {
                log::line("event task: stopping");
                break;
            }
        }
    });
    Ok((for_runs, receiver))
}
