//! Whole-screen snapshots of the terminal app (TestBackend + insta) at 100x30 and 80x24.
//!
//! Colour is off so that a snapshot is the text a learner reads; the theme's roles are
//! covered by the views using them.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use resilience_lab::cli::ThemeName;
use resilience_lab::content::{Content, QuestionKind};
use resilience_lab::tui::app::{App, Msg};
use resilience_lab::tui::theme::Theme;

fn app(width: u16, height: u16) -> App {
    let content = Content::load(None).expect("the built-in labs load");
    App::new(
        content,
        Theme::new(ThemeName::Dark, false),
        Rect::new(0, 0, width, height),
    )
}

fn render(app: &App) -> String {
    let area = app.area;
    let mut terminal = Terminal::new(TestBackend::new(area.width, area.height)).expect("test terminal");
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .expect("draw");
    terminal.backend().to_string()
}

/// The app at `width`x`height` after `msgs`.
fn screen(width: u16, height: u16, msgs: &[Msg]) -> String {
    let mut app = app(width, height);
    for msg in msgs {
        app.update(*msg);
    }
    render(&app)
}

const LAB2: &[Msg] = &[Msg::Down, Msg::Open];
const LAB3: &[Msg] = &[Msg::Down, Msg::Down, Msg::Open];

#[test]
fn home_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[]));
}

#[test]
fn home_80x24() {
    insta::assert_snapshot!(screen(80, 24, &[]));
}

#[test]
fn lab2_100x30() {
    insta::assert_snapshot!(screen(100, 30, LAB2));
}

#[test]
fn lab2_80x24() {
    insta::assert_snapshot!(screen(80, 24, LAB2));
}

#[test]
fn lab3_100x30() {
    insta::assert_snapshot!(screen(100, 30, LAB3));
}

#[test]
fn lab3_80x24() {
    insta::assert_snapshot!(screen(80, 24, LAB3));
}

#[test]
fn lab1_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[Msg::Open]));
}

#[test]
fn help_overlay_on_lab3_100x30() {
    let mut msgs = LAB3.to_vec();
    msgs.push(Msg::ToggleHelp);
    insta::assert_snapshot!(screen(100, 30, &msgs));
}

#[test]
fn too_small() {
    let text = screen(79, 24, LAB3);
    assert!(text.contains("terminal too small: needs 80x24, have 79x24"), "{text}");
    insta::assert_snapshot!(screen(60, 10, &[]));
}

#[test]
fn resizing_to_too_small_and_back_redraws_the_lab() {
    let mut app = app(100, 30);
    for msg in LAB3 {
        app.update(*msg);
    }
    app.update(Msg::Resize(50, 12));
    assert!(render(&app).contains("terminal too small: needs 80x24, have 50x12"));
    app.update(Msg::Resize(100, 30));
    assert!(render(&app).contains("with breaker  calls= 2911 to sick=   44"));
}

// The learning screens: quiz, book, lesson with the chapter, predictions.

const QUIZ: &[Msg] = &[Msg::Down, Msg::Down, Msg::Down, Msg::Open];

/// The app on the quiz's first question, with a seed whose first question is a choice.
fn quiz_on_a_choice(width: u16, height: u16) -> App {
    let mut app = app(width, height);
    for msg in QUIZ {
        app.update(*msg);
    }
    for seed in 1..100 {
        app.quiz.seed = seed;
        app.update(Msg::Open);
        if app.quiz.asked[0].question.kind == QuestionKind::Choice {
            return app;
        }
        app.quiz.reset();
    }
    panic!("no seed under 100 starts with a choice question");
}

/// A wrong letter for the question showing.
fn wrong_answer(app: &App) -> Msg {
    let asked = &app.quiz.asked[app.quiz.current];
    let right = asked.right_letter().expect("a choice question");
    Msg::Answer(if right == 'a' { 1 } else { 0 })
}

#[test]
fn home_with_progress_100x30() {
    let mut app = app(100, 30);
    app.progress.mark_step("retry", "Layered retries");
    app.progress.record_answer("retry-predict-layered", Some("retry"), true);
    app.progress.record_answer("retry-layers-multiply", None, false);
    app.progress.mark_step("health", "Warm-up");
    insta::assert_snapshot!(render(&app));
}

#[test]
fn quiz_setup_100x30() {
    insta::assert_snapshot!(screen(100, 30, QUIZ));
}

#[test]
fn quiz_question_choice_100x30() {
    insta::assert_snapshot!(render(&quiz_on_a_choice(100, 30)));
}

#[test]
fn quiz_feedback_100x30() {
    let mut app = quiz_on_a_choice(100, 30);
    app.update(wrong_answer(&app));
    insta::assert_snapshot!(render(&app));
}

#[test]
fn quiz_review_100x30() {
    let mut app = quiz_on_a_choice(100, 30);
    app.update(wrong_answer(&app));
    app.update(Msg::Open);
    // Stop after one: the review shows the score and the missed question.
    app.update(Msg::Back);
    insta::assert_snapshot!(render(&app));
}

#[test]
fn quiz_question_80x24() {
    insta::assert_snapshot!(render(&quiz_on_a_choice(80, 24)));
}

#[test]
fn book_100x30() {
    insta::assert_snapshot!(screen(
        100,
        30,
        &[
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Open,
            Msg::NextItem,
            Msg::NextItem,
            Msg::NextItem,
            Msg::Open
        ]
    ));
}

#[test]
fn book_80x24() {
    insta::assert_snapshot!(screen(80, 24, &[Msg::Down, Msg::Down, Msg::Down, Msg::Down, Msg::Open]));
}

#[test]
fn lab2_lesson_with_chapter_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[Msg::Down, Msg::Open, Msg::ToggleLesson]));
}

#[test]
fn lab2_prediction_prompt_100x30() {
    insta::assert_snapshot!(screen(
        100,
        30,
        &[Msg::Down, Msg::Open, Msg::Predict, Msg::Type('6'), Msg::Type('4')]
    ));
}

#[test]
fn lab2_prediction_observed_100x30() {
    insta::assert_snapshot!(screen(
        100,
        30,
        &[
            Msg::Down,
            Msg::Open,
            Msg::Predict,
            Msg::Type('1'),
            Msg::Type('2'),
            Msg::Open
        ]
    ));
}
