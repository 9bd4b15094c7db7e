//! The bank cannot be beaten by length: the shipped questions pass the length lint, "pick
//! the longest" does no better than chance, and `check` points at a question that fails.

use std::fs;
use std::process::Command;

use resilience_lab::content::{Content, lint};

#[test]
fn picking_the_longest_answer_does_no_better_than_chance() {
    let content = Content::load(None).expect("the shipped content loads");
    let questions = content.all_questions();
    let figures = lint::length_figures(&questions);
    assert!(figures.choice_questions >= 60, "{figures:?}");
    // Chance with 3 to 5 options is 20% to 33%; allow a little over a third.
    assert!(
        figures.longest_share() <= 0.35,
        "the right answer is strictly the longest in {} of {} choice questions",
        figures.right_strictly_longest,
        figures.choice_questions
    );
    // Nor the other way round: a right answer that is almost never the longest gives itself away too.
    assert!(
        figures.longest_share() >= 0.1,
        "the right answer is strictly the longest in only {} of {}",
        figures.right_strictly_longest,
        figures.choice_questions
    );
    assert!(figures.median_ratio <= 1.1, "median ratio {:.2}", figures.median_ratio);
    let giveaways: Vec<String> = questions.iter().filter_map(lint::length_problem).collect();
    assert!(giveaways.is_empty(), "{giveaways:#?}");
}

#[test]
fn check_reports_a_giveaway_with_its_file_and_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let quiz = dir.path().join("assets/quiz");
    fs::create_dir_all(&quiz).expect("quiz folder");
    let text = r#"format_version = 1

[[question]]
id = "giveaway"
topic = "retries"
difficulty = "easy"
kind = "choice"
prompt = "Where should retries happen?"
choices = ["At one layer only, with a budget and jittered backoff", "Everywhere", "Nowhere"]
answer = "At one layer only, with a budget and jittered backoff"
explanation = "One layer keeps the product of attempts small."
source = "test"
"#;
    fs::write(quiz.join("interview.toml"), text).expect("write the override");
    let output = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("check")
        .arg("--content")
        .arg(dir.path())
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    let report = String::from_utf8_lossy(&output.stdout);
    let expected = format!(
        "{}:3: question \"giveaway\": the right answer is 53 characters, 5.30x the longest distractor (10)",
        quiz.join("interview.toml").display()
    );
    assert!(report.starts_with(&expected), "{report}");
}
