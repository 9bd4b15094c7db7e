//! Lab 2: the retry lab's settings from the sliders, a check's settings or `run retry`'s
//! flags, and the bounds a run is held to whatever asked for it.
//!
//! `actions` has one fallback, the lab file's default (10,000 as shipped, the Atlas's). A
//! live counting run makes fewer: the app caps its own (`live::retry::runner::LIVE_ACTIONS_MAX`),
//! `run retry --live` makes [`LIVE_DEFAULT_ACTIONS`] unless `--actions` says.
//!
//! The live metastable experiment has its own settings ([`metastable_config`]): the engine's
//! defaults, with the lab's budget and seed and every value given on top.

use crate::content::LabId;
use crate::content::lab::{LabFile, LabParameterLimits, limit, no_whole_lab_problems};
use crate::content::params::bound::{value, whole};
use crate::content::values::{Defaults, Values};
use crate::engine::retry::{RetryPolicy, ScenarioParams, ScenarioResult};
use crate::engine::retry_chain::{BackoffConfig, DbCapacity, MetastableConfig};
use crate::error::UsageError;

/// The names of the attempts per layer, top layer first.
pub const ATTEMPT_NAMES: [&str; 3] = ["attempts_client", "attempts_frontend", "attempts_backend"];

/// Lab 2's settings: attempts per layer (the layered policy A), p, budget, actions, seed.
#[derive(Clone, Debug, PartialEq)]
pub struct RetrySettings {
    /// Attempts per layer, top layer first (policies B and C use the top one).
    pub layered: Vec<u32>,
    pub p: f64,
    /// The retry budget's ratio for policy C.
    pub budget: f64,
    pub actions: u64,
    pub seed: u64,
}

/// The lab file's attempts per layer, top layer first: the Atlas's 4,4,4 as shipped.
pub fn layered_defaults(lab: &LabFile) -> Vec<u32> {
    retry_settings(lab, &Defaults).layered
}

/// The settings of the Atlas's table (`run retry` with no scenario flag, sim or live): the
/// lab file's, as every flag that would change them names one scenario instead.
pub fn table_settings(lab: &LabFile) -> RetrySettings {
    retry_settings(lab, &Defaults)
}

pub fn retry_settings(lab: &LabFile, values: &(impl Values + ?Sized)) -> RetrySettings {
    RetrySettings {
        layered: ATTEMPT_NAMES
            .iter()
            .map(|name| whole(lab, values, name) as u32)
            .collect(),
        p: value(lab, values, "p"),
        budget: value(lab, values, "budget"),
        actions: whole(lab, values, "actions"),
        seed: whole(lab, values, "seed"),
    }
}

/// Actions a live counting run on the command line makes unless `--actions` says otherwise.
pub const LIVE_DEFAULT_ACTIONS: u64 = 1_000;

/// The most database attempts one run may cost in the worst case (every attempt failing):
/// about a second of simulation, and a bound on a live run's requests.
pub const MAX_WORST_CASE_DB_ATTEMPTS: u64 = 1_000_000_000;

/// One scenario (not the table): `attempts` per layer (else the lab file's), `p`, `actions`
/// and `seed` from `values` or the lab file, and no budget unless `values` names one (the
/// lab file's budget is policy C's, a policy of the table).
///
/// Each value is range-checked alone, but the cost is their product: 10^6 actions of six
/// layers of 10 attempts would be 10^12 database attempts, so that combination is refused.
pub fn scenario(
    lab: &LabFile,
    values: &(impl Values + ?Sized),
    attempts: Option<Vec<u32>>,
    actions: u64,
) -> Result<ScenarioParams, UsageError> {
    let attempts = attempts.unwrap_or_else(|| layered_defaults(lab));
    let per_action: u64 = attempts.iter().map(|&a| u64::from(a)).product();
    let worst_case = per_action.saturating_mul(actions);
    if worst_case > MAX_WORST_CASE_DB_ATTEMPTS {
        return Err(UsageError(format!(
            "--actions {actions} with --attempts {} could cost {worst_case} database attempts; \
             allowed: actions x the product of attempts up to {MAX_WORST_CASE_DB_ATTEMPTS}",
            attempts_text(&attempts)
        )));
    }
    Ok(ScenarioParams {
        p: value(lab, values, "p"),
        attempts,
        budget: values.value("budget").unwrap_or(0.0),
        actions,
        seed: whole(lab, values, "seed"),
    })
}

/// Actions from `values`, else the lab file's default (sim) or [`LIVE_DEFAULT_ACTIONS`] (live).
pub fn actions(lab: &LabFile, values: &(impl Values + ?Sized), live: bool) -> u64 {
    match values.value("actions") {
        Some(actions) => actions.round() as u64,
        None if live => LIVE_DEFAULT_ACTIONS,
        None => whole(lab, &Defaults, "actions"),
    }
}

