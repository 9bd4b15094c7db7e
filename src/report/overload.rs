//! Lab 4's reports: the lesson's quantities by name, the per-second table, the curves.

use serde_json::{Value, json};

use crate::engine::overload::ComparedPoint;
use crate::engine::overload::metastable::MetastableRun;
use crate::engine::overload::{Curve, OverloadRun, OverloadScenario, RequestCriticality, Second, SheddingPolicy};

/// What one `run overload` printed, gathered for the text and the JSON forms.
pub struct OverloadReport<'a> {
    pub scenario: OverloadScenario,
    /// "sim" or "live".
    pub mode: &'static str,
    pub run: &'a OverloadRun,
    /// With --live: the simulation at the same settings.
    pub sim_beside: Option<&'a OverloadRun>,
    /// With --sweep: every policy's curve (simulated).
    pub curves: &'a [Curve],
    /// With --live --sweep: live against sim at five loads.
    pub compared: &'a [ComparedPoint],
}

fn second_at(run: &OverloadRun, t_s: f64) -> Option<&Second> {
    run.seconds.iter().find(|s| s.t_s == t_s)
}

/// The lesson's numbers for this run, one named line each.
fn named_lines(run: &OverloadRun, scenario: OverloadScenario) -> Vec<String> {
    let p = &run.params;
    let capacity = run.capacity_per_s;
    let mut lines = vec![
        format!(
            "capacity: {} workers / {} ms = {capacity:.0} requests/s",
            p.workers, p.service_ms
        ),
        format!(
            "offered: {:.0} requests/s = {:.2} x capacity ({:+.0}/s against capacity)",
            p.offered_per_s,
            p.offered_per_s / capacity,
            p.offered_per_s - capacity
        ),
        format!("client timeout: {} ms", p.client_timeout_ms),
    ];
    if let (Some(one), Some(two)) = (second_at(run, 1.0), second_at(run, 2.0)) {
        lines.push(format!(
            "queue after 1 s: {}; after 2 s: {} (a new arrival waits {:.3} s = {} / {capacity:.0})",
            one.queue_len, two.queue_len, two.queue_wait_s, two.queue_len
        ));
    }
    if let Some(wait_s) = run.totals.traced_wait_s {
        lines.push(format!(
            "the request arriving at 2.0 s waited {wait_s:.3} s for a worker"
        ));
    }
    if p.policy == SheddingPolicy::AgeCap
        && let Some(limit) = run.age_cap_queue_limit
    {
        lines.push(format!(
            "age cap {} ms: queue limit {limit} ({capacity:.0} x {} s); longest queue {}",
            p.age_cap_ms,
            p.age_cap_ms / 1_000.0,
            run.totals.max_queue_len
        ));
    }
    if matches!(
        p.policy,
        SheddingPolicy::Admission | SheddingPolicy::Criticality | SheddingPolicy::Throttle
    ) {
        lines.push(format!(
            "admission limit: {} in the server ({} serving + {} queued); 503 + Retry-After above it",
            p.admission_limit,
            p.workers.min(p.admission_limit),
            p.admission_limit.saturating_sub(p.workers)
        ));
    }
    if let Some(probability) = run.totals.throttle_probability {
        lines.push(format!(
            "throttle: K = {}, local rejection probability {probability:.3} (requests {}, accepts {} in the window)",
            p.throttle_k, run.totals.throttle_requests, run.totals.throttle_accepts
        ));
    }
    if let Some(x) = &p.dependency {
        let held = run.seconds.last().map_or(0, |s| s.x_busy);
        lines.push(format!(
            "dependency X: {} calls/s x {} ms held = {:.0} slots wanted; pool {}",
            x.calls_per_s,
            x.hold_ms(),
            x.calls_per_s * x.hold_ms() / 1_000.0,
            x.pool.map_or("shared".to_string(), |n| n.to_string())
        ));
        lines.push(format!(
            "slots on X at the end: {held}; slots free for the rest: {}; X refused at once: {}",
            p.workers.saturating_sub(held),
            run.totals.dependency.refused
        ));
        lines.push(format!(
            "goodput of requests that never touch X: {}",
            run.totals.other_goodput
        ));
    }
    if scenario == OverloadScenario::Criticality || p.policy == SheddingPolicy::Criticality {
        for (class, totals) in RequestCriticality::ALL.iter().zip(&run.totals.by_criticality) {
            lines.push(format!(
                "{:<15} offered {:>7}  goodput {:>7}  refused {:>7}",
                class.name(),
                totals.offered,
                totals.goodput,
                totals.refused
            ));
        }
        if run.totals.health_checks > 0 {
            lines.push(format!(
                "health checks: {} sent, {} answered",
                run.totals.health_checks, run.totals.health_checks_answered
            ));
        }
    }
    let t = &run.totals;
    let refused_share = if t.offered == 0 {
        0.0
    } else {
        100.0 * t.refused as f64 / t.offered as f64
    };
    // The checks are scored on the steady last second; the whole run's totals include the
    // first seconds that fill the pool and the queue, so both are printed, each named.
    let run_s = run.seconds.len();
    if let Some(last) = run.seconds.last() {
        let x_calls_per_s = run.params.dependency.as_ref().map(|d| d.calls_per_s);
        lines.push(format!(
            "last second ({:.0} s): {}",
            last.t_s,
            last_second_outcomes(last, x_calls_per_s)
        ));
    }
    lines.push(format!(
        "whole run totals ({run_s} s): offered {}, goodput {} ({:.1}/s), wasted {}, refused {} ({refused_share:.1}%), timed out {}, throttled {}",
        t.offered, t.goodput, t.goodput_per_s, t.wasted, t.refused, t.timed_out, t.throttled
    ));
    lines
}

