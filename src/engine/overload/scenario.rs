//! The named scenarios of `run overload --scenario NAME`, with the lesson's numbers as defaults.

use super::params::{BulkheadDependency, OverloadParams, SheddingPolicy};

/// One of Lab 4's scenarios.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverloadScenario {
    Fifo,
    AgeCap,
    Lifo,
    Admission,
    Criticality,
    Bulkhead,
    Throttle,
    Metastable,
}

impl OverloadScenario {
    #[rustfmt::skip]
    pub const ALL: [OverloadScenario; 8] = [
        OverloadScenario::Fifo, OverloadScenario::AgeCap, OverloadScenario::Lifo,
        OverloadScenario::Admission, OverloadScenario::Criticality, OverloadScenario::Bulkhead,
        OverloadScenario::Throttle, OverloadScenario::Metastable,
    ];

    pub fn name(self) -> &'static str {
        match self {
            OverloadScenario::Fifo => "fifo",
            OverloadScenario::AgeCap => "age-cap",
            OverloadScenario::Lifo => "lifo",
            OverloadScenario::Admission => "admission",
            OverloadScenario::Criticality => "criticality",
            OverloadScenario::Bulkhead => "bulkhead",
            OverloadScenario::Throttle => "throttle",
            OverloadScenario::Metastable => "metastable",
        }
    }

    pub fn from_name(name: &str) -> Option<OverloadScenario> {
        OverloadScenario::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What the scenario shows, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            OverloadScenario::Fifo => "unprotected FIFO queue at 2,500/s against 2,000/s: the wait passes the timeout",
            OverloadScenario::AgeCap => {
                "drop what would wait over 200 ms: the queue stops at 400, goodput stays 2,000/s"
            }
            OverloadScenario::Lifo => "newest first: the callers still waiting are served",
            OverloadScenario::Admission => "a cap on requests in the server with a cheap 503 + Retry-After",
            OverloadScenario::Criticality => "the cap shared out by criticality: SHEDDABLE goes first",
            OverloadScenario::Bulkhead => {
                "dependency X takes 2 s at 100 calls/s; a pool of 40 keeps 160 threads for the rest"
            }
            OverloadScenario::Throttle => {
                "offered 3x capacity; the client-side throttle refuses about 1 in 3 locally (K = 2)"
            }
            OverloadScenario::Metastable => "280 QPS, a 10 s outage, one retry after 1 s: 560 QPS and no recovery",
        }
    }

    /// The policy the scenario runs (the metastable one runs its own model).
    pub fn policy(self) -> SheddingPolicy {
        match self {
            OverloadScenario::Fifo | OverloadScenario::Bulkhead | OverloadScenario::Metastable => SheddingPolicy::Fifo,
            OverloadScenario::AgeCap => SheddingPolicy::AgeCap,
            OverloadScenario::Lifo => SheddingPolicy::Lifo,
            OverloadScenario::Admission => SheddingPolicy::Admission,
            OverloadScenario::Criticality => SheddingPolicy::Criticality,
            OverloadScenario::Throttle => SheddingPolicy::Throttle,
        }
    }

    /// The queueing run's settings (the lesson's numbers).
    pub fn params(self) -> OverloadParams {
        let lesson = OverloadParams {
            policy: self.policy(),
            ..OverloadParams::default()
        };
        match self {
            OverloadScenario::Criticality => OverloadParams {
                // Some CRITICAL_PLUS, mostly CRITICAL production traffic, batch as
                // SHEDDABLE_PLUS, a little SHEDDABLE; and the load balancer's pings.
                mix: [0.1, 0.5, 0.3, 0.1],
                health_checks_per_s: 10.0,
                ..lesson
            },
            OverloadScenario::Bulkhead => OverloadParams {
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
            OverloadScenario::Throttle => OverloadParams {
                offered_per_s: 6_000.0,
                duration_s: 30.0,
                ..lesson
            },
            _ => lesson,
        }
    }
}
