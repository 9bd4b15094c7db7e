//! One task per replica, doing what the kubelet does: start the process, probe it over
//! HTTP on the probes' ticks with their timeout, stop it (preStop, SIGTERM, SIGKILL at
//! the grace period) when a probe says so or the rollout replaces it, and restart it
//! after the back-off. The decisions are the engine's `ProbeState` and `BackoffSpec`.
//!
//! A container that exits on its own (`kill -9`, a crash) is seen the moment it is reaped,
//! not through probes failing later, and restarted at once with the same back-off, as the
//! kubelet restarts an exited container under `restartPolicy: Always`: no wait the first
//! time, then 10 s doubling to a 5 min cap, reset after 10 min of running (Kubernetes'
//! documentation, "Pod Lifecycle", container restarts:
//! <https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy>).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use color_eyre::eyre::Result;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::engine::fleet::{FleetParams, ProbeAction, ProbeKind, ProbeState, ReplicaState, StopReason};
use crate::live::fleet::recorder::{Endpoint, Recorder};
use crate::live::fleet::replica::{replica_args, until_stopped};
use crate::live::health::child::HealthChild;
use crate::live::http::{self, GetOutcome};

/// How long a replica may take to exit once the run is over.
const END_OF_RUN_DEADLINE: Duration = Duration::from_secs(3);

/// What the rollout asks of a replica.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplicaControl {
    /// Replace the pod: stop it and start a new one at a new address.
    Replace,
}

/// One replica's fixed facts.
pub struct ReplicaPlan {
    pub slot: usize,
    pub program: PathBuf,
    pub params: Arc<FleetParams>,
    /// The database this replica asks (a port nothing listens on for a black hole).
    pub database_port: u16,
}

/// The probe ticks of one container: kind k runs at start + n x period, n = 1, 2, ...
struct Ticks {
    start: Instant,
    next: [u32; 3],
}

impl Ticks {
    fn new(start: Instant) -> Self {
        Self { start, next: [1; 3] }
    }

    fn at(&self, kind: ProbeKind, plan: &ReplicaPlan, recorder: &Recorder) -> Instant {
        let period_s = kind.spec(&plan.params).period_s;
        self.start + recorder.clock.real(period_s * f64::from(self.next[kind as usize]))
    }

    /// The next probe due among `kinds` (earliest; at equal times in the kinds' order).
    fn earliest(&self, kinds: &[ProbeKind], plan: &ReplicaPlan, recorder: &Recorder) -> Option<(Instant, ProbeKind)> {
        kinds
            .iter()
            .map(|&kind| (self.at(kind, plan, recorder), kind))
            .min_by_key(|&(at, kind)| (at, kind))
    }
}

/// GETs `path` with the probe's timeout: a pass is a 200 in time.
async fn probe(addr: SocketAddr, path: &str, timeout: Duration) -> bool {
    matches!(
        tokio::time::timeout(timeout, http::get_once(addr, path)).await,
        Ok(GetOutcome::Answered { code: 200, .. })
    )
}

/// Records what a probe result means for the Service and the replica's row (`stopping`: the
/// kubelet is stopping the container, which readiness moves in and out of the endpoints
/// while its row stays `Stopping`).
fn apply(
    action: ProbeAction,
    plan: &ReplicaPlan,
    recorder: &Recorder,
    addr: SocketAddr,
    ready_tx: &ReadyTx,
    stopping: bool,
) {
    let row = |state: ReplicaState| if stopping { ReplicaState::Stopping } else { state };
    match action {
        ProbeAction::BecameReady => {
            recorder.endpoint(
                plan.slot,
                Endpoint {
                    addr: Some(addr),
                    ready: true,
                },
            );
            recorder.state(plan.slot, row(ReplicaState::Ready), false);
            let _ = ready_tx.send(plan.slot);
        }
        ProbeAction::BecameUnready => {
            recorder.endpoint(
                plan.slot,
                Endpoint {
                    addr: Some(addr),
                    ready: false,
                },
            );
            recorder.state(plan.slot, row(ReplicaState::Unready), false);
        }
        ProbeAction::Nothing | ProbeAction::Kill(_) => {}
    }
}

/// Where a replica says it became ready (the rollout waits for its replacement's).
pub type ReadyTx = mpsc::UnboundedSender<usize>;

