//! The fleet lab's reports: a `kubectl get pods -w` style listing of every replica's
//! changes, the totals, and the same as one JSON document.

use serde_json::{Value, json};

use crate::engine::fleet::{Database, FleetComparison, FleetParams, FleetRun};

fn check_word(checks_db: bool) -> &'static str {
    if checks_db { "checks the database" } else { "local" }
}

fn database_words(params: &FleetParams) -> String {
    let windows: Vec<String> = params
        .database
        .iter()
        .map(|w| {
            let state = match w.state {
                Database::Slow { latency_ms } => format!("slow ({latency_ms} ms)"),
                other => other.word().to_string(),
            };
            format!("{state} {}-{} s", w.start_s, w.end_s)
        })
        .collect();
    if windows.is_empty() {
        "database up throughout".to_string()
    } else {
        format!("database {}", windows.join(", "))
    }
}

/// One line naming the run's design.
pub fn fleet_heading(run: &FleetRun, mode: &str) -> String {
    let p = &run.params;
    let balancing = match p.balancing {
        crate::engine::fleet::Balancing::RoundRobin => "round-robin",
        crate::engine::fleet::Balancing::LeastRequests => "least-requests",
    };
    format!(
        "fleet ({mode}), scenario {}: {} replicas; /livez {}, /readyz {}; {}; {} requests/s from {} s, {balancing}{}",
        crate::content::fleet_changes::run_name(p),
        p.replicas,
        check_word(p.server.liveness_checks_db),
        check_word(p.server.readiness_checks_db),
        database_words(p),
        p.load_per_s,
        p.load_start_s,
        if p.fail_open { ", failing open" } else { "" },
    )
}

/// The listing: one row per change of any replica, in time order, as `kubectl get pods -w`.
pub fn fleet_rows(run: &FleetRun) -> String {
    let mut rows: Vec<(f64, usize, String)> = Vec::new();
    for (index, replica) in run.replicas.iter().enumerate() {
        for change in &replica.timeline {
            rows.push((
                change.t_s,
                index,
                format!(
                    "{:<9} {:<6} {:<17} {:<9} {:.1}s",
                    replica.name,
                    change.ready_column(),
                    change.state.status_column(),
                    change.restarts,
                    change.t_s
                ),
            ));
        }
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut text = format!(
        "{:<9} {:<6} {:<17} {:<9} {}\n",
        "NAME", "READY", "STATUS", "RESTARTS", "AT"
    );
    for (_, _, row) in rows {
        text.push_str(&row);
        text.push('\n');
    }
    text
}

/// The totals under the listing.
pub fn fleet_totals(run: &FleetRun) -> String {
    let r = &run.requests;
    let windows: Vec<String> = run
        .no_endpoint_windows
        .iter()
        .map(|(a, b)| format!("{a:.1}-{b:.1}"))
        .collect();
    let windows = if windows.is_empty() {
        String::new()
    } else {
        format!(" ({} s)", windows.join(", "))
    };
    let first = run
        .first_restart_s()
        .map_or(String::new(), |t| format!(", the first at {t:.1} s"));
    format!(
        "requests: {} sent; ok {}, degraded {}, failed {}, refused {}\n\
         no ready endpoint: {:.1} s{windows}\n\
         restarts: {}{first}\n",
        r.total(),
        r.ok,
        r.degraded,
        r.failed,
        r.refused,
        run.no_ready_endpoint_s,
        run.total_restarts(),
    )
}

/// The whole text report of a simulated run.
pub fn fleet_text(run: &FleetRun, mode: &str) -> String {
    format!("{}\n{}{}", fleet_heading(run, mode), fleet_rows(run), fleet_totals(run))
}

fn seconds(value: Option<f64>) -> String {
    value.map_or("none".to_string(), |t| format!("{t:.1} s"))
}

/// The lines under a live report: the time scale and the sim beside the measurement.
pub fn fleet_comparison_text(comparison: &FleetComparison, time_scale: f64) -> String {
    let c = comparison;
    let verdict = |close: bool| if close { "close" } else { "NOT close" };
    let totals =
        |r: &crate::engine::fleet::RequestTotals| format!("{}/{}/{}/{}", r.ok, r.degraded, r.failed, r.refused);
    format!(
        "time scale {time_scale}: one model second took {:.0} ms\n\
         sim at the same settings (live in brackets):\n  \
         restarts {} ({}), {}\n  \
         first restart {} ({}), {}\n  \
         no ready endpoint {:.1} s ({:.1} s), {}\n  \
         requests ok/degraded/failed/refused {} ({}), {}\n",
        time_scale * 1e3,
        c.restarts_sim,
        c.restarts_live,
        if c.restarts_equal { "equal" } else { "NOT equal" },
        seconds(c.first_restart_sim_s),
        seconds(c.first_restart_live_s),
        verdict(c.first_restart_close),
        c.no_endpoint_sim_s,
        c.no_endpoint_live_s,
        verdict(c.no_endpoint_close),
        totals(&c.requests_sim),
        totals(&c.requests_live),
        verdict(c.requests_close),
    )
}

/// A run as JSON: `{"lab":"fleet","mode",..,"scenario","changed":[..],"params",..,"replicas":[..],"requests",..,"no_ready_endpoint_s"}`.
pub fn fleet_value(run: &FleetRun, mode: &str) -> Value {
    let replicas: Vec<Value> = run
        .replicas
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "restarts": r.restarts,
                "restart_times_s": r.restart_times_s,
                "timeline": r.timeline.iter().map(|c| json!({"t_s": c.t_s, "state": c.state, "ready": c.ready})).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "lab": "fleet",
        "mode": mode,
        "scenario": run.params.scenario,
        // `scenario` is where the settings started; `changed` says what the flags changed
        // from it (empty while the run is that scenario as it stands).
        "changed": crate::content::fleet_changes::params_changes(&run.params),
        "params": run.params,
        "replicas": replicas,
        "requests": run.requests,
        "no_ready_endpoint_s": run.no_ready_endpoint_s,
        "no_endpoint_windows": run.no_endpoint_windows,
        "first_restart_s": run.first_restart_s(),
        "restarts": run.total_restarts(),
    })
}

/// A live run as JSON: its document, the sim's beside it, and the comparison.
pub fn fleet_live_json(live: &FleetRun, sim: &FleetRun, comparison: &FleetComparison) -> String {
    let mut value = fleet_value(live, "live");
    value["sim"] = fleet_value(sim, "sim");
    value["comparison"] = json!(comparison);
    value.to_string()
}
