//! The on-call drill's printers: the `run oncall` summary (text and JSON) and the debrief
//! (Markdown and JSON, the schema in the book's on-call chapter).
//!
//! The debrief is written after the reveal, so it names everything the drill hid: the
//! incident, its dependency and its moment.

use serde_json::{Value, json};

use crate::engine::oncall::ExtraFault;
pub use crate::engine::oncall::play::DecisionEntry;
use crate::engine::oncall::play::OwnerHint;
use crate::engine::oncall::score::{ATTEMPTS_AFTER_S, ATTEMPTS_LIMIT};
use crate::engine::oncall::sim::{DrillRun, DrillSecond};
use crate::engine::oncall::{DrillMode, DrillScore, LeverPull, OncallLever};

/// The debrief's schema name; a change of shape is a new name.
pub const DEBRIEF_SCHEMA: &str = "resilience-lab/oncall-debrief/1";

/// Numbers rounded for reading; JSON keeps three decimals.
fn round3(x: f64) -> f64 {
    (x * 1_000.0).round() / 1_000.0
}

fn pulls(levers: &[LeverPull]) -> Vec<String> {
    levers.iter().map(ToString::to_string).collect()
}

/// `run oncall --json`: one document (a live run's also says its scale).
pub fn oncall_json(mode: DrillMode, run: &DrillRun, score: &DrillScore) -> String {
    let mut doc = json!({
        "lab": "oncall",
        "mode": mode.name(),
        "incident": run.setup.incident.name,
        "seed": run.setup.seed,
        "dependency": run.setup.dependency.name(),
        "onset_s": run.setup.onset_s,
        "levers": pulls(&run.levers),
        "baseline_goodput": round3(score.baseline_goodput),
        "goodput_lost_s": score.goodput_lost_s,
        "goodput_restored_s": score.goodput_restored_s,
        "right_lever_s": score.right_lever_s,
        "attempts_per_request_after": round3(score.attempts_per_request_after),
        "restored_in_order": score.restored_in_order,
        "wrong_levers": pulls(&score.wrong_levers),
        "score": score.score,
    });
    if let DrillMode::Live { ms_per_drill_s } = mode {
        doc["ms_per_drill_s"] = json!(ms_per_drill_s);
    }
    doc.to_string()
}

/// A drill second, or `never`: the one way every summary of a drill says a moment.
pub fn or_never(value: Option<f64>) -> String {
    value.map_or_else(|| "never".to_string(), |v| format!("{v} s"))
}

/// `run oncall`: the summary in text.
pub fn oncall_text(mode: DrillMode, run: &DrillRun, score: &DrillScore) -> String {
    let setup = &run.setup;
    let mode = mode.label();
    let levers = if run.levers.is_empty() {
        "none".to_string()
    } else {
        pulls(&run.levers).join(", ")
    };
    let wrong = if score.wrong_levers.is_empty() {
        "none".to_string()
    } else {
        pulls(&score.wrong_levers).join(", ")
    };
    format!(
        "on-call drill ({mode}): {} (seed {}; {} from {} s)\n\
         levers:                     {levers}\n\
         baseline goodput:           {:.1} checkouts/s\n\
         goodput lost at:            {}\n\
         goodput restored at:        {} (95% of baseline over 10 s)\n\
         right lever at:             {}\n\
         attempts per request after: {:.3} (limit {ATTEMPTS_LIMIT}, {ATTEMPTS_AFTER_S} s after the right lever)\n\
         restored in order:          {}\n\
         wrong levers:               {wrong}\n\
         score:                      {} / 100{}\n",
        setup.incident.name,
        setup.seed,
        setup.dependency.name(),
        setup.onset_s,
        score.baseline_goodput,
        or_never(score.goodput_lost_s),
        or_never(score.goodput_restored_s),
        or_never(score.right_lever_s),
        score.attempts_per_request_after,
        restored_in_order_words(run, score),
        score.score,
        score
            .unearned_reason()
            .map_or_else(String::new, |why| format!(" ({why})")),
    )
}

