//! Lab 1 live, end to end on 127.0.0.1: the real `serve health` child process, its
//! ordered shutdown with timings, the exercises' database switch, the headless driver
//! and the no-orphan guarantee. Every server binds port 0; every wait is bounded.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use resilience_lab::engine::health::{HealthConfig, abandon_line};
use resilience_lab::live::health::child::{ChildLine, HealthChild, Stream};
use resilience_lab::live::http::GetOutcome;
use tokio::sync::mpsc::Receiver;
use tokio::time::{Instant, timeout};

use crate::common::procs::{Which, children_of, running};

const BIN: &str = env!("CARGO_BIN_EXE_resilience-lab");
/// The most any single step below may take before the test fails instead of hanging.
const STEP: Duration = Duration::from_secs(5);

fn config(warmup_s: f64, deregister_s: f64, grace_s: f64, work_s: f64) -> HealthConfig {
    HealthConfig {
        warmup_s,
        deregister_s,
        grace_s,
        work_s,
        ..HealthConfig::default()
    }
}

async fn start(config: &HealthConfig) -> HealthChild {
    timeout(STEP, HealthChild::start_program(Path::new(BIN), config, 0))
        .await
        .expect("server starts in time")
        .expect("server starts")
}

fn answered(code: u16, body: &str) -> GetOutcome {
    GetOutcome::Answered {
        code,
        body: format!("{body}\n"),
    }
}

/// Waits for the server to print `wanted` on stdout; returns when it was read.
async fn stdout_line(lines: &mut Receiver<ChildLine>, wanted: &str) -> Instant {
    let deadline = Instant::now() + STEP;
    loop {
        let line = tokio::time::timeout_at(deadline, lines.recv())
            .await
            .unwrap_or_else(|_| panic!("no {wanted:?} line in time"))
            .unwrap_or_else(|| panic!("output ended before {wanted:?}"));
        if line.stream == Stream::Stdout && line.line == wanted {
            return line.at;
        }
    }
}

async fn exit_code(child: &mut HealthChild) -> i32 {
    timeout(STEP, child.wait_exit())
        .await
        .expect("server exits in time")
        .expect("exit status")
}

#[tokio::test]
async fn ordered_shutdown_fails_readiness_then_stops_listening_then_drains() {
    let mut child = start(&config(0.3, 0.4, 3.0, 0.5)).await;
    let mut lines = child.take_lines().expect("lines");
    assert_eq!(child.probe("/readyz").await, answered(503, "not ready: warming up"));
    assert_eq!(child.probe("/livez").await, answered(200, "alive"));
    assert_eq!(child.probe("/nope").await, answered(404, "not found"));

    tokio::time::sleep_until(child.listening_at() + Duration::from_millis(400)).await;
    assert_eq!(child.probe("/readyz").await, answered(200, "ready"));

    let work = child.send_work();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let sigterm_at = Instant::now();
    child.sigterm().expect("SIGTERM");
    tokio::time::sleep(Duration::from_millis(50)).await;
    // Readiness fails at once, but requests are still served while routers catch up.
    assert_eq!(child.probe("/readyz").await, answered(503, "not ready: draining"));
    assert_eq!(child.probe("/livez").await, answered(200, "alive"));

    let stopped_at = stdout_line(&mut lines, "stopped listening").await;
    let stop_after = stopped_at - sigterm_at;
    assert!(
        stop_after >= Duration::from_millis(350) && stop_after < Duration::from_millis(1500),
        "listener closed {stop_after:?} after SIGTERM, expected about 0.4 s"
    );
    assert_eq!(child.probe("/readyz").await, GetOutcome::Refused);

    let outcome = timeout(STEP, work)
        .await
        .expect("work ends in time")
        .expect("work task");
    assert_eq!(outcome, answered(200, "done"), "in-flight work completes");
    stdout_line(&mut lines, "drained, exiting").await;
    assert_eq!(exit_code(&mut child).await, 0);
}

#[tokio::test]
async fn without_a_deregistration_delay_the_listener_closes_at_once() {
    let mut child = start(&config(0.0, 0.0, 3.0, 0.6)).await;
    let mut lines = child.take_lines().expect("lines");
    let work = child.send_work();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let sigterm_at = Instant::now();
    child.sigterm().expect("SIGTERM");
    let stopped_at = stdout_line(&mut lines, "stopped listening").await;
    assert!(stopped_at - sigterm_at < Duration::from_millis(300));
    // A late request finds no listener; the one already in flight still finishes.
    assert_eq!(child.probe("/work").await, GetOutcome::Refused);
    let outcome = timeout(STEP, work)
        .await
        .expect("work ends in time")
        .expect("work task");
    assert_eq!(outcome, answered(200, "done"));
    assert_eq!(exit_code(&mut child).await, 0);
}

#[tokio::test]
async fn work_longer_than_the_grace_period_is_abandoned_with_exit_code_1() {
    let mut child = start(&config(0.0, 0.0, 0.5, 5.0)).await;
    let mut lines = child.take_lines().expect("lines");
    let work = child.send_work();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let sigterm_at = Instant::now();
    child.sigterm().expect("SIGTERM");
    let abandoned_at = stdout_line(&mut lines, &abandon_line(1)).await;
    let after = abandoned_at - sigterm_at;
    assert!(
        after >= Duration::from_millis(450) && after < Duration::from_millis(2000),
        "gave up {after:?} after SIGTERM, expected about the 0.5 s grace period"
    );
    assert_eq!(exit_code(&mut child).await, 1);
    let outcome = timeout(STEP, work)
        .await
        .expect("work ends in time")
        .expect("work task");
    assert!(
        matches!(outcome, GetOutcome::Failed(_)),
        "abandoned work fails: {outcome:?}"
    );
}

