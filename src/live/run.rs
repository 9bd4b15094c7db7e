//! The one shape of every live run, and the events runs send into the app's queue.
//!
//! Every lab's `runner::spawn(params, events)` starts a task and returns a [`LiveRun`]: a
//! `watch` for retuning it (latest wins), a stop signal and the task. The task sends what
//! it measures through [`LabSender`] into the app's one bounded event queue: samples with
//! [`LabSender::sample`], which drops a sample when the queue is full rather than wait (a
//! server is never held up by a slow screen), and its final `Done` with
//! [`LabSender::send`], which waits for room. Quitting stops every run and awaits them
//! all with [`join_all`], bounded by a deadline.
//!
//! The app's queue carries the app's own event type; this module only needs it to be
//! made from `(LabId, LabEvent)`, so `live/` never names the terminal app.

use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::content::LabId;
use crate::engine::brownout::BrownoutComparison;
use crate::engine::health::HealthConfig;
use crate::engine::overload::{OverloadRun, Second};
use crate::engine::retry::ScenarioResult;
use crate::live::breaker::brownout::LiveSample;
use crate::live::fleet::recorder::FleetSample;
use crate::live::health::child::ChildLine;
use crate::live::http::GetOutcome;
use crate::live::retry::chain::ChainSnapshot;

/// A running live run, the same for every lab: retune it, stop it, await it.
#[derive(Debug)]
pub struct LiveRun<Control> {
    /// Which run of its lab this is: events carry it, so a replaced run's late events are
    /// told apart from the current run's.
    pub id: u64,
    control: watch::Sender<Control>,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

/// What a run's task holds: the other ends of [`LiveRun`]'s channels.
pub struct RunInbox<Control> {
    pub control: watch::Receiver<Control>,
    pub stop: watch::Receiver<bool>,
}

/// Resolves once the app asked the run to stop (or dropped its handle).
pub async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopped| *stopped).await;
}

impl<Control: Send + Sync + 'static> LiveRun<Control> {
    /// Spawns `task` with the receiving ends of a new run's channels. Must be called inside
    /// a tokio runtime.
    pub fn spawn<F, Fut>(id: u64, control: Control, task: F) -> Self
    where
        F: FnOnce(RunInbox<Control>) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (control, control_rx) = watch::channel(control);
        let (stop, stop_rx) = watch::channel(false);
        let task = tokio::spawn(task(RunInbox {
            control: control_rx,
            stop: stop_rx,
        }));
        Self {
            id,
            control,
            stop,
            task,
        }
    }

    /// Retunes the run: the latest value wins; an unchanged value wakes nothing.
    pub fn retune(&self, control: Control)
    where
        Control: PartialEq,
    {
        self.control.send_if_modified(|current| {
            let changed = *current != control;
            *current = control;
            changed
        });
    }

    /// Changes the control in place (a count of requests, say), waking the run.
    pub fn retune_with(&self, change: impl FnOnce(&mut Control)) {
        self.control.send_modify(change);
    }

    /// The control the run has now.
    pub fn control(&self) -> watch::Ref<'_, Control> {
        self.control.borrow()
    }

    /// Asks the run to stop; the task shuts its servers down and ends on its own. The
    /// handle is for [`join_all`].
    pub fn stop(self) -> JoinHandle<()> {
        let _ = self.stop.send(true);
        self.task
    }
}

/// Waits for stopping tasks, at most `deadline` in all; returns how many were aborted.
pub async fn join_all(tasks: Vec<JoinHandle<()>>, deadline: Duration) -> usize {
    let until = Instant::now() + deadline;
    let mut aborted = 0;
    for mut task in tasks {
        if tokio::time::timeout_at(until, &mut task).await.is_err() {
            task.abort();
            let _ = task.await;
            aborted += 1;
        }
    }
    aborted
}

/// Where a run's events go: the app's queue, stamped with the lab and the run.
#[derive(Debug)]
pub struct LabSender<E> {
    lab: LabId,
    run: u64,
    queue: mpsc::Sender<E>,
}

impl<E> Clone for LabSender<E> {
    fn clone(&self) -> Self {
        Self {
            lab: self.lab,
            run: self.run,
            queue: self.queue.clone(),
        }
    }
}

impl<E: From<(LabId, LabEvent)>> LabSender<E> {
    pub fn new(lab: LabId, run: u64, queue: mpsc::Sender<E>) -> Self {
        Self { lab, run, queue }
    }

    /// The [`LiveRun::id`] of the run this sender speaks for.
    pub fn run(&self) -> u64 {
        self.run
    }

    fn wrap(&self, body: LabBody) -> E {
        E::from((
            self.lab,
            LabEvent {
                run: self.run,
                body: Box::new(body),
            },
        ))
    }

    /// Sends a sample if the queue has room; a full queue drops it (the screen lags, the
    /// run does not). Returns whether it went.
    pub fn sample(&self, body: impl Into<LabBody>) -> bool {
        self.queue.try_send(self.wrap(body.into())).is_ok()
    }

    /// Sends an event that must arrive (a start, an exit, the final `Done`), waiting for
    /// room; false once the app has stopped listening.
    pub async fn send(&self, body: impl Into<LabBody>) -> bool {
        self.queue.send(self.wrap(body.into())).await.is_ok()
    }
}

/// One event of a live run, as it reaches the app: `Event::Lab(LabId, LabEvent)`.
#[derive(Debug)]
pub struct LabEvent {
    /// The [`LiveRun::id`] of the run that sent it.
    pub run: u64,
    /// Boxed: a run's end carries a whole report, and the app's queue holds small events.
    pub body: Box<LabBody>,
}

