//! The plain-terminal quiz and the progress file, driven through the real binary.

use crate::common::binary::run_with_input;

use std::fs;
use std::path::Path;

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

// `quiz --review` asks what is due first; `quiz --drill` runs an interview drill with a
// clock, a model answer and a self-graded checklist.

#[test]
fn review_asks_the_missed_question_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    // Missed last time (streak 0), right once (streak 1), learned (streak 3).
    fs::write(
        &progress,
        "format_version = 1\n\n\
         [questions.shutdown-default-grace]\nanswered = 2\nright = 1\nstreak = 0\n\n\
         [questions.overload-capacity]\nanswered = 1\nright = 1\nstreak = 1\n\n\
         [questions.retry-three-layers]\nanswered = 3\nright = 3\nstreak = 3\n",
    )
    .expect("write progress");
    let output = run_with_input(
        &progress,
        &["quiz", "--review", "--count", "2", "--seed", "3"],
        "30\n2000\n",
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("2 question(s) due for review"), "{out}");
    let first = out
        .find("default termination grace period")
        .expect("the missed question is asked");
    let second = out
        .find("capacity in requests per second")
        .expect("the once-right question is asked");
    assert!(first < second, "the miss comes first: {out}");
    assert!(
        !out.contains("Three layers each make up to 3 attempts"),
        "learned waits: {out}"
    );
    assert!(out.contains("Score: 2 of 2 right"), "{out}");
    let saved = fs::read_to_string(&progress).expect("saved");
    assert!(
        saved.contains("[questions.shutdown-default-grace]\nanswered = 3\nright = 2\nstreak = 1"),
        "{saved}"
    );
}

#[test]
fn a_drill_times_the_answer_then_grades_the_checklist() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    // Enter ends the answer; then y/n per point, one invalid reply asked again.
    let output = run_with_input(
        &progress,
        &["quiz", "--drill", "--seed", "0"],
        "\ny\nmaybe\nn\ny\ny\ny\ny\ny\ny\n",
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("The recommendations service starts hanging"), "{out}");
    assert!(out.contains("You have 3 minutes"), "{out}");
    assert!(out.contains("within the time"), "{out}");
    assert!(out.contains("A model answer:\nRecommendations is soft"), "{out}");
    assert!(out.contains("type y or n"), "{out}");
    assert!(out.contains("Covered 7 of 8 points."), "{out}");
    assert!(
        out.contains("To work on:\n  - Gave the call a timeout from measured latency"),
        "{out}"
    );
    assert!(!progress.exists(), "a drill saves nothing");
}

#[test]
fn drill_and_review_refuse_to_be_combined() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run_with_input(&dir.path().join("p.toml"), &["quiz", "--drill", "--review"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_quiz_goes_on_when_progress_cannot_be_saved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    // A folder where the lock file goes: reading works, every save fails.
    fs::create_dir(dir.path().join("progress.toml.lock")).expect("folder");
    let output = run_with_input(
        &progress,
        &[
            "quiz", "--lab", "retry", "--topic", "retries", "--count", "2", "--seed", "5",
        ],
        &"a\n1\n".repeat(4),
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert_eq!(out.matches("note: progress not saved").count(), 1, "said once: {out}");
    assert!(out.contains("Question 2 of 2") && out.contains(" of 2 right"), "{out}");
    assert!(out.contains("Progress could not be saved to"), "{out}");
}

#[test]
fn a_progress_path_that_is_a_folder_or_a_device_is_refused_in_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, says) in [
        (dir.path(), "is a folder"),
        (Path::new("/dev/zero"), "is not a regular file"),
    ] {
        let output = run_with_input(path, &["progress"], "");
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
