//! Lab 3's live run in the app: both callers against one dependency, retuned while it runs.
//!
//! [`spawn`] starts a [`LiveBrownout`]; [`BreakerControl`] carries the breaker's sliders
//! (applied to the running breaker at once), the "brown out now / heal" switch and the
//! fault kind, latest wins. The run's task sends each second's `LiveSample` straight
//! into the app's queue (dropped if the queue is full: the run never waits on the screen)
//! and ends with the measured comparison.

use crate::content::LabId;
use crate::engine::breaker::BreakerConfig;
use crate::engine::brownout::BrownoutParams;
use crate::engine::fault::{FaultKind, FaultSchedule, ManualOverride};
use crate::live::breaker::brownout::LiveBrownout;
use crate::live::run::{self, BreakerEvent, LabEvent, LabSender, LiveRun, RunInbox};

/// The screen's hold on a running brownout.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakerControl {
    /// The breaker's settings: the sliders retune the running breaker.
    pub breaker: BreakerConfig,
    /// `None`: the scheduled window decides; `Some`: the learner's hand does.
    pub manual: Option<ManualOverride>,
    pub fault: FaultKind,
}

/// Starts `params` against a dependency sick per `faults`. Must be called inside a tokio runtime.
pub fn spawn<E>(params: BrownoutParams, faults: FaultSchedule, events: LabSender<E>) -> LiveRun<BreakerControl>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let control = BreakerControl {
        breaker: params.breaker.clone(),
        manual: faults.manual,
        fault: faults.kind,
    };
    LiveRun::spawn(events.run(), control, move |inbox| async move {
        let result = run(params, faults, inbox, &events).await;
        events
            .send(BreakerEvent::Done(result.map_err(|error| format!("{error:#}"))))
            .await;
    })
}

async fn run<E>(
    params: BrownoutParams,
    faults: FaultSchedule,
    mut inbox: RunInbox<BreakerControl>,
    events: &LabSender<E>,
) -> color_eyre::Result<crate::engine::brownout::BrownoutComparison>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let mut live = LiveBrownout::start(params, faults).await?;
    let mut samples = live
        .take_samples()
        .ok_or_else(|| color_eyre::eyre::eyre!("a fresh brownout run gave no sample channel"))?;
    let mut applied = inbox.control.borrow_and_update().clone();
    loop {
        // The handlers may use `live` again: select! drops the branch futures first.
        tokio::select! {
            () = run::stopped(&mut inbox.stop) => break,
            changed = inbox.control.changed() => {
                if changed.is_err() { break }
                let wanted = inbox.control.borrow_and_update().clone();
                if wanted.breaker != applied.breaker {
                    let _ = live.configs().send(wanted.breaker.clone());
                }
                if (wanted.manual, wanted.fault) != (applied.manual, applied.fault) {
                    live.set_override(wanted.manual);
                    live.set_fault_kind(wanted.fault);
                }
                applied = wanted;
            }
            Some(sample) = samples.recv() => {
                events.sample(BreakerEvent::Sample(sample));
            }
            () = live.finished() => break,
        }
    }
    let run = live.shutdown().await;
    // The sampler's last second is sent during shutdown.
    while let Ok(sample) = samples.try_recv() {
        events.sample(BreakerEvent::Sample(sample));
    }
    Ok(run?.comparison)
}
