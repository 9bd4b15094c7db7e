//! `run oncall` through the real binary: its JSON keys, and bad flags as one line, exit 2.

use crate::common::binary::run_with_input;

fn run(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    run_with_input(&dir.path().join("progress.json"), args, "")
}

#[test]
fn the_json_names_the_issues_keys() {
    let out = run(&[
        "run",
        "oncall",
        "--sim",
        "--incident",
        "payments-503",
        "--seed",
        "3",
        "--levers",
        "runbook",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "incident",
        "levers",
        "baseline_goodput",
        "goodput_restored_s",
        "attempts_per_request_after",
        "wrong_levers",
        "score",
    ] {
        assert!(doc.get(key).is_some(), "{key} missing in {doc}");
    }
    assert_eq!(doc["incident"], "payments-503");
    assert_eq!(doc["score"], 100);
}

#[test]
fn never_restored_is_null() {
    let out = run(&[
        "run",
        "oncall",
        "--incident",
        "receipt-store-storm",
        "--seed",
        "2",
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["goodput_restored_s"], serde_json::Value::Null, "{doc}");
}

#[test]
fn bad_flags_are_one_line_and_exit_2() {
    for (args, says) in [
        (vec!["--incident", "nope"], "allowed: inventory-brownout"),
        (
            vec!["--incident", "payments-503", "--seed", "-1"],
            "allowed: a whole number from 0 to 4294967295",
        ),
        (
            vec!["--incident", "payments-503", "--seed", "99999999999"],
            "allowed: a whole number",
        ),
        (
            vec!["--incident", "payments-503", "--levers", "10:payments.enabled=off"],
            "hard dependency",
        ),
        (
            vec![
                "--incident",
                "payments-503",
                "--levers",
                "10:receipt-store.breaker=open",
            ],
            "no breaker",
        ),
        (
            vec!["--incident", "payments-503", "--levers", "x:shed=on"],
            "T must be a number",
        ),
        (
            vec!["--incident", "payments-503", "--levers", "99999:shed=on"],
            "T must be a number",
        ),
        (vec!["--incident", "payments-503", "--levers", "10:shed"], "has no '='"),
    ] {
        let mut full = vec!["run", "oncall"];
        full.extend(args.iter());
        let out = run(&full);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{full:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{full:?}: {err}");
        assert!(err.contains(says), "{full:?}: {err}");
    }
}

#[test]
fn live_refuses_bad_flags_before_any_server_starts() {
    // Each of these is refused while the flags are read, in one line with exit 2, so none
    // of them binds a port or waits out a drill.
    for (args, says) in [
        (vec!["--live", "--incident", "nope"], "allowed: inventory-brownout"),
        (
            vec!["--live", "--incident", "payments-503", "--levers", "10:shed"],
            "has no '='",
        ),
        (
            vec![
                "--live",
                "--incident",
                "payments-503",
                "--levers",
                "10:payments.enabled=off",
            ],
            "hard dependency",
        ),
        (
            vec!["--sim", "--live", "--incident", "payments-503"],
            "cannot be used with",
        ),
        (
            vec!["--live", "--replay", "saved.json"],
            "allowed with --sim, not --live",
        ),
    ] {
        let mut full = vec!["run", "oncall"];
        full.extend(args.iter());
        let out = run(&full);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{full:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{full:?}: {err}");
        assert!(err.contains(says), "{full:?}: {err}");
        assert!(out.stdout.is_empty(), "{full:?}: nothing printed before the refusal");
    }
}

#[test]
fn without_an_incident_the_seed_picks_one() {
    let incidents = resilience_lab::engine::oncall::builtin_incidents().unwrap();
    for seed in [1u64, 5, 9] {
        let out = run(&["run", "oncall", "--seed", &seed.to_string(), "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let chosen = resilience_lab::engine::oncall::choose_incident(&incidents, seed).unwrap();
        assert_eq!(doc["incident"], chosen.name.as_str());
    }
}

#[test]
fn the_oncall_app_refuses_bad_flags_in_one_line_with_exit_2() {
    for (args, says) in [
        (
            vec!["oncall", "--seed", "x"],
            "allowed: a whole number from 0 to 4294967295",
        ),
        (vec!["oncall", "--incident", "nope"], "allowed: inventory-brownout"),
        (vec!["oncall", "--speed", "3"], "unexpected argument"),
    ] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
