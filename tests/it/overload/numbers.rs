//! Lab 4's worked numbers from the lesson on overload, reproduced by the simulation.
//!
//! Each test names the lesson's arithmetic it checks; the run computes the number from
//! events (arrivals, workers, timeouts), it is not written into the engine.

use resilience_lab::engine::overload::metastable::{self, MetastableParams, MetastableState};
use resilience_lab::engine::overload::{
    self, Arrivals, BulkheadDependency, OverloadParams, OverloadScenario, SheddingPolicy, pages_per_core_per_s,
    reject_probability,
};

fn second(run: &overload::OverloadRun, t_s: f64) -> &overload::Second {
    run.seconds
        .iter()
        .find(|s| s.t_s == t_s)
        .expect("a sample at that second")
}

#[test]
fn one_hundred_threads_at_50_ms_serve_2000_per_second() {
    let params = OverloadParams::default();
    assert_eq!(params.capacity_per_s(), 2_000.0);
    let run = overload::run(&OverloadParams {
        offered_per_s: 2_000.0,
        ..params
    });
    // At exactly capacity nothing queues and every second after the first serves 2,000.
    assert!(run.seconds[1..].iter().all(|s| s.goodput == 2_000 && s.queue_len == 0));
}

#[test]
fn fifo_at_2500_queues_500_more_each_second_and_waits_half_a_second_at_2_s() {
    let run = overload::run(&OverloadParams {
        trace_at_s: Some(2.0),
        ..OverloadScenario::Fifo.params()
    });
    assert_eq!(second(&run, 1.0).queue_len, 500);
    assert_eq!(second(&run, 2.0).queue_len, 1_000);
    assert_eq!(second(&run, 3.0).queue_len, 1_500);
    assert_eq!(second(&run, 2.0).queue_wait_s, 0.5, "1,000 / 2,000");
    assert_eq!(
        run.totals.traced_wait_s,
        Some(0.5),
        "the arrival at 2.0 s really waits 0.5 s"
    );
}

#[test]
fn fifo_wastes_nearly_everything_once_the_wait_passes_the_timeout() {
    let run = overload::run(&OverloadParams {
        duration_s: 20.0,
        ..OverloadScenario::Fifo.params()
    });
    // The wait grows 0.25 s per second and passes the 1 s timeout after 4 s.
    let late = &run.seconds[6..];
    assert!(late.iter().all(|s| s.goodput == 0 && s.wasted == 2_000), "{late:?}");
    assert_eq!(second(&run, 4.0).queue_wait_s, 1.0);
}

#[test]
fn age_cap_of_200_ms_holds_the_queue_at_400_and_goodput_at_2000() {
    let run = overload::run(&OverloadParams {
        duration_s: 20.0,
        ..OverloadScenario::AgeCap.params()
    });
    assert_eq!(run.age_cap_queue_limit, Some(400), "2,000 x 0.2");
    assert_eq!(run.totals.max_queue_len, 400);
    let steady = &run.seconds[2..];
    for s in steady {
        assert_eq!(
            (s.goodput, s.refused, s.wasted, s.queue_len),
            (2_000, 500, 0, 400),
            "{s:?}"
        );
        assert_eq!(
            s.refused as f64 / s.offered as f64,
            0.2,
            "the excess 20% refused at once"
        );
    }
    assert_eq!(run.totals.wasted, 0, "the other 80% answered in time");
}

#[test]
fn lifo_keeps_serving_callers_that_still_wait() {
    let run = overload::run(&OverloadParams {
        duration_s: 20.0,
        ..OverloadScenario::Lifo.params()
    });
    assert!(run.seconds[2..].iter().all(|s| s.goodput == 2_000), "{:?}", run.seconds);
    let fifo = overload::run(&OverloadParams {
        duration_s: 20.0,
        ..OverloadScenario::Fifo.params()
    });
    assert!(run.totals.goodput > 3 * fifo.totals.goodput);
}

#[test]
fn admission_limit_keeps_the_queue_at_half_the_pool() {
    let run = overload::run(&OverloadScenario::Admission.params());
    assert_eq!(
        run.totals.max_queue_len, 50,
        "150 in the server = 100 serving + 50 waiting"
    );
    assert!(run.seconds[2..].iter().all(|s| s.goodput == 2_000 && s.refused == 500));
}

