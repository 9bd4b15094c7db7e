//! Retry amplification: layered retries, the per-client retry budget and Full Jitter.
//!
//! Between a user and the database sit layers (in the lab: browser code, front end, back
//! end); each layer may try the layer below several times. The policy
//! pieces here, [`Budget::admit`] and [`full_jitter_s`], are the ones the live chain
//! calls too; [`run_scenario`] is the Atlas's Lab 2 simulation built from them.

use serde::Serialize;

use crate::engine::pyrandom::PyRandom;

/// Google's client-side retry budget: retries stay below `ratio` of all sends.
///
/// It belongs to one client (the top layer); the layers below never consult it.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Largest share of sends that may be retries (0.1 = 10%).
    pub ratio: f64,
    /// Every attempt this client sent, first tries and retries.
    pub sent: u64,
    /// The retries among them.
    pub retries: u64,
}

impl Budget {
    pub fn new(ratio: f64) -> Self {
        Self {
            ratio,
            sent: 0,
            retries: 0,
        }
    }

    /// Whether one more retry keeps retries within the ratio of sends (counting it).
    pub fn allows_retry(&self) -> bool {
        (self.retries + 1) as f64 <= self.ratio * (self.sent + 1) as f64
    }

    /// Asks to send attempt number `attempt_index` (0 is the first try) and counts it.
    ///
    /// A first try is always admitted; a retry only while the budget allows it.
    pub fn admit(&mut self, attempt_index: u32) -> bool {
        if attempt_index > 0 {
            if !self.allows_retry() {
                return false;
            }
            self.retries += 1;
        }
        self.sent += 1;
        true
    }
}

/// AWS "Full Jitter": sleep a uniform random time in `[0, min(cap, base * 2^attempt))`.
pub fn full_jitter_s(rng: &mut PyRandom, attempt: u32, base_s: f64, cap_s: f64) -> f64 {
    rng.uniform(0.0, full_jitter_ceiling_s(attempt, base_s, cap_s))
}

/// The upper bound of the Full Jitter sleep before attempt `attempt`.
pub fn full_jitter_ceiling_s(attempt: u32, base_s: f64, cap_s: f64) -> f64 {
    cap_s.min(base_s * 2f64.powi(attempt as i32))
}

/// One run of Lab 2: how many database attempts a number of user actions cause.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScenarioParams {
    /// Failure probability of each database attempt, 0 to 1.
    pub p: f64,
    /// Attempts each layer makes, top layer first; the last layer calls the database.
    pub attempts: Vec<u32>,
    /// Retry budget ratio at the top client; 0 means no budget.
    pub budget: f64,
    pub actions: u64,
    pub seed: u64,
}

/// What a run counted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScenarioResult {
    pub params: ScenarioParams,
    pub db_attempts: u64,
    pub db_attempts_per_action: f64,
    pub successes: u64,
    pub success_ratio: f64,
    /// Requests each layer sent to the layer below, top layer first.
    pub sends_per_layer: Vec<u64>,
}

/// Counters a simulated call tree updates.
struct CallTreeTally {
    db_attempts: u64,
    sends_per_layer: Vec<u64>,
}

/// What one call to layer 1 costs when its outcome is certain (p = 0 or p = 1): below the top
/// layer nobody consults the budget, so every such call sends the same requests and ends the
/// same way, and is counted in closed form instead of walked attempt by attempt.
struct CertainSubtree {
    /// Requests each layer sends during one call to layer 1 (layer 0's entry is 0).
    sends_per_layer: Vec<u64>,
    db_attempts: u64,
    ok: bool,
}

impl CertainSubtree {
    /// The fixed cost of a call to layer 1, or `None` when draws decide it (0 < p < 1) or there
    /// is no layer below the top.
    fn of(attempts: &[u32], p: f64) -> Option<CertainSubtree> {
        if attempts.len() < 2 || (p > 0.0 && p < 1.0) {
            return None;
        }
        let fails = p >= 1.0;
        let mut sends_per_layer = vec![0; attempts.len()];
        let mut calls = 1u64;
        for (layer, &tries) in attempts.iter().enumerate().skip(1) {
            // Failing, each call at this layer tries them all; succeeding, the first try does it.
            calls *= if fails { u64::from(tries) } else { 1 };
            sends_per_layer[layer] = calls;
        }
        Some(CertainSubtree {
            db_attempts: calls,
            sends_per_layer,
            ok: !fails,
        })
    }

    fn add_to(&self, tally: &mut CallTreeTally) -> bool {
        tally.db_attempts += self.db_attempts;
        for (total, sends) in tally.sends_per_layer.iter_mut().zip(&self.sends_per_layer) {
            *total += sends;
        }
        self.ok
    }
}

