//! The event task: terminal input, a frame tick and signals merged into one [`Event`] stream.
//!
//! The app's loop owns the state and only receives; this task only sends. Later, live lab
//! samples join the same channel as another variant.

use std::time::Duration;

use crossterm::event::{Event as TermEvent, EventStream};
use futures::StreamExt;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;

use crate::tui::log;

/// How often the loop may redraw without input; it redraws on a tick only if something changed.
pub const FRAME_INTERVAL: Duration = Duration::from_millis(250);

/// Events the loop buffers before the event task waits: input is small and drained at once.
const CHANNEL_CAPACITY: usize = 256;

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
    /// SIGTSTP (`kill -TSTP`; Ctrl-Z is a key in raw mode): give the terminal back, then stop.
    Suspend,
    /// SIGCONT: the app was stopped and goes on (`fg`); take the terminal again and redraw.
    Resumed,
}

/// Starts the event task; the receiver ends when the task does.
pub fn spawn() -> color_eyre::Result<mpsc::Receiver<Event>> {
    let (sender, receiver) = mpsc::channel(CHANNEL_CAPACITY);
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
    Ok(receiver)
}