/// `4,4,4`, as the flag takes it.
fn attempts_text(attempts: &[u32]) -> String {
    attempts.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// Full Jitter between a live chain's attempts: its base and cap in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Backoff {
    pub base_ms: f64,
    pub cap_ms: f64,
}

/// Full Jitter as the live chain takes it.
impl From<Backoff> for BackoffConfig {
    fn from(backoff: Backoff) -> Self {
        BackoffConfig {
            base_ms: backoff.base_ms,
            cap_ms: backoff.cap_ms,
        }
    }
}

/// The largest Full Jitter base a flag takes, in milliseconds.
pub const BACKOFF_BASE_MAX_MS: f64 = 10_000.0;
/// The largest Full Jitter cap a flag takes, in milliseconds.
pub const BACKOFF_CAP_MAX_MS: f64 = 60_000.0;

/// Full Jitter from `backoff_base_ms` and `backoff_cap_ms`: the cap defaults to 20 x the base
/// (0 when there is no base); a cap below the base is refused, as it would cut every sleep
/// to less than the first delay it names.
pub fn backoff(values: &(impl Values + ?Sized)) -> Result<Backoff, UsageError> {
    let base_ms = values.value("backoff_base_ms").unwrap_or(0.0);
    let cap_ms = values.value("backoff_cap_ms").unwrap_or(base_ms * 20.0);
    if values.value("backoff_cap_ms").is_some() && base_ms > 0.0 && cap_ms < base_ms {
        return Err(UsageError(format!(
            "--backoff-cap-ms {cap_ms} is below --backoff-base-ms {base_ms}; allowed: a cap from {base_ms} to {BACKOFF_CAP_MAX_MS}"
        )));
    }
    Ok(Backoff { base_ms, cap_ms })
}

/// The most requests a second the live chain is taken to serve, counting every hop: well
/// above what it does on the lab's 2-core machine (about 1,300/s in a debug build, a few
/// thousand optimised), so that only a run that certainly cannot finish is refused.
pub const LIVE_MAX_REQUESTS_PER_S: f64 = 20_000.0;

/// Refuses a live run that cannot finish within `limit_s`: its requests (the simulation's
/// count at the same settings, `predicted`) at [`LIVE_MAX_REQUESTS_PER_S`], plus the Full
/// Jitter sleeps of its retries (at least half the base each, on average), shared by
/// `concurrency` actions in flight. Without this the run would go on to its limit and be cut
/// off there, a run that answers nothing the learner asked.
pub fn check_live_time(
    predicted: &ScenarioResult,
    backoff: Backoff,
    concurrency: usize,
    limit_s: f64,
) -> Result<(), UsageError> {
    let params = &predicted.params;
    let requests: u64 = predicted.sends_per_layer.iter().sum();
    let retries = requests.saturating_sub(params.actions);
    let sleep_s = retries as f64 * backoff.base_ms.min(backoff.cap_ms) / 2.0 / 1e3 / concurrency.max(1) as f64;
    let estimate_s = requests as f64 / LIVE_MAX_REQUESTS_PER_S + sleep_s;
    if estimate_s <= limit_s {
        return Ok(());
    }
    let per_action_s = estimate_s / params.actions.max(1) as f64;
    let most = (limit_s / per_action_s).floor() as u64;
    Err(UsageError(format!(
        "--actions {} with --attempts {} at --p {} makes {requests} requests and cannot finish within the live run's \
         {limit_s} s limit (at least {estimate_s:.0} s); allowed at these settings: up to {most} actions",
        params.actions,
        attempts_text(&params.attempts),
        params.p
    )))
}

/// The live metastable experiment (`run retry --live --scenario metastable`): the engine's
/// defaults ([`MetastableConfig::default`]) with every value `values` gives on top, by the
/// flags' names: `metastable_policy` (the index of [`RetryPolicy::ALL`]: layered, single,
/// budget), `before_s`, `trigger_s`, `after_s`, `load_per_s`, `db_concurrency`, `service_ms`,
/// `db_timeout_ms`, `deadline_ms`, `bucket_ms`, and the lab's `budget`, `seed` and Full
/// Jitter. `attempts` (a list, not a named value) replaces the engine's 4,4,4.
///
/// `p` and `actions` are refused: the trigger sets the failures, and the experiment runs for
/// its phases' seconds, not a count of actions.
pub fn metastable_config(
    lab: &LabFile,
    values: &(impl Values + ?Sized),
    attempts: Option<Vec<u32>>,
) -> Result<MetastableConfig, UsageError> {
    if let Some(flag) = [("p", "--p"), ("actions", "--actions")]
        .into_iter()
        .find_map(|(name, flag)| values.value(name).is_some().then_some(flag))
    {
        return Err(UsageError(format!(
            "{flag} does not apply to --scenario metastable (the trigger sets the failures)"
        )));
    }
    metastable_settings(lab, values, attempts)
}

