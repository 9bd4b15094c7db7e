//! The quiz names the letters of the question it shows: a question of four choices takes
//! a to d in its footer and help, in the app and in the plain `quiz` alike.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::render;
use resilience_lab::content::QuestionKind;
use resilience_lab::tui::app::App;
use resilience_lab::tui::keys::{self, Context};
use resilience_lab::tui::msg::Msg;

fn footer(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_string()
}

/// The app on the quiz's first question, a choice question with `choices` choices.
fn quiz_with_choices(choices: usize) -> App {
    let mut app = crate::common::visited_app(80, 24);
    for msg in [Msg::Down, Msg::Down, Msg::Down, Msg::Down, Msg::Down, Msg::Open] {
        app.update(msg);
    }
    for seed in 1..400 {
        app.quiz.seed = seed;
        app.update(Msg::Open);
        let asked = &app.quiz.asked[0];
        if asked.question.kind == QuestionKind::Choice && asked.choice_order.len() == choices {
            return app;
        }
        app.quiz.reset();
    }
    panic!("no seed under 400 starts with a question of {choices} choices");
}

#[test]
fn a_four_choice_question_names_a_to_d_in_its_footer_and_help() {
    let mut app = quiz_with_choices(4);
    let screen = render(&app);
    assert!(footer(&screen).contains("a–d answer"), "{screen}");
    assert!(!screen.contains("a–e"), "{screen}");
    app.update(Msg::ToggleHelp);
    let help = render(&app);
    assert!(help.contains("a–d  answer with that choice"), "{help}");
    assert!(!help.contains("a–e"), "{help}");
    // `e` answers nothing here: the question stays.
    app.update(Msg::ToggleHelp);
    app.update(Msg::Answer(4));
    assert_eq!(app.context(), Context::QuizChoice);
}

#[test]
fn the_answer_keys_follow_the_count_and_the_table_names_the_most() {
    assert_eq!(keys::answer_keys(4), ("a–d", "a–d answer"));
    assert_eq!(keys::answer_keys(2), ("a–b", "a–b answer"));
    assert_eq!(keys::for_choices("Esc stop", 3), "Esc stop");
    // The key table's row is the most (five letters); the footer replaces exactly it.
    let table = keys::footer_keys(Context::QuizChoice);
    assert!(table.contains(&keys::answer_keys(5).1), "{table:?}");
    assert_eq!(keys::for_choices(keys::answer_keys(5).1, 3), "a–c answer");
}

#[test]
fn the_plain_quiz_names_the_letters_of_each_choice_question() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("--progress")
        .arg(dir.path().join("progress.toml"))
        .args(["quiz", "--count", "10", "--seed", "7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Anything answers: a letter or a number, whichever the question takes, then the next.
    let answers = "a\n1\n".repeat(10);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(answers.as_bytes())
        .expect("answers written");
    let out = String::from_utf8(child.wait_with_output().expect("the quiz ends").stdout).expect("utf-8");
    let mut last_letter = None;
    let mut named = 0;
    for line in out.lines() {
        if let Some(letter) = line
            .strip_prefix("  ")
            .and_then(|l| l.chars().next())
            .filter(|_| line.get(3..5) == Some(") "))
        {
            last_letter = Some(letter);
        }
        if let Some(rest) = line.strip_prefix("  (a letter, a to ") {
            let letter = last_letter.take().expect("choices before the letters line");
            assert_eq!(rest, format!("{letter})"), "{out}");
            named += 1;
        }
    }
    assert!(named > 0, "a choice question among ten: {out}");
}
