//! The real binary run as a person at a plain terminal would: a progress file of the test's
//! own, the words of a command line, and what is typed on stdin.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `resilience-lab --progress PROGRESS ARGS...` with `input` typed, run to its end.
pub fn run_with_input(progress: &Path, args: &[&str], input: &str) -> Output {
    run_with_bytes(progress, args, input.as_bytes())
}

/// [`run_with_input`] with typed bytes that need not be UTF-8.
pub fn run_with_bytes(progress: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("--progress")
        .arg(progress)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("answers written");
    child.wait_with_output().expect("the quiz ends")
}
