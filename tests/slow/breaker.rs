//! Lab 3 live on 127.0.0.1:0: the breaker's cycle against a real hung dependency, each
//! fault kind's failure, and a clean teardown (no task, no connection left behind).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use resilience_lab::engine::breaker::{BreakerConfig, BreakerState};
use resilience_lab::engine::brownout::BrownoutParams;
use resilience_lab::engine::fault::{FaultKind, FaultSchedule, ManualOverride};
use resilience_lab::live::breaker::brownout::{self, LiveBrownout};
use resilience_lab::live::breaker::dependency::DependencyServer;
use resilience_lab::live::http::{GetOutcome, get_once};
use tokio::sync::watch;
use tokio::time::Instant;

/// The live tests of this file run one at a time: each paces hundreds of requests a second
/// through real sockets, and on a 2-core machine two at once starve each other's timers
/// (a paced caller that falls behind bursts to catch up, and the counts drift).
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const HEALTHY: Duration = Duration::from_millis(40);

/// Waits up to `deadline` for `done` to hold, checking every 10 ms.
async fn eventually(deadline: Duration, mut done: impl FnMut() -> bool) -> bool {
    let give_up = Instant::now() + deadline;
    while Instant::now() < give_up {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    done()
}

fn alive_tasks() -> usize {
    tokio::runtime::Handle::current().metrics().num_alive_tasks()
}

fn short_params(duration_s: f64, brownout_s: (f64, f64)) -> BrownoutParams {
    BrownoutParams {
        rate: 100,
        duration_s,
        brownout_start_s: brownout_s.0,
        brownout_end_s: brownout_s.1,
        breaker: BreakerConfig {
            open_s: 1.0,
            ..BreakerConfig::default()
        },
        ..BrownoutParams::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breaker_opens_half_opens_reopens_and_closes_after_healing() {
    let _one_at_a_time = ONE_AT_A_TIME.lock().await;
    let baseline = alive_tasks();
    let params = short_params(6.0, (1.0, 4.0));
    let faults = FaultSchedule::window(FaultKind::Hang, 1.0, 4.0);
    let run = brownout::run(params, faults).await.expect("live run");

    let guarded = &run.comparison.with_breaker;
    let log: Vec<(BreakerState, BreakerState)> = guarded.transitions.iter().map(|t| (t.from, t.to)).collect();
    assert_eq!(
        log.first(),
        Some(&(BreakerState::Closed, BreakerState::Open)),
        "{log:?}"
    );
    assert!(log.contains(&(BreakerState::Open, BreakerState::HalfOpen)), "{log:?}");
    assert!(
        log.contains(&(BreakerState::HalfOpen, BreakerState::Open)),
        "reopens: {log:?}"
    );
    assert_eq!(
        log.last(),
        Some(&(BreakerState::HalfOpen, BreakerState::Closed)),
        "{log:?}"
    );
    let closed_at_s = guarded.transitions.last().map_or(0.0, |t| t.t_s);
    assert!(
        closed_at_s >= 4.0,
        "closes only after the dependency heals, at {closed_at_s}"
    );

    let plain = &run.comparison.timeout_only.summary;
    assert!(
        (590..=600).contains(&plain.calls),
        "timeout only sends its whole schedule: {plain:?}"
    );
    assert!((280..=320).contains(&plain.sick_calls), "{plain:?}");
    assert!(
        guarded.summary.sick_calls * 4 < plain.sick_calls,
        "the breaker keeps calls off the sick dependency: {} vs {}",
        guarded.summary.sick_calls,
        plain.sick_calls
    );
    assert!(
        run.timeout_only.timed_out > 250,
        "hang ends in timeouts: {:?}",
        run.timeout_only
    );
    assert!(
        (15.0..=25.0).contains(&plain.stuck),
        "about 20 in flight (100/s x 0.2 s), sampled: {}",
        plain.stuck
    );

    assert!(
        eventually(Duration::from_secs(2), || alive_tasks() <= baseline).await,
        "tasks left after shutdown: {} (baseline {baseline})",
        alive_tasks()
    );
}

#[tokio::test]
async fn each_fault_kind_fails_its_own_way() {
    let _one_at_a_time = ONE_AT_A_TIME.lock().await;
    let (faults_tx, faults_rx) = watch::channel(FaultSchedule::window(FaultKind::Hang, 0.0, 0.0));
    let dependency = DependencyServer::start(Instant::now(), HEALTHY, faults_rx)
        .await
        .expect("dependency");
    let addr = dependency.addr;
    let state = Arc::clone(&dependency.state);
    let sick = |kind: FaultKind| {
        faults_tx.send_modify(|schedule| {
            schedule.kind = kind;
            schedule.manual = Some(ManualOverride::Sick);
        });
    };

    // Healthy: 200 after about the healthy latency.
    let sent = Instant::now();
    assert_eq!(get_once(addr, "/").await.code(), 200);
    assert!(sent.elapsed() >= HEALTHY);

    // hang: no answer before the caller's timeout; the held request is let go when it hangs up.
    sick(FaultKind::Hang);
    let hung = tokio::time::timeout(Duration::from_millis(200), get_once(addr, "/")).await;
    assert!(hung.is_err(), "hang must time out, got {hung:?}");
    assert!(
        eventually(Duration::from_secs(1), || state.held.load(Ordering::Relaxed) == 0).await,
        "a hung request outlived its caller"
    );

    // slow: answered, later than healthy by the added latency.
    sick(FaultKind::Slow);
    let sent = Instant::now();
    assert_eq!(get_once(addr, "/").await.code(), 200);
    assert!(
        sent.elapsed() >= HEALTHY + Duration::from_millis(100),
        "{:?}",
        sent.elapsed()
    );

    // errors: a fast 500.
    sick(FaultKind::Errors);
    let sent = Instant::now();
    assert_eq!(get_once(addr, "/").await.code(), 500);
    assert!(sent.elapsed() < HEALTHY);

    // refuse: the listener closes; after healing it opens again on the same port.
    sick(FaultKind::Refuse);
    let mut refused = false;
    for _ in 0..100 {
        if get_once(addr, "/").await == GetOutcome::Refused {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(refused, "refuse must close the listener");
    faults_tx.send_modify(|schedule| schedule.manual = Some(ManualOverride::Healthy));
    let mut healed = false;
    for _ in 0..100 {
        if get_once(addr, "/").await.code() == 200 {
            healed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(healed, "the dependency must listen again after refuse");

    // Teardown: the accept loop ends, every connection's handler is gone.
    dependency.shutdown().await.expect("shutdown");
    assert!(
        eventually(Duration::from_secs(1), || Arc::strong_count(&state) == 1).await,
        "connections left: {}",
        Arc::strong_count(&state) - 1
    );
    assert_eq!(get_once(addr, "/").await, GetOutcome::Refused);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn callers_classify_each_fault() {
    let _one_at_a_time = ONE_AT_A_TIME.lock().await;
    let baseline = alive_tasks();
    let params = BrownoutParams {
        rate: 50,
        duration_s: 2.0,
        brownout_start_s: 0.5,
        brownout_end_s: 1.5,
        ..BrownoutParams::default()
    };
    let runs = futures::future::join_all(FaultKind::ALL.map(|kind| {
        let params = params.clone();
        async move {
            let faults = FaultSchedule::window(kind, 0.5, 1.5);
            (kind, brownout::run(params, faults).await.expect("live run"))
        }
    }))
    .await;
    for (kind, run) in runs {
        let plain = &run.timeout_only;
        let summary = &run.comparison.timeout_only.summary;
        // 50 calls/s for the 1 s window: 50, give or take the pacing's jitter on loopback.
        assert!((40..=60).contains(&summary.sick_calls), "{kind}: {summary:?}");
        match kind {
            FaultKind::Hang => assert!(plain.timed_out >= 40, "{kind}: {plain:?}"),
            FaultKind::Slow => {
                assert_eq!(plain.timed_out, 0, "{kind}: 160 ms is under the 200 ms timeout");
                assert!(summary.p99_wait_ms >= 150.0, "{kind}: {summary:?}");
                assert_eq!(summary.degraded, 0, "{kind}: slow is not failed");
            }
            FaultKind::Errors => assert!(plain.error_answers >= 40, "{kind}: {plain:?}"),
            FaultKind::Refuse => assert!(plain.connect_failures >= 40, "{kind}: {plain:?}"),
        }
        if kind != FaultKind::Slow {
            assert!(summary.degraded >= 40, "{kind}: {summary:?}");
        }
    }
    assert!(
        eventually(Duration::from_secs(2), || alive_tasks() <= baseline).await,
        "tasks left: {} (baseline {baseline})",
        alive_tasks()
    );
}

#[tokio::test]
async fn handle_retunes_the_breaker_and_shuts_down_early() {
    let _one_at_a_time = ONE_AT_A_TIME.lock().await;
    let baseline = alive_tasks();
    let params = short_params(30.0, (0.0, 30.0));
    let faults = FaultSchedule::window(FaultKind::Errors, 0.0, 30.0);
    let mut live = LiveBrownout::start(params, faults).await.expect("start");
    let mut samples = live.take_samples().expect("samples");
    assert!(alive_tasks() > baseline, "the task count sees the lab's tasks");
    // A breaker that can never open: min_calls above the window.
    live.configs().send_modify(|config| {
        config.window = 10;
        config.min_calls = 1000;
    });
    let first = tokio::time::timeout(Duration::from_secs(3), samples.recv())
        .await
        .expect("a sample within 3 s")
        .expect("sample channel open");
    assert_eq!(first.second, 0);
    assert_eq!(first.with_breaker.breaker, Some(BreakerState::Closed));
    live.set_override(Some(ManualOverride::Healthy));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let run = tokio::time::timeout(Duration::from_secs(3), live.shutdown())
        .await
        .expect("shutdown within 3 s")
        .expect("shutdown");
    let guarded = &run.comparison.with_breaker;
    assert!(
        guarded.transitions.is_empty(),
        "retuned breaker opened: {:?}",
        guarded.transitions
    );
    assert!(guarded.summary.calls < 300, "stopped early: {:?}", guarded.summary);
    drop(samples);
    assert!(
        eventually(Duration::from_secs(2), || alive_tasks() <= baseline).await,
        "tasks left: {} (baseline {baseline})",
        alive_tasks()
    );
}

/// A second's sample counts every call sent in it once the call ends: during a total hang
/// every call made fails, so each sample reads 100% failed, as the simulation's chart does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn during_a_total_hang_every_second_reads_all_calls_failed() {
    let _one_at_a_time = ONE_AT_A_TIME.lock().await;
    let params = short_params(3.0, (0.0, 3.0));
    let faults = FaultSchedule::window(FaultKind::Hang, 0.0, 3.0);
    let mut live = LiveBrownout::start(params, faults).await.expect("live run");
    let mut samples = live.take_samples().expect("samples");
    live.finished().await;
    live.shutdown().await.expect("shutdown");
    let mut seen = Vec::new();
    while let Ok(sample) = samples.try_recv() {
        seen.push(sample);
    }
    assert_eq!(
        seen.iter().map(|s| s.second).collect::<Vec<_>>(),
        vec![0, 1, 2],
        "one sample per second"
    );
    for sample in &seen {
        for (name, caller) in [
            ("timeout only", &sample.timeout_only),
            ("with breaker", &sample.with_breaker),
        ] {
            let failed = caller.stats.degraded - caller.stats.failed_fast;
            assert_eq!(
                failed, caller.stats.calls,
                "{name}, second {}: {failed} of {} calls counted failed",
                sample.second, caller.stats.calls
            );
        }
        assert!(sample.timeout_only.stats.calls >= 90, "{:?}", sample.timeout_only.stats);
    }
}
