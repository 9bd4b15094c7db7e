//! The live twin for the app's drill (`oncall --live`): the same servers, load and rows as
//! the headless run ([`super::runner`]), but the levers come while it runs, from the
//! learner, and each drill second's row is handed over as soon as it is complete.
//!
//! A second's row is complete once its requests have ended: each gives up at
//! [`REQUEST_LIMIT_MS`] after it was sent, so row T is read at drill second T + 1 + 4 and a
//! little, about five drill seconds after the clock (the screen says how far behind). What
//! a request left running (a soft call abandoned at the deadline, retrying on) counts in
//! its second when it ends; the row shown may miss it, so the score is not taken from the
//! rows shown but from the final counts, read again when the drill is over and every call
//! has ended, as the headless run reads them.
//!
//! Bounded: 420 rows at most in the channel, one final run, the load's 8,400 requests; the
//! task ends at the drill's end plus the tail, or at once when the feed is stopped or
//! dropped (the servers stopped, the load's requests aborted).
//!
//! A twin that cannot start (no free port, a spawn refused) or panics says so through the
//! same way out as its final run ([`LiveFeed::take_final`]'s `Err`): the twin plays in a
//! task of its own, watched by the feed's task, which hands over why it ended, so that the
//! drill ends on the seconds measured and the screen says why, rather than waiting for
//! rows that will not come.

use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::clock::DrillClock;
use super::load::{self, REQUEST_LIMIT_MS};
use super::runner::{self, Sample, Twin, WARM_UP};
use crate::engine::oncall::sim::DRILL_S;
use crate::engine::oncall::{DrillRun, DrillSecond, DrillSetup, ExtraFault, LiveFeed, OncallLever};

/// Real milliseconds a drill second lasts in the app: the 420 s drill in 2 min 48 s, slow
/// enough for a person to read a row, write a reason and pull a lever while the incident
/// runs (the headless run's 80 ms plays it in 34 s). The twin's scale is one clock for
/// every time, so its shape does not change with it; `tests/slow/oncall.rs` checks a
/// runbook at this scale too.
pub const APP_MS_PER_DRILL_S: u64 = 400;

/// A row is read this many drill seconds after its second began: the second itself, its
/// last request's limit, and half a second for the last ends to be counted.
pub const ROW_COMPLETE_AFTER_S: f64 = 1.0 + REQUEST_LIMIT_MS / 1_000.0 + 0.5;

/// How often the feed looks for completed rows (drill ms).
const LOOK_EVERY_MS: f64 = 250.0;

/// Levers a learner can send ahead of the twin before one is refused: far more than a
/// person pulls between two looks.
const COMMANDS_QUEUED: usize = 32;

/// What the app sends to the running twin.
#[derive(Debug)]
enum FeedCommand {
    Pull(OncallLever),
    /// A facilitator's second fault, from its `from_s` on (boxed: an incident's whole
    /// file, beside a lever's few bytes).
    AddFault(Box<ExtraFault>),
    Stop,
}

/// How the twin's own task ended: its run, None when stopped by the app, or why it
/// could not run.
type TwinEnd = Result<Option<DrillRun>, String>;

/// The app's side of a running twin: its clock (and with it the scale), a way in for
/// levers and second faults, the rows coming out. Dropping it stops the twin (the
/// command channel closes).
#[derive(Debug)]
pub struct TwinFeed {
    clock: DrillClock,
    commands: mpsc::Sender<FeedCommand>,
    rows: mpsc::Receiver<DrillSecond>,
    done: oneshot::Receiver<Result<DrillRun, String>>,
}

/// Starts the twin of `setup` on 127.0.0.1 in the background (on the current runtime);
/// returns its feed and the task, which the app awaits (bounded) when it quits.
pub fn spawn(setup: &DrillSetup, ms_per_drill_s: u64) -> (TwinFeed, JoinHandle<()>) {
    spawn_with(setup, ms_per_drill_s, |setup, clock| async move {
        Twin::start(&setup, clock).await
    })
}

