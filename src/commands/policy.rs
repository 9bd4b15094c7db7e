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
use crate::engine::policy::{self, DependencyCriticality, Register, RegisteredDependency};
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
        PolicyCommand::Check { file, json } => {
            let register = read_register(file).map_err(|problems| {
                // One line per invalid field, each naming the file.
                let lines: Vec<String> = problems
                    .iter()
                    .map(|problem| format!("{}: {problem}", file.display()))
                    .collect();
                UsageError(lines.join("\n"))
            })?;
            let problems = policy::check(&register);
            match json {
                true => writeln!(out, "{}", findings_json(&problems))?,
                false => write!(out, "{}", findings_text(&problems))?,
            }
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

/// The findings for scripts: `{"problems": [...], "count": N, "passed": bool}`, each problem
/// worded as its `POLICY` line is.
pub fn findings_json(problems: &[String]) -> String {
    serde_json::json!({
        "problems": problems,
        "count": problems.len(),
        "passed": problems.is_empty(),
    })
    .to_string()
}

/// Reads and validates a register file; each error says what is wrong, without the path.
pub fn read_register(path: &Path) -> std::result::Result<Register, Vec<String>> {
    // The rule every file the user names follows: a regular file of sane size.
    let bytes = match user_file::read(path, MAX_REGISTER_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return Err(vec![
                "cannot be read: there is no such file; policy check takes a JSON register file".to_string(),
            ]);
        }
        Err(refusal) => {
            return Err(vec![format!(
                "{}; policy check takes a JSON register file",
                refusal.line()
            )]);
        }
    };
    let text =
        String::from_utf8(bytes).map_err(|_| vec!["is not UTF-8 text; a register is a JSON file".to_string()])?;
    let value: Value = serde_json::from_str(&text).map_err(|err| vec![format!("is not JSON: {err}")])?;
    parse_register(&value)
}

/// A register from parsed JSON: every field the check reads must have the right type. Every
/// invalid field is reported, in the file's order: one typo must not hide another
/// dependency's real problem until the first is fixed.
pub fn parse_register(value: &Value) -> std::result::Result<Register, Vec<String>> {
    let top = value.as_object().ok_or_else(|| {
        vec![format!(
            "the register is {}; allowed: an object with inbound_deadline_ms and dependencies",
            kind_of(value)
        )]
    })?;
    let mut invalid = Vec::new();
    let inbound_deadline_ms = match top.get("inbound_deadline_ms") {
        None => {
            invalid.push("inbound_deadline_ms is missing; allowed: a whole number of milliseconds".to_string());
            None
        }
        Some(v) => {
            let ms = whole(v, 0, MAX_MS);
            if ms.is_none() {
                invalid.push(wrong("inbound_deadline_ms", v, &ms_allowed()));
            }
            ms
        }
    };
    let empty = Vec::new();
    let list = match top.get("dependencies") {
        None => {
            invalid.push("dependencies is missing; allowed: a list of dependency objects".to_string());
            &empty
        }
        Some(Value::Array(list)) => list,
        Some(v) => {
            invalid.push(wrong("dependencies", v, "a list of dependency objects"));
            &empty
        }
    };
    let mut dependencies = Vec::new();
    for (index, item) in list.iter().enumerate() {
        let Some(object) = item.as_object() else {
            invalid.push(format!(
                "dependencies[{index}] is {}; allowed: an object",
                kind_of(item)
            ));
            continue;
        };
        match parse_dependency(object) {
            Ok(dependency) => dependencies.push(dependency),
            Err(problems) => {
                let name = object.get("name").and_then(Value::as_str);
                let label = name.map(|n| format!(" ({n})")).unwrap_or_default();
                invalid.extend(
                    problems
                        .into_iter()
                        .map(|problem| format!("dependencies[{index}]{label}: {problem}")),
                );
            }
        }
    }
    match inbound_deadline_ms {
        Some(inbound_deadline_ms) if invalid.is_empty() => Ok(Register {
            inbound_deadline_ms,
            dependencies,
        }),
        _ => Err(invalid),
    }
}