/// Every outcome of what one second offered, as a sum when it is one: `offered 2500 =
/// goodput 2000 + refused 500`; a queue growing or shrinking holds the difference, so then
/// the parts are listed, not summed. `wasted` (answered after the caller left) is work, not an
/// outcome of the second's arrivals, so it stands apart. The app's results and `run
/// overload` both say the last second this way.
/// With dependency X, `x_calls_per_s` names its calls inside what was offered (`offered 1100
/// (X's 100/s)`: X's calls a second), so a sum never reads as if they were not there.
pub fn last_second_outcomes(last: &Second, x_calls_per_s: Option<f64>) -> String {
    let parts = [
        ("refused", last.refused),
        ("throttled", last.throttled),
        ("timed out", last.timed_out),
    ];
    let shown: Vec<String> = std::iter::once(format!("goodput {}", last.goodput))
        .chain(
            parts
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(name, n)| format!("{name} {n}")),
        )
        .collect();
    let sum: u64 = last.goodput + parts.iter().map(|(_, n)| n).sum::<u64>();
    let offered = match x_calls_per_s.filter(|calls| *calls > 0.0) {
        Some(calls) => format!("offered {} (X's {calls:.0}/s)", last.offered),
        None => format!("offered {}", last.offered),
    };
    let outcomes = if sum == last.offered {
        format!("{offered} = {}", shown.join(" + "))
    } else {
        format!("{offered} · {}", shown.join(" · "))
    };
    if last.wasted > 0 {
        format!("{outcomes} · wasted {}", last.wasted)
    } else {
        outcomes
    }
}

fn seconds_table(run: &OverloadRun) -> String {
    let mut text =
        String::from("   t_s  offered  goodput   wasted  refused timed_out throttled queue_len  wait_s  busy\n");
    for s in &run.seconds {
        text.push_str(&format!(
            "{:>6.1} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>7.3} {:>5}\n",
            s.t_s,
            s.offered,
            s.goodput,
            s.wasted,
            s.refused,
            s.timed_out,
            s.throttled,
            s.queue_len,
            s.queue_wait_s,
            s.busy
        ));
    }
    text
}

