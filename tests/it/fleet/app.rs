//! Lab 1's fleet view through the App (TestBackend + insta, colour off) at 100x30 and 80x24:
//! the liveness mistake with its restarts, the design flipped with none, and the help.

use crate::common::{render, visited_app as app};
use resilience_lab::content::LabId;
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::{FleetMsg, Msg};
use resilience_lab::tui::slider::value_of;

/// Lab 1 opened, the fleet view on, then `msgs`. Step 4's check is unanswered, so the fleet's
/// run is hidden until predicted: the tests about the run press `x` to see it
/// (tests/it/reveal/panels.rs has the rule).
fn fleet(width: u16, height: u16, msgs: &[Msg]) -> App {
    let mut app = app(width, height);
    for msg in [Msg::Open, Msg::NextPage].iter().chain(msgs) {
        app.update(*msg);
    }
    app
}

#[test]
fn fleet_liveness_checks_db_100x30() {
    // `x` shows step 4's run, at its check's settings; `o` twice moves a slider and back:
    // the sliders' run again.
    let app = fleet(
        100,
        30,
        &[Msg::Reveal, Msg::Fleet(FleetMsg::Roll), Msg::Fleet(FleetMsg::Roll)],
    );
    let screen = render(&app);
    // The sliders' run is step 5's and step 10's (the 300 s outage): their numbers wait.
    assert!(screen.contains("restarts 12 (first ?s5)"), "{screen}");
    assert!(screen.contains("no ready endpoint ?s10"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn fleet_liveness_checks_db_80x24() {
    insta::assert_snapshot!(render(&fleet(80, 24, &[])));
}

#[test]
fn fleet_process_local_100x30() {
    // `x` before the slider: after it, `x` would show step 4's run at its check's settings.
    let app = fleet(100, 30, &[Msg::Reveal, Msg::Fleet(FleetMsg::Liveness)]);
    let screen = render(&app);
    assert!(screen.contains("restarts 0 ·"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn fleet_rolling_restart_80x24() {
    // `x` before the sliders: after them, `x` would show step 4's run at its check's settings.
    let msgs = [&[Msg::Reveal], [Msg::Fleet(FleetMsg::Scenario); 3].as_slice()].concat();
    let app = fleet(80, 24, &msgs);
    let screen = render(&app);
    assert!(screen.contains("rolling-restart"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn fleet_help_100x30() {
    insta::assert_snapshot!(render(&fleet(100, 30, &[Msg::ToggleHelp])));
}

#[test]
fn the_fleet_sliders_leave_the_single_server_alone() {
    let mut app = fleet(100, 30, &[Msg::NextSlider, Msg::Step(1)]);
    let single_before: Vec<f64> = app.lab(LabId::Health).lab_sliders().iter().map(|s| s.value()).collect();
    app.update(Msg::NextPage);
    let lab = app.lab(LabId::Health);
    assert!(lab.later_page().is_none());
    let single_after: Vec<f64> = lab.lab_sliders().iter().map(|s| s.value()).collect();
    assert_eq!(single_before, single_after);
    assert_eq!(
        lab.lab_sliders().len(),
        6,
        "the single-server screen keeps its six sliders (the live port the sixth)"
    );
    assert_eq!(
        value_of(&lab.pages[1].sliders, "fleet_replicas"),
        Some(4.0),
        "the second fleet slider (replicas) went 3 -> 4"
    );
}

/// `p`, `[` and `]` keep to the view's own steps: Lab 1's single-server steps (1-3) on its
/// screen, the fleet steps (4 on) in the fleet view, where `F` opens at the first of them.
#[test]
fn each_view_offers_its_own_steps() {
    let mut app = app(100, 30);
    app.update(Msg::Open);
    for _ in 0..5 {
        app.update(Msg::NextStep);
    }
    assert_eq!(
        app.lab(LabId::Health).predict.step,
        2,
        "step 3 is the single server's last"
    );
    app.update(Msg::NextPage);
    assert_eq!(app.lab(LabId::Health).predict.step, 3, "the fleet view opens at step 4");
    app.update(Msg::PrevStep);
    assert_eq!(
        app.lab(LabId::Health).predict.step,
        3,
        "no single-server step in the fleet view"
    );
    app.update(Msg::NextStep);
    app.update(Msg::Predict);
    let screen = render(&app);
    assert!(screen.contains("Step 5 of"), "{screen}");
    app.update(Msg::Back);
    app.update(Msg::NextPage);
    assert_eq!(
        app.lab(LabId::Health).predict.step,
        0,
        "back on the single server: its step 1"
    );
    app.update(Msg::Predict);
    assert!(render(&app).contains("Step 1 of"));
}

/// A fleet prompt lists the fleet sliders that differ from its check's settings, not the
/// single server's; and while it is open the totals and the fleet are hidden.
#[test]
fn a_fleet_prompt_compares_the_fleet_sliders_and_hides_the_run() {
    let mut app = fleet(100, 30, &[Msg::Predict]);
    let screen = render(&app);
    let check =
        resilience_lab::learning::reveal::step_check(app.content.lab(LabId::Health), 3).expect("step 4 has a check");
    let shown = resilience_lab::tui::frame::predict::conditions(
        app.content.lab(LabId::Health),
        &check,
        app.lab(LabId::Health)
            .check_sliders(app.content.lab(LabId::Health), &check),
    );
    assert_eq!(
        shown.as_deref(),
        Some("Scored at the check's own settings: Database window end 90 s (slider 330 s)"),
        "the check's outage ends at 90 s, the fleet slider's at 330 s"
    );
    assert!(
        app.lab(LabId::Health).pages[1]
            .sliders
            .iter()
            .any(|s| s.spec.name == "fleet_db_end_s")
    );
    assert!(
        screen.contains("Scored at the check's own settings: Database window end 90"),
        "{screen}"
    );
    assert!(!screen.contains("Deregistration delay"), "{screen}");
    for answer in ["restarts 12", "RST", "fleet-0", "requests/s"] {
        assert!(!screen.contains(answer), "{answer} shows while predicting: {screen}");
    }
    for c in "3".chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
    let verdict = render(&app);
    // The verdict's run, at the check's settings (the outage ends at 90 s): 3 restarts.
    assert!(
        verdict.contains("restarts 3 ") && verdict.contains("fleet-0"),
        "{verdict}"
    );
    assert!(verdict.contains("Fleet at the check's settings"), "{verdict}");
    app.update(Msg::Back);
    let closed = render(&app);
    assert!(
        closed.contains("restarts 12") && closed.contains("Fleet: liveness-checks-db"),
        "closed, the view is the sliders' run again: {closed}"
    );
}
