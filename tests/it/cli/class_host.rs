//! `class host` driven by a script: its controls piped in, as a facilitator's prepared
//! sequence would be, with a participant answering through `class join`.

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
