//! Lab 5's reports: a scenario's named numbers as text (with the deadline's waterfall and
//! the register's timeline) or as one JSON document, `"lab": "budget"`.
//!
//! A live run is reported with the same names as the simulation, measured, and the
//! simulation at the same settings beside it (`"sim"` in the JSON).

use serde_json::{Map, Value, json};

use crate::engine::budget::{BudgetRun, BudgetScenario, MetricValue};
use crate::report::cells::Row;

/// What one `run budget` printed.
pub struct BudgetReport<'a> {
    pub scenario: BudgetScenario,
    /// "sim" or "live".
    pub mode: &'static str,
    /// The scenario's parameters by name, as resolved (flags, else defaults).
    pub params: &'a [(&'static str, f64)],
    /// The run: simulated, or measured live.
    pub run: &'a BudgetRun,
    /// With --live: the simulation at the same settings.
    pub sim_beside: Option<&'a BudgetRun>,
    /// Lines about how a live run was made (time scale, ports).
    pub notes: &'a [String],
}

/// Names whose values are fractions or means, printed as decimals; all others are counts
/// or milliseconds, printed as whole numbers when they are whole.
fn is_decimal(name: &str) -> bool {
    ["per_request", "cut", "share", "reopened_at_s", "cooldown_s"]
        .iter()
        .any(|part| name.contains(part))
}

fn number(name: &str, value: f64) -> Value {
    if !is_decimal(name) && value.fract() == 0.0 && value.abs() < 1e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

fn metric_value(name: &str, value: &MetricValue) -> Value {
    match value {
        MetricValue::Number(v) => number(name, *v),
        MetricValue::List(items) => Value::Array(
            items
                .iter()
                .map(|item| item.map_or(Value::Null, |v| number(name, v)))
                .collect(),
        ),
    }
}

fn metrics_object(run: &BudgetRun) -> Value {
    let mut map = Map::new();
    for (name, value) in &run.metrics {
        map.insert((*name).to_string(), metric_value(name, value));
    }
    Value::Object(map)
}

/// The report as one JSON document.
pub fn budget_json(report: &BudgetReport<'_>) -> String {
    let mut params = Map::new();
    for (name, value) in report.params {
        params.insert((*name).to_string(), number(name, *value));
    }
    let mut doc = json!({
        "lab": "budget",
        "mode": report.mode,
        "scenario": report.scenario.name(),
        "params": Value::Object(params),
        "metrics": metrics_object(report.run),
    });
    if let Some(sim) = report.sim_beside {
        doc["sim"] = metrics_object(sim);
    }
    if !report.notes.is_empty() {
        doc["notes"] = json!(report.notes);
    }
    if !report.run.policy_problems.is_empty() {
        doc["policy_problems"] = json!(report.run.policy_problems);
    }
    if !report.run.hops.is_empty() {
        doc["hops"] = json!(report.run.hops);
    }
    doc.to_string()
}

fn text_value(name: &str, value: &MetricValue) -> String {
    let one = |v: f64| {
        if is_decimal(name) || v.fract() != 0.0 {
            format!("{v:.3}")
        } else {
            format!("{v:.0}")
        }
    };
    match value {
        MetricValue::Number(v) => one(*v),
        MetricValue::List(items) => {
            let items: Vec<String> = items.iter().map(|i| i.map_or("-".to_string(), one)).collect();
            items.join(", ")
        }
    }
}

fn ms(value: Option<u64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Writes the report as the command line prints it: JSON on one line, or the text.
pub fn write_budget(report: &BudgetReport<'_>, json: bool, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", budget_json(report))
    } else {
        write!(out, "{}", budget_text(report))
    }
}

/// The report as text: the scenario's picture, then every named number.
pub fn budget_text(report: &BudgetReport<'_>) -> String {
    let run = report.run;
    let mut text = format!(
        "Lab 5, a request's budget: scenario {} ({})\n",
        report.scenario.name(),
        report.mode
    );
    for note in report.notes {
        text.push_str(&format!("  {note}\n"));
    }
    let settings: Vec<String> = report.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    text.push_str(&format!("settings: {}\n", settings.join(" ")));
    if !run.hops.is_empty() {
        text.push_str("hop        at_ms  received_ms  spent_ms  passed_ms\n");
        for hop in &run.hops {
            let mark = if hop.rejected { "  refused at once" } else { "" };
            text.push_str(&format!(
                "{:<9}{:>7}  {:>11}  {:>8}  {:>9}{mark}\n",
                hop.name,
                hop.at_ms,
                ms(hop.received_ms),
                hop.spent_ms,
                ms(hop.passed_ms)
            ));
        }
    }
    if !run.attempts.is_empty() {
        for a in &run.attempts {
            text.push_str(&format!(
                "{:<10} attempt {}  {:>5} -> {:>5} ms (timed out)\n",
                a.dependency, a.number, a.start_ms, a.end_ms
            ));
        }
        for line in &run.policy_problems {
            text.push_str(&format!("POLICY {line}\n"));
        }
    }
    for (name, value) in &run.metrics {
        let beside = report
            .sim_beside
            .and_then(|sim| sim.metrics.iter().find(|(n, _)| n == name))
            .map(|(_, v)| format!("   (sim {})", text_value(name, v)))
            .unwrap_or_default();
        text.push_str(&format!("{name}: {}{beside}\n", text_value(name, value)));
    }
    text
}

/// One line of the app's results panel: each cell a label and the name of the number after it.
type PanelLine = &'static [(&'static str, &'static str)];

/// What the app's results panel shows of each scenario, line by line.
#[rustfmt::skip]
const PANEL_LINES: [(BudgetScenario, &[PanelLine]); 7] = [
    (BudgetScenario::Deadline, &[
        &[("received: edge ", "edge_budget_ms"), (" · checkout ", "checkout_budget_ms"), (" · payments ", "payments_budget_ms")],
        &[("wasted ", "wasted_ms"), (" · early rejections ", "early_rejections"), (" · answered at ", "answered_at_ms")],
    ]),
    (BudgetScenario::Register, &[
        &[("worst case ", "worst_case_ms"), (" against a deadline of ", "deadline_ms"), (" · within ", "within_deadline")],
        &[("attempts after the deadline ", "attempts_after_deadline"), (" · policy check problems ", "policy_problems")],
    ]),
    (BudgetScenario::RetryAfter, &[
        &[("in the 429 window: ignoring ", "arrivals_in_window_ignoring"), (" · honouring ", "arrivals_in_window_honouring"), (" · cut ", "window_arrivals_cut")],
        &[("all clients, as set: calls ", "calls"), (" · in window ", "arrivals_in_window"), (" · ok ", "succeeded"), (" · gave up ", "gave_up_for_deadline")],
        &[("429s: no bucket ", "api_429s_without_bucket"), (" · bucket ", "api_429s_with_bucket"), (" · held back ", "local_rejections")],
    ]),
    (BudgetScenario::Duplicates, &[
        &[("orders ", "requests"), (" · dropped after commit ", "dropped_after_commit"), (" · duplicates ", "duplicates")],
        &[("charges ", "charges"), (" · attempts ", "attempts")],
    ]),
    (BudgetScenario::Status, &[
        &[("attempts per request ", "attempts_per_request"), (" · attempts ", "attempts"), (" · pointless ", "pointless_attempts")],
        &[("backoff per request ", "backoff_ms_per_request")],
    ]),
    (BudgetScenario::Herd, &[
        &[("peak per 10 ms with this sleep ", "peak_per_10ms"), (" · gave up ", "gave_up")],
        &[("fixed 1 s ", "peak_per_10ms_fixed"), (" · ±25% ", "peak_per_10ms_jitter25"), (" · full jitter ", "peak_per_10ms_full")],
    ]),
    (BudgetScenario::HalfOpen, &[
        &[("calls to the sick dependency in the first second: ", "half_open_calls_first_s")],
        &[("no half-open limit ", "half_open_calls_first_s_note"), (" · one probe ", "half_open_calls_first_s_one_probe"), (" · reopened at ", "reopened_at_s")],
    ]),
];

/// The unit printed after number `name`.
fn unit_of(name: &str) -> &'static str {
    if name.ends_with("_ms") || name == "backoff_ms_per_request" {
        " ms"
    } else if name.ends_with("_at_s") {
        " s"
    } else {
        ""
    }
}

