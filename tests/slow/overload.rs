//! Lab 4 live on 127.0.0.1 against the simulation at the same settings.
//!
//! Each point is one live run of 4 s (the whole test stays well under 30 s) at 8 slots x
//! 20 ms = 400 requests/s, the lesson's ratios scaled to a 2-core machine.

use std::time::Duration;

use resilience_lab::content::LabId;
use resilience_lab::engine::overload::{OverloadParams, OverloadScenario, SheddingPolicy};
use resilience_lab::live::overload::runner::{compare_curve, live_params, spawn};
use resilience_lab::live::run::{LabBody, LabEvent, LabSender, OverloadEvent, join_all};

/// The live tests of this file run one at a time: each paces hundreds of requests a second
/// through real sockets, and on a 2-core machine two at once starve each other's timers
/// (a paced caller that falls behind bursts to catch up, and the counts drift).
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn within_10_percent(live: f64, sim: f64) -> bool {
    (live - sim).abs() <= 0.1 * sim
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn goodput_curve_live_matches_sim_within_10_percent_at_five_points() {
    let _one_at_a_time = ONE_AT_A_TIME.lock().await;
    let params = OverloadParams {
        duration_s: 4.0,
        ..live_params(OverloadScenario::AgeCap)
    };
    assert_eq!(params.capacity_per_s(), 400.0);
    let offered = [200.0, 400.0, 600.0, 800.0, 1_200.0];
    let started = std::time::Instant::now();
    let points = compare_curve(&params, &offered).await.expect("live runs on 127.0.0.1");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "bounded: {:?}",
        started.elapsed()
    );
    for point in &points {
        assert!(
            within_10_percent(point.live_goodput_per_s, point.sim_goodput_per_s),
            "{point:?} (all: {points:?})"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifo_live_collapses_like_the_sim_and_samples_arrive_each_second() {
    let _one_at_a_time = ONE_AT_A_TIME.lock().await;
    let params = OverloadParams {
        duration_s: 4.0,
        policy: SheddingPolicy::Fifo,
        ..live_params(OverloadScenario::Fifo)
    };
    let (events, mut events_rx) = tokio::sync::mpsc::channel::<(LabId, LabEvent)>(16);
    let live = spawn(params.clone(), LabSender::new(LabId::Overload, 1, events));
    let mut samples = Vec::new();
    let mut done = None;
    while let Some(event) = tokio::time::timeout(Duration::from_secs(15), events_rx.recv())
        .await
        .expect("the run ends by itself")
    {
        let (lab, event) = event;
        assert_eq!((lab, event.run), (LabId::Overload, 1));
        match *event.body {
            LabBody::Overload(OverloadEvent::Sample(second)) => samples.push(second),
            LabBody::Overload(OverloadEvent::Done(summary)) => {
                done = Some(summary.expect("a finished run"));
                break;
            }
            other => panic!("not Lab 4's event: {other:?}"),
        }
    }
    assert_eq!(join_all(vec![live.stop()], Duration::from_secs(5)).await, 0);
    let summary = done.clone().expect("the run's end");
    assert_eq!(samples.len(), 4);
    assert_eq!(done.map(|d| d.seconds.len()), Some(4));
    // 500/s against 400/s: the queue grows by about 100 a second, and the 400 ms
    // timeout is passed after about 1.6 s, so by the fourth second nearly all is wasted.
    let queue_at_2 = samples[1].queue_len as f64;
    assert!((queue_at_2 - 200.0).abs() <= 20.0, "{samples:?}");
    assert!(samples[3].goodput <= 20 && samples[3].wasted >= 350, "{samples:?}");
    let sim = resilience_lab::engine::overload::run(&params);
    assert!(
        within_10_percent(summary.totals.goodput_per_s, sim.totals.goodput_per_s),
        "{summary:?}"
    );
}
