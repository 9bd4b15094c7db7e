//! Headless reports: the labs' results as the Atlas prints them, or as one JSON document.
//!
//! The text forms reproduce the Atlas's scripts byte for byte at their defaults; the
//! JSON forms carry the same numbers with their names, for scripts and CI.

use serde_json::{Value, json};

mod budget;
pub mod oncall;
mod overload;
pub use budget::{BudgetReport, budget_json, budget_rows, budget_text, write_budget};
pub use overload::{
    OverloadReport, last_second_outcomes, metastable_sim_json, metastable_sim_text, overload_json, overload_text,
};

use crate::engine::brownout::BrownoutRun;
use crate::engine::brownout::{BrownoutComparison, CallerRun, CallerSummary};
use crate::engine::health::DriverRun;
use crate::engine::pyfmt::{float_repr, percent};
use crate::engine::retry::SimComparison;
use crate::engine::retry::{RetryPolicy, ScenarioResult};
use crate::engine::retry_chain::LiveMetastableRun;

/// The fleet lab's reports (Lab 1 at fleet scale).
pub mod fleet;

pub mod cells;
use cells::Row;

/// One row of the Atlas's retry table, e.g. `A: 4 attempts at 3 layers    p=1.0  db attempts/action= 64.00  success=  0.0%`.
pub fn retry_row(name: &str, result: &ScenarioResult) -> String {
    retry_cells(None, name, result).line()
}

/// [`retry_row`] as fields; its numbers name their metrics when the row is `policy`'s (the
/// app's A, B and C rows), so the app can hide them.
pub fn retry_cells(policy: Option<RetryPolicy>, name: &str, result: &ScenarioResult) -> Row {
    let metric = |field: &str| policy.map(|policy| crate::learning::metrics::retry_metric(policy, field));
    let number = |row: Row, field: &str, text: String| match metric(field) {
        Some(metric) => row.number(metric, text),
        None => row.text(text),
    };
    let row = Row::of(format!(
        "{name:<28} p={:<4} db attempts/action=",
        float_repr(result.params.p)
    ));
    let row = number(
        row,
        "db_attempts_per_action",
        format!("{:6.2}", result.db_attempts_per_action),
    );
    number(
        row.text("  success="),
        "success_ratio",
        percent(result.success_ratio, 6, 1),
    )
}

/// One caller's Atlas line of Lab 3, e.g. `with breaker  calls= 2911 to sick=   44 ...`:
/// `label` as printed, `key` its metrics' (`breaker.<key>.calls`, [`crate::learning::metrics::BREAKER_CALLERS`]).
pub fn caller_row(summary: &CallerSummary, caller: (&str, &str)) -> Row {
    caller_row_as(summary, caller, "calls")
}

/// [`caller_row`] with `sent` naming its first count, the calls that went out to the
/// dependency: the Atlas prints `calls`; the app writes `sent`, since a call the open breaker
/// refuses is degraded at once and never sent (`calls=2911` beside `degraded=3133`, for the
/// same 6,000 page views, read as a miscount).
pub fn caller_row_as(summary: &CallerSummary, (label, key): (&str, &str), sent: &str) -> Row {
    let metric = |field: &str| crate::learning::metrics::breaker_metric(key, field);
    Row::of(format!("{label:<13} {sent}="))
        .number(metric("calls"), format!("{:5}", summary.calls))
        .text(" to sick=")
        .number(metric("sick_calls"), format!("{:5}", summary.sick_calls))
        .text(" degraded=")
        .number(metric("degraded"), format!("{:5}", summary.degraded))
        .text(" p99 wait=")
        .number(metric("p99_wait_ms"), format!("{:3.0} ms", summary.p99_wait_ms))
        .text(" stuck=")
        .number(metric("stuck"), format!("{:4.1}", summary.stuck))
}

/// Both callers' rows of `run`, timeout only first.
pub fn breaker_rows(run: &BrownoutComparison) -> [Row; 2] {
    let [timeout_only, with_breaker] = crate::learning::metrics::BREAKER_CALLERS;
    [
        caller_row(&run.timeout_only.summary, timeout_only),
        caller_row(&run.with_breaker.summary, with_breaker),
    ]
}

