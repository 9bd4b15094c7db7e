//! A guided step without a check (Lab 1's step 3): `p` says there is nothing to predict
//! instead of asking, Enter or `]` marks it done, and at the single server's last step the
//! screen says the lab goes on in the fleet view (key F), in the sim and on the live
//! screen's Next panel.

use crate::common::{render, visited_app};
use resilience_lab::content::LabId;
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::Msg;

/// Lab 1 at its step 3, "No deregistration delay" (steps 1 and 2 have checks: `]` passes them).
fn at_step_3(width: u16, height: u16) -> App {
    let mut app = visited_app(width, height);
    app.update(Msg::Open);
    app.update(Msg::NextStep);
    app.update(Msg::NextStep);
    assert_eq!(app.lab(LabId::Health).predict.step, 2);
    app
}

fn step_3_done(app: &App) -> bool {
    app.progress
        .labs
        .get("health")
        .is_some_and(|lab| lab.steps_done.iter().any(|title| title == "No deregistration delay"))
}

#[test]
fn p_on_a_step_without_a_check_says_so_and_enter_passes_it() {
    let mut app = at_step_3(80, 24);
    app.update(Msg::Predict);
    let screen = render(&app);
    assert!(screen.contains("nothing to predict"), "{screen}");
    assert!(!screen.contains("Your prediction"), "no prompt: {screen}");
    assert!(!step_3_done(&app));
    app.update(Msg::Open);
    assert!(step_3_done(&app), "Enter marks it done");
    let screen = render(&app);
    // The note wraps at 80 columns.
    assert!(
        screen.contains("Step 3 done. Steps 4–11 are in the fleet") && screen.contains("press F"),
        "the screen says where the lab goes on: {screen}"
    );
    // Nothing follows here: Enter closes the note, and the footer says so (it said "next step").
    assert!(
        screen.contains("Enter close") && screen.contains("F go there") && !screen.contains("Enter next step"),
        "its keys in the footer: {screen}"
    );
    app.update(Msg::Open);
    assert!(!app.lab(LabId::Health).predict.is_open(), "Enter closes the note");
    // F from the note (it says press F) goes to the fleet view, at its first step.
    app.update(Msg::NextStep);
    app.update(Msg::NextPage);
    assert!(app.lab(LabId::Health).later_page().is_some());
    assert_eq!(app.lab(LabId::Health).predict.step, 3);
}

#[test]
fn bracket_passes_the_last_single_server_step_and_names_the_fleet_view() {
    let mut app = at_step_3(100, 30);
    app.update(Msg::NextStep);
    assert!(step_3_done(&app), "] marks it done");
    let screen = render(&app);
    assert!(screen.contains("Steps 4–11 are in the fleet view: press F"), "{screen}");
    app.update(Msg::Back);
    app.update(Msg::ToggleLesson);
    let screen = render(&app);
    assert!(
        screen.contains("(F: fleet view)"),
        "the lesson marks the fleet's steps: {screen}"
    );
}

#[test]
fn the_live_next_panel_does_not_ask_for_a_prediction_on_step_3() {
    let mut app = at_step_3(100, 30);
    app.update(Msg::ToggleMode);
    let screen = render(&app);
    assert!(!screen.contains("p predicts"), "{screen}");
    assert!(
        screen.contains("step 3: nothing to predict, ] marks it done."),
        "{screen}"
    );
    assert!(screen.contains("press F"), "{screen}");
}
