//! The named scenarios of `run overload --scenario NAME`, with the lesson's numbers as defaults.

use super::params::{BulkheadDependency, OverloadParams, SheddingPolicy};

/// One of Lab 4's scenarios.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scenario {
    Fifo,
    AgeCap,
    Lifo,
    Admission,
    Criticality,
    Bulkhead,
    Throttle,
    Metastable,
}

impl Scenario {
    #[rustfmt::skip]
    pub const ALL: [Scenario; 8] = [
        Scenario::Fifo, Scenario::AgeCap, Scenario::Lifo, Scenario::Admission,
        Scenario::Criticality, Scenario::Bulkhead, Scenario::Throttle, Scenario::Metastable,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Fifo => "fifo",
            Scenario::AgeCap => "age-cap",
            Scenario::Lifo => "lifo",
            Scenario::Admission => "admission",
            Scenario::Criticality => "criticality",
            Scenario::Bulkhead => "bulkhead",
            Scenario::Throttle => "throttle",
            Scenario::Metastable => "metastable",
        }
    }

    pub fn from_name(name: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What the scenario shows, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Scenario::Fifo => "unprotected FIFO queue at 2,500/s against 2,000/s: the wait passes the timeout",
            Scenario::AgeCap => "drop what would wait over 200 ms: the queue stops at 400, goodput stays 2,000/s",
            Scenario::Lifo => "newest first: the callers still waiting are served",
            Scenario::Admission => "a cap on requests in the server with a cheap 503 + Retry-After",
            Scenario::Criticality => "the cap shared out by criticality: SHEDDABLE goes first",
            Scenario::Bulkhead => "dependency X takes 2 s at 100 calls/s; a pool of 40 keeps 160 threads for the rest",
            Scenario::Throttle => "offered 3x capacity; the client-side throttle refuses about 1 in 3 locally (K = 2)",
            Scenario::Metastable => "280 QPS, a 10 s outage, one retry after 1 s: 560 QPS and no recovery",
        }
    }

    /// The policy the scenario runs (the metastable one runs its own model).
    pub fn policy(self) -> SheddingPolicy {
        match self {
            Scenario::Fifo | Scenario::Bulkhead | Scenario::Metastable => SheddingPolicy::Fifo,
            Scenario::AgeCap => SheddingPolicy::AgeCap,
            Scenario::Lifo => SheddingPolicy::Lifo,
            Scenario::Admission => SheddingPolicy::Admission,
            Scenario::Criticality => SheddingPolicy::Criticality,
            Scenario::Throttle => SheddingPolicy::Throttle,
        }
    }

    /// The queueing run's settings (the lesson's numbers).
    pub fn params(self) -> OverloadParams {
        let lesson = OverloadParams {
            policy: self.policy(),
            ..OverloadParams::default()
        };
        match self {
            Scenario::Criticality => OverloadParams {
                // Some CRITICAL_PLUS, mostly CRITICAL production traffic, batch as
                // SHEDDABLE_PLUS, a little SHEDDABLE; and the load balancer's pings.
                mix: [0.1, 0.5, 0.3, 0.1],
                health_checks_per_s: 10.0,
                ..lesson
            },
            Scenario::Bulkhead => OverloadParams {
                workers: 200,
                // The requests that never touch X: 1,000/s x 50 ms keeps 50 threads busy.
                offered_per_s: 1_000.0,
                dependency: Some(BulkheadDependency {
                    calls_per_s: 100.0,
                    latency_ms: 2_000.0,
                    timeout_ms: 10_000.0,
                    pool: Some(40),
                }),
                ..lesson
            },
            Scenario::Throttle => OverloadParams {
                offered_per_s: 6_000.0,
                duration_s: 30.0,
                ..lesson
            },
            _ => lesson,
        }
    }
}
