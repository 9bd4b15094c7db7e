//! `run overload` from the command line: the named quantities, the JSON shape, bad flags.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_text_report_names_the_lessons_quantities() {
    let (code, out, _) = run(&["run", "overload", "--sim"]);
    assert_eq!(code, 0);
    assert!(out.contains("capacity: 100 workers / 50 ms = 2000 requests/s"), "{out}");
    assert!(out.contains("queue after 1 s: 500; after 2 s: 1000 (a new arrival waits 0.500 s = 1000 / 2000)"));
    assert!(out.contains("the request arriving at 2.0 s waited 0.500 s"), "{out}");
    let (_, capped, _) = run(&["run", "overload", "--scenario", "age-cap"]);
    assert!(
        capped.contains("age cap 200 ms: queue limit 400 (2000 x 0.2 s)"),
        "{capped}"
    );
    // The steady second the checks score, beside the whole run's totals, each named (the text
    // printed whole-run totals only, first second included).
    assert!(
        capped.contains("last second (10 s): offered 2500 = goodput 2000 + refused 500\n"),
        "{capped}"
    );
    assert!(
        capped.contains(
            "whole run totals (10 s): offered 25000, goodput 19900 (1990.0/s), wasted 0, refused 4600 (18.4%)"
        ),
        "{capped}"
    );
    let (_, json, _) = run(&["run", "overload", "--scenario", "age-cap", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    assert_eq!(value["last_second"]["t_s"], 10.0);
    assert_eq!(value["last_second"]["refused"], 500);
    let (_, meta, _) = run(&["run", "overload", "--scenario", "metastable"]);
    assert!(meta.contains("stable below: 150 QPS"), "{meta}");
    assert!(
        meta.contains("database load at the end: 560 QPS; recovered: never"),
        "{meta}"
    );
}

#[test]
fn json_has_the_documented_keys_and_the_sweep_its_curve() {
    let (code, out, _) = run(&["run", "overload", "--sim", "--json", "--sweep", "--duration-s", "3"]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(value["lab"], "overload");
    assert_eq!(value["mode"], "sim");
    let second = &value["seconds"][1];
    for key in [
        "t_s",
        "offered",
        "goodput",
        "wasted",
        "refused",
        "timed_out",
        "queue_len",
        "queue_wait_s",
    ] {
        assert!(second.get(key).is_some(), "missing {key}: {second}");
    }
    assert_eq!(second["queue_len"], 1000);
    let curve = value["curve"].as_array().expect("a curve with --sweep");
    assert_eq!(curve.len(), 6 * 9);
    assert!(
        curve
            .iter()
            .any(|p| p["policy"] == "age-cap" && p["offered_per_s"] == 6000.0)
    );
}

#[test]
fn bad_flags_get_one_line_and_exit_2() {
    for args in [
        &["run", "overload", "--workers", "0"][..],
        &["run", "overload", "--k", "11"],
        &["run", "overload", "--scenario", "nope"],
        &["run", "overload", "--policy", "random"],
        &["run", "overload", "--scenario", "metastable", "--workers", "3"],
        &["run", "overload", "--retry-cap-per-s", "5"],
        &["run", "overload", "--offered-per-s", "100000", "--duration-s", "600"],
        &["run", "overload", "--live", "--scenario", "bulkhead"],
        &["run", "overload", "--live", "--duration-s", "500"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}
