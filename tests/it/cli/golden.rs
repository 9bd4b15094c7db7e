//! The headless CLI against the Atlas's published outputs, and its answers to bad input.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(args)
        .output()
        .expect("the resilience-lab binary runs")
}

fn stdout(args: &[&str]) -> String {
    let output = run(args);
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

#[test]
fn default_runs_print_the_atlas_outputs_byte_for_byte() {
    assert_eq!(
        stdout(&["run", "retry", "--sim"]),
        include_str!("../../golden/retry_sim.txt")
    );
    assert_eq!(
        stdout(&["run", "breaker", "--sim"]),
        include_str!("../../golden/breaker_sim.txt")
    );
    assert_eq!(
        stdout(&["run", "health", "--sim"]),
        include_str!("../../golden/health_sim.txt")
    );
    assert_eq!(
        stdout(&["run", "breaker"]),
        include_str!("../../golden/breaker_sim.txt"),
        "--sim is the default"
    );
}

#[test]
fn atlas_exercise_window_100_opens_at_10_69_s() {
    let out = stdout(&["run", "breaker", "--sim", "--window", "100", "--min-calls", "100"]);
    assert_eq!(out.lines().nth(2), Some("t=10.69s closed -> open"));
}

#[test]
fn scenario_flags_run_one_scenario() {
    let out = stdout(&[
        "run",
        "retry",
        "--p",
        "1.0",
        "--attempts",
        "3,3,3,3,3",
        "--actions",
        "100",
    ]);
    assert!(out.contains("db attempts/action=243.00"), "{out}");
    let out = stdout(&["run", "retry", "--p", "1", "--attempts", "4,1,1", "--budget", "0.1"]);
    assert!(out.contains("db attempts/action=  1.11  success=  0.0%"), "{out}");
}

#[test]
fn json_reports_follow_the_documented_schema() {
    let scenario: serde_json::Value =
        serde_json::from_str(&stdout(&["run", "retry", "--p", "1", "--json"])).expect("one JSON document");
    assert_eq!(scenario["lab"], "retry");
    assert_eq!(scenario["mode"], "sim");
    assert_eq!(scenario["params"]["attempts"], serde_json::json!([4, 4, 4]));
    assert_eq!(scenario["db_attempts_per_action"], 64.0);
    assert_eq!(scenario["success_ratio"], 0.0);

    let table: serde_json::Value =
        serde_json::from_str(&stdout(&["run", "retry", "--json"])).expect("one JSON document");
    assert_eq!(table["rows"].as_array().map(Vec::len), Some(9));
    assert_eq!(
        table["full_jitter_sleeps_s"],
        serde_json::json!([0.032, 0.03, 0.26, 0.058, 0.857, 0.731])
    );

    let breaker: serde_json::Value =
        serde_json::from_str(&stdout(&["run", "breaker", "--json"])).expect("one JSON document");
    assert_eq!(breaker["timeout_only"]["sick_calls"], 3000);
    assert_eq!(breaker["with_breaker"]["sick_calls"], 44);
    assert_eq!(breaker["with_breaker"]["p99_wait_ms"], 40.0);
    assert_eq!(breaker["with_breaker"]["transitions"][0]["t_s"], 10.29);
    assert_eq!(breaker["with_breaker"]["transitions"][0]["to"], "open");

    let health: serde_json::Value =
        serde_json::from_str(&stdout(&["run", "health", "--json"])).expect("one JSON document");
    assert_eq!(health["probes"][1]["code"], 503);
    assert_eq!(health["requests"]["after_sigterm"], "done");
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["run", "breaker", "--window", "1", "--min-calls", "10"],
            "--min-calls 10 is more than --window 1",
        ),
        (
            &["run", "breaker", "--brownout-s", "0,1e308"],
            "END - START from 0.1 to 3600",
        ),
        (
            &[
                "run",
                "retry",
                "--actions",
                "1000000",
                "--attempts",
                "10,10,10,10,10,10",
            ],
            "could cost 1000000000000 database attempts; allowed: actions x the product of attempts up to 1000000000",
        ),
        (
            &["run", "retry", "--p", "1.5"],
            "'--p <P>': allowed: a number from 0 to 1",
        ),
        (
            &["run", "retry", "--attempts", "4,0,4"],
            "1 to 6 comma-separated whole numbers from 1 to 10",
        ),
        (&["run", "retry", "--attempts", "4,x"], "--attempts"),
        (
            &["run", "breaker", "--rate", "0"],
            "'--rate <RATE>': allowed: a whole number from 1 to 10000",
        ),
        (
            &["run", "breaker", "--brownout-s", "40,10"],
            "allowed: START,END in seconds",
        ),
        (&["run", "nosuchlab"], "unrecognized subcommand 'nosuchlab'"),
        (
            &[
                "run",
                "breaker",
                "--rate",
                "1",
                "--duration-s",
                "1",
                "--brownout-s",
                "0,0.5",
                "--timeout-ms",
                "0",
            ],
            "--timeout-ms",
        ),
    ];
    for (args, expected) in cases {
        let output = run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{args:?} printed more than one line: {stderr}"
        );
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("backtrace"),
            "{stderr}"
        );
    }
}
