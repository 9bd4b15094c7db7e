//! The app's live drill (`oncall --live`) driven as the event loop drives it, with no
//! terminal: the screen's keys pull the runbook's levers while the twin runs on
//! 127.0.0.1 (the whole drill at 120 ms a drill second, the early end at the app's 400 ms),
//! ticks read its rows, and the drill ends by its clock. Goodput must come back and the
//! score must be the simulation's for the same levers, within margins; the twin's task
//! must be gone after.

use std::time::{Duration, Instant};

use resilience_lab::engine::oncall::sim::DRILL_S;
use resilience_lab::engine::oncall::{DrillSetup, OncallLever, builtin_incidents, run_drill, score_drill};
use resilience_lab::live::oncall::feed::{APP_MS_PER_DRILL_S, ROW_COMPLETE_AFTER_S};
use resilience_lab::tui::msg::{Msg, OncallMsg};
use resilience_lab::tui::screens::oncall::{OncallScreen, OncallStage};

const INCIDENT: &str = "inventory-brownout";
const SEED: u64 = 1;
/// The scale the whole drill plays at here: faster than the app's 400 ms so that CI's
/// real-time stage holds it (50 s, not 168 s), slow enough that a tick is half a drill
/// second, as the app's 250 ms frame tick is at 400 ms.
const TEST_MS_PER_DRILL_S: u64 = 120;
/// The drill's wall time, plus the warm-up and the tail the twin waits for soft calls.
const DRILL_DEADLINE: Duration = Duration::from_secs(DRILL_S as u64 * TEST_MS_PER_DRILL_S / 1_000 + 40);
/// How often the test ticks: half a drill second, as the app's frame tick is at its scale.
const TICK: Duration = Duration::from_millis(TEST_MS_PER_DRILL_S / 2);
/// Drill seconds the restored moment may differ from the sim's: the twin agrees to 1 s
/// (`oncall.rs`); a lever pulled by keys lands up to a tick late.
const RESTORED_WITHIN_S: f64 = 2.0;
/// Points the score may differ from the sim's (the restored moment moves 0.2 a second).
const SCORE_WITHIN: u32 = 5;

fn setup() -> DrillSetup {
    let incidents = builtin_incidents().expect("the shipped incidents parse");
    let incident = incidents
        .iter()
        .find(|i| i.name == INCIDENT)
        .expect("a shipped incident");
    DrillSetup::new(incident, SEED)
}

/// Pulls `lever` through the screen as a learner does: the picker, the lever's row, a reason.
fn pull_by_keys(screen: &mut OncallScreen, lever: OncallLever) {
    screen.update(Msg::Oncall(OncallMsg::Levers));
    let row = screen
        .play
        .offer()
        .iter()
        .position(|l| *l == lever)
        .unwrap_or_else(|| panic!("{lever} is on offer"));
    for _ in 0..row {
        screen.update(Msg::Down);
    }
    screen.update(Msg::Open);
    for c in "the runbook says so".chars() {
        screen.update(Msg::Type(c));
    }
    screen.update(Msg::Open);
    screen.update(Msg::Open);
    assert_eq!(screen.stage, OncallStage::Drill, "{lever} pulled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_drill_played_by_keys_restores_goodput_and_scores_as_the_sim() {
    let setup = setup();
    let incident = setup.incident.clone();
    let mut screen = OncallScreen::new_live_at(&incident, SEED, TEST_MS_PER_DRILL_S);
    let started = Instant::now();
    let mut runbook = setup.runbook().into_iter().peekable();
    let mut most_behind_s = 0;
    while screen.reveal.is_none() {
        assert!(started.elapsed() < DRILL_DEADLINE, "the live drill ends by its clock");
        tokio::time::sleep(TICK).await;
        screen.tick();
        let view = screen.play.view();
        if view.t_s > 20 && !view.ended {
            most_behind_s = most_behind_s.max(view.live.expect("a live view").behind_s);
        }
        while let Some(pull) = runbook.next_if(|p| p.t_s as usize <= view.t_s) {
            pull_by_keys(&mut screen, pull.lever);
        }
    }
    let reveal = screen.reveal.clone().expect("the reveal");
    assert_eq!(reveal.run.seconds.len(), DRILL_S, "every second counted");
    assert!(
        most_behind_s as f64 <= ROW_COMPLETE_AFTER_S + 2.0,
        "rows {most_behind_s} drill s behind the clock"
    );
    let levers: Vec<String> = reveal.run.levers.iter().map(|p| p.lever.to_string()).collect();
    let runbook: Vec<String> = setup.runbook().iter().map(|p| p.lever.to_string()).collect();
    assert_eq!(levers, runbook, "every runbook lever pulled, in order");
    let live = reveal.score.clone();
    let sim = score_drill(&run_drill(&setup, &reveal.run.levers));
    eprintln!(
        "{INCIDENT} seed {SEED} live app: restored {:?} (sim {:?}), right lever {:?}, attempts after {:.3} (sim {:.3}), score {} (sim {})",
        live.goodput_restored_s,
        sim.goodput_restored_s,
        live.right_lever_s,
        live.attempts_per_request_after,
        sim.attempts_per_request_after,
        live.score,
        sim.score
    );
    let (restored, right) = (
        live.goodput_restored_s.expect("goodput restored live"),
        live.right_lever_s.expect("the right lever pulled"),
    );
    assert!(restored - right <= 60.0, "goodput back within 60 s of the right lever");
    assert!(live.attempts_per_request_after <= 1.05);
    assert!(
        (restored - sim.goodput_restored_s.expect("restored in the sim")).abs() <= RESTORED_WITHIN_S,
        "restored like the sim"
    );
    assert!(live.score.abs_diff(sim.score) <= SCORE_WITHIN, "scored like the sim");
    let task = screen.stop_live().expect("the twin's task");
    tokio::time::timeout(Duration::from_secs(3), task)
        .await
        .expect("the twin's task has ended with the drill")
        .expect("the twin's task did not panic");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_drill_ended_early_stops_its_servers_at_once() {
    let incident = setup().incident;
    let mut screen = OncallScreen::new_live(&incident, SEED);
    let started = Instant::now();
    while screen.play.view().second.is_none() {
        assert!(started.elapsed() < Duration::from_secs(20), "rows arrive");
        tokio::time::sleep(TICK).await;
        screen.tick();
    }
    screen.update(Msg::Oncall(OncallMsg::End));
    screen.update(Msg::Oncall(OncallMsg::End));
    let reveal = screen.reveal.clone().expect("E reveals");
    assert!(reveal.live_cut_at_s.is_some(), "the reveal says what it counted");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let saved = screen
        .save(&dir.path().join("progress.toml"))
        .expect("the debrief saves");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(saved).expect("the debrief reads")).expect("JSON");
    assert_eq!(doc["mode"], "live");
    assert_eq!(doc["ms_per_drill_s"], APP_MS_PER_DRILL_S);
    assert_eq!(doc["measured_s"], reveal.live_cut_at_s.unwrap());
    let task = screen.stop_live().expect("the twin's task");
    tokio::time::timeout(Duration::from_secs(3), task)
        .await
        .expect("the twin stops within 3 s of the end")
        .expect("the twin's task did not panic");
}