/// The metastable experiment's settings from `values`, as [`metastable_config`] resolves
/// them but reading no `p` or `actions`: the app's sliders always hold those (for the
/// counting view beside it), so the app comes here and the command line through the
/// refusal above. One resolution for both, so a default changed here reaches both.
pub fn metastable_settings(
    lab: &LabFile,
    values: &(impl Values + ?Sized),
    attempts: Option<Vec<u32>>,
) -> Result<MetastableConfig, UsageError> {
    let defaults = MetastableConfig::default();
    let given = |name: &str| values.value(name);
    let given_ms = |name: &str, default_ms: u64| given(name).map_or(default_ms, |ms| ms as u64);
    let capacity = DbCapacity {
        concurrency: given("db_concurrency").map_or(defaults.capacity.concurrency, |c| c as usize),
        service_ms: given("service_ms").unwrap_or(defaults.capacity.service_ms),
    };
    let capacity_per_s = capacity.concurrency as f64 * 1e3 / capacity.service_ms;
    // The policy travels as its index in `RetryPolicy::ALL` (a value is a number); one that
    // names no policy is refused, not held to the last, which would run another policy.
    let policy = match given("metastable_policy") {
        None => defaults.policy,
        Some(index) => (index >= 0.0)
            .then(|| RetryPolicy::ALL.get(index.round() as usize))
            .flatten()
            .copied()
            .ok_or_else(|| {
                UsageError(format!(
                    "metastable_policy {index} names no retry policy; allowed: 0 to {}",
                    RetryPolicy::ALL.len() - 1
                ))
            })?,
    };
    Ok(MetastableConfig {
        policy,
        layered: attempts.unwrap_or(defaults.layered),
        budget: value(lab, values, "budget"),
        // Unless given, the load stays at the default's 60% of whatever capacity was chosen.
        load_per_s: given("load_per_s").unwrap_or((0.6 * capacity_per_s).round()),
        capacity,
        db_timeout_ms: given_ms("db_timeout_ms", defaults.db_timeout_ms),
        deadline_ms: given_ms("deadline_ms", defaults.deadline_ms),
        before_s: given("before_s").unwrap_or(defaults.before_s),
        trigger_s: given("trigger_s").unwrap_or(defaults.trigger_s),
        after_s: given("after_s").unwrap_or(defaults.after_s),
        bucket_ms: given_ms("bucket_ms", defaults.bucket_ms),
        seed: whole(lab, values, "seed"),
        backoff: backoff(values)?.into(),
    })
}

