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

use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::clock::DrillClock;
use super::load::{self, REQUEST_LIMIT_MS};
use super::runner::{self, Sample, Twin, WARM_UP};
use crate::engine::oncall::sim::DRILL_S;
use crate::engine::oncall::{DrillRun, DrillSecond, DrillSetup, LiveFeed, OncallLever};

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
    Stop,
}

/// The app's side of a running twin: its clock, a way in for levers, the rows coming out.
/// Dropping it stops the twin (the command channel closes).
#[derive(Debug)]
pub struct TwinFeed {
    clock: DrillClock,
    ms_per_drill_s: u64,
    commands: mpsc::Sender<FeedCommand>,
    rows: mpsc::Receiver<DrillSecond>,
    done: oneshot::Receiver<DrillRun>,
}

/// Starts the twin of `setup` on 127.0.0.1 in the background (on the current runtime);
/// returns its feed and the task, which the app awaits (bounded) when it quits.
pub fn spawn(setup: &DrillSetup, ms_per_drill_s: u64) -> (TwinFeed, JoinHandle<()>) {
    let clock = DrillClock::start_after(WARM_UP, ms_per_drill_s as f64);
    let (commands, commands_in) = mpsc::channel(COMMANDS_QUEUED);
    let (rows_out, rows) = mpsc::channel(DRILL_S);
    let (done_out, done) = oneshot::channel();
    let task = tokio::spawn(play(setup.clone(), clock, commands_in, rows_out, done_out));
    let feed = TwinFeed {
        clock,
        ms_per_drill_s,
        commands,
        rows,
        done,
    };
    (feed, task)
}

impl LiveFeed for TwinFeed {
    fn ms_per_drill_s(&self) -> u64 {
        self.ms_per_drill_s
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

    fn take_final(&mut self) -> Option<DrillRun> {
        self.done.try_recv().ok()
    }

    fn stop(&mut self) {
        let _ = self.commands.try_send(FeedCommand::Stop);
    }
}

/// The twin's task: servers, load and sampler started; levers applied as they come; each
/// completed second's row sent; at the end, the final run.
async fn play(
    setup: DrillSetup,
    clock: DrillClock,
    mut commands: mpsc::Receiver<FeedCommand>,
    rows: mpsc::Sender<DrillSecond>,
    done: oneshot::Sender<DrillRun>,
) {
    let Ok(twin) = Twin::start(&setup, clock).await else {
        // No servers (no free port, say): a final run with nothing measured ends the drill
        // at once, and the reveal says it counted no second.
        let _ = done.send(runner::rows(&setup, Vec::new(), Vec::new(), &[]));
        return;
    };
    let (sampler, samples) = twin.sample_each_second();
    let mut load = tokio::spawn(load::run(twin.checkout_addr, clock, twin.tally.clone()));
    let mut look = tokio::time::interval(clock.real(LOOK_EVERY_MS));
    let mut next_row = 0;
    let stopped = loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some(FeedCommand::Pull(lever)) => twin.api.pull(lever),
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
        return;
    }
    let _ = done.send(twin.finish(sampler, &samples, &setup, Vec::new()).await);
}

fn sample_of(samples: &Arc<Mutex<Vec<Sample>>>, t_s: usize) -> Option<Sample> {
    samples.lock().ok()?.get(t_s).copied()
}
