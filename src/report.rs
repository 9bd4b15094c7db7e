//! Headless reports: the labs' results as the Atlas prints them, or as one JSON document.
//!
//! The text forms reproduce the Atlas's scripts byte for byte at their defaults; the
//! JSON forms carry the same numbers with their names, for scripts and CI.

use serde_json::{Value, json};

use crate::engine::brownout::{BrownoutComparison, CallerRun};
use crate::engine::health::DriverRun;
use crate::engine::pyfmt::{float_repr, percent};
use crate::engine::retry::ScenarioResult;
use crate::live::brownout::LiveRun;

/// One row of the Atlas's retry table, e.g. `A: 4 attempts at 3 layers    p=1.0  db attempts/action= 64.00  success=  0.0%`.
pub fn retry_row(name: &str, result: &ScenarioResult) -> String {
    format!(
        "{name:<28} p={:<4} db attempts/action={:6.2}  success={}",
        float_repr(result.params.p),
        result.db_attempts_per_action,
        percent(result.success_ratio, 6, 1)
    )
}

/// The Full Jitter line, as Python prints a list of rounded floats.
pub fn jitter_line(sleeps_s: &[f64]) -> String {
    let items: Vec<String> = sleeps_s.iter().map(|s| float_repr(*s)).collect();
    format!("full-jitter sleeps (s): [{}]", items.join(", "))
}

/// The Atlas's whole Lab 2 output: A, B and C at each p, then the jitter sleeps.
pub fn retry_table_text(rows: &[(String, ScenarioResult)], sleeps_s: &[f64]) -> String {
    let mut text = String::new();
    for (name, result) in rows {
        text.push_str(&retry_row(name, result));
        text.push('\n');
    }
    text.push_str(&jitter_line(sleeps_s));
    text.push('\n');
    text
}

fn retry_scenario_value(result: &ScenarioResult, mode: &str) -> Value {
    json!({
        "lab": "retry",
        "mode": mode,
        "params": {
            "p": result.params.p,
            "attempts": result.params.attempts,
            "budget": result.params.budget,
            "actions": result.params.actions,
            "seed": result.params.seed,
        },
        "db_attempts": result.db_attempts,
        "db_attempts_per_action": result.db_attempts_per_action,
        "successes": result.successes,
        "success_ratio": result.success_ratio,
        "sends_per_layer": result.sends_per_layer,
    })
}

/// One scenario as JSON.
pub fn retry_scenario_json(result: &ScenarioResult, mode: &str) -> String {
    retry_scenario_value(result, mode).to_string()
}

/// The default table as JSON: every row, then the jitter sleeps.
pub fn retry_table_json(rows: &[(String, ScenarioResult)], sleeps_s: &[f64]) -> String {
    let rows: Vec<Value> = rows
        .iter()
        .map(|(name, result)| {
            let mut row = retry_scenario_value(result, "sim");
            row["name"] = json!(name);
            row
        })
        .collect();
    json!({"lab": "retry", "mode": "sim", "rows": rows, "full_jitter_sleeps_s": sleeps_s}).to_string()
}

/// The Atlas's Lab 3 output: two summary rows and the breaker's transition log.
pub fn breaker_text(run: &BrownoutComparison) -> String {
    let mut text = String::new();
    text.push_str(&run.timeout_only.summary.atlas_line("timeout only"));
    text.push('\n');
    text.push_str(&run.with_breaker.summary.atlas_line("with breaker"));
    text.push('\n');
    let log: Vec<String> = run.with_breaker.transitions.iter().map(ToString::to_string).collect();
    // Python prints the joined log even when it is empty: a blank line.
    text.push_str(&log.join("\n"));
    text.push('\n');
    text
}

fn caller_value(run: &CallerRun, with_transitions: bool) -> Value {
    let summary = &run.summary;
    let mut value = json!({
        "calls": summary.calls,
        "sick_calls": summary.sick_calls,
        "degraded": summary.degraded,
        "p99_wait_ms": summary.p99_wait_ms,
        "stuck": summary.stuck,
    });
    if with_transitions {
        value["transitions"] = json!(run.transitions);
    }
    value
}

/// Lab 3 as JSON.
pub fn breaker_json(run: &BrownoutComparison, mode: &str) -> String {
    breaker_value(run, mode).to_string()
}

