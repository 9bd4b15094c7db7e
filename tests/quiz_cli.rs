//! The plain-terminal quiz and the progress file, driven through the real binary.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn run_with_input(progress: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("--progress")
        .arg(progress)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("answers written");
    child.wait_with_output().expect("the quiz ends")
}

#[test]
fn a_quiz_scores_answers_explains_misses_and_saves_progress() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    // "zzz" is never a valid answer and is asked again; then "a" answers a choice question
    // and "1" a number question, whichever comes (an answer of the wrong kind is asked again).
    let answers = format!("zzz\n{}", "a\n1\n".repeat(4));
    let output = run_with_input(
        &progress,
        &[
            "quiz", "--lab", "retry", "--topic", "retries", "--count", "2", "--seed", "5",
        ],
        &answers,
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(
        out.contains("Question 1 of 2") && out.contains("Question 2 of 2"),
        "{out}"
    );
    assert!(
        out.contains("type one of") || out.contains("type a number"),
        "invalid input is asked again: {out}"
    );
    assert!(out.contains("Score: ") && out.contains(" of 2 right"), "{out}");
    assert!(out.contains("Source: "), "{out}");
    let saved = fs::read_to_string(&progress).expect("progress saved");
    assert!(saved.contains("format_version = 1"));
    assert_eq!(saved.matches("answered = 1").count(), 2, "{saved}");
}

#[test]
fn the_same_seed_asks_the_same_quiz() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ask = || {
        let output = run_with_input(
            &dir.path().join("p.toml"),
            &["quiz", "--count", "3", "--seed", "11"],
            "q\n",
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert_eq!(ask(), ask());
}

#[test]
fn an_unreadable_progress_file_is_moved_aside_with_a_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    fs::write(&progress, "not [valid toml").expect("write");
    let output = run_with_input(&progress, &["progress"], "");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(out.contains("could not be read") && out.contains("moved to"), "{out}");
    let kept = fs::read_dir(dir.path())
        .expect("list")
        .filter_map(Result::ok)
        .any(|entry| {
            entry.file_name().to_string_lossy().contains("unreadable")
                && fs::read_to_string(entry.path()).is_ok_and(|text| text == "not [valid toml")
        });
    assert!(kept, "the old file is kept beside the new one");
}

#[test]
fn a_newer_progress_file_is_refused_untouched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    fs::write(&progress, "format_version = 7\n").expect("write");
    let output = run_with_input(&progress, &["quiz", "--count", "1", "--seed", "1"], "a\n");
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("newer resilience-lab (format_version 7"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert_eq!(fs::read_to_string(&progress).expect("kept"), "format_version = 7\n");
}

#[test]
fn reset_asks_first_and_only_erases_on_yes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    // "1" answers a number question; for a choice question it is refused and "a" answers.
    run_with_input(&progress, &["quiz", "--count", "1", "--seed", "2"], "1\na\n");
    assert!(progress.exists());
    let kept = run_with_input(&progress, &["progress", "--reset"], "no\n");
    assert!(String::from_utf8_lossy(&kept.stdout).contains("kept: nothing was erased"));
    assert!(progress.exists());
    let erased = run_with_input(&progress, &["progress", "--reset"], "yes\n");
    assert!(String::from_utf8_lossy(&erased.stdout).contains("progress erased"));
    assert!(!progress.exists());
}