#[test]
fn criticality_sheds_sheddable_first_and_keeps_critical_whole() {
    let run = overload::run(&OverloadScenario::Criticality.params());
    let [critical_plus, critical, sheddable_plus, sheddable] = &run.totals.by_criticality;
    assert_eq!(critical_plus.refused, 0);
    assert_eq!(critical.refused, 0);
    assert!(
        sheddable.refused as f64 >= 0.9 * sheddable.offered as f64,
        "{sheddable:?}"
    );
    assert!(sheddable_plus.refused > 0 && sheddable_plus.refused < sheddable_plus.offered);
    assert_eq!(
        run.totals.health_checks, run.totals.health_checks_answered,
        "pings always answered"
    );
}

#[test]
fn a_thousand_qps_at_100_ms_keeps_100_threads_busy_and_a_5_percent_hang_needs_5000() {
    let plain = overload::run(&OverloadParams {
        offered_per_s: 1_000.0,
        service_ms: 100.0,
        workers: 10_000,
        duration_s: 3.0,
        ..OverloadParams::default()
    });
    assert_eq!(second(&plain, 2.0).busy, 100);
    let hanging = overload::run(&OverloadParams {
        offered_per_s: 950.0,
        service_ms: 100.0,
        workers: 10_000,
        duration_s: 101.0,
        client_timeout_ms: 100_000.0,
        dependency: Some(BulkheadDependency {
            calls_per_s: 50.0,
            latency_ms: 1e9,
            timeout_ms: 100_000.0,
            pool: None,
        }),
        ..OverloadParams::default()
    });
    assert_eq!(second(&hanging, 100.0).x_busy, 5_000, "50 QPS x 100 s");
}

#[test]
fn a_timeout_caps_what_a_hanging_dependency_borrows() {
    let with_timeout = |timeout_ms| {
        overload::run(&OverloadParams {
            offered_per_s: 0.0,
            workers: 200,
            duration_s: 5.0,
            client_timeout_ms: 10_000.0,
            dependency: Some(BulkheadDependency {
                calls_per_s: 100.0,
                latency_ms: 1e9,
                timeout_ms,
                pool: None,
            }),
            ..OverloadParams::default()
        })
    };
    assert_eq!(
        second(&with_timeout(2_000.0), 4.0).x_busy,
        200,
        "100/s x 2 s: the whole pool"
    );
    assert_eq!(second(&with_timeout(500.0), 4.0).x_busy, 50, "100/s x 0.5 s");
}

#[test]
fn bulkhead_of_40_leaves_160_threads_for_the_rest() {
    let with_pool = overload::run(&OverloadScenario::Bulkhead.params());
    for s in &with_pool.seconds[1..] {
        assert_eq!(s.x_busy, 40);
        assert_eq!(with_pool.params.workers - s.x_busy, 160);
    }
    // Nothing else is hurt (X's own callers, with a 1 s timeout on 2 s calls, are): every other request is answered in time, but for the last
    // 50 ms of arrivals, still in service when the run ends.
    assert_eq!(
        with_pool.totals.by_criticality.iter().map(|c| c.refused).sum::<u64>(),
        0
    );
    assert_eq!(with_pool.totals.other_goodput, 10_000 - 50);
    let mut shared = OverloadScenario::Bulkhead.params();
    if let Some(dependency) = shared.dependency.as_mut() {
        dependency.pool = None;
    }
    let shared = overload::run(&OverloadParams {
        duration_s: 20.0,
        ..shared
    });
    // X alone would hold 100 calls/s x 2 s = 200 threads, the whole pool: the queue grows,
    // its wait passes the callers' 1 s timeout, and requests that never touch X fail too.
    assert!(shared.seconds.iter().all(|s| s.x_busy >= 100), "{:?}", shared.seconds);
    assert!(
        shared.seconds[8..].iter().all(|s| s.goodput == 0),
        "{:?}",
        shared.seconds
    );
}