/// [`spawn`] with the servers started by `start` (a test's may fail).
fn spawn_with<S, F>(setup: &DrillSetup, ms_per_drill_s: u64, start: S) -> (TwinFeed, JoinHandle<()>)
where
    S: FnOnce(DrillSetup, DrillClock) -> F + Send + 'static,
    F: Future<Output = std::io::Result<Twin>> + Send + 'static,
{
    let clock = DrillClock::start_after(WARM_UP, ms_per_drill_s as f64);
    let (commands, commands_in) = mpsc::channel(COMMANDS_QUEUED);
    let (rows_out, rows) = mpsc::channel(DRILL_S);
    let (done_out, done) = oneshot::channel();
    let twin = play(setup.clone(), clock, start, commands_in, rows_out);
    let task = tokio::spawn(watch(twin, done_out));
    let feed = TwinFeed {
        clock,
        commands,
        rows,
        done,
    };
    (feed, task)
}

/// Plays `twin` in a task of its own and hands over how it ended: its run, or why it
/// stopped without one, a panic's message included (a twin stopped by the app needs no
/// word). The twin's task is aborted if this one is (the app's bounded shutdown).
async fn watch(twin: impl Future<Output = TwinEnd> + Send + 'static, done: oneshot::Sender<Result<DrillRun, String>>) {
    let mut twin = AbortOnDrop(tokio::spawn(twin));
    let end = match (&mut twin.0).await {
        Ok(Ok(Some(run))) => Ok(run),
        Ok(Ok(None)) => return,
        Ok(Err(why)) => Err(why),
        Err(failed) if failed.is_panic() => Err(format!("it panicked: {}", panic_words(failed.into_panic()))),
        Err(_) => return,
    };
    let _ = done.send(end);
}

/// A task aborted when its handle is dropped.
struct AbortOnDrop(JoinHandle<TwinEnd>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A panic's message, as `panic!` wrote it.
fn panic_words(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

impl LiveFeed for TwinFeed {
    fn ms_per_drill_s(&self) -> u64 {
        self.clock.ms_per_drill_s()
    }

    fn now_s(&self) -> f64 {
        self.clock.now_s()
    }

    fn pull(&mut self, lever: OncallLever) {
        let _ = self.commands.try_send(FeedCommand::Pull(lever));
    }

    fn take_rows(&mut self) -> Vec<DrillSecond> {
        let mut rows = Vec::new();
        while let Ok(row) = self.rows.try_recv() {
            rows.push(row);
        }
        rows
    }

    fn take_final(&mut self) -> Option<Result<DrillRun, String>> {
        match self.done.try_recv() {
            Ok(end) => Some(end),
            Err(oneshot::error::TryRecvError::Empty) => None,
            // Gone without a word: only a twin the app stopped (or aborted) ends so.
            Err(oneshot::error::TryRecvError::Closed) => None,
        }
    }

    fn add_fault(&mut self, fault: ExtraFault) {
        let _ = self.commands.try_send(FeedCommand::AddFault(Box::new(fault)));
    }

    fn stop(&mut self) {
        let _ = self.commands.try_send(FeedCommand::Stop);
    }
}

/// The twin's task: servers (from `start`), load and sampler started; levers and second
/// faults applied as they come; each completed second's row sent; at the end, the final
/// run (None when the app stopped it first).
async fn play<S, F>(
    setup: DrillSetup,
    clock: DrillClock,
    start: S,
    mut commands: mpsc::Receiver<FeedCommand>,
    rows: mpsc::Sender<DrillSecond>,
) -> TwinEnd
where
    S: FnOnce(DrillSetup, DrillClock) -> F,
    F: Future<Output = std::io::Result<Twin>>,
{
    let twin = start(setup.clone(), clock)
        .await
        .map_err(|e| format!("it could not start on 127.0.0.1: {e}"))?;
    let (sampler, samples) = twin.sample_each_second();
    let mut load = tokio::spawn(load::run(twin.checkout_addr(), clock, twin.tally.clone()));
    let mut look = tokio::time::interval(clock.real(LOOK_EVERY_MS));
    let mut next_row = 0;
    let stopped = loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some(FeedCommand::Pull(lever)) => twin.api.pull(lever),
                Some(FeedCommand::AddFault(fault)) => twin.setup.add_fault(*fault),
                Some(FeedCommand::Stop) | None => break true,
            },
            _ = look.tick() => {
                while next_row < DRILL_S && clock.now_s() >= next_row as f64 + ROW_COMPLETE_AFTER_S {
                    if let Some(mut second) = twin.tally.snapshot(next_row) {
                        let sample = sample_of(&samples, next_row);
                        // Never blocks: the channel holds every row of the drill.
                        let _ = rows.try_send(runner::row(next_row, &mut second, sample));
                    }
                    next_row += 1;
                }
            }
            _ = &mut load => break false,
        }
    };
    if stopped {
        load.abort();
        sampler.abort();
        let _ = load.await;
        twin.stop().await;
        return Ok(None);
    }
    Ok(Some(twin.finish(sampler, &samples, &setup, Vec::new()).await))
}

