//! Lab 1's fleet view: the Scenario slider applies its scenario exactly as the scenario key
//! `c` does, the top box never names a scenario the run is not, and at 80 columns the
//! header and the footer keep every number and key (review 4).

use crate::common::{render, visited_app as app};
use resilience_lab::content::LabId;
use resilience_lab::learning::metrics::{Metric, lookup};
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::{FleetMsg, Msg};
use resilience_lab::tui::slider::value_of;

/// Lab 1 opened, the fleet view on (the Scenario slider focused), its run revealed (step 4's
/// check hides it until answered), then `msgs`.
fn fleet(width: u16, height: u16, msgs: &[Msg]) -> App {
    let mut app = app(width, height);
    for msg in [Msg::Open, Msg::NextPage, Msg::Reveal].iter().chain(msgs) {
        app.update(*msg);
    }
    app
}

/// The named numbers of the fleet run on screen.
fn run(app: &App) -> Vec<Metric> {
    app.lab(LabId::Health).shown_metrics()
}

fn requests(app: &App, outcome: &str) -> Option<f64> {
    lookup(&run(app), &format!("fleet.requests.{outcome}"))
}

#[test]
fn the_scenario_slider_runs_the_scenario_the_key_picks() {
    let by_key = fleet(100, 30, &[Msg::Fleet(FleetMsg::Scenario); 4]);
    let by_end = fleet(100, 30, &[Msg::SliderMax]);
    let by_steps = fleet(100, 30, &[Msg::Step(1); 4]);
    assert_eq!(requests(&by_key, "failed"), Some(1166.0), "black-hole, by the key");
    assert_eq!(run(&by_end), run(&by_key), "End on the Scenario slider");
    assert_eq!(run(&by_steps), run(&by_key), "four steps on the Scenario slider");
    let screen = render(&by_end);
    assert!(screen.contains(" Fleet: black-hole "), "{screen}");
    assert!(screen.contains("database up"), "{screen}");
    assert!(!screen.contains("checks the database"), "{screen}");
}

#[test]
fn a_step_back_on_the_scenario_slider_applies_that_scenario() {
    // The review's path: c (readiness-checks-db), u, then -> and <- on Scenario.
    let msgs = [Msg::Fleet(FleetMsg::Scenario), Msg::Fleet(FleetMsg::DbUp), Msg::Step(1)];
    let app = fleet(100, 30, &msgs);
    let screen = render(&app);
    assert!(screen.contains(" Fleet: process-local "), "{screen}");
    assert!(screen.contains("/readyz process-local"), "{screen}");
    assert!(screen.contains("database down 30-90 s"), "{screen}");
    let mut back = app;
    back.update(Msg::Step(-1));
    let by_key = fleet(100, 30, &[Msg::Fleet(FleetMsg::Scenario)]);
    assert_eq!(
        run(&back),
        run(&by_key),
        "back to readiness-checks-db as the key sets it"
    );
    assert_eq!(requests(&back, "refused"), Some(530.0));
}

#[test]
fn the_title_says_what_was_changed_from_the_scenario() {
    let app = fleet(100, 30, &[Msg::Fleet(FleetMsg::Scenario), Msg::Fleet(FleetMsg::DbUp)]);
    let screen = render(&app);
    assert!(
        screen.contains(" Fleet: readiness-checks-db, changed: db up "),
        "{screen}"
    );
    let app = fleet(100, 30, &[Msg::SliderMax, Msg::NextSlider, Msg::Step(1)]);
    let screen = render(&app);
    assert!(screen.contains(" Fleet: black-hole, changed: 4 replicas "), "{screen}");
    assert_eq!(
        value_of(&app.lab(LabId::Health).pages[1].sliders, "fleet_replicas"),
        Some(4.0)
    );
}

#[test]
fn at_80x24_the_roll_and_its_key_stay_on_screen() {
    let app = fleet(80, 24, &[Msg::Fleet(FleetMsg::Roll)]);
    let screen = render(&app);
    assert!(screen.contains("roll at 30 s"), "{screen}");
    assert!(screen.contains("down 30-330 s"), "{screen}");
    assert!(screen.contains("o roll"), "{screen}");
    assert!(screen.contains("? help"), "{screen}");
}

/// After `o` the title names the change by words that read whole, with its value (it said
/// "changed: Rolling restart at", the slider's label, cut before its value).
#[test]
fn the_title_names_the_roll_whole_at_both_sizes() {
    for (width, height) in [(80, 24), (100, 30)] {
        let app = fleet(width, height, &[Msg::Fleet(FleetMsg::Roll)]);
        let screen = render(&app);
        assert!(
            screen.contains(" Fleet: liveness-checks-db, changed: roll at 30 s "),
            "{width}x{height}: {screen}"
        );
    }
}

/// At 80x24, with the run still hidden (so `x reveal` applies), the footer keeps every key
/// of the fleet view: it dropped `o roll` to make room.
#[test]
fn at_80x24_the_footer_keeps_every_key_while_x_applies() {
    let mut app = app(80, 24);
    for msg in [Msg::Open, Msg::NextPage] {
        app.update(msg);
    }
    let screen = render(&app);
    let footer = screen.lines().last().unwrap_or_default();
    for key in [
        "F ",
        "d/w/u ",
        "l/r ",
        "o roll",
        "c ",
        "m live",
        "p predict",
        "x reveal",
        "? help",
    ] {
        assert!(footer.contains(key), "{key:?} missing from {footer:?}");
    }
}
