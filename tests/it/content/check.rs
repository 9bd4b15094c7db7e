//! `resilience-lab check`: the shipped content passes; broken overrides are located.

use std::fs;
use std::process::{Command, Output};

fn check(content_dir: Option<&std::path::Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_resilience-lab"));
    command.arg("check");
    if let Some(dir) = content_dir {
        command.arg("--content").arg(dir);
    }
    command.output().expect("the resilience-lab binary runs")
}

fn override_with(file: &str, text: &str) -> (tempfile::TempDir, Output) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::create_dir_all(dir.path().join("labs")).expect("labs folder");
    fs::write(dir.path().join("labs").join(file), text).expect("write the fixture");
    let output = check(Some(dir.path()));
    (dir, output)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn shipped_content_passes() {
    let output = check(None);
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("ok  labs/breaker.toml (built in): 11 parameters"));
}

#[test]
fn a_syntax_error_names_file_line_and_column() {
    let (dir, output) = override_with("retry.toml", include_str!("../../fixtures/broken/labs/retry.toml"));
    assert_eq!(output.status.code(), Some(2));
    let report = stdout(&output);
    let expected = format!(
        "{}:6:25: invalid basic string",
        dir.path().join("labs/retry.toml").display()
    );
    assert!(report.starts_with(&expected), "{report}");
}

#[test]
fn an_unknown_field_is_rejected_with_its_location() {
    let shipped = include_str!("../../../labs/breaker.toml");
    let broken = shipped.replacen(
        "help = \"Calls per second",
        "colour = \"red\"\nhelp = \"Calls per second",
        1,
    );
    let line = broken
        .lines()
        .position(|l| l.starts_with("colour"))
        .expect("inserted line")
        + 1;
    let (_dir, output) = override_with("breaker.toml", &broken);
    assert_eq!(output.status.code(), Some(2));
    let report = stdout(&output);
    assert!(
        report.contains(&format!("breaker.toml:{line}:1: unknown field `colour`")),
        "{report}"
    );
}

/// Replaces the line `shipped_line` of the shipped `file` with `broken_line`, runs `check` on
/// it, and expects `message` located at that line and `column`.
fn refused_at_its_line(file: &str, shipped: &str, shipped_line: &str, broken_line: &str, column: usize, message: &str) {
    // Whole lines only: `default = 200` must not match the start of `default = 2000`.
    let broken = shipped.replacen(&format!("{shipped_line}\n"), &format!("{broken_line}\n"), 1);
    assert_ne!(broken, shipped, "the shipped line moved: {shipped_line}");
    let line = broken.lines().position(|l| l == broken_line).expect("changed line") + 1;
    let (dir, output) = override_with(file, &broken);
    assert_eq!(output.status.code(), Some(2));
    let expected = format!(
        "{}:{line}:{column}: {message}",
        dir.path().join("labs").join(file).display()
    );
    assert!(stdout(&output).contains(&expected), "{}", stdout(&output));
}

#[test]
fn a_default_outside_its_range_is_located_at_its_value_not_its_table() {
    refused_at_its_line(
        "breaker.toml",
        include_str!("../../../labs/breaker.toml"),
        "default = 200",
        "default = 5000",
        11,
        "parameter \"timeout_ms\": default 5000 is outside min 10 to max 2000",
    );
}

#[test]
fn a_help_that_only_names_its_parameter_is_refused_at_its_line() {
    refused_at_its_line(
        "budget.toml",
        include_str!("../../../labs/budget.toml"),
        "help = \"Calls per second each client makes (scenario retry-after).\"",
        "help = \"Lab 5 parameter rate_per_s.\"",
        8,
        "parameter \"rate_per_s\": help names the parameter by its identifier (rate_per_s)",
    );
}

#[test]
fn an_empty_help_is_refused_at_its_line() {
    refused_at_its_line(
        "retry.toml",
        include_str!("../../../labs/retry.toml"),
        "help = \"How many user actions each policy runs.\"",
        "help = \" \"",
        8,
        "parameter \"actions\": help is empty",
    );
}

#[test]
fn a_newer_format_version_is_refused() {
    let shipped = include_str!("../../../labs/health.toml");
    let (_dir, output) = override_with(
        "health.toml",
        &shipped.replacen("format_version = 1", "format_version = 2", 1),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).contains("format_version 2 is newer than this resilience-lab reads (1)"));
}

#[test]
fn a_check_on_a_metric_no_run_produces_is_refused() {
    let shipped = include_str!("../../../labs/retry.toml");
    let (_dir, output) = override_with(
        "retry.toml",
        &shipped.replacen("retry.c.db_attempts_per_action", "retry.d.db_attempts_per_action", 1),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).contains("no run produces metric \"retry.d.db_attempts_per_action\""));
}

#[test]
fn overridden_defaults_drive_the_headless_run() {
    let shipped = include_str!("../../../labs/breaker.toml");
    let tuned = shipped.replacen("default = 5\n", "default = 1\n", 1);
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::create_dir_all(dir.path().join("labs")).expect("labs folder");
    fs::write(dir.path().join("labs/breaker.toml"), tuned).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(["run", "breaker", "--content"])
        .arg(dir.path())
        .output()
        .expect("runs");
    let same_as_flag = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(["run", "breaker", "--open-s", "1"])
        .output()
        .expect("runs");
    assert!(output.status.success());
    assert_eq!(
        output.stdout, same_as_flag.stdout,
        "open_s default of 1 s from --content"
    );
}

