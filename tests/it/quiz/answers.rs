//! A right answer is never marked wrong, and no answer is turned into another: a share typed
//! as a percentage, a time in the other unit, a capital choice letter, and a character the
//! number input does not take, in the app and in the plain `quiz` alike.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use resilience_lab::tui::app::App;
use resilience_lab::tui::keys::{self, Context};
use resilience_lab::tui::msg::Msg;

/// Lab 4 (the fourth home entry) at step `step` (1-based), a later visit.
fn lab4_at_step(step: usize) -> App {
    let mut app = crate::common::visited_app(80, 24);
    for msg in [Msg::Down, Msg::Down, Msg::Down, Msg::Open] {
        app.update(msg);
    }
    for _ in 1..step {
        app.update(Msg::NextStep);
    }
    app
}

/// Presses `text` key by key as the terminal would send it, through the key table.
fn press(app: &mut App, text: &str) {
    for c in text.chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        if let Some(msg) = app.msg_for(&Event::Key(key)) {
            app.update(msg);
        }
    }
}

#[test]
fn a_share_typed_as_a_percentage_is_right_and_says_how_it_was_read() {
    for (typed, read) in [
        ("20", "20, read as 20% = 0.2"),
        ("20%", "20%, read as 0.2"),
        ("20 %", "20%, read as 0.2"),
        ("0.2", "0.2"),
    ] {
        let mut app = lab4_at_step(4);
        app.update(Msg::Predict);
        press(&mut app, typed);
        let prompt = crate::common::render(&app);
        assert!(prompt.contains("(0 to 1)"), "step 4 asks the share:\n{prompt}");
        app.update(Msg::Open);
        let verdict = crate::common::render(&app);
        assert!(verdict.contains("✓ Right"), "{typed}:\n{verdict}");
        assert!(
            verdict.contains(&format!("You predicted {read}")),
            "{typed}:\n{verdict}"
        );
    }
}

#[test]
fn a_character_the_input_does_not_take_is_refused_out_loud() {
    // Lab 2 (the second home entry), step 1: 4^3 attempts.
    let mut app = crate::common::visited_app(80, 24);
    for msg in [Msg::Down, Msg::Open, Msg::Predict] {
        app.update(msg);
    }
    press(&mut app, "4^3");
    let screen = crate::common::render(&app);
    assert!(screen.contains("'^' is not taken"), "{screen}");
    assert!(!screen.contains("43█"), "4^3 must not become 43:\n{screen}");
    app.update(Msg::Open);
    let screen = crate::common::render(&app);
    assert!(!screen.contains("Why:"), "nothing is scored:\n{screen}");
    // Backspace takes the ^ back; 64 then scores.
    app.update(Msg::Erase);
    app.update(Msg::Erase);
    press(&mut app, "64");
    app.update(Msg::Open);
    assert!(crate::common::render(&app).contains("✓ Right"));
}

/// Letters that begin no unit of the answer are named as typed, not only at Enter (`5x` was
/// taken silently: unit words are letters too). A prefix of a unit (`5 att`) is not.
#[test]
fn letters_that_begin_no_unit_are_hinted_as_typed() {
    // Lab 2, step 1: a count of database attempts.
    let mut app = crate::common::visited_app(80, 24);
    for msg in [Msg::Down, Msg::Open, Msg::Predict] {
        app.update(msg);
    }
    press(&mut app, "5x");
    let screen = crate::common::render(&app);
    assert!(screen.contains("'x' is not a unit"), "{screen}");
    app.update(Msg::Erase);
    let screen = crate::common::render(&app);
    assert!(!screen.contains("is not a unit"), "Backspace clears it:\n{screen}");
    press(&mut app, " att");
    assert!(
        !crate::common::render(&app).contains("is not a unit"),
        "on its way to 'attempts'"
    );
}

#[test]
fn capital_letters_answer_a_choice_and_units_reach_the_number_input() {
    let at = |context, c| keys::msg_for(context, &KeyEvent::new(KeyCode::Char(c), KeyModifiers::SHIFT));
    assert_eq!(at(Context::QuizChoice, 'C'), Some(Msg::Answer(2)));
    assert_eq!(at(Context::QuizChoice, 'c'), Some(Msg::Answer(2)));
    assert_eq!(at(Context::QuizChoice, 'E'), Some(Msg::Answer(4)));
    for context in [Context::Predict, Context::QuizNumber] {
        for c in ['%', 'm', 's', ' ', '^'] {
            assert_eq!(at(context, c), Some(Msg::Type(c)), "{context:?} {c:?}");
        }
    }
    // Keys of their own stay theirs: `?` help, and `q` ends the quiz.
    assert_eq!(at(Context::QuizNumber, '?'), Some(Msg::ToggleHelp));
    assert_eq!(at(Context::QuizNumber, 'q'), Some(Msg::Back));
    // Outside an input a stray character still does nothing.
    assert_eq!(at(Context::Lab, '^'), None);
}