/// Runs one replica until `stop` turns true; its process never outlives the task.
pub async fn run_replica(
    plan: ReplicaPlan,
    recorder: Arc<Recorder>,
    mut control: mpsc::Receiver<ReplicaControl>,
    ready_tx: ReadyTx,
    mut stop: watch::Receiver<bool>,
) -> Result<()> {
    let params = Arc::clone(&plan.params);
    let begin = recorder.clock.at(params.stagger_s * plan.slot as f64);
    tokio::select! {
        () = tokio::time::sleep_until(begin) => {}
        () = until_stopped(&mut stop) => return Ok(()),
    }
    let mut port = 0u16;
    let mut restarted = false;
    let mut streak = 0u32;
    loop {
        let container_start = Instant::now();
        let args = replica_args(&params, port, plan.database_port);
        let mut child = match HealthChild::start_with_args(&plan.program, args, port).await {
            Ok(child) => child,
            // The old port was taken meanwhile: a new one is still the same replica.
            Err(_) if port != 0 => {
                let args = replica_args(&params, 0, plan.database_port);
                HealthChild::start_with_args(&plan.program, args, 0).await?
            }
            Err(err) => return Err(err),
        };
        drop(child.take_lines());
        let addr = child.addr();
        port = addr.port();
        recorder.endpoint(
            plan.slot,
            Endpoint {
                addr: Some(addr),
                ready: false,
            },
        );
        recorder.state_since(plan.slot, ReplicaState::Starting, restarted, container_start);

        let mut probes = ProbeState::default();
        let mut ticks = Ticks::new(container_start);
        let mut run_over = false;
        let mut exited_unasked = None;
        let reason = loop {
            let kinds: &[ProbeKind] = if probes.startup_done {
                &[ProbeKind::Liveness, ProbeKind::Readiness]
            } else {
                &ProbeKind::ALL
            };
            let Some((at, kind)) = ticks.earliest(kinds, &plan, &recorder) else {
                break StopReason::Liveness;
            };
            tokio::select! {
                () = tokio::time::sleep_until(at) => {}
                Some(ReplicaControl::Replace) = control.recv() => break StopReason::Rolling,
                () = until_stopped(&mut stop) => {
                    run_over = true;
                    break StopReason::Liveness;
                }
                code = child.wait_exit() => {
                    exited_unasked = Some(code?);
                    break StopReason::Liveness;
                }
            }
            ticks.next[kind as usize] += 1;
            if !probes.runs(kind) {
                continue;
            }
            let spec = kind.spec(&params);
            let passed = probe(addr, kind.path(), recorder.clock.real(spec.timeout_s)).await;
            match probes.record(kind, passed, spec.failure_threshold) {
                ProbeAction::Kill(reason) => break reason,
                action => apply(action, &plan, &recorder, addr, &ready_tx, false),
            }
        };

        if run_over {
            child.shutdown(END_OF_RUN_DEADLINE).await?;
            return Ok(());
        }
        if let Some(code) = exited_unasked {
            // Gone already: out of the endpoints at once, no stop sequence, and restarted
            // after the back-off like any container that ended (the kubelet's restart).
            recorder.exited(format!("fleet-{}", plan.slot), code);
            recorder.endpoint(
                plan.slot,
                Endpoint {
                    addr: None,
                    ready: false,
                },
            );
            if *stop.borrow() {
                return Ok(());
            }
            let ran_s = container_start.elapsed().as_secs_f64() / recorder.clock.scale;
            streak = params.backoff.streak_after(streak, ran_s);
            let delay_s = params.backoff.delay_s(streak);
            streak += 1;
            if delay_s > 0.0 {
                recorder.state(plan.slot, ReplicaState::BackOff, false);
                tokio::select! {
                    () = tokio::time::sleep(recorder.clock.real(delay_s)) => {}
                    () = until_stopped(&mut stop) => return Ok(()),
                }
            }
            restarted = true;
            continue;
        }
        recorder.stop(plan.slot, reason);
        // A deleted pod leaves the ready endpoints as its termination begins; a container
        // the kubelet restarts stays in them while its readiness passes (engine::fleet's `//!`).
        if reason == StopReason::Rolling {
            probes.ready = false;
            recorder.endpoint(
                plan.slot,
                Endpoint {
                    addr: Some(addr),
                    ready: false,
                },
            );
            recorder.state(plan.slot, ReplicaState::Terminating, false);
        } else {
            recorder.state(plan.slot, ReplicaState::Stopping, false);
        }
        let grace = recorder.clock.real(params.grace_s);
        let pre_stop = recorder.clock.real(params.pre_stop_s.min(params.grace_s));
        let sequence = async {
            tokio::time::sleep(pre_stop).await;
            child.shutdown(grace.saturating_sub(pre_stop)).await
        };
        let mut sequence = std::pin::pin!(sequence);
        // A container the kubelet restarts keeps its readiness probe until it exits.
        loop {
            let readiness_at = ticks.at(ProbeKind::Readiness, &plan, &recorder);
            tokio::select! {
                exit = sequence.as_mut() => {
                    exit?;
                    break;
                }
                () = tokio::time::sleep_until(readiness_at), if reason != StopReason::Rolling => {
                    ticks.next[ProbeKind::Readiness as usize] += 1;
                    if !probes.runs(ProbeKind::Readiness) {
                        continue;
                    }
                    let spec = params.readiness;
                    let passed = probe(addr, "/readyz", recorder.clock.real(spec.timeout_s)).await;
                    let action = probes.record(ProbeKind::Readiness, passed, spec.failure_threshold);
                    apply(action, &plan, &recorder, addr, &ready_tx, true);
                }
            }
        }
        let exited = Instant::now();
        recorder.endpoint(
            plan.slot,
            Endpoint {
                addr: None,
                ready: false,
            },
        );
        if *stop.borrow() {
            return Ok(());
        }
        if reason == StopReason::Rolling {
            // The replacement pod: a new address, a fresh back-off, not a restart.
            port = 0;
            streak = 0;
            restarted = false;
            continue;
        }
        let ran_s = (exited - container_start).as_secs_f64() / recorder.clock.scale;
        streak = params.backoff.streak_after(streak, ran_s);
        let delay_s = params.backoff.delay_s(streak);
        streak += 1;
        if delay_s > 0.0 {
            recorder.state(plan.slot, ReplicaState::BackOff, false);
            tokio::select! {
                () = tokio::time::sleep(recorder.clock.real(delay_s)) => {}
                () = until_stopped(&mut stop) => return Ok(()),
            }
        }
        restarted = true;
    }
}
