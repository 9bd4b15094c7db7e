//! The metastable failure of Bronson et al. (HotOS 2021), second by second.
//!
//! A database answers fast below its capacity and much slower at or above it. The web
//! tier sends one query per request and, when no answer has come within `retry_after_ms`,
//! more queries for the same request (one retry in the paper). This is the paper's own
//! model, a load-to-latency switch, stepped once a second: the load the database sees in
//! second k is the offered load plus the retries of second k-1's requests, plus, when an
//! outage ends, the requests it held ("the queued requests and retries all arrive
//! together"). A request is good if its answer came by its deadline.
//!
//! With the paper's numbers (capacity 300 QPS, one retry after 1 s, a query over a
//! second when overloaded) 280 QPS is healthy until a 10 s outage; afterwards every
//! request is retried, the database sees 2 x 280 = 560 QPS and never answers in time
//! again. Twice the load stays under 300 only below 150 QPS, and 280 + retries stays
//! under 300 only with fewer than 20 retries per second: the paper's stable region and
//! its two ways out. The same model with Lab 2's live settings ([`MetastableParams::lab2`])
//! is the simulated twin of Lab 2's live metastable view.

use serde::Serialize;

/// The model's inputs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetastableParams {
    /// Requests per second the web tier receives.
    pub load_per_s: f64,
    /// Database queries per second below which it answers fast.
    pub capacity_per_s: f64,
    /// Latency below capacity ("under 100 ms").
    pub fast_ms: f64,
    /// Latency at or above capacity ("every query takes more than a second").
    pub slow_ms: f64,
    /// A request with no answer after this sends its next query.
    pub retry_after_ms: f64,
    /// Queries a request may send in all (2: one query plus one retry).
    pub attempts: u32,
    /// Retries per second held under this (a fixed cap); `None` means no cap.
    pub retry_cap_per_s: Option<f64>,
    /// Retries at most this share of requests (a retry budget); `None` means no budget.
    pub budget_ratio: Option<f64>,
    /// The user's deadline: an answer later than this is no use.
    pub deadline_ms: f64,
    pub before_s: u32,
    /// Seconds the database is unreachable (the trigger).
    pub trigger_s: u32,
    pub after_s: u32,
    /// From second `at_s` on, the load is `load_per_s` (a cut, for recovery).
    pub load_changes: Vec<(u32, f64)>,
}

impl Default for MetastableParams {
    /// The paper's worked example: 280 QPS, capacity 300, one retry after 1 s, 10 s outage.
    fn default() -> Self {
        Self {
            load_per_s: 280.0,
            capacity_per_s: 300.0,
            fast_ms: 50.0,
            slow_ms: 1_500.0,
            retry_after_ms: 1_000.0,
            attempts: 2,
            retry_cap_per_s: None,
            budget_ratio: None,
            deadline_ms: 1_000.0,
            before_s: 10,
            trigger_s: 10,
            after_s: 40,
            load_changes: Vec::new(),
        }
    }
}

impl MetastableParams {
    /// Lab 2's live metastable view: a database of `concurrency` slots x `service_ms`
    /// (8 x 20 ms = 400/s), the back end retrying after its `db_timeout_ms` (100 ms),
    /// `attempts` per layer multiplied through the chain (4,4,4 is 64 queries per action;
    /// the single layer keeps the first entry), an optional retry budget, a 1 s deadline.
    /// Overloaded, the database's queue keeps growing, so a query's answer comes after
    /// the user's deadline (modelled as twice the deadline).
    pub fn lab2(
        load_per_s: f64,
        concurrency: u32,
        service_ms: f64,
        db_timeout_ms: f64,
        attempts: &[u32],
        budget: f64,
    ) -> Self {
        let per_action: u32 = attempts.iter().product::<u32>().max(1);
        Self {
            load_per_s,
            capacity_per_s: f64::from(concurrency) * 1_000.0 / service_ms.max(1e-6),
            fast_ms: service_ms,
            slow_ms: 2_000.0,
            retry_after_ms: db_timeout_ms,
            attempts: per_action,
            retry_cap_per_s: None,
            budget_ratio: (budget > 0.0).then_some(budget),
            deadline_ms: 1_000.0,
            before_s: 5,
            trigger_s: 10,
            after_s: 15,
            load_changes: Vec::new(),
        }
    }

    /// Retries a second's `load` sends when no query answers in time, after the caps.
    pub fn retries_for(&self, load_per_s: f64) -> f64 {
        let mut retries = load_per_s * f64::from(self.attempts.saturating_sub(1));
        if let Some(cap) = self.retry_cap_per_s {
            retries = retries.min(cap);
        }
        if let Some(ratio) = self.budget_ratio {
            retries = retries.min(ratio * load_per_s);
        }
        retries
    }

    /// Whether the database copes even when every request is retried: then no trigger
    /// can keep it down (the paper's stable region).
    pub fn is_stable_at(&self, load_per_s: f64) -> bool {
        load_per_s + self.retries_for(load_per_s) < self.capacity_per_s
    }

    /// The load below which the system is stable: the highest load whose worst case
    /// (every request retried, after the caps) still fits, 300 / 2 = 150 in the paper.
    /// Load plus retries grows with the load, so halving an interval finds the edge.
    pub fn stable_below_per_s(&self) -> f64 {
        let (mut low, mut high) = (0.0, self.capacity_per_s);
        for _ in 0..64 {
            let mid = (low + high) / 2.0;
            if self.is_stable_at(mid) {
                low = mid;
            } else {
                high = mid;
            }
        }
        (high * 1_000.0).round() / 1_000.0
    }

