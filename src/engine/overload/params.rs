//! Lab 4's inputs: the server, the load, the policy under test and its knobs.

use serde::Serialize;

use super::shed::{Discipline, RequestCriticality, ServerPolicy};

/// The shedding policies the goodput curve compares (the `policy` slider's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SheddingPolicy {
    /// Unprotected: oldest first, no shedding.
    Fifo,
    /// Refuse what would wait longer than the age cap.
    AgeCap,
    /// Newest first.
    Lifo,
    /// A cap on requests in the server, 503 + Retry-After above it.
    Admission,
    /// The admission cap shared out by criticality.
    Criticality,
    /// The admission cap plus the client-side adaptive throttle.
    Throttle,
}

impl SheddingPolicy {
    #[rustfmt::skip]
    pub const ALL: [SheddingPolicy; 6] = [
        SheddingPolicy::Fifo, SheddingPolicy::AgeCap, SheddingPolicy::Lifo,
        SheddingPolicy::Admission, SheddingPolicy::Criticality, SheddingPolicy::Throttle,
    ];

    /// The command line's and the JSON's name.
    pub fn name(self) -> &'static str {
        match self {
            SheddingPolicy::Fifo => "fifo",
            SheddingPolicy::AgeCap => "age-cap",
            SheddingPolicy::Lifo => "lifo",
            SheddingPolicy::Admission => "admission",
            SheddingPolicy::Criticality => "criticality",
            SheddingPolicy::Throttle => "throttle",
        }
    }

    pub fn from_name(name: &str) -> Option<SheddingPolicy> {
        SheddingPolicy::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The `policy` slider's value for this policy (its index).
    pub fn index(self) -> usize {
        SheddingPolicy::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }
}

/// When requests arrive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrivals {
    /// Evenly spaced: request i at i / rate. The lesson's arithmetic assumes this.
    Even,
    /// A Poisson stream from a seeded generator.
    Random { seed: u64 },
}

/// Dependency X of the bulkhead case: some requests call it and hold their slot meanwhile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BulkheadDependency {
    /// Requests per second that call X (on top of the offered load).
    pub calls_per_s: f64,
    /// How long X takes to answer (a hang is a long latency).
    pub latency_ms: f64,
    /// How long the server waits for X before giving up: a slot is held min(latency, timeout).
    pub timeout_ms: f64,
    /// X's own pool (the bulkhead); `None` shares the whole pool.
    pub pool: Option<u32>,
}

impl BulkheadDependency {
    /// How long one call to X holds a slot.
    pub fn hold_ms(&self) -> f64 {
        self.latency_ms.min(self.timeout_ms)
    }
}

/// Shares of the offered load by criticality, in [`RequestCriticality::ALL`]'s order.
pub type CriticalityMix = [f64; 4];

/// All production traffic is CRITICAL by default.
pub const ALL_CRITICAL: CriticalityMix = [0.0, 1.0, 0.0, 0.0];

/// Everything one queueing run needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverloadParams {
    /// Requests per second the clients' applications try (before any throttle).
    pub offered_per_s: f64,
    pub workers: u32,
    /// Time one request holds a worker.
    pub service_ms: f64,
    /// The caller gives up after this; work finished later is wasted.
    pub client_timeout_ms: f64,
    pub duration_s: f64,
    pub arrivals: Arrivals,
    pub policy: SheddingPolicy,
    /// Used by [`SheddingPolicy::AgeCap`].
    pub age_cap_ms: f64,
    /// Requests in the server (in service + queued) at which a new one gets a 503; used by
    /// admission, criticality and throttle.
    pub admission_limit: u32,
    /// The throttle's K; used by [`SheddingPolicy::Throttle`].
    pub throttle_k: f64,
    pub throttle_window_s: f64,
    pub mix: CriticalityMix,
    /// Load balancer pings per second (never shed).
    pub health_checks_per_s: f64,
    pub dependency: Option<BulkheadDependency>,
    /// Report the actual queue wait of the first request arriving at or after this time.
    pub trace_at_s: Option<f64>,
    /// Seed of the throttle's draws and of random class picks.
    pub seed: u64,
}

impl Default for OverloadParams {
    /// The lesson's server: 100 threads x 50 ms = 2,000 requests/s, offered 2,500/s, FIFO.
    fn default() -> Self {
        Self {
            offered_per_s: 2_500.0,
            workers: 100,
            service_ms: 50.0,
            client_timeout_ms: 1_000.0,
            duration_s: 10.0,
            arrivals: Arrivals::Even,
            policy: SheddingPolicy::Fifo,
            age_cap_ms: 200.0,
            // The pool plus a queue of half the pool (the SRE book's rule for steady traffic).
            admission_limit: 150,
            throttle_k: 2.0,
            // The book counts over two minutes; 10 s lets a 30 s run reach its steady state
            // (the window still holds the cold start, when no accept has come back yet).
            throttle_window_s: 10.0,
            mix: ALL_CRITICAL,
            health_checks_per_s: 0.0,
            dependency: None,
            trace_at_s: None,
            seed: 42,
        }
    }
}

impl OverloadParams {
    /// Requests per second the pool serves when busy: workers / service time.
    pub fn capacity_per_s(&self) -> f64 {
        f64::from(self.workers) * 1_000.0 / self.service_ms.max(1e-6)
    }

    /// The same settings under another policy.
    pub fn with_policy(&self, policy: SheddingPolicy) -> OverloadParams {
        OverloadParams { policy, ..self.clone() }
    }

    /// The server's rules for this policy.
    pub fn server_policy(&self) -> ServerPolicy {
        let limit = Some(self.admission_limit);
        let base = ServerPolicy {
            x_pool: self.dependency.as_ref().and_then(|d| d.pool),
            ..ServerPolicy::default()
        };
        match self.policy {
            SheddingPolicy::Fifo => base,
            SheddingPolicy::AgeCap => ServerPolicy {
                age_cap_s: Some(self.age_cap_ms / 1_000.0),
                ..base
            },
            SheddingPolicy::Lifo => ServerPolicy {
                discipline: Discipline::Lifo,
                ..base
            },
            SheddingPolicy::Admission | SheddingPolicy::Throttle => ServerPolicy {
                admission_limit: limit,
                ..base
            },
            SheddingPolicy::Criticality => ServerPolicy {
                admission_limit: limit,
                by_criticality: true,
                ..base
            },
        }
    }

    /// The throttle's K when the policy uses it.
    pub fn throttle(&self) -> Option<f64> {
        (self.policy == SheddingPolicy::Throttle).then_some(self.throttle_k)
    }

    /// The mix as shares that sum to 1 (all CRITICAL when the mix is empty).
    pub fn mix_weights(&self) -> [f64; 4] {
        let total: f64 = self.mix.iter().sum();
        if total <= 0.0 {
            ALL_CRITICAL
        } else {
            self.mix.map(|share| share / total)
        }
    }
}

/// Picks classes in proportion to weights, deterministically (nginx's smooth round robin).
#[derive(Clone, Debug)]
pub(crate) struct ClassPicker {
    weights: [f64; 4],
    current: [f64; 4],
}

impl ClassPicker {
    pub(crate) fn new(weights: [f64; 4]) -> Self {
        Self {
            weights,
            current: [0.0; 4],
        }
    }

    pub(crate) fn next(&mut self) -> RequestCriticality {
        let mut best = 0;
        for i in 0..4 {
            self.current[i] += self.weights[i];
            if self.current[i] > self.current[best] + 1e-12 {
                best = i;
            }
        }
        self.current[best] -= 1.0;
        RequestCriticality::ALL[best]
    }
}