#[test]
fn throttle_with_k_2_refuses_about_one_in_three_locally() {
    assert_eq!(reject_probability(3_000, 1_000, 2.0), 1_000.0 / 3_001.0);
    let run = overload::run(&OverloadScenario::Throttle.params());
    let p = run.totals.throttle_probability.expect("the throttle ran");
    assert!((p - 1.0 / 3.0).abs() < 0.01, "{p}");
    let last_10_s = &run.seconds[20..];
    let sum = |f: fn(&overload::Second) -> u64| last_10_s.iter().map(f).sum::<u64>() as f64;
    let sent = sum(|s| s.offered) - sum(|s| s.throttled);
    assert!(
        (sent / sum(|s| s.goodput) - 2.0).abs() < 0.05,
        "sends about 2 x what is accepted"
    );
    // K = 1.1: the client sends about 1.1 x what is accepted, so the backend refuses only
    // about one request for every ten it accepts...
    let p = reject_probability(3_000, 1_000, 1.1);
    let sent = 3_000.0 * (1.0 - p);
    assert!(((sent - 1_000.0) / 1_000.0 - 0.1).abs() < 0.001, "{sent}");
    // ...and wastes more client capacity: from a cold start it reopens by a factor of
    // about K per round trip, so it refuses far more locally than K = 2 does.
    let cautious = overload::run(&OverloadParams {
        throttle_k: 1.1,
        ..OverloadScenario::Throttle.params()
    });
    assert!(cautious.totals.throttled > run.totals.throttled + 100_000);
    assert!(cautious.totals.goodput < run.totals.goodput / 2);
}

#[test]
fn a_degraded_page_serves_four_times_as_many_per_core() {
    assert_eq!(pages_per_core_per_s(10.0) / pages_per_core_per_s(40.0), 4.0);
    // One worker is one core: pages it answers per second, full and degraded.
    let core = |service_ms| {
        let run = overload::run(&OverloadParams {
            workers: 1,
            service_ms,
            offered_per_s: 1_000.0,
            ..OverloadScenario::AgeCap.params()
        });
        second(&run, 5.0).goodput
    };
    assert_eq!((core(40.0), core(10.0)), (25, 100));
}

#[test]
fn goodput_falls_under_fifo_and_stays_flat_with_the_age_cap() {
    let params = OverloadParams::default();
    let curves = overload::sweep(&params);
    let of = |policy| curves.iter().find(|c| c.policy == policy).expect("every policy");
    let fifo = of(SheddingPolicy::Fifo);
    let capped = of(SheddingPolicy::AgeCap);
    let peak = fifo.points.iter().map(|p| p.goodput_per_s).fold(0.0, f64::max);
    // 1,990: in the first 50 ms of the 10 s run nothing has finished yet.
    assert_eq!(peak, 1_990.0);
    let last = fifo.points.last().expect("points");
    assert!(last.goodput_per_s < 0.5 * peak, "FIFO collapses: {:?}", fifo.points);
    for point in capped.points.iter().filter(|p| p.offered_per_s >= 2_000.0) {
        assert!(point.goodput_per_s >= 0.99 * 2_000.0, "{point:?}");
    }
}

#[test]
fn random_arrivals_are_seeded_and_land_near_the_even_numbers() {
    let random = OverloadParams {
        arrivals: Arrivals::Random { seed: 7 },
        ..OverloadScenario::AgeCap.params()
    };
    let a = overload::run(&random);
    assert_eq!(a, overload::run(&random), "same seed, same run");
    assert!((a.totals.goodput_per_s - 2_000.0).abs() < 40.0);
}

#[test]
fn metastable_280_qps_after_a_10_s_outage_stays_at_560_with_no_recovery() {
    let run = metastable::run(&MetastableParams::default());
    assert_eq!(run.goodput_before_per_s, 280.0);
    assert!(run.seconds[..10].iter().all(|s| s.state == MetastableState::Vulnerable));
    assert_eq!(run.db_load_end_per_s, 560.0, "2 x 280");
    assert_eq!(run.goodput_after_per_s, 0.0);
    assert_eq!(run.recovered_after_s, None);
    assert!(
        run.seconds
            .last()
            .is_some_and(|s| s.state == MetastableState::Metastable)
    );
}

