//! labs/overload.toml (not yet registered with the loader) passes the lab-file checks,
//! and every check's metric, at the settings written for it, gives the lesson's answer.

use resilience_lab::content::lab;
use resilience_lab::engine::overload::metastable::{self, MetastableParams};
use resilience_lab::engine::overload::{self, Dependency, OverloadParams, Scenario};
use resilience_lab::metrics::{lookup, overload_metastable_metrics, overload_metrics};

const FILE: &str = include_str!("../labs/overload.toml");

/// The run each check is scored at (labs/overload-checks.draft.toml, here as code).
fn metrics_for(check_id: &str) -> Vec<(String, f64)> {
    let scenario = |s: Scenario| overload_metrics(&overload::run(&s.params()));
    match check_id {
        "overload-fifo-wait-after-2s" | "overload-fifo-queue-after-2s" => scenario(Scenario::Fifo),
        "overload-age-cap-queue-limit" | "overload-age-cap-refused-share" => scenario(Scenario::AgeCap),
        "overload-bulkhead-free-threads" => scenario(Scenario::Bulkhead),
        "overload-timeout-slots-held" => overload_metrics(&overload::run(&OverloadParams {
            offered_per_s: 1.0,
            dependency: Some(Dependency {
                calls_per_s: 100.0,
                latency_ms: 1_000_000.0,
                timeout_ms: 500.0,
                pool: None,
            }),
            ..Scenario::Bulkhead.params()
        })),
        "overload-throttle-probability" => scenario(Scenario::Throttle),
        "overload-metastable-db-load" => overload_metastable_metrics(&metastable::run(&MetastableParams::default())),
        other => panic!("no settings written for check {other}"),
    }
}

#[test]
fn the_lab_file_is_valid() {
    let lab = lab::parse(FILE, "labs/overload.toml", "overload").expect("a valid lab file");
    assert!(lab.checks.len() >= 6);
    assert_eq!(lab.parameters.len(), 8);
}

#[test]
fn every_check_is_right_at_its_own_settings() {
    let lab = lab::parse(FILE, "labs/overload.toml", "overload").expect("a valid lab file");
    let expected = [
        ("overload-fifo-wait-after-2s", 0.5),
        ("overload-fifo-queue-after-2s", 1_000.0),
        ("overload-age-cap-queue-limit", 400.0),
        ("overload-age-cap-refused-share", 0.2),
        ("overload-bulkhead-free-threads", 160.0),
        ("overload-timeout-slots-held", 50.0),
        ("overload-throttle-probability", 1.0 / 3.0),
        ("overload-metastable-db-load", 560.0),
    ];
    for check in &lab.checks {
        let metric = check.metric.as_deref().expect("predict checks name a metric");
        let value = lookup(&metrics_for(&check.id), metric).unwrap_or_else(|| panic!("{metric} is produced"));
        let (_, lesson) = expected
            .iter()
            .find(|(id, _)| *id == check.id)
            .expect("every check listed");
        assert!(
            check.number_is_right(value, *lesson),
            "{}: run gives {value}, lesson {lesson}",
            check.id
        );
    }
}