fn curves_table(curves: &[Curve]) -> String {
    let mut text = String::from("goodput/s against offered/s:\n offered");
    for curve in curves {
        text.push_str(&format!(" {:>11}", curve.policy.name()));
    }
    text.push('\n');
    let rows = curves.first().map_or(0, |c| c.points.len());
    for row in 0..rows {
        text.push_str(&format!("{:>8.0}", curves[0].points[row].offered_per_s));
        for curve in curves {
            text.push_str(&format!(" {:>11.1}", curve.points[row].goodput_per_s));
        }
        text.push('\n');
    }
    text
}

/// The text report.
pub fn overload_text(report: &OverloadReport<'_>) -> String {
    let run = report.run;
    let mut text = format!(
        "Lab 4 overload · {} · scenario {} · policy {}\n",
        report.mode,
        report.scenario.name(),
        run.params.policy.name()
    );
    for line in named_lines(run, report.scenario) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(&seconds_table(run));
    if let Some(sim) = report.sim_beside {
        text.push_str(&format!(
            "sim at the same settings: goodput {:.1}/s (live {:.1}/s), refused {} (live {}), timed out {} (live {})\n",
            sim.totals.goodput_per_s,
            run.totals.goodput_per_s,
            sim.totals.refused,
            run.totals.refused,
            sim.totals.timed_out,
            run.totals.timed_out
        ));
    }
    if !report.curves.is_empty() {
        text.push_str(&curves_table(report.curves));
    }
    if !report.compared.is_empty() {
        text.push_str("live against sim, goodput/s:\n offered     live      sim   diff\n");
        for point in report.compared {
            let diff = if point.sim_goodput_per_s > 0.0 {
                100.0 * (point.live_goodput_per_s - point.sim_goodput_per_s) / point.sim_goodput_per_s
            } else {
                0.0
            };
            text.push_str(&format!(
                "{:>8.0} {:>8.1} {:>8.1} {:>+5.1}%\n",
                point.offered_per_s, point.live_goodput_per_s, point.sim_goodput_per_s, diff
            ));
        }
    }
    text
}

fn second_value(s: &Second) -> Value {
    json!({
        "t_s": s.t_s, "offered": s.offered, "goodput": s.goodput, "wasted": s.wasted,
        "refused": s.refused, "timed_out": s.timed_out, "queue_len": s.queue_len,
        "queue_wait_s": s.queue_wait_s, "throttled": s.throttled, "busy": s.busy, "x_busy": s.x_busy,
    })
}

fn run_value(run: &OverloadRun) -> Value {
    json!({
        "params": run.params,
        "capacity_per_s": run.capacity_per_s,
        "age_cap_queue_limit": run.age_cap_queue_limit,
        "seconds": run.seconds.iter().map(second_value).collect::<Vec<_>>(),
        // The steady second the checks are scored on, beside the whole run's totals.
        "last_second": run.seconds.last().map(second_value),
        "totals": run.totals,
    })
}

/// The JSON report (its schema is in the book's command-line reference).
pub fn overload_json(report: &OverloadReport<'_>) -> String {
    let mut value = run_value(report.run);
    value["lab"] = json!("overload");
    value["mode"] = json!(report.mode);
    value["scenario"] = json!(report.scenario.name());
    if let Some(sim) = report.sim_beside {
        value["sim"] = run_value(sim);
    }
    if !report.curves.is_empty() {
        let points: Vec<Value> = report
            .curves
            .iter()
            .flat_map(|curve| {
                curve.points.iter().map(|p| {
                    json!({"policy": curve.policy.name(), "offered_per_s": p.offered_per_s, "goodput_per_s": p.goodput_per_s})
                })
            })
            .collect();
        value["curve"] = json!(points);
    }
    if !report.compared.is_empty() {
        value["live_vs_sim"] = json!(report.compared);
    }
    value.to_string()
}