#[test]
fn metastable_is_stable_below_150_and_recovers_with_load_or_retries_cut() {
    let paper = MetastableParams::default();
    assert_eq!(paper.stable_below_per_s(), 150.0);
    assert!(paper.is_stable_at(149.0) && !paper.is_stable_at(150.0));
    assert_eq!(paper.retry_room_per_s(), 20.0, "300 - 280");
    let at = |params: MetastableParams| metastable::run(&params).recovered_after_s;
    assert!(
        at(MetastableParams {
            load_per_s: 149.0,
            ..paper.clone()
        })
        .is_some()
    );
    assert!(
        at(MetastableParams {
            load_per_s: 150.0,
            ..paper.clone()
        })
        .is_none()
    );
    // Cut the load under 150 QPS ten seconds after the trigger: it recovers.
    assert!(
        at(MetastableParams {
            load_changes: vec![(30, 149.0)],
            ..paper.clone()
        })
        .is_some()
    );
    assert!(
        at(MetastableParams {
            load_changes: vec![(30, 150.0)],
            ..paper.clone()
        })
        .is_none()
    );
    // Or hold retries under 20 QPS.
    assert!(
        at(MetastableParams {
            retry_cap_per_s: Some(19.0),
            ..paper.clone()
        })
        .is_some()
    );
    assert!(
        at(MetastableParams {
            retry_cap_per_s: Some(20.0),
            ..paper
        })
        .is_none()
    );
}

#[test]
fn metastable_twin_of_lab_2_live_view_matches_its_measured_table() {
    // Lab 2's live view: 8 slots x 20 ms, 240 actions/s, back end timeout 100 ms.
    let twin =
        |attempts: &[u32], budget| metastable::run(&MetastableParams::lab2(240.0, 8, 20.0, 100.0, attempts, budget));
    assert_eq!(twin(&[4, 4, 4], 0.0).recovered_after_s, None, "layered: no recovery");
    assert_eq!(
        twin(&[4], 0.0).recovered_after_s,
        None,
        "single: 960/s is 2.4x capacity"
    );
    let budget = twin(&[4], 0.1);
    assert!(budget.recovered_after_s.is_some_and(|s| s <= 2.0), "{budget:?}");
    assert_eq!(budget.goodput_before_per_s, 240.0);
}

#[test]
fn a_step_of_offered_load_or_policy_keeps_the_curves() {
    let first = overload::recompute(&OverloadParams {
        duration_s: 2.0,
        ..OverloadParams::default()
    });
    let dragged = OverloadParams {
        offered_per_s: 3_000.0,
        policy: SheddingPolicy::Lifo,
        ..first.run.params.clone()
    };
    let step = overload::recompute_after(&first, &dragged);
    assert_eq!(
        step,
        overload::recompute(&dragged),
        "the same result as a full recompute"
    );
    let slower = OverloadParams {
        service_ms: 60.0,
        ..dragged.clone()
    };
    assert!(!overload::same_sweep(&dragged, &slower));
    assert_eq!(overload::recompute_after(&step, &slower), overload::recompute(&slower));
}

/// The screen's sweep runs a pool shrunk to about 200/s with the same ratios: at the
/// lesson's defaults each point lands within 3% of capacity of the full pool's point,
/// so FIFO still collapses and the age cap still holds flat.
#[test]
fn the_screens_shrunk_sweep_follows_the_full_sweep() {
    let params = OverloadParams::default();
    let (small, factor) = overload::scaled_for_sweep(&params);
    assert_eq!((small.workers, small.admission_limit, factor), (10, 15, 10.0));
    let full = overload::sweep(&params);
    let screen = overload::screen_sweep(&params);
    let capacity = params.capacity_per_s();
    // The client throttle's "+1" in (requests - K x accepts) / (requests + 1) does not
    // scale with the pool; it is the one policy left out of the comparison.
    for (full, screen) in full
        .iter()
        .zip(&screen)
        .filter(|(full, _)| full.policy != SheddingPolicy::Throttle)
    {
        assert_eq!(full.policy, screen.policy);
        for (f, s) in full.points.iter().zip(&screen.points) {
            assert!((f.offered_per_s - s.offered_per_s).abs() < 1e-6, "{f:?} {s:?}");
            assert!(
                (f.goodput_per_s - s.goodput_per_s).abs() <= 0.03 * capacity,
                "{:?}: full {f:?} screen {s:?}",
                full.policy
            );
        }
    }
    // A step of the offered load keeps the curves and recomputes the exact run.
    let first = overload::screen_recompute_after(None, &params);
    let dragged = OverloadParams {
        offered_per_s: 3_000.0,
        ..params.clone()
    };
    let step = overload::screen_recompute_after(Some(&first), &dragged);
    assert_eq!(step.curves, first.curves);
    assert_eq!(step.run, overload::run(&dragged));
}
