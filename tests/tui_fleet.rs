//! Lab 1's fleet view through the App (TestBackend + insta, colour off) at 100x30 and 80x24:
//! the liveness mistake with its restarts, the design flipped with none, and the help.

mod common;

use common::{render, visited_app as app};
use resilience_lab::content::LabId;
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::{FleetMsg, Msg};

/// Lab 1 opened, the fleet view on, then `msgs`.
fn fleet(width: u16, height: u16, msgs: &[Msg]) -> App {
    let mut app = app(width, height);
    for msg in [Msg::Open, Msg::ToggleFleet].iter().chain(msgs) {
        app.update(*msg);
    }
    app
}

#[test]
fn fleet_liveness_checks_db_100x30() {
    let app = fleet(100, 30, &[]);
    let screen = render(&app);
    assert!(screen.contains("restarts 12 (first 61.0 s)"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn fleet_liveness_checks_db_80x24() {
    insta::assert_snapshot!(render(&fleet(80, 24, &[])));
}

#[test]
fn fleet_process_local_100x30() {
    let app = fleet(100, 30, &[Msg::Fleet(FleetMsg::Liveness)]);
    let screen = render(&app);
    assert!(screen.contains("restarts 0 ·"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn fleet_rolling_restart_80x24() {
    let msgs = [Msg::Fleet(FleetMsg::Scenario); 3];
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
    let single_before: Vec<f64> = app.lab(LabId::Health).sliders.iter().map(|s| s.value()).collect();
    app.update(Msg::ToggleFleet);
    let lab = app.lab(LabId::Health);
    assert!(!lab.fleet_showing());
    let single_after: Vec<f64> = lab.sliders.iter().map(|s| s.value()).collect();
    assert_eq!(single_before, single_after);
    assert_eq!(lab.sliders.len(), 5, "the single-server screen keeps its five sliders");
    let panel = lab.fleet.as_ref().expect("Lab 1's fleet view");
    assert_eq!(
        panel.run.params.replicas, 4,
        "the second fleet slider (replicas) went 3 -> 4"
    );
}
