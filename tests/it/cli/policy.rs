//! `resilience-lab policy check FILE`: the Atlas's register gives the Atlas's output byte
//! for byte, hand-made registers give what check_policy.py printed for them (recorded in
//! tests/fixtures/policy/*.expected.txt), and bad input gets one line and exit code 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A register of tests/fixtures/policy; the Atlas's own is the one `labs export` ships.
fn fixture(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match name {
        "atlas.json" => root.join("assets/register/dependencies.json"),
        _ => root.join("tests/fixtures/policy").join(name),
    }
}

fn policy_check(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .args(["policy", "check"])
        .arg(path)
        .output()
        .expect("the binary runs")
}

fn assert_matches_recorded(register: &str, exit_code: i32) {
    let output = policy_check(&fixture(&format!("{register}.json")));
    let expected = std::fs::read(fixture(&format!("{register}.expected.txt"))).expect("recorded output");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&expected),
        "{register}"
    );
    assert_eq!(output.stdout, expected, "{register}: byte for byte");
    assert_eq!(output.status.code(), Some(exit_code), "{register}");
    assert!(
        output.stderr.is_empty(),
        "{register}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_atlas_register_prints_the_atlas_output() {
    assert_matches_recorded("atlas", 1);
}

#[test]
fn hand_made_registers_print_what_check_policy_py_printed() {
    assert_matches_recorded("fixed", 0);
    assert_matches_recorded("mixed", 1);
    assert_matches_recorded("empty", 0);
}

fn assert_bad_input(path: &Path, problem: &str) {
    let output = policy_check(path);
    assert_eq!(output.status.code(), Some(2), "{}", path.display());
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    let expected = format!("error: {}: {problem}", path.display());
    assert!(stderr.starts_with(&expected), "{stderr}\nexpected: {expected}");
}

#[test]
fn bad_input_gets_one_line_naming_the_file_and_exit_2() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    assert_bad_input(dir.path(), "is a folder; policy check takes a JSON register file");
    assert_bad_input(&dir.path().join("absent.json"), "cannot be read: ");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path
    };
    assert_bad_input(&write("half.json", "{\"inbound_deadline_ms\": 2000,"), "is not JSON: ");
    assert_bad_input(
        &write("nodeadline.json", "{\"dependencies\": []}"),
        "inbound_deadline_ms is missing",
    );
    let atlas = std::fs::read_to_string(fixture("atlas.json")).expect("fixture");
    assert_bad_input(
        &write(
            "typed.json",
            &atlas.replacen("\"timeout_ms\": 800", "\"timeout_ms\": \"800ms\"", 1),
        ),
        "dependencies[0] (payments): timeout_ms is \"800ms\"; allowed: a whole number of milliseconds",
    );
    assert_bad_input(
        &write(
            "crit.json",
            &atlas.replacen("\"criticality\": \"soft\"", "\"criticality\": \"optional\"", 1),
        ),
        "dependencies[2] (recommendations): criticality is \"optional\"; allowed: \"hard\" or \"soft\"",
    );
}