/// The app's results lines of `run` as cells, each number named `budget.NAME` (so the app's
/// hiding rule leaves a number out before it is text). A number the run lacks prints `-`.
pub fn budget_rows(run: &BudgetRun) -> Vec<Row> {
    let lines = PANEL_LINES
        .iter()
        .find(|(scenario, _)| *scenario == run.scenario)
        .map_or(&[][..], |(_, lines)| *lines);
    lines
        .iter()
        .map(|cells| {
            cells.iter().fold(Row::default(), |row, (label, name)| {
                let value = run.metrics.iter().find(|(n, _)| n == name).map(|(_, v)| v);
                let text = value.map_or_else(
                    || "-".to_string(),
                    |v| format!("{}{}", text_value(name, v), unit_of(name)),
                );
                row.text(*label)
                    .number(crate::learning::metrics::budget_metric(name), text)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::{self, BudgetParams};

    #[test]
    fn json_names_the_lab_mode_scenario_params_and_metrics() {
        let run = budget::run(BudgetScenario::Deadline, &BudgetParams::default());
        let doc: Value = serde_json::from_str(&budget_json(&BudgetReport {
            scenario: BudgetScenario::Deadline,
            mode: "sim",
            params: &[("inbound_ms", 30_000.0)],
            run: &run,
            sim_beside: None,
            notes: &[],
        }))
        .expect("JSON");
        assert_eq!(doc["lab"], "budget");
        assert_eq!(doc["mode"], "sim");
        assert_eq!(doc["scenario"], "deadline");
        assert_eq!(doc["params"]["inbound_ms"], 30_000);
        assert_eq!(doc["metrics"]["hop_budget_ms"], json!([30_000, 23_000, 19_000]));
        assert_eq!(doc["metrics"]["wasted_ms"], 0);
    }

    #[test]
    fn text_draws_the_waterfall() {
        let run = budget::run(BudgetScenario::Deadline, &BudgetParams::default());
        let text = budget_text(&BudgetReport {
            scenario: BudgetScenario::Deadline,
            mode: "sim",
            params: &[],
            run: &run,
            sim_beside: None,
            notes: &[],
        });
        assert!(
            text.contains("checkout    7000        23000      4000      19000"),
            "{text}"
        );
        assert!(text.contains("hop_budget_ms: 30000, 23000, 19000"));
    }
}
