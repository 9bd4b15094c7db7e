//! `run fleet` headless: the kubectl-style report, the JSON document, and one line with
//! exit code 2 for every flag out of range or out of place.

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
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

#[test]
fn the_rolling_restart_report_reads_like_kubectl_get_pods_watch() {
    assert_eq!(
        stdout(&["run", "fleet", "--sim", "--scenario", "rolling-restart"]),
        include_str!("../../golden/fleet_rolling_restart_sim.txt")
    );
}

#[test]
fn the_default_scenario_is_liveness_checking_the_database() {
    let text = stdout(&["run", "fleet", "--sim"]);
    assert!(text.contains("scenario liveness-checks-db"), "{text}");
    assert!(
        text.contains("fleet-0   0/1    CrashLoopBackOff  1         132.0s"),
        "{text}"
    );
    assert!(text.ends_with(
        "requests: 5900 sent; ok 2700, degraded 340, failed 0, refused 2860\n\
         no ready endpoint: 286.0 s (63.0-349.0 s)\n\
         restarts: 12, the first at 61.0 s\n"
    ));
}

/// A flag that changes the scenario's settings is named with it (the report said
/// "scenario liveness-checks-db" for a run that was not that scenario).
#[test]
fn a_changed_setting_is_named_beside_the_scenario() {
    let text = stdout(&["run", "fleet", "--sim", "--db-window-s", "30,90", "--replicas", "4"]);
    assert!(
        text.starts_with(
            "fleet (sim), scenario liveness-checks-db (changed: 4 replicas, db window 30-90 s): 4 replicas;"
        ),
        "{text}"
    );
    let json = stdout(&["run", "fleet", "--sim", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
    assert_eq!(value["changed"], serde_json::json!([]), "the scenario as it stands");
}

#[test]
fn the_json_document_has_the_documented_fields() {
    let text = stdout(&["run", "fleet", "--sim", "--json", "--db-window-s", "30,90"]);
    let value: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    assert_eq!(value["lab"], "fleet");
    assert_eq!(value["mode"], "sim");
    assert_eq!(value["scenario"], "liveness-checks-db", "where the settings started");
    assert_eq!(value["changed"], serde_json::json!(["db window 30-90 s"]));
    assert_eq!(value["params"]["replicas"], 3);
    assert_eq!(value["restarts"], 3);
    assert_eq!(value["first_restart_s"], 61.0);
    let replicas = value["replicas"].as_array().expect("replicas");
    assert_eq!(replicas[0]["name"], "fleet-0");
    assert_eq!(replicas[0]["restarts"], 1);
    assert_eq!(
        replicas[0]["timeline"][1],
        serde_json::json!({"t_s": 5.0, "state": "ready", "ready": true})
    );
    // Killed for its liveness at 50 s, the pod is not deleted: still a ready endpoint.
    assert_eq!(
        replicas[0]["timeline"][2],
        serde_json::json!({"t_s": 50.0, "state": "stopping", "ready": true})
    );
    for kind in ["ok", "degraded", "failed", "refused"] {
        assert!(value["requests"][kind].is_u64(), "{kind}");
    }
    assert_eq!(value["no_ready_endpoint_s"], 28.0);
}

#[test]
fn flags_change_the_design() {
    let local = stdout(&["run", "fleet", "--sim", "--liveness", "local"]);
    assert!(local.contains("restarts: 0\n"), "{local}");
    let open = stdout(&[
        "run",
        "fleet",
        "--sim",
        "--scenario",
        "readiness-checks-db",
        "--fail-open",
        "on",
    ]);
    assert!(open.contains("degraded 600, failed 0, refused 0"), "{open}");
    let fair = stdout(&[
        "run",
        "fleet",
        "--sim",
        "--scenario",
        "black-hole",
        "--balancing",
        "round-robin",
    ]);
    assert!(fair.contains("ok 1000, degraded 0, failed 500"), "{fair}");
}

#[test]
fn bad_flags_get_one_line_naming_the_flag_and_the_range_and_exit_2() {
    for (args, wanted) in [
        (&["--replicas", "0"][..], "--replicas"),
        (&["--replicas", "11"], "from 1 to 10"),
        (&["--time-scale", "5"], "--time-scale"),
        (&["--probe-timeout-s", "5"], "must be below every probe period"),
        (&["--scenario", "chaos"], "allowed: liveness-checks-db"),
        (&["--db", "sideways"], "allowed: down, slow or up"),
        (&["--db-window-s", "90,30"], "START < END"),
        (
            &["--db", "down", "--db-latency-ms", "5"],
            "--db-latency-ms applies to --db slow only",
        ),
        (&["--black-holes", "4"], "--black-holes 4 is more than the 3 replicas"),
        (&["--roll-at-s", "700"], "--roll-at-s 700"),
        (&["--backoff-factor", "0.5"], "--backoff-factor"),
        (&["--liveness", "maybe"], "allowed: local or db"),
        (&["--load-per-s", "nan"], "--load-per-s"),
    ] {
        let mut all = vec!["run", "fleet", "--sim"];
        all.extend_from_slice(args);
        let output = run(&all);
        assert_eq!(output.status.code(), Some(2), "{all:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{all:?}: {stderr}");
        assert!(stderr.contains(wanted), "{all:?}: {stderr}");
    }
}

#[test]
fn live_runs_beyond_their_bounds_are_refused_before_anything_starts() {
    for (args, wanted) in [
        (
            &["--duration-s", "3600", "--time-scale", "1"][..],
            "allowed with --live: up to 600",
        ),
        (&["--load-per-s", "1000", "--time-scale", "0.1"], "real requests/s"),
        (&["--time-scale", "0.02"], "drain limit"),
    ] {
        let mut all = vec!["run", "fleet", "--live"];
        all.extend_from_slice(args);
        let output = run(&all);
        assert_eq!(output.status.code(), Some(2), "{all:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(wanted), "{all:?}: {stderr}");
    }
}

/// The listing agrees with the endpoints: a replica killed for its liveness keeps READY 1/1
/// (the Service still sends to it) until it exits and restarts at 61 s; the last one leaves
/// at 63 s, where the time with no ready endpoint begins.
#[test]
fn a_killed_replica_reads_ready_until_it_exits() {
    let text = stdout(&["run", "fleet", "--sim"]);
    for row in [
        "fleet-0   1/1    Killing           0         50.0s",
        "fleet-2   1/1    Killing           0         52.0s",
        "fleet-0   0/1    Running           1         61.0s",
        "no ready endpoint: 286.0 s (63.0-349.0 s)",
    ] {
        assert!(text.contains(row), "{row:?} in:\n{text}");
    }
    assert!(!text.contains("Terminating"), "no pod is deleted here:\n{text}");
}