fn sample_of(samples: &Arc<Mutex<Vec<Sample>>>, t_s: usize) -> Option<Sample> {
    samples.lock().ok()?.get(t_s).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::oncall::{DrillSource, OncallPlay, builtin_incidents};

    fn setup() -> DrillSetup {
        let incidents = builtin_incidents().expect("the shipped incidents parse");
        DrillSetup::new(&incidents[0], 1)
    }

    /// Ticks `play` until it ends, the twin's task having ended first.
    async fn ended(mut play: OncallPlay, task: JoinHandle<()>) -> OncallPlay {
        task.await.expect("the watching task does not panic");
        play.advance(0);
        assert!(play.ended(), "the drill ends once the twin is gone");
        play
    }

    #[tokio::test]
    async fn a_twin_that_cannot_start_ends_the_drill_and_says_why() {
        let setup = setup();
        let (feed, task) = spawn_with(&setup, 400, |_, _| async {
            Err(std::io::Error::new(std::io::ErrorKind::AddrInUse, "no free port"))
        });
        let play = ended(OncallPlay::with_source(&setup, DrillSource::live(Box::new(feed))), task).await;
        let reveal = play.reveal().expect("the reveal");
        assert_eq!(
            reveal.live_stopped.as_deref(),
            Some("it could not start on 127.0.0.1: no free port")
        );
        assert_eq!(reveal.live_cut_at_s, Some(0), "no second measured");
    }

    #[tokio::test]
    async fn a_twin_that_panics_ends_the_drill_and_says_why() {
        let setup = setup();
        let (feed, task) = spawn_with(&setup, 400, |_, _| async { panic!("a server's state is broken") });
        let play = ended(OncallPlay::with_source(&setup, DrillSource::live(Box::new(feed))), task).await;
        let reveal = play.reveal().expect("the reveal");
        assert_eq!(
            reveal.live_stopped.as_deref(),
            Some("it panicked: a server's state is broken")
        );
    }

    #[tokio::test]
    async fn a_second_fault_goes_to_the_twin_through_the_levers_channel() {
        let setup = setup();
        let (commands, mut commands_in) = mpsc::channel(COMMANDS_QUEUED);
        let (_rows_out, rows) = mpsc::channel(1);
        let (_done_out, done) = oneshot::channel();
        let mut feed = TwinFeed {
            clock: DrillClock::start_after(WARM_UP, 400.0),
            commands,
            rows,
            done,
        };
        let fault = ExtraFault {
            incident: setup.incident.clone(),
            dependency: crate::engine::oncall::OncallDep::Payments,
            from_s: 12.0,
        };
        feed.pull(OncallLever::Shed(true));
        feed.add_fault(fault.clone());
        assert!(matches!(commands_in.recv().await, Some(FeedCommand::Pull(_))));
        match commands_in.recv().await {
            Some(FeedCommand::AddFault(sent)) => assert_eq!(*sent, fault),
            other => panic!("expected the fault, got {other:?}"),
        }
    }
}