/// Whether the levers came back in the runbook's order, in every summary's words.
pub fn restored_in_order_words(run: &DrillRun, score: &DrillScore) -> &'static str {
    match (score.restored_in_order, run.levers.is_empty()) {
        (_, true) => "no (no lever pulled)",
        (true, false) => "yes",
        (false, false) => "no",
    }
}

/// What a lever is expected to do, for the decision log when the learner wrote nothing.
pub fn expected_effect(lever: OncallLever) -> &'static str {
    match lever {
        OncallLever::RetriesZero(_, true) => "attempts per request near 1.0 within two minutes",
        OncallLever::RetriesZero(_, false) => "retries back; attempts stay near 1.0 if the dependency is healthy",
        OncallLever::SwitchedOff(_, true) => "no calls to it; pages render without it; workers freed",
        OncallLever::SwitchedOff(_, false) => "calls resume; watch its errors and p99",
        OncallLever::BreakerForced(_, true) => "every call fails fast; soft: degraded page, hard: failed checkouts",
        OncallLever::BreakerForced(_, false) => "the breaker decides again from call outcomes",
        OncallLever::Shed(true) => "sheddable traffic gets fast 503s with Retry-After; less load downstream",
        OncallLever::Shed(false) => "sheddable traffic served again",
    }
}

fn seen(second: Option<&DrillSecond>) -> Value {
    second.map_or(Value::Null, |s| {
        json!({
            "goodput": s.goodput,
            "attempts_per_request": round3(s.attempts_per_request()),
            "p99_ms": round3(s.p99_ms),
            "workers_busy": s.workers_busy,
            "alerts": s.alerts,
        })
    })
}

/// The timeline's entries, oldest first, as (t_s, kind, text, what was seen).
pub fn timeline(run: &DrillRun, score: &DrillScore) -> Vec<(f64, &'static str, String, Value)> {
    let setup = &run.setup;
    let at = |t: f64| run.seconds.get(t as usize);
    let mut entries = vec![(
        setup.onset_s,
        "fault",
        format!(
            "{} starts at {} ({})",
            setup.incident.name,
            setup.dependency.name(),
            setup.incident.title
        ),
        seen(at(setup.onset_s)),
    )];
    let fault_end = setup.onset_s + setup.incident.duration_s;
    entries.push((
        fault_end,
        "fault_ends",
        format!("the fault at {} ends", setup.dependency.name()),
        seen(at(fault_end)),
    ));
    // A facilitator's second faults, each with its own start and end.
    for extra in &setup.extra_faults {
        entries.push((
            extra.from_s,
            "second_fault",
            format!(
                "{} added at {} by the facilitator ({})",
                extra.incident.name,
                extra.dependency.name(),
                extra.incident.title
            ),
            seen(at(extra.from_s)),
        ));
        let ends = extra.from_s + extra.incident.duration_s;
        entries.push((
            ends,
            "second_fault_ends",
            format!("the second fault at {} ends", extra.dependency.name()),
            seen(at(ends)),
        ));
    }
    for span in &run.alerts {
        let t = span.from_s as f64;
        entries.push((
            t,
            "alert_fired",
            format!("{}{{name={}}} fires", span.alert, span.dep.name()),
            seen(at(t)),
        ));
        if let Some(to) = span.to_s {
            entries.push((
                to as f64,
                "alert_resolved",
                format!("{}{{name={}}} resolves", span.alert, span.dep.name()),
                seen(at(to as f64)),
            ));
        }
    }
    if let Some(t) = score.goodput_lost_s {
        entries.push((
            t,
            "goodput_lost",
            "goodput below 95% of its baseline".to_string(),
            seen(at(t)),
        ));
    }
    if let Some(t) = score.goodput_restored_s {
        entries.push((
            t,
            "goodput_restored",
            "goodput back to 95% of its baseline".to_string(),
            seen(at(t)),
        ));
    }
    for pull in &run.levers {
        entries.push((pull.t_s, "lever", pull.lever.to_string(), seen(at(pull.t_s))));
    }
    entries.sort_by(|a, b| a.0.total_cmp(&b.0));
    entries
}