/// Lab 1's driver output as `lab1.sh` prints it, one row a line: the server's and the
/// probes' lines, then what became of the two requests and the exit code.
pub fn health_rows(run: &DriverRun) -> Vec<Row> {
    let mut rows: Vec<Row> = run.timeline.iter().map(|line| Row::of(line.line.clone())).collect();
    let labels = ["request sent before SIGTERM", "request sent after SIGTERM"];
    for (index, (label, outcome)) in labels.iter().zip(&run.work).enumerate() {
        let row = Row::of(format!("{label}: "));
        rows.push(match index {
            1 => row.number(crate::learning::metrics::HEALTH_LATE_REQUEST_DONE, outcome.word()),
            _ => row.text(outcome.word()),
        });
    }
    rows.push(
        Row::of("server exit code: ").number(crate::learning::metrics::HEALTH_EXIT_CODE, run.exit_code.to_string()),
    );
    rows
}

/// The Full Jitter line, as Python prints a list of rounded floats.
pub fn jitter_line(sleeps_s: &[f64]) -> String {
    let items: Vec<String> = sleeps_s.iter().map(|s| float_repr(*s)).collect();
    jitter_line_with(&format!("[{}]", items.join(", ")))
}

/// The jitter line with `sleeps` as its list: the list itself, or the app's placeholder while a check
/// asks for a ceiling the sleeps are drawn under.
pub fn jitter_line_with(sleeps: &str) -> String {
    format!("full-jitter sleeps (s): {sleeps}")
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

/// The retry ratio of the top client: retries among its sends.
fn top_retry_ratio(result: &ScenarioResult) -> f64 {
    match result.sends_per_layer.first() {
        Some(&sends) if sends > 0 => sends.saturating_sub(result.params.actions) as f64 / sends as f64,
        _ => 0.0,
    }
}

/// The names of the servers of a chain with `layers` layers, front end first, database last.
pub fn server_names(layers: usize) -> Vec<String> {
    let mut names: Vec<String> = match layers {
        0 | 1 => Vec::new(),
        2 => vec!["back end".into()],
        3 => vec!["front end".into(), "back end".into()],
        n => (1..n).map(|k| format!("layer {k}")).collect(),
    };
    names.push("database".into());
    names
}

/// The live extras under a row: per-server counts, retry ratio, and the sim beside it.
///
/// A run cut off at its time limit (`comparison` is `None`) is not compared: its actions are
/// fewer than asked and the cut ones are counted half-done, so "outside sampling error" would
/// blame the model for the cut.
pub fn retry_live_lines(result: &ScenarioResult, comparison: Option<&SimComparison>) -> String {
    let counts: Vec<String> = server_names(result.sends_per_layer.len())
        .iter()
        .zip(&result.sends_per_layer)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    let Some(comparison) = comparison else {
        return format!(
            "  received: {}; retry ratio at the top {}\n  \
             not compared with the simulation: the run was cut off at its time limit\n",
            counts.join(", "),
            percent(top_retry_ratio(result), 6, 1).trim(),
        );
    };
    let verdict = if comparison.within {
        "difference within sampling error"
    } else {
        "difference OUTSIDE sampling error"
    };
    format!(
        "  received: {}; retry ratio at the top {}\n  \
         sim at the same settings: {:.2} db attempts/action, success {}; {verdict} (\u{b1}{:.2} at 95%)\n",
        counts.join(", "),
        percent(top_retry_ratio(result), 6, 1).trim(),
        comparison.sim_db_attempts_per_action,
        percent(comparison.sim_success_ratio, 6, 1).trim(),
        comparison.margin_95,
    )
}

/// One live scenario as JSON: the sim's fields with mode "live", per-server counts and the comparison.
/// A cut-off run (`comparison` is `None`) has `"sim_comparison": null`.
pub fn retry_live_value(result: &ScenarioResult, comparison: Option<&SimComparison>) -> Value {
    let mut value = retry_scenario_value(result, "live");
    let received: serde_json::Map<String, Value> = server_names(result.sends_per_layer.len())
        .into_iter()
        .zip(&result.sends_per_layer)
        .map(|(name, n)| (name.replace(' ', "_"), json!(n)))
        .collect();
    value["received_per_server"] = Value::Object(received);
    value["retry_ratio"] = json!(top_retry_ratio(result));
    value["sim_comparison"] = json!(comparison);
    value
}

/// The live table as JSON: every row with its comparison, then the jitter sleeps.
pub fn retry_live_table_json(rows: &[(String, ScenarioResult, Option<SimComparison>)], sleeps_s: &[f64]) -> String {
    let rows: Vec<Value> = rows
        .iter()
        .map(|(name, result, comparison)| {
            let mut row = retry_live_value(result, comparison.as_ref());
            row["name"] = json!(name);
            row
        })
        .collect();
    json!({"lab": "retry", "mode": "live", "rows": rows, "full_jitter_sleeps_s": sleeps_s}).to_string()
}

/// The metastable experiment as text: the timeline, then goodput before, during and after.
pub fn metastable_text(run: &LiveMetastableRun) -> String {
    let c = &run.config;
    let attempts: Vec<String> = run.attempts.iter().map(u32::to_string).collect();
    let budget = if run.budget > 0.0 {
        format!("{} budget", percent(run.budget, 0, 0).trim())
    } else {
        "no budget".to_string()
    };
    let mut text = format!(
        "metastable: policy {} (attempts {}, {budget}); database {} slots x {} ms = {:.0} req/s; \
         load {:.0} actions/s ({:.0}% of capacity); back-end timeout {} ms; deadline {} ms; trigger {} s\n",
        policy_word(run.config.policy),
        attempts.join(","),
        c.capacity.concurrency,
        float_repr(c.capacity.service_ms),
        c.capacity_per_s(),
        c.load_per_s,
        100.0 * c.load_per_s / c.capacity_per_s(),
        c.db_timeout_ms,
        c.deadline_ms,
        float_repr(c.trigger_s),
    );
    text.push_str("   t(s)  phase    goodput/s  db req/s  db timeouts/s  expired/s  db queue\n");
    for b in &run.buckets {
        text.push_str(&format!(
            "  {:5.1}  {:<7}  {:9.0}  {:8.0}  {:13.0}  {:9.0}  {:8}\n",
            b.t_s,
            b.phase.word(),
            b.goodput_per_s,
            b.db_requests_per_s,
            b.db_timeouts_per_s,
            b.expired_per_s,
            b.db_in_flight
        ));
    }
    let recovered = match run.recovered_after_s {
        Some(s) => format!("recovered {s:.1} s after the trigger ended"),
        None => "did not recover while the load lasted".to_string(),
    };
    text.push_str(&format!(
        "goodput/s: before {:.0}, during {:.0}, after {:.0} (last third {:.0}); {recovered}\n",
        run.goodput_before_per_s, run.goodput_during_per_s, run.goodput_after_per_s, run.goodput_end_per_s
    ));
    if run.db_refused > 0 {
        text.push_str(&format!(
            "database backlog full ({} requests queued or in service): {} requests refused at once\n",
            crate::engine::retry::DB_BACKLOG,
            run.db_refused
        ));
    }
    if run.actions_skipped > 0 {
        text.push_str(&format!(
            "load limit ({} actions in flight): {} actions not started\n",
            run.max_in_flight, run.actions_skipped
        ));
    }
    text
}

fn policy_word(policy: RetryPolicy) -> &'static str {
    match policy {
        RetryPolicy::Layered => "layered",
        RetryPolicy::TopOnly => "single",
        RetryPolicy::TopOnlyBudget => "budget",
    }
}

