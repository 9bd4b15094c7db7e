//! A reader that leaves early (`resilience-lab ... | head -1`) is no crash: every headless
//! command, its stdout a pipe whose reader is already gone, with stderr the same closed pipe
//! (`2>&1 | head -1`) or kept, exits with its own code, never by a signal (a panic printing
//! into a closed stderr aborted it, exit 134) and never with "Broken pipe" as its error.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The write end of a pipe whose read end is closed: every write to it fails with EPIPE.
fn pipe_nobody_reads() -> OwnedFd {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe(2)");
    // SAFETY: both descriptors are new and owned here alone.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    write
}

/// How a command ended: its status, and its stderr when that was kept.
fn run_closed(args: &[&str], stderr_too: bool, sigterm_after: Option<Duration>) -> (ExitStatus, String) {
    let stdout = pipe_nobody_reads();
    let stderr = if stderr_too {
        Stdio::from(stdout.try_clone().expect("dup"))
    } else {
        Stdio::piped()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(stdout))
        .stderr(stderr)
        .spawn()
        .expect("the binary starts");
    if let Some(after) = sigterm_after {
        std::thread::sleep(after);
        let pid = i32::try_from(child.id()).expect("a pid");
        // SAFETY: kill(2) on our own child, which has not been reaped yet.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    let mut err = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut err).expect("stderr reads");
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return (status, err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} did not end within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `args` exits with `code` whether stderr is closed too or kept, and says nothing of a pipe.
fn ends_with_its_own_code(args: &[&str], code: i32, sigterm_after: Option<Duration>) {
    for stderr_too in [true, false] {
        let (status, err) = run_closed(args, stderr_too, sigterm_after);
        assert_eq!(
            status.signal(),
            None,
            "{args:?} (stderr closed too: {stderr_too}) died by a signal"
        );
        assert_eq!(
            status.code(),
            Some(code),
            "{args:?} (stderr closed too: {stderr_too}): {err}"
        );
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

#[test]
fn simulated_runs_and_the_other_commands_finish_into_a_closed_pipe() {
    let dir = tempfile::tempdir().expect("temp dir");
    let progress = dir.path().join("progress.toml");
    let progress = progress.to_str().expect("a UTF-8 path");
    let policy = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/policy/mixed.json");
    for (args, code) in [
        (&["run", "retry", "--sim"][..], 0),
        (&["run", "breaker", "--sim"], 0),
        (&["run", "health", "--sim"], 0),
        (&["run", "health", "--sim", "--json"], 0),
        (&["run", "overload", "--sim"], 0),
        (&["run", "fleet", "--sim"], 0),
        (&["check"], 0),
        (&["quiz", "--lab", "retry", "--progress", progress], 0),
        (&["quiz", "--drill", "--seed", "1", "--progress", progress], 0),
        (&["progress", "--progress", progress], 0),
        // A register with problems exits 1 and a mistake 2, with the reader gone as without.
        (&["policy", "check", policy], 1),
        (&["run", "retry", "--p", "2"], 2),
        (&["--help"], 0),
    ] {
        ends_with_its_own_code(args, code, None);
    }
}

#[test]
fn a_live_run_into_a_closed_pipe_runs_to_its_end() {
    // About 4.5 s each: the Atlas's schedule against a real child, which is reaped as always.
    ends_with_its_own_code(&["run", "health", "--live", "--port", "0"], 0, None);
}

#[test]
fn a_server_into_a_closed_pipe_still_shuts_down_in_order() {
    ends_with_its_own_code(
        &["serve", "health", "--port", "0", "--deregister-s", "0.2"],
        0,
        Some(Duration::from_millis(800)),
    );
}