#[tokio::test]
async fn liveness_that_checks_the_database_fails_when_it_is_down() {
    let mut wrong = start(&HealthConfig {
        liveness_checks_db: true,
        ..config(0.0, 0.0, 2.0, 0.1)
    })
    .await;
    let mut honest = start(&config(0.0, 0.0, 2.0, 0.1)).await;
    for child in [&wrong, &honest] {
        assert_eq!(child.set_database(false).await, answered(200, "database down"));
    }
    assert_eq!(wrong.probe("/livez").await, answered(503, "not alive: database down"));
    assert_eq!(honest.probe("/livez").await, answered(200, "alive"));
    // Readiness does not check the database unless asked to.
    assert_eq!(wrong.probe("/readyz").await, answered(200, "ready"));
    assert_eq!(wrong.set_database(true).await, answered(200, "database up"));
    assert_eq!(wrong.probe("/livez").await, answered(200, "alive"));
    assert_eq!(wrong.shutdown(STEP).await.expect("shutdown"), 0);
    assert_eq!(honest.shutdown(STEP).await.expect("shutdown"), 0);
}

#[tokio::test]
async fn readiness_that_checks_the_database_fails_when_it_is_down() {
    let mut child = start(&HealthConfig {
        readiness_checks_db: true,
        ..config(0.0, 0.0, 2.0, 0.1)
    })
    .await;
    child.set_database(false).await;
    assert_eq!(child.probe("/readyz").await, answered(503, "not ready: database down"));
    assert_eq!(child.probe("/livez").await, answered(200, "alive"));
    assert_eq!(child.shutdown(STEP).await.expect("shutdown"), 0);
}

#[test]
fn killing_the_driver_leaves_no_server_running() {
    let mut parent = Command::new(BIN)
        .args([
            "run",
            "health",
            "--live",
            "--port",
            "0",
            "--deregister-s",
            "0.1",
            "--grace-s",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the driver");
    let stdout = parent.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(stdout).read_line(&mut first);
        let _ = tx.send(first);
    });
    let first = rx.recv_timeout(STEP).expect("the driver prints the listening line");
    assert!(first.starts_with("listening on 127.0.0.1:"), "{first:?}");
    let children = children_of(parent.id(), Which::Any);
    assert_eq!(children.len(), 1, "one server child: {children:?}");
    let server = children[0];
    assert!(running(server));

    parent.kill().expect("SIGKILL the driver");
    parent.wait().expect("reap the driver");
    let deadline = std::time::Instant::now() + STEP;
    while running(server) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!running(server), "server {server} outlived its parent");
}

#[test]
fn live_and_sim_agree_line_for_line_at_the_defaults() {
    assert_live_matches_sim(&[]);
}

#[test]
fn live_and_sim_agree_when_the_grace_period_ends_before_deregistration() {
    // The listener closes at the exit deadline, not after it: both say so in the same order.
    assert_live_matches_sim(&["--deregister-s", "3", "--grace-s", "1"]);
}

/// Runs `run health` live and simulated with `flags` and compares their lines.
fn assert_live_matches_sim(flags: &[&str]) {
    let run = |mode: &str| {
        Command::new(BIN)
            .args(["run", "health", mode, "--port", "0"])
            .args(flags)
            .output()
            .expect("run health")
    };
    let (live, sim) = (run("--live"), run("--sim"));
    assert_eq!(
        live.status.code(),
        sim.status.code(),
        "{}",
        String::from_utf8_lossy(&live.stderr)
    );
    assert!(live.stderr.is_empty(), "the child's stderr stays captured");
    let live = String::from_utf8_lossy(&live.stdout).into_owned();
    let sim = String::from_utf8_lossy(&sim.stdout).into_owned();
    let live_lines: Vec<&str> = live.lines().collect();
    let sim_lines: Vec<&str> = sim.lines().collect();
    // Only the port differs: the live server reports the one it got for port 0.
    assert!(live_lines[0].starts_with("listening on 127.0.0.1:"));
    assert_eq!(live_lines[1..], sim_lines[1..]);
}

#[test]
fn a_port_in_use_is_one_line_naming_the_port_and_the_flag() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("address").port().to_string();
    for args in [
        vec!["serve", "health", "--port", &port],
        vec!["run", "health", "--live", "--port", &port],
    ] {
        let output = Command::new(BIN).args(&args).output().expect("run");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&port) && stderr.contains("--port"), "{stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn live_json_without_deregistration_shows_the_late_request_failing() {
    let output = Command::new(BIN)
        .args([
            "run",
            "health",
            "--live",
            "--port",
            "0",
            "--deregister-s",
            "0",
            "--json",
        ])
        .output()
        .expect("run --live --json");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert_eq!(report["mode"], "live");
    assert_eq!(report["requests"]["before_sigterm"], "done");
    assert_eq!(report["requests"]["after_sigterm"], "failed");
    assert_eq!(
        report["probes"][3]["code"], 0,
        "the probe after SIGTERM finds no listener"
    );
    assert_eq!(report["exit_code"], 0);
    let log: Vec<&str> = report["server_log"]
        .as_array()
        .expect("server_log")
        .iter()
        .filter_map(|line| line.as_str())
        .collect();
    assert_eq!(log.iter().filter(|line| **line == "GET /work").count(), 1, "{log:?}");
}