/// The top layer's call when everything below it is certain: only the budget varies.
fn call_top_over_certain(
    attempts: &[u32],
    subtree: &CertainSubtree,
    tally: &mut CallTreeTally,
    budget: &mut Option<Budget>,
) -> bool {
    for attempt_index in 0..attempts[0] {
        if let Some(budget) = budget.as_mut()
            && !budget.admit(attempt_index)
        {
            return false;
        }
        tally.sends_per_layer[0] += 1;
        if subtree.add_to(tally) {
            return true;
        }
    }
    false
}

/// Calls the layer below `layer` with up to `attempts[layer]` tries; true on success.
fn call(
    layer: usize,
    attempts: &[u32],
    rng: &mut PyRandom,
    p: f64,
    tally: &mut CallTreeTally,
    budget: &mut Option<Budget>,
) -> bool {
    for attempt_index in 0..attempts[layer] {
        // Only the top client owns the budget: lower layers retry unchecked.
        if layer == 0
            && let Some(budget) = budget.as_mut()
            && !budget.admit(attempt_index)
        {
            return false;
        }
        tally.sends_per_layer[layer] += 1;
        let ok = if layer == attempts.len() - 1 {
            tally.db_attempts += 1;
            attempt_succeeds(rng, p)
        } else {
            call(layer + 1, attempts, rng, p, tally, budget)
        };
        if ok {
            return true;
        }
    }
    false
}

/// One database attempt: it succeeds when the draw is at or above `p`, as in the Atlas.
///
/// At p = 0 and p = 1 the outcome is certain whatever the draw (`random()` is in [0, 1)),
/// so no draw is made: each run owns its generator, so no later result can tell, and the
/// Atlas's 640,000-attempt row costs no random numbers at all.
fn attempt_succeeds(rng: &mut PyRandom, p: f64) -> bool {
    if p >= 1.0 {
        false
    } else if p <= 0.0 {
        true
    } else {
        rng.random() >= p
    }
}

/// Runs `actions` user actions through the layers, as the Atlas's `run()` does.
pub fn run_scenario(params: &ScenarioParams) -> ScenarioResult {
    let mut rng = PyRandom::new(u128::from(params.seed));
    let mut tally = CallTreeTally {
        db_attempts: 0,
        sends_per_layer: vec![0; params.attempts.len()],
    };
    let mut budget = (params.budget > 0.0).then(|| Budget::new(params.budget));
    let mut successes = 0;
    let certain = CertainSubtree::of(&params.attempts, params.p);
    for _ in 0..params.actions {
        let ok = match &certain {
            Some(subtree) => call_top_over_certain(&params.attempts, subtree, &mut tally, &mut budget),
            None => call(0, &params.attempts, &mut rng, params.p, &mut tally, &mut budget),
        };
        if ok {
            successes += 1;
        }
    }
    let actions = params.actions as f64;
    ScenarioResult {
        params: params.clone(),
        db_attempts: tally.db_attempts,
        db_attempts_per_action: tally.db_attempts as f64 / actions,
        successes,
        success_ratio: successes as f64 / actions,
        sends_per_layer: tally.sends_per_layer,
    }
}

/// The Atlas's three policies, compared at one failure probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RetryPolicy {
    /// A: every layer retries.
    Layered,
    /// B: only the top layer retries.
    TopOnly,
    /// C: B plus the retry budget.
    TopOnlyBudget,
}

impl RetryPolicy {
    pub const ALL: [RetryPolicy; 3] = [RetryPolicy::Layered, RetryPolicy::TopOnly, RetryPolicy::TopOnlyBudget];

    /// The row label of the Atlas's table, for a given per-layer attempt vector.
    pub fn label(self, attempts: &[u32], budget: f64) -> String {
        let top = attempts.first().copied().unwrap_or(1);
        match self {
            RetryPolicy::Layered => format!("A: {} at {} layers", attempts_phrase(attempts), attempts.len()),
            RetryPolicy::TopOnly => format!("B: {top} attempts at top only"),
            RetryPolicy::TopOnlyBudget => {
                let percent = crate::engine::pyfmt::round_to(budget * 100.0, 6);
                let percent = crate::engine::pyfmt::float_repr(percent);
                format!("C: B plus {}% budget", percent.trim_end_matches(".0"))
            }
        }
    }

    /// The attempt vector this policy uses, derived from the layered one.
    pub fn attempts(self, layered: &[u32]) -> Vec<u32> {
        match self {
            RetryPolicy::Layered => layered.to_vec(),
            RetryPolicy::TopOnly | RetryPolicy::TopOnlyBudget => {
                let mut top_only = vec![1; layered.len()];
                top_only[0] = layered[0];
                top_only
            }
        }
    }