/// Lab 3 live as text: the Atlas's rows, one line on the live clock, the transition log.
pub fn breaker_live_text(run: &LiveRun) -> String {
    let comparison = &run.comparison;
    let mut text = String::new();
    text.push_str(&comparison.timeout_only.summary.atlas_line("timeout only"));
    text.push('\n');
    text.push_str(&comparison.with_breaker.summary.atlas_line("with breaker"));
    text.push('\n');
    text.push_str(&breaker_live_line(run));
    text.push('\n');
    let log: Vec<String> = comparison
        .with_breaker
        .transitions
        .iter()
        .map(ToString::to_string)
        .collect();
    text.push_str(&log.join("\n"));
    text.push('\n');
    text
}

/// The line that says a live run is a measurement: rate, lateness, in flight, timeouts.
pub fn breaker_live_line(run: &LiveRun) -> String {
    let (plain, guarded) = (&run.timeout_only, &run.with_breaker);
    format!(
        "live run (measured, varies run to run): achieved rate {:.1}/s, late sends {} (p99 {:.1} ms), \
         in flight during brownout avg {:.1} (breaker {:.1}), p50 wait {:.0}/{:.0} ms, \
         timed out {}/{}, timeout overshoot p99 {:.1} ms",
        plain.achieved_rate.min(guarded.achieved_rate),
        plain.late_sends + guarded.late_sends,
        plain.late_p99_ms.max(guarded.late_p99_ms),
        plain.in_flight_sick_avg,
        guarded.in_flight_sick_avg,
        plain.p50_wait_ms,
        guarded.p50_wait_ms,
        plain.timed_out,
        guarded.timed_out,
        plain.timeout_overshoot_p99_ms.max(guarded.timeout_overshoot_p99_ms),
    )
}

/// Lab 3 live as JSON: the sim's document with mode "live" and a `live` section.
pub fn breaker_live_json(run: &LiveRun) -> String {
    let mut value = breaker_value(&run.comparison, "live");
    value["live"] = json!({
        "timeout_only": run.timeout_only,
        "with_breaker": run.with_breaker,
        "dependency_requests": run.dependency_requests,
    });
    value.to_string()
}

fn breaker_value(run: &BrownoutComparison, mode: &str) -> Value {
    let params = &run.params;
    json!({
        "lab": "breaker",
        "mode": mode,
        "params": {
            "rate": params.rate,
            "duration_s": params.duration_s,
            "timeout_ms": params.timeout_ms,
            "healthy_ms": params.healthy_ms,
            "brownout_s": [params.brownout_start_s, params.brownout_end_s],
            "window": params.breaker.window,
            "min_calls": params.breaker.min_calls,
            "threshold": params.breaker.threshold,
            "open_s": params.breaker.open_s,
            "trial_calls": params.breaker.trial_calls,
        },
        "timeout_only": caller_value(&run.timeout_only, false),
        "with_breaker": caller_value(&run.with_breaker, true),
    })
}

/// Lab 1's driver output, as `lab1.sh` prints it.
pub fn health_text(run: &DriverRun) -> String {
    let mut text = run.lines().join("\n");
    text.push('\n');
    text
}

/// Lab 1 as JSON: the probe timeline and the two request outcomes.
pub fn health_json(run: &DriverRun, mode: &str, config: &crate::engine::health::HealthConfig) -> String {
    health_value(run, mode, config).to_string()
}

/// Lab 1 live as JSON: [`health_json`] plus the server's request log (its stderr), which
/// the text report keeps out of sight.
pub fn health_live_json(
    run: &DriverRun,
    config: &crate::engine::health::HealthConfig,
    server_log: &[String],
) -> String {
    let mut value = health_value(run, "live", config);
    value["server_log"] = json!(server_log);
    value.to_string()
}

fn health_value(run: &DriverRun, mode: &str, config: &crate::engine::health::HealthConfig) -> Value {
    json!({
        "lab": "health",
        "mode": mode,
        "params": config,
        "probes": run.probes,
        "requests": {
            "before_sigterm": run.work.first().map(|w| w.word()),
            "after_sigterm": run.work.get(1).map(|w| w.word()),
        },
        "exit_code": run.exit_code,
        "abandoned": run.abandoned,
        "timeline": run.timeline,
    })
}
