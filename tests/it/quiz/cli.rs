//! The plain-terminal quiz and the progress file, driven through the real binary.

use crate::common::binary::{run_with_bytes, run_with_input};

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
    assert!(saved.contains("format_version = 3"), "{saved}");
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
    let (out, err) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success());
    // The note is on stderr: stdout is the report alone.
    assert!(err.contains("could not be read") && err.contains("moved to"), "{err}");
    assert!(!out.contains("could not be read"), "{out}");
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
    // The prompt asks for `yes`: `y` keeps the file.
    let kept = run_with_input(&progress, &["progress", "--reset"], "y\n");
    assert!(String::from_utf8_lossy(&kept.stdout).contains("kept: nothing was erased"));
    assert!(progress.exists());
    let erased = run_with_input(&progress, &["progress", "--reset"], "yes\n");
    assert!(String::from_utf8_lossy(&erased.stdout).contains("progress erased"));
    assert!(!progress.exists());
}

#[test]
fn reset_refuses_what_is_not_progress_and_touches_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let notes = dir.path().join("notes.toml");
    fs::write(&notes, "[package]\nname = \"mine\"\n").expect("write");
    // /dev/null is only looked at: the refusal comes before anything is opened for writing.
    for path in [Path::new("/dev/null"), notes.as_path()] {
        for args in [&["progress", "--reset", "--yes"][..], &["progress", "--reset"]] {
            let output = run_with_input(path, args, "yes\n");
            let err = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(!String::from_utf8_lossy(&output.stdout).contains("erased"));
        }
    }
    assert!(Path::new("/dev/null").exists());
    assert_eq!(
        fs::read_to_string(&notes).expect("kept"),
        "[package]\nname = \"mine\"\n"
    );
    assert_eq!(
        fs::read_dir(dir.path()).expect("list").count(),
        1,
        "no lock file either"
    );
}

#[test]
fn a_line_that_is_not_utf8_is_asked_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    let output = run_with_bytes(&progress, &["quiz", "--count", "1", "--seed", "2"], b"\xff\xfe\n1\na\n");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("not UTF-8 text; type the answer again"), "{out}");
    assert!(out.contains("Score: ") && out.contains(" of 1 right"), "{out}");
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
    assert!(out.contains("2 questions due for review today"), "{out}");
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
        saved.contains(
            "[questions.shutdown-default-grace]\nanswered = 3\nright = 2\nstreak = 1\nbox_level = 1\ndue_day = "
        ),
        "a right answer after the miss is due again tomorrow: {saved}"
    );
    // The version 1 file's learned question keeps its standing, now as the learned box.
    assert!(
        saved
            .contains("[questions.retry-three-layers]\nanswered = 3\nright = 3\nstreak = 3\nbox_level = 4\ndue_day = "),
        "{saved}"
    );
    // Asked again the same day, the two questions answered right are not due: a review that
    // asks for two gets the questions never asked.
    let again = run_with_input(&progress, &["quiz", "--review", "--count", "1", "--seed", "3"], "x\n");
    let again = String::from_utf8_lossy(&again.stdout);
    assert!(again.contains("0 questions due for review today"), "{again}");
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
    let saved = fs::read_to_string(&progress).expect("a graded drill is saved");
    assert!(
        saved.contains("[drills.drill-recommendations-hangs]\ngraded = 1\nmissed_last = [\"Gave the call a timeout from measured latency"),
        "{saved}"
    );
    // The next run of the same drill, by its name, starts with what was missed.
    let output = run_with_input(
        &progress,
        &["quiz", "--drill", "drill-recommendations-hangs"],
        "\ny\ny\ny\ny\ny\ny\ny\ny\n",
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    let missed = out
        .find("last time you missed:\n  - Gave the call a timeout")
        .expect("missed points shown");
    assert!(missed < out.find("You have 3 minutes").expect("the prompt"), "{out}");
    assert!(out.contains("Covered 8 of 8 points."), "{out}");
    let saved = fs::read_to_string(&progress).expect("saved");
    assert!(saved.contains("graded = 2\nmissed_last = []"), "{saved}");
}

#[test]
fn a_drill_name_that_is_no_drill_is_refused_with_the_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run_with_input(&dir.path().join("p.toml"), &["quiz", "--drill", "nope"], "");
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--drill nope is no drill; allowed: ") && err.contains("drill-recommendations-hangs"),
        "{err}"
    );
}

#[test]
fn drill_and_review_refuse_to_be_combined() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run_with_input(&dir.path().join("p.toml"), &["quiz", "--drill", "--review"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_review_flag_describes_the_spaced_schedule_it_keeps() {
    // The schedule is `learning::schedule`'s Leitner boxes: the help once described an older
    // rule (three right answers in a row), which one sitting can reach.
    let dir = tempfile::tempdir().expect("temp dir");
    let output = run_with_input(&dir.path().join("p.toml"), &["quiz", "--help"], "");
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(!help.contains("in a row"), "{help}");
    assert!(
        help.contains("a miss comes back the same day") && help.contains("after 1, 3 and 7 days"),
        "{help}"
    );
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

/// Asked for more than the filter holds (the trial's `quiz --lab breaker --count 5` asked two
/// and said only "2 question(s)", as it printed then), the heading says how many were asked and why fewer come.
#[test]
fn fewer_questions_than_asked_are_said_to_be_fewer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    let output = run_with_input(
        &progress,
        &["quiz", "--lab", "breaker", "--count", "50", "--seed", "5"],
        "q\n",
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains(" of the 50 asked (no more match, one a fact)"), "{out}");
    let enough = run_with_input(
        &progress,
        &["quiz", "--lab", "retry", "--count", "1", "--seed", "5"],
        "q\n",
    );
    let out = String::from_utf8_lossy(&enough.stdout);
    assert!(out.contains("quiz: 1 question, seed 5"), "{out}");
}

/// Every lab's name filters the quiz to its questions: the allowed names follow the labs
/// (a written-out list had left Lab 5's `budget` out, refused with exit 2).
#[test]
fn every_lab_can_be_asked_for_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    for lab in resilience_lab::content::LabId::ALL {
        let output = run_with_input(
            &progress,
            &["quiz", "--lab", lab.name(), "--count", "1", "--seed", "5"],
            "q\n",
        );
        let out = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{lab}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(out.contains("quiz: 1 question, seed 5"), "{lab}: {out}");
    }
}