/// The metastable experiment as JSON.
pub fn metastable_json(run: &LiveMetastableRun) -> String {
    let mut value = json!(run);
    value["lab"] = json!("retry");
    value["mode"] = json!("live");
    value["scenario"] = json!("metastable");
    value["policy_name"] = json!(policy_word(run.config.policy));
    value.to_string()
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
    for row in breaker_rows(run) {
        text.push_str(&row.line());
        text.push('\n');
    }
    let log: Vec<String> = run.with_breaker.transitions.iter().map(ToString::to_string).collect();
    // Python prints the joined log even when it is empty: a blank line.
    text.push_str(&log.join("\n"));
    text.push('\n');
    text.push_str(&transitions_not_kept_line(&run.with_breaker));
    text
}

/// The line after a breaker log that hit its limit; empty when every change is in the log.
fn transitions_not_kept_line(run: &CallerRun) -> String {
    if run.transitions_not_kept == 0 {
        return String::new();
    }
    format!(
        "... and {} more transitions, not kept (the log keeps the first {})\n",
        run.transitions_not_kept,
        crate::engine::breaker::TRANSITION_LOG_LIMIT
    )
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
        if run.transitions_not_kept > 0 {
            value["transitions_not_kept"] = json!(run.transitions_not_kept);
        }
    }
    value
}

