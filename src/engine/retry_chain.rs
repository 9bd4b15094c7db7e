//! Lab 2's live chain as plain data: what it is built with ([`ChainConfig`] and its parts),
//! the metastable experiment's settings ([`MetastableConfig`]) and what that experiment
//! returns ([`LiveMetastableRun`]). `live/retry/` builds and runs the chain from these; the
//! printer and the command line read them without naming a live module.

use serde::Serialize;

use crate::engine::retry::RetryPolicy;

/// The database as a finite resource, for the metastable mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DbCapacity {
    /// Requests the database serves at full speed at once (semaphore slots).
    pub concurrency: usize,
    /// Time one request holds a slot, success or failure: a failure costs work too.
    pub service_ms: f64,
}

/// Full Jitter between attempts; a zero base means no sleep at all (the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct BackoffConfig {
    pub base_ms: f64,
    pub cap_ms: f64,
}

/// What the chain is built with; attempts and budget are chosen per action instead.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChainConfig {
    /// Retrying layers including the top client: 3 builds front end, back end, database.
    pub layers: usize,
    /// Failure probability of each database attempt.
    pub p: f64,
    /// Seed of the database's failure draws and of each layer's jitter draws.
    pub seed: u64,
    /// None: the database answers at once (the counting lab).
    pub capacity: Option<DbCapacity>,
    /// The back end's timeout on each database call; None waits forever.
    pub db_timeout_ms: Option<u64>,
    pub backoff: BackoffConfig,
}

impl ChainConfig {
    /// The counting lab's chain: instant database, no timeouts, no backoff.
    pub fn counting(layers: usize, p: f64, seed: u64) -> Self {
        Self {
            layers,
            p,
            seed,
            capacity: None,
            db_timeout_ms: None,
            backoff: BackoffConfig::default(),
        }
    }
}

/// The metastable experiment's settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetastableConfig {
    pub policy: RetryPolicy,
    /// The layered attempt vector; single and budget keep only its first entry.
    pub layered: Vec<u32>,
    /// Budget ratio of the budget policy.
    pub budget: f64,
    pub capacity: DbCapacity,
    pub load_per_s: f64,
    /// The back end's timeout on each database call.
    pub db_timeout_ms: u64,
    /// The user's deadline per action.
    pub deadline_ms: u64,
    pub before_s: f64,
    pub trigger_s: f64,
    pub after_s: f64,
    /// Width of one timeline bucket.
    pub bucket_ms: u64,
    pub seed: u64,
    pub backoff: BackoffConfig,
}

impl MetastableConfig {
    /// A chain with this experiment's database: `layers` hops, no random failures (the
    /// trigger is the only cause), the capacity and the back end's timeout.
    pub fn chain_config(&self, layers: usize) -> ChainConfig {
        ChainConfig {
            layers,
            p: 0.0,
            seed: self.seed,
            capacity: Some(self.capacity.clone()),
            db_timeout_ms: Some(self.db_timeout_ms),
            backoff: self.backoff,
        }
    }

    /// The database's capacity in requests per second: slots / service time.
    pub fn capacity_per_s(&self) -> f64 {
        self.capacity.concurrency as f64 * 1e3 / self.capacity.service_ms.max(1e-3)
    }
}

impl Default for MetastableConfig {
    /// 8 slots x 20 ms = 400 database requests/s; 60% of it offered (240 actions/s); the
    /// back end waits 100 ms (5 service times), the user 1 s. At 5 ms service (1,600/s,
    /// 960 actions/s) the healthy chain alone needs ~3,000 HTTP requests/s, which a debug
    /// build on a shared 2-core machine cannot serve, so the chain melted down at start-up
    /// without any trigger. At 20 ms the healthy chain costs ~720 requests/s, leaving CPU
    /// headroom, while a retry storm (4 to 10 database calls per action) is still several
    /// times the database's capacity.
    fn default() -> Self {
        Self {
            policy: RetryPolicy::Layered,
            layered: vec![4, 4, 4],
            budget: 0.1,
            capacity: DbCapacity {
                concurrency: 8,
                service_ms: 20.0,
            },
            load_per_s: 240.0,
            db_timeout_ms: 100,
            deadline_ms: 1_000,
            before_s: 5.0,
            trigger_s: 10.0,
            after_s: 15.0,
            bucket_ms: 1_000,
            seed: 42,
            backoff: BackoffConfig::default(),
        }
    }
}

/// Where a bucket lies relative to the trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadPhase {
    Before,
    Trigger,
    After,
}

impl LoadPhase {
    pub fn word(self) -> &'static str {
        match self {
            LoadPhase::Before => "before",
            LoadPhase::Trigger => "TRIGGER",
            LoadPhase::After => "after",
        }
    }
}

/// One slice of the timeline, rates per second.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bucket {
    /// End of the bucket, seconds from the start of the load.
    pub t_s: f64,
    pub phase: LoadPhase,
    /// Actions that succeeded within their deadline.
    pub goodput_per_s: f64,
    pub db_requests_per_s: f64,
    pub db_timeouts_per_s: f64,
    pub expired_per_s: f64,
    /// Database requests queued or in service at the end of the bucket.
    pub db_in_flight: u64,
    /// Database requests refused at once at its backlog limit.
    pub db_refused_per_s: f64,
}

/// The experiment's result (the live chain's; Lab 4's simulated model has its own).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveMetastableRun {
    pub config: MetastableConfig,
    pub attempts: Vec<u32>,
    pub budget: f64,
    pub buckets: Vec<Bucket>,
    pub goodput_before_per_s: f64,
    pub goodput_during_per_s: f64,
    pub goodput_after_per_s: f64,
    /// Goodput over the last third of the after window: where the system settled.
    pub goodput_end_per_s: f64,
    /// Seconds after the trigger ended until a bucket reached 80% of the before goodput.
    pub recovered_after_s: Option<f64>,
    /// Database requests refused at its backlog limit over the whole run.
    pub db_refused: u64,
    /// Actions not started because `live::retry::metastable::max_in_flight` were already out.
    pub actions_skipped: u64,
    /// That bound for this run's number of hops.
    pub max_in_flight: usize,
}
