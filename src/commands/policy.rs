//! `policy check FILE`: read a dependency register (JSON), run the engine's policy check,
//! print the findings as the Atlas's `check_policy.py` does.
//!
//! Exit codes are the Atlas's: 0 when the register passes, 1 when it has problems. Input
//! the checker cannot judge (a path that is not a readable file, text that is not JSON, a
//! field of the wrong type) gets one line naming the file and the problem, exit code 2.
//! A dependency that leaves out a required field is not bad input: the Atlas reports it as
//! a policy problem, and so does this.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::Result;
use serde_json::{Map, Value};

use crate::cli::{PolicyArgs, PolicyCommand};
use crate::engine::policy::{self, Criticality, Dependency, Register};
use crate::error::UsageError;
use crate::user_file;

/// Largest attempt count per layer a register may give (a typo guard; real ones are 1 to 5).
const MAX_ATTEMPTS: u64 = 1_000;
/// Largest register read: a register lists a service's dependencies, a few kilobytes.
const MAX_REGISTER_BYTES: u64 = 4 * 1024 * 1024;
/// Largest timeout or deadline a register may give: a day, in milliseconds.
const MAX_MS: u64 = 86_400_000;

/// Runs `policy <command>`.
pub fn run(args: &PolicyArgs, out: &mut dyn Write) -> Result<ExitCode> {
    match &args.command {
        PolicyCommand::Check { file } => {
            let register =
                read_register(file).map_err(|problem| UsageError(format!("{}: {problem}", file.display())))?;
            let problems = policy::check(&register);
            write!(out, "{}", findings_text(&problems))?;
            Ok(if problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

/// The findings as the Atlas's checker prints them: `POLICY <problem>` lines, then the count.
pub fn findings_text(problems: &[String]) -> String {
    let mut text: String = problems.iter().map(|problem| format!("POLICY {problem}\n")).collect();
    text.push_str(&format!("{} problem(s)\n", problems.len()));
    text
}

/// Reads and validates a register file; the error says what is wrong, without the path.
pub fn read_register(path: &Path) -> std::result::Result<Register, String> {
    // The rule every file the user names follows: a regular file of sane size.
    let bytes = match user_file::read(path, MAX_REGISTER_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return Err("cannot be read: there is no such file; policy check takes a JSON register file".to_string());
        }
        Err(refusal) => return Err(format!("{}; policy check takes a JSON register file", refusal.line())),
    };
    let text = String::from_utf8(bytes).map_err(|_| "is not UTF-8 text; a register is a JSON file".to_string())?;
    let value: Value = serde_json::from_str(&text).map_err(|err| format!("is not JSON: {err}"))?;
    parse_register(&value)
}

/// A register from parsed JSON: every field the check reads must have the right type.
pub fn parse_register(value: &Value) -> std::result::Result<Register, String> {
    let top = value.as_object().ok_or_else(|| {
        format!(
            "the register is {}; allowed: an object with inbound_deadline_ms and dependencies",
            kind_of(value)
        )
    })?;
    let inbound_deadline_ms = match top.get("inbound_deadline_ms") {
        None => return Err("inbound_deadline_ms is missing; allowed: a whole number of milliseconds".to_string()),
        Some(v) => whole(v, 0, MAX_MS).ok_or_else(|| wrong("inbound_deadline_ms", v, &ms_allowed()))?,
    };
    let list = match top.get("dependencies") {
        None => return Err("dependencies is missing; allowed: a list of dependency objects".to_string()),
        Some(Value::Array(list)) => list,
        Some(v) => return Err(wrong("dependencies", v, "a list of dependency objects")),
    };
    let dependencies = list
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let object = item
                .as_object()
                .ok_or_else(|| format!("dependencies[{index}] is {}; allowed: an object", kind_of(item)))?;
            parse_dependency(object).map_err(|problem| {
                let name = object.get("name").and_then(Value::as_str);
                let label = name.map(|n| format!(" ({n})")).unwrap_or_default();
                format!("dependencies[{index}]{label}: {problem}")
            })
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(Register {
        inbound_deadline_ms,
        dependencies,
    })
}

fn parse_dependency(object: &Map<String, Value>) -> std::result::Result<Dependency, String> {
    let text = |field: &str| -> std::result::Result<Option<String>, String> {
        object
            .get(field)
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| wrong(field, v, "text")))
            .transpose()
    };
    let flag = |field: &str| -> std::result::Result<Option<bool>, String> {
        object
            .get(field)
            .map(|v| v.as_bool().ok_or_else(|| wrong(field, v, "true or false")))
            .transpose()
    };
    let number = |field: &str, min: u64, max: u64, allowed: &str| -> std::result::Result<Option<u64>, String> {
        object
            .get(field)
            .map(|v| whole(v, min, max).ok_or_else(|| wrong(field, v, allowed)))
            .transpose()
    };
    let attempts_allowed = format!("a whole number from 1 to {MAX_ATTEMPTS}, the first attempt included");
    let criticality = match object.get("criticality") {
        None => None,
        Some(Value::String(s)) if s == "hard" => Some(Criticality::Hard),
        Some(Value::String(s)) if s == "soft" => Some(Criticality::Soft),
        Some(v) => return Err(wrong("criticality", v, "\"hard\" or \"soft\"")),
    };
    Ok(Dependency {
        name: text("name")?,
        criticality,
        timeout_ms: number("timeout_ms", 0, MAX_MS, &ms_allowed())?,
        max_attempts: number("max_attempts", 1, MAX_ATTEMPTS, &attempts_allowed)?,
        sdk_attempts: number("sdk_attempts", 1, MAX_ATTEMPTS, &attempts_allowed)?,
        mesh_attempts: number("mesh_attempts", 1, MAX_ATTEMPTS, &attempts_allowed)?,
        idempotent: flag("idempotent")?,
        breaker: flag("breaker")?,
        runbook: text("runbook")?,
        sequential: flag("sequential")?.unwrap_or(false),
        idempotency_key: flag("idempotency_key")?.unwrap_or(false),
        degraded_behaviour: text("degraded_behaviour")?,
    })
}

fn ms_allowed() -> String {
    format!("a whole number of milliseconds from 0 to {MAX_MS}")
}

/// A JSON integer within `min..=max` (a number with a fraction or an exponent is not one).
fn whole(value: &Value, min: u64, max: u64) -> Option<u64> {
    value.as_u64().filter(|n| (min..=max).contains(n))
}

/// "`field` is `value`; allowed: ...", with long values cut short.
fn wrong(field: &str, value: &Value, allowed: &str) -> String {
    let mut shown = value.to_string();
    if shown.chars().count() > 40 {
        shown = shown.chars().take(37).collect::<String>() + "...";
    }
    format!("{field} is {shown}; allowed: {allowed}")
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> std::result::Result<Register, String> {
        parse_register(&serde_json::from_str(text).expect("test JSON"))
    }

    #[test]
    fn wrong_types_are_named_with_what_is_allowed() {
        assert_eq!(
            parse("[]").unwrap_err(),
            "the register is a list; allowed: an object with inbound_deadline_ms and dependencies"
        );
        assert_eq!(
            parse(r#"{"dependencies": []}"#).unwrap_err(),
            "inbound_deadline_ms is missing; allowed: a whole number of milliseconds"
        );
        assert_eq!(
            parse(r#"{"inbound_deadline_ms": "2s", "dependencies": []}"#).unwrap_err(),
            "inbound_deadline_ms is \"2s\"; allowed: a whole number of milliseconds from 0 to 86400000"
        );
        assert_eq!(
            parse(r#"{"inbound_deadline_ms": 10, "dependencies": [{"name": "db", "max_attempts": 2.5}]}"#).unwrap_err(),
            "dependencies[0] (db): max_attempts is 2.5; allowed: a whole number from 1 to 1000, the first attempt included"
        );
        assert_eq!(
            parse(r#"{"inbound_deadline_ms": 10, "dependencies": [3]}"#).unwrap_err(),
            "dependencies[0] is a number; allowed: an object"
        );
    }

    #[test]
    fn missing_dependency_fields_are_findings_not_errors() {
        let register = parse(r#"{"inbound_deadline_ms": 10, "dependencies": [{"name": "db"}]}"#).expect("valid");
        assert_eq!(
            findings_text(&policy::check(&register)),
            "POLICY db: missing criticality, timeout_ms, max_attempts, sdk_attempts, mesh_attempts, \
             idempotent, breaker, runbook\n1 problem(s)\n"
        );
    }

    #[test]
    fn only_a_regular_file_of_sane_size_is_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("register.json");
        user_file::make_fifo(&fifo);
        let big = dir.path().join("big.json");
        std::fs::write(&big, vec![b' '; MAX_REGISTER_BYTES as usize + 1]).expect("write");
        // /dev/zero never ends and a FIFO without a writer never opens: both refused at once.
        for (path, says) in [
            (Path::new("/dev/zero"), "is not a regular file"),
            (fifo.as_path(), "is not a regular file"),
            (big.as_path(), "bytes allowed"),
        ] {
            let problem = read_register(path).expect_err("refused");
            assert!(problem.contains(says) && !problem.contains('\n'), "{problem}");
        }
    }
}
