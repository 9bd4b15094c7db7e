//! The command line's rough edges, through the real binary: every mistake is one line and
//! exit code 2, and an interrupted live run exits as the signal says, at once.

use std::fs;
use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Exit code 2 and one line on stderr that contains every one of `says`.
fn refused_in_one_line(args: &[&str], says: &[&str]) {
    let output = run(args);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for part in says {
        assert!(err.contains(part), "{args:?} should say {part:?}: {err}");
    }
}

#[test]
fn negative_numbers_name_the_flag_and_its_range() {
    refused_in_one_line(
        &["run", "retry", "--p", "-0.1"],
        &["--p", "allowed: a number from 0 to 1"],
    );
    refused_in_one_line(&["run", "retry", "--budget", "-1"], &["--budget", "from 0 to 1"]);
    refused_in_one_line(
        &["run", "retry", "--actions", "-1"],
        &["--actions", "a whole number from 1"],
    );
    refused_in_one_line(&["run", "health", "--port", "-1"], &["--port", "from 0 to 65535"]);
    refused_in_one_line(&["quiz", "--count", "-5"], &["--count", "from 1 to 200"]);
}

#[test]
fn wrong_choices_list_the_allowed_values() {
    refused_in_one_line(&["quiz", "--lab", "foo"], &["allowed: health, retry, breaker"]);
    refused_in_one_line(&["--theme", "blue", "labs"], &["allowed: light, dark"]);
}