/// The debrief as JSON, the shape the book documents.
pub fn debrief_json(run: &DrillRun, score: &DrillScore, decisions: &[DecisionEntry]) -> Value {
    let setup = &run.setup;
    json!({
        "schema": DEBRIEF_SCHEMA,
        "incident": setup.incident.name,
        "title": setup.incident.title,
        "seed": setup.seed,
        "dependency": setup.dependency.name(),
        "onset_s": setup.onset_s,
        "levers": pulls(&run.levers),
        "decisions": decisions.iter().map(|d| json!({
            "t_s": d.pull.t_s,
            "what": d.pull.lever.to_string(),
            "why": d.why,
            "expected": d.expected,
        })).collect::<Vec<_>>(),
        "timeline": timeline(run, score).into_iter().map(|(t_s, kind, text, saw)| json!({
            "t_s": t_s, "kind": kind, "text": text, "seen": saw,
        })).collect::<Vec<_>>(),
        "score": {
            "baseline_goodput": round3(score.baseline_goodput),
            "goodput_lost_s": score.goodput_lost_s,
            "goodput_restored_s": score.goodput_restored_s,
            "right_lever_s": score.right_lever_s,
            "attempts_per_request_after": round3(score.attempts_per_request_after),
            "restored_in_order": score.restored_in_order,
            "wrong_levers": pulls(&score.wrong_levers),
            "score": score.score,
        },
    })
}

/// Adds what a facilitator did to a debrief's JSON: the second faults (which `--replay`
/// plays again), the owners' hints and whether the facilitator ended the drill. A drill
/// without a facilitator's hand keeps the debrief as it was.
pub fn add_facilitator_json(doc: &mut Value, run: &DrillRun, hints: &[OwnerHint], ended_by_facilitator: bool) {
    let extras = &run.setup.extra_faults;
    if extras.is_empty() && hints.is_empty() && !ended_by_facilitator {
        return;
    }
    doc["second_faults"] = json!(extras.iter().map(ExtraFault::label).collect::<Vec<_>>());
    doc["owner_hints"] = json!(
        hints
            .iter()
            .map(|h| json!({"t_s": h.t_s, "text": h.text}))
            .collect::<Vec<_>>()
    );
    doc["ended_by"] = json!(if ended_by_facilitator { "facilitator" } else { "on-call" });
}

/// A live drill's debrief says so: `mode`, its scale, and the seconds measured when it
/// ended early; a sim debrief is left as it always was.
pub fn add_live_json(doc: &mut Value, mode: DrillMode, measured_s: Option<usize>) {
    let DrillMode::Live { ms_per_drill_s } = mode else {
        return;
    };
    doc["mode"] = json!(mode.name());
    doc["ms_per_drill_s"] = json!(ms_per_drill_s);
    if let Some(measured_s) = measured_s {
        doc["measured_s"] = json!(measured_s);
    }
}

/// The debrief's Markdown section on what a facilitator did; empty without one.
pub fn facilitator_markdown(run: &DrillRun, hints: &[OwnerHint], ended_by_facilitator: bool) -> String {
    let extras = &run.setup.extra_faults;
    if extras.is_empty() && hints.is_empty() && !ended_by_facilitator {
        return String::new();
    }
    let mut md = String::from("\n## The facilitator\n\n");
    for extra in extras {
        md.push_str(&format!(
            "- second fault at {} s: {} on **{}** ({})\n",
            extra.from_s,
            extra.incident.name,
            extra.dependency.name(),
            extra.incident.title
        ));
    }
    for hint in hints {
        md.push_str(&format!("- owner's hint at {} s: {}\n", hint.t_s, hint.text));
    }
    md.push_str(&format!(
        "- ended by: {}\n",
        if ended_by_facilitator {
            "the facilitator"
        } else {
            "on-call or the clock"
        }
    ));
    md
}

