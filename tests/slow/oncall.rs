//! The on-call drill's live twin against its simulation: every shipped incident's runbook
//! at seed 1, on 127.0.0.1 (1 drill s = 80 ms) and on the virtual clock, gives the same
//! moment goodput is back (within 1 drill second) and the same attempts per request after
//! the right lever (within 2%), issue #25's agreement.
//!
//! One test an incident, each one drill's wall time (about 35 s, five in about 3 minutes),
//! so that a failure names its incident and `--test-threads=1` keeps them apart: two
//! drills played at once make the machine the experiment (the baseline sags under the
//! double load, the bar with it). A test checks that no shipped incident is left out.
//!
//! payments-503's test is ignored, and says why: the twin counts goodput by its own
//! requests, one in five of the sim's, each counted five times, and that payments-503's
//! restored moment cannot be read to 1 s through a one-in-five count. The sim's own
//! requests, counted one in five the way the twin counts, read 128 to 131 s for the five
//! ways of choosing the fifth, against the whole count's 129 s (the other four incidents
//! read the same second for every fifth). Run it with `--ignored`.
use resilience_lab::engine::oncall::{DrillScore, DrillSetup, builtin_incidents, run_drill, score_drill};
use resilience_lab::live::oncall::runner::{MS_PER_DRILL_S, run};

/// Drill seconds the restored moment may differ by.
const RESTORED_WITHIN_S: f64 = 1.0;
/// The share attempts per request may differ by.
const ATTEMPTS_WITHIN: f64 = 0.02;
const SEED: u64 = 1;
/// The incidents played here: every shipped one.
const PLAYED: [&str; 5] = [
    "inventory-brownout",
    "payments-503",
    "receipt-store-slow",
    "receipt-store-storm",
    "recommendations-hang",
];

fn setup(name: &str) -> DrillSetup {
    let incidents = builtin_incidents().expect("the shipped incidents parse");
    let incident = incidents.iter().find(|i| i.name == name).expect("a shipped incident");
    DrillSetup::new(incident, SEED)
}

/// What agreement failed, or None; both scores printed either way.
fn disagreement(name: &str, sim: &DrillScore, live: &DrillScore) -> Option<String> {
    let both = format!(
        "{name} seed {SEED}: restored sim {:?} live {:?}; attempts per request after sim {:.3} live {:.3}; score sim {} live {}",
        sim.goodput_restored_s,
        live.goodput_restored_s,
        sim.attempts_per_request_after,
        live.attempts_per_request_after,
        sim.score,
        live.score
    );
    eprintln!("{both}");
    let restored = match (sim.goodput_restored_s, live.goodput_restored_s) {
        (Some(s), Some(l)) => (s - l).abs() <= RESTORED_WITHIN_S,
        (None, None) => true,
        _ => false,
    };
    let attempts = (live.attempts_per_request_after - sim.attempts_per_request_after).abs()
        <= ATTEMPTS_WITHIN * sim.attempts_per_request_after;
    (!restored || !attempts)
        .then(|| format!("{both} (allowed: restored within {RESTORED_WITHIN_S} drill s, attempts within 2%)"))
}

/// Plays `name`'s runbook live and in the simulation; panics if they disagree.
async fn agrees_on_the_runbook(name: &'static str) {
    let setup = setup(name);
    let live = run(&setup, &setup.runbook(), MS_PER_DRILL_S)
        .await
        .expect("the drill's servers start on 127.0.0.1");
    let sim = score_drill(&run_drill(&setup, &setup.runbook()));
    if let Some(failure) = disagreement(name, &sim, &score_drill(&live)) {
        panic!("the twin disagrees: {failure}");
    }
}

#[test]
fn every_shipped_incident_is_played_live() {
    let mut shipped: Vec<String> = builtin_incidents()
        .expect("the shipped incidents parse")
        .into_iter()
        .map(|i| i.name)
        .collect();
    shipped.sort();
    assert_eq!(shipped, PLAYED, "add the new incident's test below");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_twin_agrees_with_the_simulation_on_the_brownouts_runbook() {
    agrees_on_the_runbook("inventory-brownout").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a one-in-five goodput count reads payments-503's restored moment 128 to 131 s, the sim 129 s: see the module's note"]
async fn the_live_twin_agrees_with_the_simulation_on_the_payments_503_runbook() {
    agrees_on_the_runbook("payments-503").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_twin_agrees_with_the_simulation_on_the_slow_receipt_stores_runbook() {
    agrees_on_the_runbook("receipt-store-slow").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_twin_agrees_with_the_simulation_on_the_receipt_store_storms_runbook() {
    agrees_on_the_runbook("receipt-store-storm").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_twin_agrees_with_the_simulation_on_the_recommendations_hangs_runbook() {
    agrees_on_the_runbook("recommendations-hang").await;
}
