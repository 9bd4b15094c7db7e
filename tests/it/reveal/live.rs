//! A live screen hides what an open prompt asks for, as the simulation does: the numbers a
//! finished live run shows are named numbers too, and the same rule masks them until the verdict.

use crate::common::{predict, render, visited_app};
use resilience_lab::engine::brownout::{self, BrownoutParams};
use resilience_lab::engine::fault::FaultKind;
use resilience_lab::engine::retry::{RetryPolicy, ScenarioParams, ScenarioResult};
use resilience_lab::learning::reveal;
use resilience_lab::tui::app::App;
use resilience_lab::tui::labs::breaker::BreakerLab;
use resilience_lab::tui::labs::breaker::live::BreakerSeries;
use resilience_lab::tui::labs::retry::RetryLab;
use resilience_lab::tui::labs::retry::live::{RetrySeries, RetryView};
use resilience_lab::tui::msg::Msg;

const SIZES: [(u16, u16); 2] = [(100, 30), (80, 24)];

/// Lab 2 live at step 3 (row C's cost), a counting run of policy C at p = 1 finished with
/// 1.11, as `tweak` leaves it.
fn lab2_live_policy_c(width: u16, height: u16, tweak: impl FnOnce(&mut RetrySeries)) -> App {
    let mut app = visited_app(width, height);
    for msg in [Msg::Down, Msg::Open, Msg::NextStep, Msg::NextStep, Msg::ToggleMode] {
        app.update(msg);
    }
    let mut series = RetrySeries {
        view: RetryView::Counting,
        policy: Some(RetryPolicy::TopOnlyBudget),
        policy_label: "C 4x1x1 10%".into(),
        attempts: vec![4, 1, 1],
        p: 1.0,
        actions: 2_000,
        finished: true,
        result: Some(ScenarioResult {
            params: ScenarioParams {
                p: 1.0,
                attempts: vec![4, 1, 1],
                budget: 0.1,
                actions: 2_000,
                seed: 42,
            },
            db_attempts: 2_220,
            db_attempts_per_action: 1.11,
            successes: 0,
            success_ratio: 0.0,
            sends_per_layer: vec![2_220, 2_220, 2_220],
        }),
        ..RetrySeries::default()
    };
    tweak(&mut series);
    crate::common::show_live::<RetryLab>(&mut app, 1, |live| live.series = Some(series));
    app
}

#[test]
fn lab2_live_hides_a_finished_runs_cost_until_the_verdict() {
    for (width, height) in SIZES {
        let mut app = lab2_live_policy_c(width, height, |_| {});
        let screen = render(&app);
        assert!(!screen.contains("1.11"), "step 3 asks for C's cost: {screen}");
        assert!(screen.contains("measured ?s3 db"), "{screen}");
        app.update(Msg::Predict);
        assert!(!render(&app).contains("1.11"), "{}", render(&app));
        app.update(Msg::Back);
        predict(&mut app, "1.1");
        let screen = render(&app);
        assert!(screen.contains("1.11"), "the verdict shows the run: {screen}");
        app.update(Msg::Back);
        assert!(render(&app).contains("measured 1.11 db"), "{}", render(&app));
    }
}

#[test]
fn lab2_live_hides_the_cost_so_far_while_it_runs() {
    let app = lab2_live_policy_c(100, 30, |series| {
        series.finished = false;
        series.result = None;
        series.latest.actions_done = 100;
        series.latest.db_attempts_of_finished = 111;
    });
    let screen = render(&app);
    assert!(screen.contains("so far ?s3 db") && !screen.contains("1.11"), "{screen}");
}

#[test]
fn lab3_live_masks_its_rows_live_and_sim_for_later_steps() {
    for (width, height) in SIZES {
        let mut app = visited_app(width, height);
        for msg in [Msg::Down, Msg::Down, Msg::Open, Msg::ToggleMode] {
            app.update(msg);
        }
        let mut series = BreakerSeries::new(BrownoutParams::default(), FaultKind::Hang);
        series.measured = Some(brownout::compare(&BrownoutParams::default()));
        series.running = false;
        crate::common::show_live::<BreakerLab>(&mut app, 2, |live| live.series = Some(series));
        let screen = render(&app);
        // Step 2 asks how many calls the breaker's caller sends to the sick dependency (44).
        let sick_44 = screen.lines().filter(|row| row.contains("with breaker")).any(|row| {
            let squeezed: String = row.split_whitespace().collect::<Vec<_>>().join(" ");
            squeezed.contains("sick= 44") || squeezed.contains("sick=44")
        });
        assert!(!sick_44, "{screen}");
        assert!(screen.contains("?s2"), "{screen}");
        assert!(
            screen.contains(reveal::LEGENDS[0]) || screen.contains(reveal::LEGENDS[1]),
            "{screen}"
        );
    }
}

#[test]
fn x_reveals_a_live_screens_masked_numbers_for_its_step() {
    let mut app = lab2_live_policy_c(100, 30, |_| {});
    assert!(!render(&app).contains("1.11"));
    app.update(Msg::Reveal);
    assert!(render(&app).contains("measured 1.11 db"), "{}", render(&app));
}