/// The plain `quiz` on `input`, its output.
fn plain_quiz(args: &[&str], input: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = crate::common::binary::run_with_input(&dir.path().join("progress.toml"), args, input);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("utf-8")
}

#[test]
fn the_plain_quiz_converts_a_time_and_refuses_a_unit_of_another_kind() {
    // Seed 3's first question asks when the breaker opens, in s: 10.69 s (a session draws one
    // question per fact, so this is the quiz's only question on that opening).
    let out = plain_quiz(
        &["quiz", "--lab", "breaker", "--seed", "3", "--count", "1"],
        "10690 requests\n4^3\n10690 ms\n",
    );
    assert!(
        out.contains("'requests' is not a unit of this answer; allowed: a number in s, or with its unit: s or ms"),
        "{out}"
    );
    assert!(out.contains("'4^3' is not one number"), "{out}");
    assert!(
        out.contains("Right. You typed 10690 ms, read as 10.69 s. The answer: 10.69 s"),
        "{out}"
    );
    assert!(out.contains("Score: 1 of 1 right"), "{out}");
}

#[test]
fn the_plain_quiz_takes_a_letter_in_either_case_and_with_its_bracket() {
    // Seed 1 asks a choice question first. Every answer form below is a letter; none is asked again.
    for answer in ["a", "A", "a)", "(a)", "a."] {
        let out = plain_quiz(
            &["quiz", "--topic", "health", "--seed", "1", "--count", "1"],
            &format!("{answer}\n"),
        );
        assert!(!out.contains("type one of"), "{answer}:\n{out}");
        assert!(out.contains("Score: "), "{answer}:\n{out}");
    }
}

/// Lab 4's results line names the second it shows and every outcome of it, so the parts add
/// up to what was offered and agree with the verdict beside it (20% refused; the throttle's
/// refusals included).
#[test]
fn lab4_results_show_the_steady_second_whole() {
    let mut app = lab4_at_step(4);
    app.update(Msg::Predict);
    press(&mut app, "0.2");
    app.update(Msg::Open);
    let verdict = crate::common::render(&app);
    assert!(
        verdict.contains("last second (10 of 10 s): offered 2500 = goodput 2000 + refused 500"),
        "{verdict}"
    );
    assert!(verdict.contains("10 s mean: goodput 1990/s"), "{verdict}");
    let mut app = lab4_at_step(7);
    app.update(Msg::Predict);
    press(&mut app, "0.33");
    app.update(Msg::Open);
    let verdict = crate::common::render(&app);
    assert!(
        verdict.contains("offered 6000 = goodput 2000 + refused 2078 + throttled 1922"),
        "{verdict}"
    );
}

/// Lab 4 step 5's verdict is about the bulkhead: its view, with the 160 threads it counts,
/// is the one on screen (it was the curves, showing goodput 995).
#[test]
fn lab4_bulkhead_verdict_shows_the_bulkhead() {
    let mut app = lab4_at_step(5);
    app.update(Msg::Predict);
    press(&mut app, "160");
    app.update(Msg::Open);
    let verdict = crate::common::render(&app);
    assert!(verdict.contains("✓ Right"), "{verdict}");
    assert!(
        verdict.contains("v: bulkhead") || verdict.contains("v view: bulkhead"),
        "{verdict}"
    );
    assert!(verdict.contains("160"), "the 160 it scored is drawn:\n{verdict}");
    assert!(!verdict.contains("goodput/s against offered/s"), "{verdict}");
}

/// Lab 4 step 6's verdict is about a hanging dependency capped by a 500 ms timeout: the slots
/// view draws that run (X holds the 50 slots it scored), not step 5's bulkhead (X's pool 40).
#[test]
fn lab4_timeout_verdict_draws_the_hang_it_scored() {
    let mut app = lab4_at_step(6);
    app.update(Msg::Predict);
    press(&mut app, "50");
    app.update(Msg::Open);
    let verdict = crate::common::render(&app);
    assert!(verdict.contains("✓ Right"), "{verdict}");
    assert!(
        verdict.contains("X holds 50"),
        "the 50 slots it scored are drawn:\n{verdict}"
    );
    assert!(!verdict.contains("X's pool 40"), "not the bulkhead run:\n{verdict}");
}
