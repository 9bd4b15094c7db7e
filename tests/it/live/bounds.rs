//! The live loops' bounds on requests out at once (each holds a connection, and both of its
//! ends live in the process): a load heavier than the bound is refused at the bound and
//! counted, instead of growing the process (issue 15: every run stays under 50 MB).

use resilience_lab::engine::breaker::BreakerConfig;
use resilience_lab::engine::brownout::BrownoutParams;
use resilience_lab::engine::brownout::MAX_CALLS_IN_FLIGHT;
use resilience_lab::engine::fault::{FaultKind, FaultSchedule};
use resilience_lab::live::breaker::brownout;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_dependency_holds_no_more_calls_than_the_callers_pool() {
    // 1,000 calls/s into a hang with a 3 s timeout would keep 3,000 out per caller; the
    // breaker needs 1,000 outcomes before it may open, so both callers fill their pools.
    // The dependency hangs past the run's end, so a send made late on a busy machine
    // hangs too, and no call ends before the timeout frees its place.
    let params = BrownoutParams {
        rate: 1_000,
        duration_s: 1.0,
        timeout_ms: 3_000.0,
        brownout_start_s: 0.0,
        brownout_end_s: 1.0,
        breaker: BreakerConfig {
            window: 1_000,
            min_calls: 1_000,
            ..BreakerConfig::default()
        },
        ..BrownoutParams::default()
    };
    let faults = FaultSchedule::window(FaultKind::Hang, 0.0, 60.0);
    let run = brownout::run(params, faults).await.expect("live run");
    for (name, live, summary) in [
        ("timeout only", &run.timeout_only, &run.comparison.timeout_only.summary),
        ("with breaker", &run.with_breaker, &run.comparison.with_breaker.summary),
    ] {
        assert!(
            summary.calls <= MAX_CALLS_IN_FLIGHT as u64,
            "{name}: {} calls sent into the hang, more than the pool of {MAX_CALLS_IN_FLIGHT}",
            summary.calls
        );
        assert!(live.not_sent >= 500, "{name}: only {} calls not sent", live.not_sent);
        assert_eq!(
            summary.calls + live.not_sent,
            1_000,
            "{name}: every call is counted once"
        );
        assert_eq!(summary.degraded, 1_000, "{name}: every page view degraded");
    }
}