#[test]
fn every_budget_flag_is_range_checked_in_one_line() {
    refused_in_one_line(
        &["run", "budget", "--scenario", "register", "--inventory-attempts", "-1"],
        &["--inventory-attempts", "a whole number from 1 to 10"],
    );
    refused_in_one_line(
        &["run", "budget", "--scenario", "duplicates", "--drop-share", "1.5"],
        &["--drop-share", "a number from 0 to 1"],
    );
    refused_in_one_line(
        &["run", "budget", "--propagate", "maybe"],
        &["--propagate", "allowed: yes, no"],
    );
    refused_in_one_line(
        &["run", "budget", "--scenario", "status", "--status", "404"],
        &["--status", "400, 401"],
    );
    refused_in_one_line(
        &["run", "budget", "--scenario", "nope"],
        &["--scenario", "retry-after, duplicates"],
    );
    refused_in_one_line(
        &["run", "budget", "--scenario", "herd", "--drop-share", "0.1"],
        &["--drop-share applies to --scenario duplicates only"],
    );
    refused_in_one_line(
        &[
            "run",
            "budget",
            "--scenario",
            "retry-after",
            "--window-start-ms",
            "3000",
        ],
        &["--window-start-ms", "START < END"],
    );
    let output = run(&[
        "run",
        "budget",
        "--scenario",
        "register",
        "--inventory-attempts",
        "2",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let json = String::from_utf8_lossy(&output.stdout);
    assert!(
        json.contains(r#""lab":"budget""#) && json.contains(r#""worst_case_ms":1900"#),
        "{json}"
    );
}

#[test]
fn run_without_a_lab_is_a_usage_error() {
    // One line naming the labs, not the subcommand's 18 lines of help.
    refused_in_one_line(&["run"], &["`run` needs one of:", "breaker", "fleet"]);
}

#[test]
fn a_missing_flag_is_named_whole_in_one_line() {
    refused_in_one_line(&["progress", "--yes"], &["--reset"]);
    refused_in_one_line(&["policy", "check"], &["<FILE>"]);
    refused_in_one_line(
        &["run", "overload", "--scenario", "metastable", "--cut-at-s", "10"],
        &["--cut-to-per-s"],
    );
}

#[test]
fn content_problems_are_one_line() {
    for args in [&["run", "retry"][..], &["quiz"]] {
        let mut all = vec!["--content", "/nonexistent-content-folder"];
        all.extend_from_slice(args);
        refused_in_one_line(&all, &["/nonexistent-content-folder", "is not a folder"]);
    }
}

#[test]
fn flags_a_run_would_ignore_are_refused() {
    refused_in_one_line(
        &["run", "fleet", "--sim", "--time-scale", "0.5"],
        &["--time-scale applies to --live runs only"],
    );
    refused_in_one_line(
        &[
            "run",
            "overload",
            "--sim",
            "--policy",
            "admission",
            "--age-cap-ms",
            "100",
        ],
        &["--age-cap-ms applies to the age-cap policy only", "admission"],
    );
    refused_in_one_line(&["quiz", "--drill", "--count", "3"], &["--count", "--drill"]);
    refused_in_one_line(
        &[
            "run",
            "fleet",
            "--sim",
            "--backoff-initial-s",
            "20",
            "--backoff-cap-s",
            "10",
        ],
        &["--backoff-cap-s 10 is below --backoff-initial-s 20"],
    );
    refused_in_one_line(
        &[
            "run",
            "retry",
            "--live",
            "--backoff-base-ms",
            "100",
            "--backoff-cap-ms",
            "50",
        ],
        &["--backoff-cap-ms 50 is below --backoff-base-ms 100"],
    );
}

/// A live run that cannot finish within its 300 s limit is refused before anything starts
/// (it used to run to the limit and then be judged against the simulation as if whole).
#[test]
fn a_live_retry_run_past_its_time_limit_is_refused_up_front() {
    let started = Instant::now();
    refused_in_one_line(
        &[
            "run",
            "retry",
            "--live",
            "--p",
            "1",
            "--attempts",
            "10,10,10,10,10,10",
            "--actions",
            "1000",
        ],
        &["cannot finish within the live run's 300 s limit", "up to 5 actions"],
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "refused up front, not at the limit"
    );
}

#[test]
fn bad_paths_are_refused_in_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().to_str().expect("utf-8 path");
    refused_in_one_line(&["--progress", folder, "progress"], &["is a folder"]);
    let through_a_file = dir.path().join("notes.txt");
    fs::write(&through_a_file, "x").expect("write");
    let through = through_a_file.join("progress.toml");
    refused_in_one_line(
        &["--progress", through.to_str().expect("utf-8"), "progress"],
        &["progress file"],
    );
    // The log is opened before the terminal is asked for, so this needs no terminal.
    refused_in_one_line(
        &["--log", "/nonexistent/x"],
        &["--log /nonexistent/x", "cannot be opened"],
    );
}

#[test]
fn a_brownout_after_the_run_is_refused() {
    refused_in_one_line(
        &["run", "breaker", "--duration-s", "12", "--brownout-s", "100,200"],
        &["--brownout-s", "--duration-s 12"],
    );
    assert!(
        run(&["run", "breaker", "--duration-s", "12", "--brownout-s", "2,8"])
            .status
            .success()
    );
}

/// `check --content DIR` with `labs/<name>` made by `make`: exit 2, naming the entry.
fn check_reports(name: &str, make: impl Fn(&std::path::Path), says: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join("labs")).expect("labs");
    make(&dir.path().join("labs").join(name));
    let output = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("check")
        .arg("--content")
        .arg(dir.path())
        .output()
        .expect("runs");
    let report = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{name}: {report}");
    assert!(
        report.contains(&format!("labs/{name}")) && report.contains(says),
        "{name}: {report}"
    );
    assert!(
        !report.contains("ok  labs/"),
        "{name}: nothing is reported ok: {report}"
    );
}

#[test]
fn lab_overrides_that_would_be_skipped_are_reported() {
    check_reports(
        "retry.toml",
        |path| fs::create_dir(path).expect("dir"),
        "is not a regular file",
    );
    check_reports(
        "breaker.toml",
        |path| {
            let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
            assert!(status.success());
        },
        "is not a regular file",
    );
    let shipped = include_str!("../../../labs/retry.toml");
    check_reports(
        "retyr.toml",
        |path| fs::write(path, shipped).expect("write"),
        "may hold health.toml",
    );
    check_reports(
        "Retry.toml",
        |path| fs::write(path, shipped).expect("write"),
        "rename it",
    );
}

#[test]
fn an_interrupted_live_health_run_exits_as_the_signal_says_at_once() {
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
            .args(["run", "health", "--live", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starts");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let first = lines.next().expect("a line").expect("text");
        assert!(first.starts_with("listening on 127.0.0.1:"), "{first}");
        let port = first.rsplit(':').next().expect("port").to_string();
        let sent = Instant::now();
        // SAFETY: kill only sends a signal to the child this test started.
        unsafe { libc::kill(child.id() as i32, signal) };
        let rest: Vec<String> = lines.map_while(Result::ok).collect();
        let status = child.wait().expect("exits");
        assert_eq!(status.code(), Some(code), "{rest:?}");
        // The whole schedule takes about 4.5 s, and the signal came after its first line: a run
        // that went on to the end would take 4 s more.
        assert!(
            sent.elapsed() < Duration::from_millis(2500),
            "took {:?}",
            sent.elapsed()
        );
        assert!(
            rest.last().is_some_and(|l| l.starts_with("interrupted by SIG")),
            "{rest:?}"
        );
        // No server is left listening on its port (the kill lands within moments).
        let port: u16 = port.parse().expect("port");
        let closed = (0..50).any(|_| {
            std::thread::sleep(Duration::from_millis(40));
            std::net::TcpStream::connect(("127.0.0.1", port)).is_err()
        });
        assert!(closed, "the server on port {port} outlived the run");
    }
}

/// `class host` driven by a script: its controls piped in, as a facilitator's prepared
/// sequence would be, with a participant answering through `class join`.
mod class_host {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    const CHECK: &str = "breaker-predict-sick-calls";

    /// Every piped control is read, even those still queued when standard input closes (the
    /// host had stopped reading at the pipe's end and hung after `open`, never revealing or
    /// quitting), and the reveal prints the spread with the measured value's bin marked.
    #[test]
    fn a_piped_script_of_controls_runs_to_its_quit_and_prints_the_spread() {
        let dir = tempfile::tempdir().expect("temp dir");
        let progress = dir.path().join("progress.toml");
        let mut host = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
            .arg("--progress")
            .arg(&progress)
            .args(["class", "host", "--listen", "127.0.0.1:0"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut controls = host.stdin.take().expect("stdin");
        let (lines_tx, lines) = mpsc::channel();
        let stdout = host.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
        // Bounded: a host that stopped reading would wait for a signal for ever.
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut said = Vec::new();
        let mut wait_for = |prefix: &str, said: &mut Vec<String>| loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => {
                    said.push(line.clone());
                    if line.starts_with(prefix) {
                        return line;
                    }
                }
                Err(_) => {
                    let _ = host.kill();
                    panic!("no line starting {prefix:?} within 60 s: {said:#?}");
                }
            }
        };
        let first = wait_for("room ", &mut said);
        let words: Vec<&str> = first.split_whitespace().collect();
        let (code, url) = (words[1].to_string(), words[3].to_string());
        writeln!(controls, "open {CHECK}").expect("open written");
        wait_for(&format!("open {CHECK}"), &mut said);
        let joined = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
            .arg("--progress")
            .arg(dir.path().join("ada.toml"))
            .args([
                "class",
                "join",
                &url,
                &code,
                "--name",
                "ada",
                "--answer",
                &format!("{CHECK}=40"),
            ])
            .output()
            .expect("join runs");
        assert!(joined.status.success(), "{}", String::from_utf8_lossy(&joined.stderr));
        wait_for("answer ada", &mut said);
        // The rest at once, then the pipe's end.
        controls.write_all(b"spread\nreveal\nquit\n").expect("controls written");
        drop(controls);
        wait_for(&format!("reveal {CHECK}"), &mut said);
        while host.try_wait().expect("status").is_none() {
            if Instant::now() > deadline {
                let _ = host.kill();
                panic!("the host did not quit within 60 s of its piped quit: {said:#?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        said.extend(lines.try_iter());
        let out = said.join("\n");
        assert!(host.wait().expect("status").success(), "{out}");
        assert!(out.contains(&format!("\nspread {CHECK}: 1 answer\n")), "{out}");
        assert!(
            out.contains(&format!(
                "\nreveal {CHECK}: measured 44 (right within 10); 1 of 1 within (100%)\n"
            )),
            "{out}"
        );
        let measured_bins = said.iter().filter(|l| l.ends_with(" 1 <- measured")).count();
        assert_eq!(measured_bins, 1, "{out}");
    }
}
