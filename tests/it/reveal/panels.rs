//! Predict, then observe, before any prompt opens: on a simulated lab screen whose current
//! step has a check not yet answered, the panels with the run it asks about are hidden; they
//! show once it is answered (right or not), after `x` (that step only, nothing saved), on a
//! step without a check, and on a live screen (which masks numbers, never a panel whole).
//! Through the app's messages, at 80x24 and 100x30.

use crate::common::{render, visited_app};
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::Msg;

const SIZES: [(u16, u16); 2] = [(80, 24), (100, 30)];
/// What the hidden panels say, at every size (the Results panel has the whole line).
const PLACEHOLDER: &str = "hidden until you predict (p) or reveal (x)";

fn run(mut app: App, msgs: &[Msg]) -> App {
    for msg in msgs {
        app.update(*msg);
    }
    app
}

fn type_in(app: &mut App, typed: &str) {
    for c in typed.chars() {
        app.update(Msg::Type(c));
    }
}

/// Predicts `typed` for the current step, then closes the verdict.
fn predict(app: &mut App, typed: &str) {
    app.update(Msg::Predict);
    type_in(app, typed);
    app.update(Msg::Open);
    app.update(Msg::Back);
}

fn lab2(width: u16, height: u16) -> App {
    run(visited_app(width, height), &[Msg::Down, Msg::Open])
}

fn lab3_step2(width: u16, height: u16) -> App {
    run(
        visited_app(width, height),
        &[Msg::Down, Msg::Down, Msg::Open, Msg::NextStep],
    )
}

fn lab4(width: u16, height: u16) -> App {
    run(
        visited_app(width, height),
        &[Msg::Down, Msg::Down, Msg::Down, Msg::Open],
    )
}

fn footer(screen: &str) -> &str {
    screen.lines().last().unwrap_or_default()
}

#[test]
fn an_unanswered_check_hides_its_answer_at_the_defaults() {
    for (width, height) in SIZES {
        let screen = render(&lab2(width, height));
        for answer in [
            "64.00",
            "1.11",
            "db attempts/action",
            "attempts/action, log",
            "db/action",
        ] {
            assert!(!screen.contains(answer), "{answer} at {width}x{height}:\n{screen}");
        }
        assert!(screen.contains(PLACEHOLDER), "{width}x{height}:\n{screen}");
        assert!(footer(&screen).contains("x reveal"), "{width}x{height}:\n{screen}");
        // The sliders still show and move while the run waits.
        assert!(screen.contains("Failure probability"), "{screen}");
        let moved = render(&run(lab2(width, height), &[Msg::Step(-1)]));
        assert!(moved.contains("0.95") && moved.contains(PLACEHOLDER), "{moved}");

        let screen = render(&lab3_step2(width, height));
        for answer in ["sick=", "10.29", "breaker transitions"] {
            assert!(!screen.contains(answer), "{answer} at {width}x{height}:\n{screen}");
        }
        assert!(screen.contains(PLACEHOLDER), "{screen}");

        // Lab 4: the results and the throttle's panel (its step 7 asks the rejection
        // probability) are hidden, in every view `v` picks (the metastable model's too).
        let mut app = lab4(width, height);
        for _ in 0..4 {
            let screen = render(&app);
            for answer in ["goodput", "queue max", "throttle", "bulkhead"] {
                assert!(!screen.contains(answer), "{answer} at {width}x{height}:\n{screen}");
            }
            app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::ToggleView));
        }

        // Lab 1's sim: the driver's outcome and its timeline.
        let screen = render(&run(visited_app(width, height), &[Msg::Open]));
        assert!(!screen.contains("simulated driver"), "{width}x{height}:\n{screen}");
        assert_eq!(screen.matches("hidden until you predict").count(), 2, "{screen}");
    }
}

#[test]
fn an_answer_right_or_not_shows_the_run() {
    for (width, height) in SIZES {
        let mut app = lab2(width, height);
        predict(&mut app, "64");
        let screen = render(&app);
        assert!(screen.contains("64.00") && !screen.contains(PLACEHOLDER), "{screen}");
        assert!(!footer(&screen).contains("x reveal"), "{screen}");

        let mut app = lab3_step2(width, height);
        predict(&mut app, "5");
        let progress = &app.progress.labs["breaker"];
        assert!(progress.checks_passed.is_empty(), "5 is not right: {progress:?}");
        let screen = render(&app);
        assert!(screen.contains("sick=") && !screen.contains(PLACEHOLDER), "{screen}");
    }
}

