//! Lab 5 live on 127.0.0.1:0 against the simulation: each hop's received budget on the
//! time-scaled deadline chain, in real milliseconds.

use resilience_lab::engine::budget::deadline::{self, DeadlineParams};
use resilience_lab::live::budget::chain::run_deadline;
use resilience_lab::live::budget::runner::DEADLINE_SCALE;

/// Real milliseconds each hop's received budget may differ from the simulation's (the
/// issue's "within 5 ms, scaled": 5 real ms are 100 model ms at 1:20).
const HOP_TOLERANCE_REAL_MS: f64 = 5.0;

/// Five runs of the default chain: every hop receives the simulation's budget within
/// [`HOP_TOLERANCE_REAL_MS`]; the worst gap of each run is printed (`--nocapture`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_hop_receives_the_simulations_budget_within_5_ms() {
    let params = DeadlineParams::default();
    let sim = deadline::run(&params);
    for run in 0..5 {
        let live = run_deadline(&params, DEADLINE_SCALE).await.expect("the chain runs");
        let gaps: Vec<f64> = live
            .hops
            .iter()
            .zip(&sim.hops)
            .map(|(l, s)| {
                let (l, s) = (l.received_ms.expect("propagated"), s.received_ms.expect("propagated"));
                (l as f64 - s as f64).abs() / DEADLINE_SCALE
            })
            .collect();
        eprintln!("run {run}: received gap per hop, real ms: {gaps:?}");
        for gap in gaps {
            assert!(gap <= HOP_TOLERANCE_REAL_MS, "run {run}: {gap} real ms: {live:?}");
        }
    }
}