    /// The budget ratio this policy uses.
    pub fn budget(self, budget: f64) -> f64 {
        match self {
            RetryPolicy::TopOnlyBudget => budget,
            RetryPolicy::Layered | RetryPolicy::TopOnly => 0.0,
        }
    }
}

/// Runs the three policies of the Atlas's table (A, B, C) at one failure probability.
pub fn compare_policies(
    layered: &[u32],
    p: f64,
    budget: f64,
    actions: u64,
    seed: u64,
) -> Vec<(RetryPolicy, ScenarioResult)> {
    RetryPolicy::ALL
        .iter()
        .map(|&policy| {
            let params = ScenarioParams {
                p,
                attempts: policy.attempts(layered),
                budget: policy.budget(budget),
                actions,
                seed,
            };
            (policy, run_scenario(&params))
        })
        .collect()
}

/// "4 attempts" when every layer makes the same number, else "4,3,2 attempts".
fn attempts_phrase(attempts: &[u32]) -> String {
    match attempts {
        [first, rest @ ..] if rest.iter().all(|a| a == first) => format!("{first} attempts"),
        _ => {
            let list: Vec<String> = attempts.iter().map(u32::to_string).collect();
            format!("{} attempts", list.join(","))
        }
    }
}

/// The failure probabilities of the Atlas's table.
pub const ATLAS_PS: [f64; 3] = [0.05, 0.3, 1.0];
/// The seed of the Atlas's Full Jitter demonstration.
pub const ATLAS_JITTER_SEED: u64 = 7;
/// Full Jitter base and cap of the Atlas's demonstration, in seconds.
pub const ATLAS_JITTER_BASE_S: f64 = 0.1;
pub const ATLAS_JITTER_CAP_S: f64 = 2.0;

/// How many sleeps the Atlas's Full Jitter demonstration draws (attempts 0 to 5).
pub const ATLAS_JITTER_ATTEMPTS: u32 = 6;

/// The ceilings of the Atlas's Full Jitter sleeps, attempts 0 to 5.
pub fn atlas_jitter_ceilings_s() -> Vec<f64> {
    (0..ATLAS_JITTER_ATTEMPTS)
        .map(|attempt| full_jitter_ceiling_s(attempt, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S))
        .collect()
}

/// The Full Jitter sleeps before attempts `0..count`, rounded to milliseconds as the Atlas prints them.
pub fn jitter_sleeps_s(seed: u64, count: u32, base_s: f64, cap_s: f64) -> Vec<f64> {
    let mut rng = PyRandom::new(u128::from(seed));
    (0..count)
        .map(|attempt| crate::engine::pyfmt::round_to(full_jitter_s(&mut rng, attempt, base_s, cap_s), 3))
        .collect()
}

// ---- The live chain's limits and its comparison with the simulation ------------------
// (live/retry/ runs the chain; the printer and the command line read these.)

/// The longest a counting run keeps starting actions: bounded in time as well as count.
pub const RUN_ACTIONS_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(300);

/// Requests the database holds at once, queued or in service, in the metastable mode.
/// A real server has such a limit (a listen backlog, a connection pool, a queue); beyond
/// it a request is refused at once with a 503 and counted in the live chain's `ChainCounters::db_refused`.
/// 512 is 1.3 s of work at the default 400 requests/s, far past the back end's 100 ms
/// timeout, so the queue still fills with work nobody waits for and the lesson holds,
/// while memory stays bounded whatever the load and the duration (each queued request
/// also holds its connection's buffers until its work is done).
pub const DB_BACKLOG: u64 = 512;

/// A live result set against the sim at the same settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimComparison {
    pub sim_db_attempts_per_action: f64,
    pub sim_success_ratio: f64,
    /// Live minus sim, database attempts per action.
    pub difference: f64,
    /// Half-width of the 95% interval of that difference between two independent runs.
    pub margin_95: f64,
    pub success_difference: f64,
    pub success_margin_95: f64,
    pub within: bool,
}

/// Seeds the sampling spread is estimated from.
const SPREAD_SEEDS: u64 = 20;

