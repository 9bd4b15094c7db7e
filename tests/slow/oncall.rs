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
//! payments-503 is the close one: the sim's own breaker window comes within two failures
//! of a trip in the onset's second (8 in 20 at 110.5 to 110.9 s) and within one at 129 s
//! (9 in 20), so the order the twin's window learns outcomes in decides whether it trips.
//! It read 134 s and 136 s in two runs of 45 (the sim's 129 s) while outcomes reached the
//! twin's breaker as they came: the live call's own with its answer (50 to 135 ms late on
//! a loaded machine), the stand-ins' each from a timer of its own (1 ms ticks, 12.5 drill
//! ms, longer than the sim's 10 ms between requests), and a payments call planned before
//! the previous checkout's (it starts when its inventory call ends); and its half-open
//! trials were live calls only, so it closed 0.03 to 0.5 s after the sim's. Now each
//! outcome waits in the breaker's queue for its sim moment and an ask at a sim request's
//! arrival learns those due by then, in order; the dependency asks for the stand-ins at
//! their arrivals; a call asks once the checkouts before it have planned theirs
//! (`live::oncall::breaker_feed`). Measured (a release build, `run oncall --live`): the
//! twin's payments breaker trips at 111.27 s and 119.47 s and closes the second time at
//! 124.59 s (the sim's 111.3, 119.5 and 124.6; two runs before the ordering wait, the same
//! to the 10 ms); 20 runs before the ordering wait, at a load average of 5.3 to 8.9, read
//! 129 s 19 times and 134 s once; 30 runs with it, at 3.2 to 8.0, 129 s every time. This
//! test, in a debug build, read 129 s eight times (three beside the whole default suite)
//! and 128 s twice, the two while the whole default suite and a second drill ran beside
//! it (load 3.5 to 8): within the second, at its edge under that load. So `.ci/run` runs it
//! alone, after the other real-time tests, tmux and the browser, not beside them. What moves
//! the restored moment by that second under load is not measured yet.

use resilience_lab::engine::oncall::{DrillRun, DrillScore, DrillSetup, builtin_incidents, run_drill, score_drill};
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

/// The faulty dependency's seconds side by side, from just before the onset to past the
/// later restored moment (goodput; its attempts, errors, refusals and breaker word), so
/// that a disagreement shows where the two runs parted.
fn rows_side_by_side(sim: &DrillRun, live: &DrillRun, sim_score: &DrillScore, live_score: &DrillScore) {
    let dep = sim.setup.dependency;
    let from = (sim.setup.onset_s as usize).saturating_sub(2);
    let restored = [sim_score.goodput_restored_s, live_score.goodput_restored_s]
        .into_iter()
        .flatten()
        .fold(sim.setup.onset_s, f64::max);
    let to = (restored as usize + 5).min(sim.seconds.len().min(live.seconds.len()));
    eprintln!("   t | sim goodput attempts errors refused breaker | live goodput attempts errors refused breaker");
    for t in from..to {
        let side = |run: &DrillRun| {
            let second = &run.seconds[t];
            let d = second
                .deps
                .iter()
                .find(|d| d.dep == dep)
                .expect("every dependency has a row");
            format!(
                "{:>11} {:>8} {:>6} {:>7} {:<9}",
                second.goodput, d.attempts, d.errors, d.not_permitted, d.breaker
            )
        };
        eprintln!("{t:>4} | {} | {}", side(sim), side(live));
    }
}

/// Plays `name`'s runbook live and in the simulation; panics if they disagree (the rows
/// of both printed first).
async fn agrees_on_the_runbook(name: &'static str) {
    let setup = setup(name);
    let live = run(&setup, &setup.runbook(), MS_PER_DRILL_S)
        .await
        .expect("the drill's servers start on 127.0.0.1");
    let sim = run_drill(&setup, &setup.runbook());
    let (sim_score, live_score) = (score_drill(&sim), score_drill(&live));
    if let Some(failure) = disagreement(name, &sim_score, &live_score) {
        rows_side_by_side(&sim, &live, &sim_score, &live_score);
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
