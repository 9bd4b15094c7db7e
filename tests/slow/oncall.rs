//! The on-call drill's live twin against its simulation: the same incident, seed and
//! runbook on 127.0.0.1 (1 drill s = 80 ms) and on the virtual clock give the same moment
//! goodput is back (within 1 drill second) and the same attempts per request after the
//! right lever (within 2%), issue #25's agreement.
//!
//! One incident, so that the test takes one drill's wall time (about 35 s): the hardest
//! that agrees, inventory-brownout, where breakers and three retry layers cycle until the
//! levers. Two drills played at once were tried and made the machine the experiment: the
//! baseline sagged under the double load, the bar with it, and receipt-store-slow, which
//! agrees alone (126 s against 126 s), read 124 s. All five incidents were measured by
//! hand, one at a time; the numbers and the two that do not agree to 1 s (payments-503,
//! receipt-store-storm, both restored mid-oscillation) are in the book's on-call chapter.

use resilience_lab::engine::oncall::{DrillScore, DrillSetup, builtin_incidents, run_drill, score_drill};
use resilience_lab::live::oncall::runner::{MS_PER_DRILL_S, run};

/// Drill seconds the restored moment may differ by.
const RESTORED_WITHIN_S: f64 = 1.0;
/// The share attempts per request may differ by.
const ATTEMPTS_WITHIN: f64 = 0.02;
const SEED: u64 = 1;

fn setup(name: &str) -> DrillSetup {
    let incidents = builtin_incidents().expect("the shipped incidents parse");
    let incident = incidents.iter().find(|i| i.name == name).expect("a shipped incident");
    DrillSetup::new(incident, SEED)
}

async fn live_score(name: &'static str) -> DrillScore {
    let setup = setup(name);
    let live = run(&setup, &setup.runbook(), MS_PER_DRILL_S)
        .await
        .expect("the drill's servers start on 127.0.0.1");
    score_drill(&live)
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_twin_agrees_with_the_simulation_on_the_brownouts_runbook() {
    let name = "inventory-brownout";
    let live = live_score(name).await;
    let setup = setup(name);
    let sim = score_drill(&run_drill(&setup, &setup.runbook()));
    if let Some(failure) = disagreement(name, &sim, &live) {
        panic!("the twin disagrees: {failure}");
    }
}