/// One dependency, or every field of it that has the wrong type or is out of range.
fn parse_dependency(object: &Map<String, Value>) -> std::result::Result<RegisteredDependency, Vec<String>> {
    let invalid = std::cell::RefCell::new(Vec::new());
    let fields = Fields {
        object,
        invalid: &invalid,
    };
    let text = |field: &str| fields.read(field, |v| v.as_str().map(str::to_string), "text");
    let flag = |field: &str| fields.read(field, Value::as_bool, "true or false");
    let number = |field: &str, min: u64, max: u64, allowed: &str| fields.read(field, |v| whole(v, min, max), allowed);
    let attempts_allowed = format!("a whole number from 1 to {MAX_ATTEMPTS}, the first attempt included");
    let criticality = fields.read(
        "criticality",
        |v| match v.as_str() {
            Some("hard") => Some(DependencyCriticality::Hard),
            Some("soft") => Some(DependencyCriticality::Soft),
            _ => None,
        },
        "\"hard\" or \"soft\"",
    );
    let dependency = RegisteredDependency {
        name: text("name"),
        criticality,
        timeout_ms: number("timeout_ms", 0, MAX_MS, &ms_allowed()),
        max_attempts: number("max_attempts", 1, MAX_ATTEMPTS, &attempts_allowed),
        sdk_attempts: number("sdk_attempts", 1, MAX_ATTEMPTS, &attempts_allowed),
        mesh_attempts: number("mesh_attempts", 1, MAX_ATTEMPTS, &attempts_allowed),
        idempotent: flag("idempotent"),
        breaker: flag("breaker"),
        runbook: text("runbook"),
        sequential: flag("sequential").unwrap_or(false),
        idempotency_key: flag("idempotency_key").unwrap_or(false),
        degraded_behaviour: text("degraded_behaviour"),
    };
    let invalid = invalid.into_inner();
    if invalid.is_empty() {
        Ok(dependency)
    } else {
        Err(invalid)
    }
}

/// A dependency's fields, read one by one; each invalid one is noted and reads as absent.
struct Fields<'a> {
    object: &'a Map<String, Value>,
    invalid: &'a std::cell::RefCell<Vec<String>>,
}

impl Fields<'_> {
    /// `field` as `parse` reads it: None when absent, and when invalid (noted with `allowed`).
    fn read<T>(&self, field: &str, parse: impl Fn(&Value) -> Option<T>, allowed: &str) -> Option<T> {
        let value = self.object.get(field)?;
        let parsed = parse(value);
        if parsed.is_none() {
            self.invalid.borrow_mut().push(wrong(field, value, allowed));
        }
        parsed
    }
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
        parse_register(&serde_json::from_str(text).expect("test JSON")).map_err(|problems| problems.join("\n"))
    }

    #[test]
    fn every_invalid_field_is_reported_not_only_the_first() {
        let problems = parse(
            r#"{"inbound_deadline_ms": "2s", "dependencies": [
                {"name": "db", "max_attempts": 0, "breaker": "yes"},
                {"name": "cache", "criticality": "medium"},
                7
            ]}"#,
        )
        .unwrap_err();
        assert_eq!(
            problems.lines().collect::<Vec<_>>(),
            [
                "inbound_deadline_ms is \"2s\"; allowed: a whole number of milliseconds from 0 to 86400000",
                "dependencies[0] (db): max_attempts is 0; allowed: a whole number from 1 to 1000, the first attempt included",
                "dependencies[0] (db): breaker is \"yes\"; allowed: true or false",
                "dependencies[1] (cache): criticality is \"medium\"; allowed: \"hard\" or \"soft\"",
                "dependencies[2] is a number; allowed: an object",
            ]
        );
    }

    #[test]
    fn the_json_findings_name_each_problem_and_the_verdict() {
        let register = parse(r#"{"inbound_deadline_ms": 10, "dependencies": [{"name": "db"}]}"#).expect("valid");
        let json: Value = serde_json::from_str(&findings_json(&policy::check(&register))).expect("JSON");
        assert_eq!(json["count"], 1);
        assert_eq!(json["passed"], false);
        assert!(
            json["problems"][0]
                .as_str()
                .is_some_and(|p| p.starts_with("db: missing criticality"))
        );
        assert_eq!(findings_json(&[]), r#"{"count":0,"passed":true,"problems":[]}"#);
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
            let problems = read_register(path).expect_err("refused");
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(
                problems[0].contains(says) && !problems[0].contains('\n'),
                "{problems:?}"
            );
        }
    }
}