/// What a run says, by lab.
#[derive(Debug)]
pub enum LabBody {
    Health(HealthEvent),
    Retry(RetryEvent),
    Breaker(BreakerEvent),
    Overload(OverloadEvent),
    /// Lab 1's fleet view, live: what the replicas, the Service and the load went through.
    Fleet(FleetSample),
}

impl From<FleetSample> for LabBody {
    fn from(sample: FleetSample) -> Self {
        LabBody::Fleet(sample)
    }
}

impl From<OverloadEvent> for LabBody {
    fn from(event: OverloadEvent) -> Self {
        LabBody::Overload(event)
    }
}

impl From<HealthEvent> for LabBody {
    fn from(event: HealthEvent) -> Self {
        LabBody::Health(event)
    }
}

impl From<RetryEvent> for LabBody {
    fn from(event: RetryEvent) -> Self {
        LabBody::Retry(event)
    }
}

impl From<BreakerEvent> for LabBody {
    fn from(event: BreakerEvent) -> Self {
        LabBody::Breaker(event)
    }
}

/// One of the two health endpoints Lab 1 probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    Livez,
    Readyz,
}

impl Probe {
    pub fn path(self) -> &'static str {
        match self {
            Probe::Livez => "/livez",
            Probe::Readyz => "/readyz",
        }
    }
}

/// What Lab 1's run reports: the child's life, each probe, each `/work`, each line.
#[derive(Debug)]
pub enum HealthEvent {
    Started {
        pid: u32,
        port: u16,
        config: HealthConfig,
        /// Why this port and not the preferred one, if so.
        note: Option<String>,
        listening_at: Instant,
    },
    StartFailed(String),
    Probe {
        round: u64,
        at_s: f64,
        probe: Probe,
        outcome: GetOutcome,
    },
    /// One line of the server's output.
    Line(ChildLine),
    WorkSent,
    WorkDone(GetOutcome),
    SigtermSent,
    Database {
        up: bool,
        outcome: GetOutcome,
    },
    Exited(i32),
    /// Probing ended (shortly after the exit): the run is done.
    ProbesStopped,
    /// One line for the status row.
    Note(String),
}

/// What Lab 2's runs report: the chain's counters now and then, and the end.
#[derive(Debug)]
pub enum RetryEvent {
    /// The counters at `now_s` seconds since the run started.
    Counters { now_s: f64, snapshot: ChainSnapshot },
    /// The run ended: the last counters, and the counting result (`None` for the steady
    /// load or a stopped run), or why it failed.
    Done {
        last: Option<(f64, ChainSnapshot)>,
        result: Result<Option<ScenarioResult>, String>,
    },
}

/// What Lab 3's run reports: one sample per second, and the measured end.
#[derive(Debug)]
pub enum BreakerEvent {
    Sample(LiveSample),
    /// The run ended: the measured comparison, or why it failed.
    Done(Result<BrownoutComparison, String>),
}

/// What Lab 4's run reports: each second's counts, and the measured end.
#[derive(Debug)]
pub enum OverloadEvent {
    Sample(Second),
    /// The run ended: the whole run in the simulation's shape, or why it failed.
    Done(Result<Box<OverloadRun>, String>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_full_queue_drops_samples_but_waits_for_done() {
        let (queue, mut received) = mpsc::channel::<(LabId, LabEvent)>(1);
        let sender = LabSender::new(LabId::Retry, 7, queue);
        let counters = || RetryEvent::Counters {
            now_s: 0.0,
            snapshot: ChainSnapshot::default(),
        };
        assert!(sender.sample(counters()));
        assert!(
            !sender.sample(counters()),
            "the queue holds one: the second sample is dropped"
        );
        let done = tokio::spawn({
            let sender = sender.clone();
            async move {
                sender
                    .send(RetryEvent::Done {
                        last: None,
                        result: Ok(None),
                    })
                    .await
            }
        });
        let (lab, first) = received.recv().await.expect("the sample");
        assert_eq!((lab, first.run), (LabId::Retry, 7));
        assert!(matches!(*first.body, LabBody::Retry(RetryEvent::Counters { .. })));
        let (_, last) = received.recv().await.expect("done waited for room");
        assert!(matches!(*last.body, LabBody::Retry(RetryEvent::Done { .. })));
        assert!(done.await.expect("joined"));
    }

    #[tokio::test(start_paused = true)]
    async fn join_all_aborts_what_outlives_the_deadline() {
        let quick = LiveRun::spawn(1, 0u32, |mut inbox| async move { stopped(&mut inbox.stop).await });
        let stuck = LiveRun::spawn(2, 0u32, |_inbox| async move {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        });
        let aborted = join_all(vec![quick.stop(), stuck.stop()], Duration::from_secs(10)).await;
        assert_eq!(aborted, 1);
    }

    #[tokio::test(start_paused = true)]
    async fn retuning_wakes_the_run_only_on_a_change() {
        let (seen_tx, mut seen) = mpsc::channel(8);
        let run = LiveRun::spawn(1, 1u32, |mut inbox| async move {
            while inbox.control.changed().await.is_ok() {
                let seen = *inbox.control.borrow_and_update();
                let _ = seen_tx.send(seen).await;
            }
        });
        run.retune(1);
        run.retune(2);
        assert_eq!(seen.recv().await, Some(2));
        run.retune_with(|count| *count += 1);
        assert_eq!(seen.recv().await, Some(3));
        assert_eq!(*run.control(), 3);
        join_all(vec![run.stop()], Duration::from_secs(1)).await;
    }
}