#[test]
fn faults_use_the_command_line_names() {
    let shipped = include_str!("../../../labs/breaker.toml");
    let broken = shipped.replacen("\"errors\", \"refuse\"]", "\"errors\", \"flood\"]", 1);
    let line = broken
        .lines()
        .position(|l| l.starts_with("faults"))
        .expect("faults line")
        + 1;
    let (_dir, output) = override_with("breaker.toml", &broken);
    assert_eq!(output.status.code(), Some(2));
    let report = stdout(&output);
    assert!(
        report.contains(&format!(
            "breaker.toml:{line}:10: fault \"flood\" is unknown; use hang, slow, errors, refuse"
        )),
        "{report}"
    );
}

#[test]
fn a_check_whose_prompt_and_settings_disagree_is_refused_with_its_line() {
    let shipped = include_str!("../../../labs/retry.toml");
    // A facilitator moves step 1's check to p = 0.5 but leaves its prompt saying p = 1.0.
    let at = shipped.find("[check.settings]\np = 1.0").expect("step 1's settings");
    let edited = format!("{}{}", &shipped[..at], shipped[at..].replacen("p = 1.0", "p = 0.5", 1));
    let (_dir, output) = override_with("retry.toml", &edited);
    assert_eq!(output.status.code(), Some(2));
    let report = stdout(&output);
    assert!(
        report.contains("check \"retry-predict-layered\": the prompt says \"p = 1.0\" but the settings give p = 0.5"),
        "{report}"
    );
    // A value the slider cannot reach, and a parameter left out.
    let edited = format!(
        "{}{}",
        &shipped[..at],
        shipped[at..]
            .replacen("p = 1.0", "p = 1.02", 1)
            .replacen("seed = 42\n", "", 1)
    );
    let (_dir, output) = override_with("retry.toml", &edited);
    let report = stdout(&output);
    assert!(
        report.contains("p = 1.02, which its slider cannot reach: 0 to 1 in steps of 0.05"),
        "{report}"
    );
    assert!(report.contains("settings lack seed"), "{report}");
}

#[test]
fn a_step_the_app_cannot_move_by_is_refused() {
    let shipped = include_str!("../../../labs/breaker.toml");
    let broken = shipped.replacen("step = 0.05", "step = 1e-300", 1);
    assert_ne!(broken, shipped, "the threshold slider's step was replaced");
    let (_dir, output) = override_with("breaker.toml", &broken);
    assert_eq!(output.status.code(), Some(2));
    let report = stdout(&output);
    assert!(report.contains("parameter \"threshold\": step 0.00"), "{report}");
    assert!(report.contains("allowed: at most 10000"), "{report}");
    assert!(report.contains("needs more than 6 decimals"), "{report}");

    let coarse = shipped.replacen("step = 0.05", "step = 2", 1);
    let (_dir, output) = override_with("breaker.toml", &coarse);
    assert!(
        stdout(&output).contains("is larger than the range"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_run_too_big_to_recompute_in_a_frame_is_refused() {
    let shipped = include_str!("../../../labs/breaker.toml");
    let rate = "name = \"rate\"";
    let big =
        shipped
            .replacen("max = 500\n", "max = 10000\n", 1)
            .replacen("max = 300\nstep = 5", "max = 3600\nstep = 5", 1);
    assert!(big.contains(rate) && big.contains("max = 10000\n") && big.contains("max = 3600\nstep = 5"));
    let (_dir, output) = override_with("breaker.toml", &big);
    assert_eq!(output.status.code(), Some(2));
    let report = stdout(&output);
    assert!(
        report.contains("max 10000 calls/s for max 3600 s is 36000000 calls"),
        "{report}"
    );
}

#[test]
fn a_big_breaker_window_is_accepted() {
    // Before rolling counts, a window of 10,000 made every slider step recount it per call.
    let shipped = include_str!("../../../labs/breaker.toml");
    let big_window = shipped.replace("max = 200\n", "max = 10000\n");
    assert_eq!(big_window.matches("max = 10000\n").count(), 2, "window and min_calls");
    let (dir, output) = override_with("breaker.toml", &big_window);
    assert!(output.status.success(), "{}", stdout(&output));
    // The largest run the sliders then allow, with the biggest window: it must finish.
    let run = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(["run", "breaker", "--rate", "500", "--duration-s", "300"])
        .args(["--window", "10000", "--min-calls", "10000", "--content"])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert!(run.status.success());
    assert!(String::from_utf8_lossy(&run.stdout).contains("calls=150000"));
}

/// A slider's label and its unit read as one phrase: the value goes between them
/// (`Inbound 30000 ms`), so a label that ends in a unit of measure says it twice
/// (`Inbound ms 30000 ms`).
mod labels {
    use resilience_lab::content::Content;

    #[test]
    fn no_slider_label_ends_in_its_unit() {
        let content = Content::load(None).expect("the built-in labs load");
        let mut problems = Vec::new();
        let mut read = 0;
        for lab in &content.labs {
            for spec in &lab.parameters {
                read += 1;
                let label = spec.label.to_lowercase();
                // Units of measure; a counted noun may stay (`Minimum calls 10 calls` reads as English).
                let repeats = ["ms", "s", "per s"]
                    .iter()
                    .any(|unit| label.ends_with(&format!(" {unit}")));
                if repeats {
                    let shown = spec.display(spec.default);
                    problems.push(format!("{}: {} reads \"{} {shown}\"", lab.id, spec.name, spec.label));
                }
            }
        }
        assert!(read > 40, "only {read} sliders read");
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