/// Compares a live run with the engine's sim at the same settings. The sampling error is
/// the spread of the sim over 20 other seeds at the same number of actions; the difference
/// of two independent runs has sqrt(2) times that spread.
pub fn compare_with_sim(live: &ScenarioResult) -> SimComparison {
    let sim = run_scenario(&live.params);
    let spread: Vec<(f64, f64)> = (1..=SPREAD_SEEDS)
        .map(|k| {
            let mut params = live.params.clone();
            params.seed = live.params.seed.wrapping_add(k * 7_919);
            let run = run_scenario(&params);
            (run.db_attempts_per_action, run.success_ratio)
        })
        .collect();
    let sd = |pick: fn(&(f64, f64)) -> f64| {
        let n = spread.len() as f64;
        let mean = spread.iter().map(pick).sum::<f64>() / n;
        (spread.iter().map(|x| (pick(x) - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    };
    let margin_95 = 1.96 * std::f64::consts::SQRT_2 * sd(|x| x.0);
    let success_margin_95 = 1.96 * std::f64::consts::SQRT_2 * sd(|x| x.1);
    let difference = live.db_attempts_per_action - sim.db_attempts_per_action;
    let success_difference = live.success_ratio - sim.success_ratio;
    // A hair of slack for the two-decimal rounding both numbers are printed with.
    let within = difference.abs() <= margin_95 + 0.005 && success_difference.abs() <= success_margin_95 + 0.0005;
    SimComparison {
        sim_db_attempts_per_action: sim.db_attempts_per_action,
        sim_success_ratio: sim.success_ratio,
        difference,
        margin_95,
        success_difference,
        success_margin_95,
        within,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(p: f64, attempts: &[u32], budget: f64) -> ScenarioResult {
        run_scenario(&ScenarioParams {
            p,
            attempts: attempts.to_vec(),
            budget,
            actions: 10_000,
            seed: 42,
        })
    }

    #[test]
    fn certain_failure_multiplies_attempts_across_layers() {
        assert_eq!(scenario(1.0, &[4, 4, 4], 0.0).db_attempts, 640_000);
        assert_eq!(scenario(1.0, &[4, 1, 1], 0.0).db_attempts, 40_000);
        assert_eq!(scenario(1.0, &[3, 3, 3, 3, 3], 0.0).db_attempts_per_action, 243.0);
    }

    #[test]
    fn budget_holds_retries_near_its_ratio() {
        let result = scenario(1.0, &[4, 1, 1], 0.1);
        assert_eq!(result.db_attempts_per_action, 1.1111);
        assert_eq!(result.successes, 0);
    }

    #[test]
    fn budget_admits_first_tries_and_counts_retries() {
        let mut budget = Budget::new(0.1);
        assert!(budget.admit(0));
        assert!(!budget.admit(1), "1 retry in 2 sends is 50%, above 10%");
        for _ in 0..9 {
            assert!(budget.admit(0));
        }
        assert!(budget.admit(1), "1 retry in 11 sends fits 10%");
        assert_eq!((budget.sent, budget.retries), (11, 1));
    }

    #[test]
    fn jitter_stays_below_its_ceiling() {
        let mut rng = PyRandom::new(3);
        for attempt in 0..12 {
            let ceiling = full_jitter_ceiling_s(attempt, 0.1, 2.0);
            let sleep = full_jitter_s(&mut rng, attempt, 0.1, 2.0);
            assert!((0.0..ceiling).contains(&sleep), "{sleep} outside [0, {ceiling})");
        }
        assert_eq!(full_jitter_ceiling_s(10, 0.1, 2.0), 2.0);
    }

    #[test]
    fn certain_outcomes_are_counted_as_the_walk_counts_them() {
        for p in [0.0, 1.0] {
            for attempts in [
                vec![4, 4, 4],
                vec![3, 1, 2, 5],
                vec![2, 7],
                vec![5],
                vec![1, 1, 1, 1, 1, 1],
            ] {
                for budget in [0.0, 0.1, 0.5] {
                    let params = ScenarioParams {
                        p,
                        attempts: attempts.clone(),
                        budget,
                        actions: 997,
                        seed: 42,
                    };
                    // The attempt-by-attempt walk, as before the closed form.
                    let mut rng = PyRandom::new(42);
                    let mut tally = CallTreeTally {
                        db_attempts: 0,
                        sends_per_layer: vec![0; attempts.len()],
                    };
                    let mut walk_budget = (budget > 0.0).then(|| Budget::new(budget));
                    let successes = (0..params.actions)
                        .filter(|_| call(0, &attempts, &mut rng, p, &mut tally, &mut walk_budget))
                        .count() as u64;
                    let counted = run_scenario(&params);
                    assert_eq!(counted.db_attempts, tally.db_attempts, "{params:?}");
                    assert_eq!(counted.sends_per_layer, tally.sends_per_layer, "{params:?}");
                    assert_eq!(counted.successes, successes, "{params:?}");
                }
            }
        }
    }
}