/// The debrief in Markdown, for reading and for the interview sheet's "tell me about an incident".
pub fn debrief_markdown(run: &DrillRun, score: &DrillScore, decisions: &[DecisionEntry]) -> String {
    let setup = &run.setup;
    let mut md = format!(
        "# Debrief: {}\n\n{}\n\nSeed {}; the fault hit **{}** at {} s (drill seconds) and lasted {} s.\n\n## Timeline\n\n| t (s) | what | goodput | attempts/request |\n|---:|---|---:|---:|\n",
        setup.incident.name,
        setup.incident.title,
        setup.seed,
        setup.dependency.name(),
        setup.onset_s,
        setup.incident.duration_s
    );
    for (t, kind, text, saw) in timeline(run, score) {
        md.push_str(&format!(
            "| {t} | {kind}: {text} | {} | {} |\n",
            saw.get("goodput").map_or("-".to_string(), ToString::to_string),
            saw.get("attempts_per_request")
                .map_or("-".to_string(), ToString::to_string),
        ));
    }
    md.push_str("\n## Decision log\n\n| t (s) | what | why | expected effect |\n|---:|---|---|---|\n");
    for d in decisions {
        md.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            d.pull.t_s, d.pull.lever, d.why, d.expected
        ));
    }
    md.push_str(&format!(
        "\n## Score: {} / 100\n\n- baseline goodput: {:.1} checkouts/s\n- goodput restored at: {}\n- attempts per request {ATTEMPTS_AFTER_S} s after the right lever: {:.3} (limit {ATTEMPTS_LIMIT})\n- levers restored in the runbook's order, retries last: {}\n- wrong levers: {}\n{}",
        score.score,
        score.baseline_goodput,
        or_never(score.goodput_restored_s),
        score.attempts_per_request_after,
        restored_in_order_words(run, score),
        if score.wrong_levers.is_empty() { "none".to_string() } else { pulls(&score.wrong_levers).join(", ") },
        score.unearned_reason().map_or_else(String::new, |why| format!("- {why}\n")),
    ));
    md
}

/// What on-call sees for one drill second, and nothing more: the service's and each
/// dependency's signals, the breakers, the alerts firing. Every dependency has its row in
/// every second, so that the screen's shape does not point at the incident; the
/// incident's name, its mode and its hidden settings are never in it (the hiding rule:
/// tests/it/oncall/hiding.rs).
pub fn oncall_dashboard(second: &DrillSecond) -> String {
    let mut text = format!(
        "t={:>3}s goodput {:>3}/s attempts/req {:.2} workers {:>2}/{} shed {:>2} away {:>3} p99 {:>4.0}ms\n",
        second.t_s,
        second.goodput,
        second.attempts_per_request(),
        second.workers_busy,
        crate::engine::oncall::sim::WORKERS,
        second.shed,
        second.rejected,
        second.p99_ms,
    );
    text.push_str("  dependency       attempts errors p99 ms  satur. att/call breaker      refused\n");
    for dep in &second.deps {
        text.push_str(&format!(
            "  {:<15} {:>9} {:>6} {:>6.0} {:>6.0}% {:>8.2} {:<12} {:>7}\n",
            dep.dep.name(),
            dep.attempts,
            dep.errors,
            dep.p99_ms,
            dep.saturation * 100.0,
            dep.attempts_per_call(),
            dep.breaker,
            dep.not_permitted,
        ));
    }
    if second.alerts.is_empty() {
        text.push_str("  alerts (windows time-scaled x10): none\n");
    }
    for alert in &second.alerts {
        text.push_str(&format!("  alert firing: {alert}\n"));
    }
    text
}