/// Lab 2's parameters: each one its lab file must define, with the widest range the engine
/// accepts (the content checker holds a lab file to them).
#[linkme::distributed_slice(crate::content::lab::PARAMETER_LIMITS)]
static PARAMETER_LIMITS: LabParameterLimits = LabParameterLimits {
    lab: LabId::Retry,
    whole_lab_problems: no_whole_lab_problems,
    limits: &[
        limit("p", 0.0, 1.0, false),
        limit("attempts_client", 1.0, 10.0, true),
        limit("attempts_frontend", 1.0, 10.0, true),
        limit("attempts_backend", 1.0, 10.0, true),
        limit("budget", 0.0, 1.0, false),
        limit("actions", 1.0, 1_000_000.0, true),
        limit("seed", 0.0, 4_294_967_295.0, true),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};

    #[test]
    fn unnamed_values_take_the_lab_files_defaults() {
        let content = Content::load(None).expect("embedded content loads");
        let retry = content.lab(LabId::Retry);
        let settings = retry_settings(retry, &Defaults);
        assert_eq!(settings.layered, vec![4, 4, 4]);
        assert_eq!(
            settings.actions, 10_000,
            "the one fallback for actions is the lab file's"
        );
        let named: &[(&str, f64)] = &[("p", 0.3), ("attempts_frontend", 1.0)];
        let settings = retry_settings(retry, named);
        assert_eq!((settings.p, settings.layered.clone()), (0.3, vec![4, 1, 4]));
    }

    #[test]
    fn a_live_run_that_cannot_finish_in_its_limit_is_refused_up_front() {
        let content = Content::load(None).expect("embedded content loads");
        let lab = content.lab(LabId::Retry);
        let run = |attempts: Vec<u32>, actions: u64| {
            let named: &[(&str, f64)] = &[("p", 1.0)];
            let params = scenario(lab, named, Some(attempts), actions).expect("within the sim's bound");
            crate::engine::retry::run_scenario(&params)
        };
        let no_backoff = Backoff {
            base_ms: 0.0,
            cap_ms: 0.0,
        };
        // The run: 10^6 database attempts an action, 1,000 actions.
        let refused = check_live_time(&run(vec![10; 6], 1_000), no_backoff, 16, 300.0).expect_err("refused");
        assert!(
            refused.0.contains("cannot finish within the live run's 300 s limit")
                && refused.0.contains("up to 5 actions"),
            "{refused}"
        );
        // The Atlas's 4,4,4 at p = 1, and the default 1,000 actions: 85,000 requests, seconds.
        assert!(check_live_time(&run(vec![4, 4, 4], 1_000), no_backoff, 16, 300.0).is_ok());
        // Full Jitter's sleeps count: 63 retries an action of 10 s each on average.
        let slow = Backoff {
            base_ms: 20_000.0,
            cap_ms: 60_000.0,
        };
        assert!(check_live_time(&run(vec![4, 4, 4], 1_000), slow, 16, 300.0).is_err());
    }

    #[test]
    fn a_backoff_cap_below_its_base_is_refused() {
        let named: &[(&str, f64)] = &[("backoff_base_ms", 100.0), ("backoff_cap_ms", 50.0)];
        assert!(backoff(named).is_err());
        let named: &[(&str, f64)] = &[("backoff_base_ms", 100.0)];
        assert_eq!(
            backoff(named).expect("a default cap"),
            Backoff {
                base_ms: 100.0,
                cap_ms: 2_000.0
            }
        );
    }

    #[test]
    fn the_metastable_experiment_takes_the_engines_defaults_under_the_flags() {
        let content = Content::load(None).expect("embedded content loads");
        let lab = content.lab(LabId::Retry);
        let defaults = metastable_config(lab, &Defaults, None).expect("no refusal");
        assert_eq!(
            defaults,
            MetastableConfig {
                budget: value(lab, &Defaults, "budget"),
                seed: whole(lab, &Defaults, "seed"),
                ..MetastableConfig::default()
            }
        );
        let given: &[(&str, f64)] = &[
            ("metastable_policy", 2.0),
            ("db_concurrency", 2.0),
            ("service_ms", 20.0),
            ("db_timeout_ms", 50.0),
            ("backoff_base_ms", 10.0),
            ("seed", 7.0),
        ];
        let config = metastable_config(lab, given, Some(vec![2, 3])).expect("no refusal");
        assert_eq!(
            (config.policy, config.layered.clone()),
            (RetryPolicy::TopOnlyBudget, vec![2, 3])
        );
        assert_eq!(config.load_per_s, 60.0, "60% of 2 slots x 20 ms");
        assert_eq!((config.db_timeout_ms, config.seed), (50, 7));
        assert_eq!((config.backoff.base_ms, config.backoff.cap_ms), (10.0, 200.0));
        let unknown = metastable_config(lab, &[("metastable_policy", 3.0)][..], None).expect_err("no fourth policy");
        assert_eq!(unknown.0, "metastable_policy 3 names no retry policy; allowed: 0 to 2");
        assert!(metastable_config(lab, &[("metastable_policy", -1.0)][..], None).is_err());
        let refused = metastable_config(lab, &[("actions", 10.0)][..], None).expect_err("refused");
        assert_eq!(
            refused.0,
            "--actions does not apply to --scenario metastable (the trigger sets the failures)"
        );
    }

    /// The app's metastable view and the command line resolve one way: the lab's defaults
    /// give the engine's experiment with the lab's budget and seed, and the sliders' `p` and
    /// `actions` (which the command line refuses) are not read.
    #[test]
    fn the_apps_metastable_settings_are_the_command_lines_without_the_refusal() {
        struct Sliders;
        impl Values for Sliders {
            fn value(&self, name: &str) -> Option<f64> {
                match name {
                    "p" => Some(1.0),
                    "actions" => Some(10_000.0),
                    "budget" => Some(0.2),
                    _ => None,
                }
            }
        }
        let content = Content::load(None).expect("embedded content loads");
        let retry = content.lab(LabId::Retry);
        let app = metastable_settings(retry, &Sliders, Some(vec![3, 3])).expect("resolves");
        assert_eq!(
            app,
            MetastableConfig {
                layered: vec![3, 3],
                budget: 0.2,
                seed: whole(retry, &Defaults, "seed"),
                ..MetastableConfig::default()
            }
        );
        let refusal = metastable_config(retry, &Sliders, None).expect_err("p is refused");
        assert!(refusal.to_string().contains("--p does not apply"), "{refusal}");
        assert_eq!(
            metastable_config(retry, &Defaults, None).expect("defaults resolve"),
            metastable_settings(retry, &Defaults, None).expect("defaults resolve")
        );
    }
}