/// Lab 3 as JSON.
pub fn breaker_json(run: &BrownoutComparison, mode: &str) -> String {
    breaker_value(run, mode).to_string()
}

/// Lab 3 live as text: the Atlas's rows, one line on the live clock, the transition log.
pub fn breaker_live_text(run: &BrownoutRun) -> String {
    let comparison = &run.comparison;
    let mut text = String::new();
    for row in breaker_rows(comparison) {
        text.push_str(&row.line());
        text.push('\n');
    }
    text.push_str(&breaker_live_line(run));
    text.push('\n');
    if run.timeout_only.not_sent + run.with_breaker.not_sent > 0 {
        text.push_str(&format!(
            "calls not sent ({} out at once per caller, the bound on memory): {}/{}, degraded at once\n",
            crate::engine::brownout::MAX_CALLS_IN_FLIGHT,
            run.timeout_only.not_sent,
            run.with_breaker.not_sent
        ));
    }
    let log: Vec<String> = comparison
        .with_breaker
        .transitions
        .iter()
        .map(ToString::to_string)
        .collect();
    text.push_str(&log.join("\n"));
    text.push('\n');
    text.push_str(&transitions_not_kept_line(&comparison.with_breaker));
    text
}

/// The line that says a live run is a measurement: rate, lateness, in flight, timeouts.
pub fn breaker_live_line(run: &BrownoutRun) -> String {
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
pub fn breaker_live_json(run: &BrownoutRun) -> String {
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
    let mut text = health_rows(run).iter().map(Row::line).collect::<Vec<_>>().join("\n");
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

/// A live counting run that its time limit cut short: what was asked, what ran.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RetryTimeLimit {
    pub limit_s: u64,
    pub actions_requested: u64,
    /// Actions started, the cut ones included.
    pub actions_ran: u64,
    /// Actions still retrying at the limit, cut off there.
    pub cut_off: u64,
}

impl RetryTimeLimit {
    pub fn new(requested: u64, result: &ScenarioResult, cut_off: u64) -> Self {
        Self {
            limit_s: crate::engine::retry::RUN_ACTIONS_TIME_LIMIT.as_secs(),
            actions_requested: requested,
            actions_ran: result.params.actions,
            cut_off,
        }
    }

    pub fn line(&self) -> String {
        format!(
            "  stopped at the {} s limit: {} of {} actions ran, {} cut off mid-retry (their attempts so far are counted)",
            self.limit_s, self.actions_ran, self.actions_requested, self.cut_off
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::retry::compare_with_sim;
    use crate::engine::retry::{ScenarioParams, run_scenario};
    use crate::engine::{brownout, health};

    /// Hides every metric, each with its own placeholder.
    struct HideAll;

    impl cells::Mask for HideAll {
        fn hidden(&self, metric: &str) -> Option<String> {
            Some(format!("<{metric}>"))
        }
    }

    /// A row of every printer at the Atlas's defaults, for tests over all of them.
    fn sample_rows() -> Vec<Row> {
        use crate::engine::retry;
        let mut rows: Vec<Row> = retry::compare_policies(&[4, 4, 4], 1.0, 0.1, 1000, 7)
            .into_iter()
            .map(|(policy, result)| retry_cells(Some(policy), policy.label(&[4, 4, 4], 0.1).as_str(), &result))
            .collect();
        rows.extend(breaker_rows(&brownout::compare(&brownout::BrownoutParams::default())));
        let run = health::simulate_driver(&health::HealthConfig::default(), health::SIM_DRIVER_PORT);
        rows.extend(
            health_rows(&run)
                .into_iter()
                .filter(|row| row.fields().iter().any(|f| f.metric.is_some())),
        );
        rows
    }

    /// The property the replace-based masking lacked: whatever a printer's labels and widths
    /// are, a hidden number's text is not in the row. Every printer's rows, with their labels
    /// and number widths changed, hide each number they name.
    #[test]
    fn changing_a_printers_label_or_width_cannot_unhide_a_number() {
        for row in sample_rows() {
            assert!(
                row.fields().iter().any(|f| f.metric.is_some()),
                "{row:?} names no metric"
            );
            for relabel in [
                |text: &str| text.to_string(),
                |text: &str| format!("{} ", text.to_uppercase()),
                |text: &str| text.trim().replace('=', ": "),
            ] {
                for widen in [0, 3] {
                    let changed = row
                        .fields()
                        .iter()
                        .fold(Row::default(), |changed, field| match &field.metric {
                            Some(metric) => {
                                changed.number(metric.clone(), format!("{}{}", " ".repeat(widen), field.text))
                            }
                            None => changed.text(relabel(&field.text)),
                        });
                    let hidden = changed.fit(60, &HideAll);
                    for field in changed.fields() {
                        if let Some(metric) = &field.metric {
                            assert!(
                                hidden.contains(&format!("<{metric}>")),
                                "{metric} not hidden in {hidden}"
                            );
                        }
                    }
                    // Without the placeholders, what is left is the labels' digits and no others.
                    let mut rest = hidden.clone();
                    for metric in changed.fields().iter().filter_map(|f| f.metric.as_deref()) {
                        rest = rest.replacen(&format!("<{metric}>"), "", 1);
                    }
                    let labels: String = changed
                        .fields()
                        .iter()
                        .filter(|f| f.metric.is_none())
                        .map(|f| f.text.as_str())
                        .collect();
                    let digits = |text: &str| text.chars().filter(char::is_ascii_digit).count();
                    assert_eq!(
                        digits(&rest),
                        digits(&labels),
                        "a hidden number's digits show: {hidden}"
                    );
                }
            }
        }
    }
    #[test]
    fn the_atlas_defaults_print_the_published_lines() {
        let run = brownout::compare(&brownout::BrownoutParams::default());
        assert_eq!(
            breaker_rows(&run).map(|row| row.line()),
            [
                "timeout only  calls= 6000 to sick= 3000 degraded= 3000 p99 wait=200 ms stuck=20.0",
                "with breaker  calls= 2911 to sick=   44 degraded= 3133 p99 wait= 40 ms stuck= 0.3",
            ]
        );
        let run = health::simulate_driver(&health::HealthConfig::default(), health::SIM_DRIVER_PORT);
        let lines: Vec<String> = health_rows(&run).iter().map(Row::line).collect();
        assert_eq!(
            lines[lines.len() - 3..],
            [
                "request sent before SIGTERM: done",
                "request sent after SIGTERM: done",
                "server exit code: 0",
            ]
        );
    }

    #[test]
    fn servers_are_named_by_their_place_in_the_chain() {
        assert_eq!(server_names(3), ["front end", "back end", "database"]);
        assert_eq!(server_names(2), ["back end", "database"]);
        assert_eq!(server_names(1), ["database"]);
        assert_eq!(server_names(4), ["layer 1", "layer 2", "layer 3", "database"]);
    }

    #[test]
    fn live_lines_name_counts_ratio_and_the_sim() {
        // The sim's own result stands in for a live one: the difference is exactly zero.
        let result = run_scenario(&ScenarioParams {
            p: 1.0,
            attempts: vec![4, 1, 1],
            budget: 0.0,
            actions: 100,
            seed: 42,
        });
        let lines = retry_live_lines(&result, Some(&compare_with_sim(&result)));
        assert_eq!(
            lines,
            "  received: front end 400, back end 400, database 400; retry ratio at the top 75.0%\n  \
             sim at the same settings: 4.00 db attempts/action, success 0.0%; \
             difference within sampling error (\u{b1}0.00 at 95%)\n"
        );
    }
}