#[test]
fn x_shows_the_run_for_that_step_only_and_saves_nothing() {
    for (width, height) in SIZES {
        let mut app = lab2(width, height);
        app.update(Msg::Reveal);
        let screen = render(&app);
        // Step 1's answer shows; row C's 1.11 is step 2's, which stays masked.
        assert!(screen.contains("64.00") && !screen.contains("1.11"), "{screen}");
        assert!(screen.contains("?s2"), "{screen}");
        assert!(
            !footer(&screen).contains("x reveal"),
            "nothing left to reveal: {screen}"
        );
        let retry = &app.progress.labs["retry"];
        assert!(
            retry.check_answers.is_empty() && retry.checks_passed.is_empty(),
            "revealing is not answering: {retry:?}"
        );
        // Step 2 has a check of its own: hidden again; back on step 1, still revealed.
        app.update(Msg::NextStep);
        assert!(render(&app).contains(PLACEHOLDER));
        app.update(Msg::PrevStep);
        assert!(render(&app).contains("64.00"));
        // The check can still be predicted, hidden while the prompt is open, scored as usual.
        app.update(Msg::Predict);
        let prompt = render(&app);
        assert!(
            !prompt.contains("64.00") && prompt.contains("hidden while you predict"),
            "{prompt}"
        );
        type_in(&mut app, "64");
        app.update(Msg::Open);
        assert!(render(&app).contains("Right"));
        assert_eq!(app.progress.labs["retry"].checks_passed, ["retry-predict-layered"]);
    }
}

#[test]
fn a_step_without_a_check_and_a_live_screen_show_everything() {
    for (width, height) in SIZES {
        // Lab 3's step 1 has no check.
        let screen = render(&run(visited_app(width, height), &[Msg::Down, Msg::Down, Msg::Open]));
        assert!(screen.contains("sick=") && !screen.contains(PLACEHOLDER), "{screen}");
        assert!(!footer(&screen).contains("x reveal"), "{screen}");
        // Lab 1's step 3 neither.
        let screen = render(&run(
            visited_app(width, height),
            &[Msg::Open, Msg::NextStep, Msg::NextStep],
        ));
        // Another step's number may wait as its placeholder (the legend says so); no panel is hidden.
        assert!(
            !screen.contains(PLACEHOLDER) && !screen.contains("hidden while"),
            "{screen}"
        );
        // Live, nothing shows before the learner starts a run: nothing is hidden either.
        for lab in [
            &[Msg::Open, Msg::ToggleMode][..],
            &[Msg::Down, Msg::Open, Msg::ToggleMode],
            &[Msg::Down, Msg::Down, Msg::Open, Msg::NextStep, Msg::ToggleMode],
            &[Msg::Down, Msg::Down, Msg::Down, Msg::Open, Msg::ToggleMode],
        ] {
            let screen = render(&run(visited_app(width, height), lab));
            // No panel waits whole (the sim's numbers beside the live run are masked one by one).
            assert!(
                !screen.contains(PLACEHOLDER) && !screen.contains("hidden while"),
                "{screen}"
            );
            assert!(!footer(&screen).contains("x reveal"), "{screen}");
        }
    }
}

#[test]
fn the_fleet_view_hides_its_totals_and_bands_until_predicted() {
    for (width, height) in SIZES {
        let mut app = run(visited_app(width, height), &[Msg::Open, Msg::NextPage]);
        let screen = render(&app);
        for answer in ["restarts", "RST", "fleet-0", "requests/s"] {
            assert!(!screen.contains(answer), "{answer} at {width}x{height}:\n{screen}");
        }
        assert!(screen.contains(PLACEHOLDER), "{screen}");
        assert!(footer(&screen).contains("x reveal"), "{screen}");
        assert!(footer(&screen).contains("? help"), "{screen}");
        // `x` shows step 4's run, the one its verdict would: at its check's own settings.
        app.update(Msg::Reveal);
        let screen = render(&app);
        assert!(screen.contains("Fleet at the check's settings"), "{screen}");
        assert!(screen.contains("restarts 3 ") && screen.contains("fleet-0"), "{screen}");
        // Step 5 waits for its own prediction; a wrong one shows its run after the verdict.
        app.update(Msg::NextStep);
        assert!(!render(&app).contains("restarts 3 "));
        predict(&mut app, "1");
        assert!(render(&app).contains("fleet-0"));
        // The fleet's live view starts nothing by itself: no panel waits whole there (the sim
        // beside it masks the numbers steps ask for, one by one).
        app.update(Msg::NextStep);
        assert!(render(&app).contains(PLACEHOLDER));
        app.update(Msg::ToggleMode);
        assert!(!render(&app).contains(PLACEHOLDER), "{}", render(&app));
    }
}

#[test]
fn the_help_lists_x_while_it_reveals_something() {
    let mut app = lab2(100, 30);
    app.update(Msg::ToggleHelp);
    assert!(render(&app).contains("show the run without predicting"));
    app.update(Msg::ToggleHelp);
    app.update(Msg::Reveal);
    app.update(Msg::ToggleHelp);
    assert!(!render(&app).contains("show the run without predicting"));
    let mut app = run(visited_app(100, 30), &[Msg::Open, Msg::NextPage, Msg::ToggleHelp]);
    assert!(render(&app).contains("show the run without predicting"));
    app.update(Msg::ToggleHelp);
    app.update(Msg::Reveal);
    app.update(Msg::ToggleHelp);
    assert!(!render(&app).contains("show the run without predicting"));
}