    /// The retry rate the database can absorb at this load: recovery needs retries under
    /// it (300 - 280 = 20 QPS).
    pub fn retry_room_per_s(&self) -> f64 {
        (self.capacity_per_s - self.load_per_s).max(0.0)
    }

    fn load_at(&self, second: u32) -> f64 {
        self.load_changes
            .iter()
            .rfind(|(at_s, _)| *at_s <= second)
            .map_or(self.load_per_s, |(_, load)| *load)
    }
}

/// Where the system is in the paper's lifecycle during one second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetastableState {
    /// Healthy, and would stay healthy even if every request were retried.
    Stable,
    /// Healthy, but one trigger away from the bad state.
    Vulnerable,
    /// The trigger is on.
    Trigger,
    /// Down although the offered load alone fits: retries keep it there.
    Metastable,
    /// Down because the offered load alone is too much.
    Overloaded,
}

impl MetastableState {
    pub fn word(self) -> &'static str {
        match self {
            MetastableState::Stable => "stable",
            MetastableState::Vulnerable => "vulnerable",
            MetastableState::Trigger => "TRIGGER",
            MetastableState::Metastable => "METASTABLE",
            MetastableState::Overloaded => "overloaded",
        }
    }
}

/// One second of the model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetastableSecond {
    pub t_s: f64,
    pub state: MetastableState,
    pub load_per_s: f64,
    /// Queries the database received: load + retries (+ the held backlog once).
    pub db_load_per_s: f64,
    pub retries_per_s: f64,
    pub latency_ms: f64,
    pub goodput_per_s: f64,
}

/// The model's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetastableRun {
    pub params: MetastableParams,
    pub seconds: Vec<MetastableSecond>,
    pub goodput_before_per_s: f64,
    pub goodput_after_per_s: f64,
    /// Database load in the last second.
    pub db_load_end_per_s: f64,
    /// Seconds after the trigger until goodput was back; `None`: it never came back.
    pub recovered_after_s: Option<f64>,
    pub stable_below_per_s: f64,
    pub retry_room_per_s: f64,
}

/// Steps the model through before, trigger and after.
pub fn run(params: &MetastableParams) -> MetastableRun {
    let total = params.before_s + params.trigger_s + params.after_s;
    let trigger_end = params.before_s + params.trigger_s;
    let mut seconds = Vec::with_capacity(total as usize);
    let mut retries_in = 0.0;
    let mut held = 0.0;
    for second in 0..total {
        let load = params.load_at(second);
        let outage = (params.before_s..trigger_end).contains(&second);
        let released = if second == trigger_end {
            std::mem::take(&mut held)
        } else {
            0.0
        };
        let db_load = load + retries_in + released;
        let (latency_ms, state) = if outage {
            held += load;
            (f64::INFINITY, MetastableState::Trigger)
        } else if db_load >= params.capacity_per_s {
            let state = if load < params.capacity_per_s {
                MetastableState::Metastable
            } else {
                MetastableState::Overloaded
            };
            (params.slow_ms, state)
        } else if params.is_stable_at(load) {
            (params.fast_ms, MetastableState::Stable)
        } else {
            (params.fast_ms, MetastableState::Vulnerable)
        };
        let retries_out = if latency_ms > params.retry_after_ms {
            params.retries_for(load)
        } else {
            0.0
        };
        let goodput = if latency_ms <= params.deadline_ms { load } else { 0.0 };
        seconds.push(MetastableSecond {
            t_s: f64::from(second + 1),
            state,
            load_per_s: load,
            db_load_per_s: if outage { 0.0 } else { db_load },
            retries_per_s: retries_in,
            latency_ms: if latency_ms.is_finite() { latency_ms } else { 0.0 },
            goodput_per_s: goodput,
        });
        retries_in = retries_out;
    }
    let mean = |from: u32, to: u32| {
        let slice = &seconds[from.min(total) as usize..to.min(total) as usize];
        if slice.is_empty() {
            0.0
        } else {
            slice.iter().map(|s| s.goodput_per_s).sum::<f64>() / slice.len() as f64
        }
    };
    let recovered_after_s = seconds[trigger_end.min(total) as usize..]
        .iter()
        .position(|s| s.goodput_per_s > 0.0 && s.goodput_per_s >= 0.8 * s.load_per_s)
        .map(|i| i as f64 + 1.0);
    MetastableRun {
        goodput_before_per_s: mean(0, params.before_s),
        goodput_after_per_s: mean(trigger_end, total),
        db_load_end_per_s: seconds.last().map_or(0.0, |s| s.db_load_per_s),
        recovered_after_s,
        stable_below_per_s: params.stable_below_per_s(),
        retry_room_per_s: params.retry_room_per_s(),
        params: params.clone(),
        seconds,
    }
}

/// Goodput after the trigger against the offered load: rises, then falls to 0 where
/// the retries alone overload the database.
pub fn sweep(params: &MetastableParams, loads_per_s: &[f64]) -> Vec<(f64, f64)> {
    loads_per_s
        .iter()
        .map(|&load| {
            let at = MetastableParams {
                load_per_s: load,
                load_changes: Vec::new(),
                ..params.clone()
            };
            (load, run(&at).goodput_after_per_s)
        })
        .collect()
}