/// The metastable model's text report.
pub fn metastable_sim_text(run: &MetastableRun, curve: &[(f64, f64)]) -> String {
    let p = &run.params;
    let mut text = String::from("Lab 4 overload · sim · scenario metastable (Bronson et al., HotOS 2021)\n");
    text.push_str(&format!(
        "database: answers in {} ms below {} QPS, {} ms at or above\n",
        p.fast_ms, p.capacity_per_s, p.slow_ms
    ));
    text.push_str(&format!(
        "web tier: {} QPS; up to {} queries per request, the next after {} ms without an answer\n",
        p.load_per_s, p.attempts, p.retry_after_ms
    ));
    text.push_str(&format!("trigger: {} s outage after {} s\n", p.trigger_s, p.before_s));
    text.push_str(&format!(
        "stable below: {} QPS (even with every request retried the database copes)\n",
        run.stable_below_per_s
    ));
    text.push_str(&format!(
        "retry room at {} QPS: {} QPS (recovery needs retries under it, or load under {})\n",
        p.load_per_s, run.retry_room_per_s, run.stable_below_per_s
    ));
    text.push_str(&format!(
        "goodput before: {}/s; after: {}/s; database load at the end: {} QPS; recovered: {}\n",
        run.goodput_before_per_s,
        run.goodput_after_per_s,
        run.db_load_end_per_s,
        run.recovered_after_s
            .map_or("never".to_string(), |s| format!("{s} s after the trigger"))
    ));
    text.push_str("   t_s state         load  db_load  retries latency_ms  goodput\n");
    for s in &run.seconds {
        text.push_str(&format!(
            "{:>6.1} {:<11} {:>6.0} {:>8.0} {:>8.0} {:>10.0} {:>8.0}\n",
            s.t_s,
            s.state.word(),
            s.load_per_s,
            s.db_load_per_s,
            s.retries_per_s,
            s.latency_ms,
            s.goodput_per_s
        ));
    }
    if !curve.is_empty() {
        text.push_str("goodput/s after the trigger against load/s:\n");
        for (load, goodput) in curve {
            text.push_str(&format!("{load:>8.0} {goodput:>8.1}\n"));
        }
    }
    text
}

/// The metastable model's JSON report: the common per-second keys plus the model's own.
pub fn metastable_sim_json(run: &MetastableRun, curve: &[(f64, f64)]) -> String {
    let seconds: Vec<Value> = run
        .seconds
        .iter()
        .map(|s| {
            let late = if s.goodput_per_s == 0.0 { s.db_load_per_s } else { 0.0 };
            json!({
                "t_s": s.t_s, "offered": s.load_per_s, "goodput": s.goodput_per_s, "wasted": late,
                "refused": 0, "timed_out": s.load_per_s - s.goodput_per_s, "queue_len": 0,
                "queue_wait_s": s.latency_ms / 1_000.0, "db_load_per_s": s.db_load_per_s,
                "retries_per_s": s.retries_per_s, "state": s.state,
            })
        })
        .collect();
    let mut value = json!({
        "lab": "overload",
        "mode": "sim",
        "scenario": "metastable",
        "params": run.params,
        "seconds": seconds,
        "totals": {
            "goodput_before_per_s": run.goodput_before_per_s,
            "goodput_after_per_s": run.goodput_after_per_s,
            "db_load_end_per_s": run.db_load_end_per_s,
            "recovered_after_s": run.recovered_after_s,
            "stable_below_per_s": run.stable_below_per_s,
            "retry_room_per_s": run.retry_room_per_s,
        },
    });
    if !curve.is_empty() {
        value["curve"] = json!(
            curve
                .iter()
                .map(|(load, goodput)| json!({"policy": "metastable", "offered_per_s": load, "goodput_per_s": goodput}))
                .collect::<Vec<_>>()
        );
    }
    value.to_string()
}
