//! `class host` driven by a script: its controls piped in at once, as a facilitator's
//! prepared sequence would be.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every piped control is read, even those still queued when standard input closes (the
/// host had stopped reading at the pipe's end and hung after `open`, never revealing or
/// quitting), and the reveal prints the spread with the measured value's bins marked.
#[test]
fn a_piped_script_of_controls_runs_to_its_quit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("--progress")
        .arg(dir.path().join("progress.toml"))
        .args(["class", "host", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"open breaker-predict-sick-calls\nspread\nreveal\nquit\n")
        .expect("controls written");
    // Bounded: a host that stopped reading would wait for a signal for ever.
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("status").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the host did not quit within 60 s of its piped quit");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("output");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        out.contains("\nspread breaker-predict-sick-calls: 0 answers\n"),
        "{out}"
    );
    assert!(
        out.contains("\nreveal breaker-predict-sick-calls: measured 44 (right within 10); 0 of 0 within (0%)\n"),
        "{out}"
    );
}
