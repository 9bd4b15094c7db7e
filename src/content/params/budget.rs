//! Lab 5's parameters: one table of names, flags, ranges and defaults, and the one resolve
//! from named values (flags, a check's settings, sliders) to [`BudgetParams`].
//!
//! The command line builds its `run budget` flags from [`PARAMETERS`], range-checks each
//! value with [`parse_value`], and resolves through [`budget_params`]; `labs/budget.toml`'s
//! parameters must carry these names, ranges and defaults (a test holds it to them). A
//! switch (`--propagate yes|no`, `--idempotency-key`) is a 0/1 parameter; a choice
//! (`--herd-sleep fixed|jitter25|full`) is the index of its name.
//!
//! What the command line refuses beyond one value's range is here too: a flag of another
//! scenario ([`foreign_flag`]), values wrong together ([`combination_problem`]) and a live
//! run past its limits ([`live_problem`]).

use crate::content::LabId;
use crate::content::lab::{LabFile, LabParameterLimits, limit, no_whole_lab_problems};
use crate::content::values::Values;
use crate::engine::budget::backoff::Sleep;
use crate::engine::budget::{BudgetParams, BudgetScenario, HerdSleep};

/// How a parameter is written on the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FlagKind {
    /// `--name N`, a number in the range.
    Number,
    /// `--name`, present or not (1 or 0).
    Switch,
    /// `--name WORD`, one of these words, each standing for its value.
    Choice(&'static [(&'static str, f64)]),
}

/// One parameter of the lab.
#[derive(Clone, Copy, Debug)]
pub struct BudgetParameter {
    /// The name in the lab file and in a check's settings.
    pub name: &'static str,
    /// The flag, without its dashes.
    pub flag: &'static str,
    /// The scenarios it changes; a flag for another scenario is refused.
    pub scenarios: &'static [BudgetScenario],
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    pub default: f64,
    pub kind: FlagKind,
}

use BudgetScenario::{
    Deadline as D, Duplicates as U, HalfOpen as H, Herd as R, Register as G, RetryAfter as A, Status as S,
};
use FlagKind::{Choice, Number, Switch};

const YES_NO: &[(&str, f64)] = &[("yes", 1.0), ("no", 0.0)];
const ON_OFF: &[(&str, f64)] = &[("on", 1.0), ("off", 0.0)];
const RETRY_AFTER: &[(&str, f64)] = &[("honour", 1.0), ("ignore", 0.0)];
const SLEEPS: &[(&str, f64)] = &[("fixed", 0.0), ("jitter25", 1.0), ("full", 2.0)];
const STATUSES: &[(&str, f64)] = &[
    ("400", 400.0),
    ("401", 401.0),
    ("403", 403.0),
    ("429", 429.0),
    ("500", 500.0),
    ("502", 502.0),
    ("503", 503.0),
    ("504", 504.0),
];

const fn p(
    name: &'static str,
    flag: &'static str,
    scenarios: &'static [BudgetScenario],
    (min, max, integer): (f64, f64, bool),
    default: f64,
    kind: FlagKind,
) -> BudgetParameter {
    BudgetParameter {
        name,
        flag,
        scenarios,
        min,
        max,
        integer,
        default,
        kind,
    }
}

const INT: bool = true;
const REAL: bool = false;

/// Every parameter of Lab 5, by scenario.
#[rustfmt::skip]
pub const PARAMETERS: [BudgetParameter; 38] = [
    p("inbound_ms",           "inbound-ms",           &[D], (1_000.0, 120_000.0, INT), 30_000.0, Number),
    p("edge_work_ms",         "edge-work-ms",         &[D], (0.0, 60_000.0, INT),      7_000.0,  Number),
    p("checkout_work_ms",     "checkout-work-ms",     &[D], (0.0, 60_000.0, INT),      4_000.0,  Number),
    p("payments_work_ms",     "payments-work-ms",     &[D], (0.0, 60_000.0, INT),      1_000.0,  Number),
    p("hard_timeout_ms",      "hard-timeout-ms",      &[D], (100.0, 120_000.0, INT),     20_000.0, Number),
    p("propagate",            "propagate",            &[D], (0.0, 1.0, INT),           1.0,      Choice(YES_NO)),
    p("early_reject",         "early-reject",         &[D], (0.0, 1.0, INT),           1.0,      Choice(YES_NO)),
    p("deadline_ms",          "deadline-ms",          &[G], (100.0, 60_000.0, INT),    2_000.0,  Number),
    p("payments_timeout_ms",  "payments-timeout-ms",  &[G], (1.0, 10_000.0, INT),      800.0,    Number),
    p("payments_attempts",    "payments-attempts",    &[G], (1.0, 10.0, INT),          2.0,      Number),
    p("inventory_timeout_ms", "inventory-timeout-ms", &[G], (1.0, 10_000.0, INT),      150.0,    Number),
    p("inventory_attempts",   "inventory-attempts",   &[G], (1.0, 10.0, INT),          3.0,      Number),
    p("honour",               "retry-after",          &[A], (0.0, 1.0, INT),           1.0,      Choice(RETRY_AFTER)),
    p("clients",              "clients",              &[A], (1.0, 100.0, INT),         10.0,     Number),
    p("rate_per_s",           "rate-per-s",           &[A], (1.0, 100.0, INT),         10.0,     Number),
    p("duration_ms",          "duration-ms",          &[A], (1_000.0, 60_000.0, INT),  4_000.0,  Number),
    p("window_start_ms",      "window-start-ms",      &[A], (0.0, 60_000.0, INT),      1_000.0,  Number),
    p("window_end_ms",        "window-end-ms",        &[A], (0.0, 60_000.0, INT),      3_000.0,  Number),
    p("request_deadline_ms",  "request-deadline-ms",  &[A], (10.0, 60_000.0, INT),      1_000.0,  Number),
    p("api_latency_ms",       "api-latency-ms",       &[A], (0.0, 1_000.0, INT),       5.0,      Number),
    p("token_bucket",         "token-bucket",         &[A], (0.0, 1.0, INT),           1.0,      Choice(ON_OFF)),
    p("bucket_rate_per_s",    "bucket-rate-per-s",    &[A], (1.0, 1_000.0, INT),       10.0,     Number),
    p("bucket_burst",         "bucket-burst",         &[A], (1.0, 1_000.0, INT),       20.0,     Number),
    p("api_limit_per_s",      "api-limit-per-s",      &[A], (1.0, 1_000.0, INT),       15.0,     Number),
    p("api_burst",            "api-burst",            &[A], (1.0, 1_000.0, INT),       20.0,     Number),
    p("demand_per_s",         "demand-per-s",         &[A], (1.0, 1_000.0, INT),       30.0,     Number),
    p("requests",             "requests",             &[U, S], (10.0, 100_000.0, INT),  1_000.0,  Number),
    p("drop_share",           "drop-share",           &[U], (0.0, 1.0, REAL),          0.05,     Number),
    p("idempotency_key",      "idempotency-key",      &[U], (0.0, 1.0, INT),           0.0,      Switch),
    p("status",               "status",               &[S], (400.0, 504.0, INT),       400.0,    Choice(STATUSES)),
    p("retry_client_errors",  "retry-client-errors",  &[S], (0.0, 1.0, INT),           0.0,      Switch),
    p("herd_clients",         "herd-clients",         &[R], (10.0, 100_000.0, INT),     1_000.0,  Number),
    p("outage_ms",            "outage-ms",            &[R], (0.0, 60_000.0, INT),      2_000.0,  Number),
    p("herd_sleep",           "herd-sleep",           &[R], (0.0, 2.0, INT),           0.0,      Choice(SLEEPS)),
    p("half_open_limit",      "half-open-limit",      &[H], (0.0, 100.0, INT),         0.0,      Number),
    p("call_rate_per_s",      "call-rate-per-s",      &[H], (1.0, 10_000.0, INT),      100.0,    Number),
    p("call_timeout_ms",      "call-timeout-ms",      &[H], (1.0, 10_000.0, INT),      200.0,    Number),
    p("cooldown_s",           "cooldown-s",           &[H], (0.1, 600.0, REAL),        30.0,     Number),
];

/// The seed and the half-open success threshold, apart from the table because they are
/// shared (the seed) or the note's fixed choice (3 successes) shown as a parameter.
#[rustfmt::skip]
pub const SHARED: [BudgetParameter; 2] = [
    p("seed",              "seed",              &[A, U, S, R], (0.0, 10_000.0, INT),        42.0, Number),
    p("success_threshold", "success-threshold", &[H],          (1.0, 20.0, INT),            3.0,  Number),
];

/// Every parameter: the table, then the shared ones.
pub fn all() -> impl Iterator<Item = &'static BudgetParameter> {
    PARAMETERS.iter().chain(SHARED.iter())
}

/// The parameter named `name`.
pub fn parameter(name: &str) -> Option<&'static BudgetParameter> {
    all().find(|spec| spec.name == name)
}

/// What a flag's value may be, in the words the refusal uses.
pub fn allowed(spec: &BudgetParameter) -> String {
    match spec.kind {
        Choice(words) => {
            let words: Vec<&str> = words.iter().map(|(word, _)| *word).collect();
            format!("allowed: {}", words.join(", "))
        }
        Switch => "allowed: no value (the flag alone turns it on)".to_string(),
        Number if spec.integer => format!("allowed: a whole number from {} to {}", spec.min, spec.max),
        Number => format!("allowed: a number from {} to {}", spec.min, spec.max),
    }
}

/// A flag's text as the parameter's value, or the one line that says what is allowed.
pub fn parse_value(spec: &BudgetParameter, text: &str) -> Result<f64, String> {
    let text = text.trim();
    let value = match spec.kind {
        Choice(words) => words.iter().find(|(word, _)| *word == text).map(|(_, value)| *value),
        Switch | Number => text.parse::<f64>().ok(),
    };
    match value {
        Some(v) if v.is_finite() && (spec.min..=spec.max).contains(&v) && (!spec.integer || v.fract() == 0.0) => Ok(v),
        _ => Err(allowed(spec)),
    }
}

/// The first of `given` (the flags typed, by parameter name) that does not belong to
/// `scenario`, as one line; `None` if every one does.
pub fn foreign_flag(given: &[(&str, f64)], scenario: BudgetScenario) -> Option<String> {
    given.iter().find_map(|(name, _)| {
        let spec = parameter(name)?;
        (!spec.scenarios.contains(&scenario)).then(|| {
            let owners: Vec<&str> = spec.scenarios.iter().map(|s| s.name()).collect();
            format!(
                "--{} applies to --scenario {} only, not {}",
                spec.flag,
                owners.join(" or "),
                scenario.name()
            )
        })
    })
}

/// The scenario's parameters by name as resolved: from `values`, else the defaults (what a
/// report shows as the run's settings).
pub fn scenario_values(values: &(impl Values + ?Sized), scenario: BudgetScenario) -> Vec<(&'static str, f64)> {
    all()
        .filter(|spec| spec.scenarios.contains(&scenario))
        .map(|spec| (spec.name, values.value(spec.name).unwrap_or(spec.default)))
        .collect()
}

/// A live run's limits, inside the table's ranges, so that a run stays short on a small
/// machine: calls in the retry-after run, and its real time.
pub const LIVE_MAX_CALLS: u64 = 2_000;
pub const LIVE_MAX_DURATION_MS: u64 = 10_000;
/// A live run's orders: the herd's clients, the duplicates and status runs' requests.
pub const LIVE_MAX_ORDERS: u64 = 5_000;

/// A live run of `scenario` at `params` past one of its limits, as one line naming the
/// flags (`run budget --live`); `None` if it fits.
pub fn live_problem(scenario: BudgetScenario, params: &BudgetParams) -> Option<String> {
    let flag = |name: &str| parameter(name).map_or_else(|| name.to_string(), |spec| format!("--{}", spec.flag));
    live_problem_named(scenario, params, &flag, "with --live")
}

/// [`live_problem`] for the app's live mode, naming the sliders by their labels in `lab`:
/// the same limits, so a slider cannot start a run the command line refuses.
pub fn live_problem_of_sliders(scenario: BudgetScenario, params: &BudgetParams, lab: &LabFile) -> Option<String> {
    let label = |name: &str| {
        lab.parameters
            .iter()
            .find(|spec| spec.name == name)
            .map_or_else(|| name.to_string(), |spec| spec.label.clone())
    };
    live_problem_named(scenario, params, &label, "live")
}

/// The one rule of both: `name` says a parameter as its reader knows it, `mode` how the
/// run is called.
fn live_problem_named(
    scenario: BudgetScenario,
    params: &BudgetParams,
    name: &dyn Fn(&str) -> String,
    mode: &str,
) -> Option<String> {
    let least = |name: &str| parameter(name).map_or(0.0, |spec| spec.min);
    let ra = &params.retry_after;
    let calls = u64::from(ra.clients) * ra.rate_per_s * ra.duration_ms / 1_000;
    if scenario == BudgetScenario::RetryAfter && (calls > LIVE_MAX_CALLS || ra.duration_ms > LIVE_MAX_DURATION_MS) {
        return Some(format!(
            "{} {} x {} {} for {} {} is {calls} calls {mode}; allowed: up to {LIVE_MAX_CALLS} calls and {LIVE_MAX_DURATION_MS} ms",
            name("clients"),
            ra.clients,
            name("rate_per_s"),
            ra.rate_per_s,
            name("duration_ms"),
            ra.duration_ms
        ));
    }
    if scenario == BudgetScenario::Herd && u64::from(params.herd.clients) > LIVE_MAX_ORDERS {
        return Some(format!(
            "{} {} {mode}; allowed: {} to {LIVE_MAX_ORDERS}",
            name("herd_clients"),
            params.herd.clients,
            least("herd_clients")
        ));
    }
    if matches!(scenario, BudgetScenario::Duplicates | BudgetScenario::Status)
        && params.duplicates.requests > LIVE_MAX_ORDERS
    {
        return Some(format!(
            "{} {} {mode}; allowed: {} to {LIVE_MAX_ORDERS}",
            name("requests"),
            params.duplicates.requests,
            least("requests")
        ));
    }
    None
}

/// Settings that are each in range but wrong together, as one line; `None` if they fit.
pub fn combination_problem(params: &BudgetParams) -> Option<String> {
    let ra = &params.retry_after;
    if ra.window_start_ms >= ra.window_end_ms {
        return Some(format!(
            "--window-start-ms {} is not before --window-end-ms {}; allowed: START < END",
            ra.window_start_ms, ra.window_end_ms
        ));
    }
    None
}

/// `name` from `values`, else its default.
fn value(values: &(impl Values + ?Sized), name: &str) -> f64 {
    values
        .value(name)
        .or_else(|| parameter(name).map(|spec| spec.default))
        .unwrap_or(0.0)
}

fn whole(values: &(impl Values + ?Sized), name: &str) -> u64 {
    value(values, name).round().max(0.0) as u64
}

fn switch(values: &(impl Values + ?Sized), name: &str) -> bool {
    value(values, name) >= 0.5
}

/// Lab 5's settings from named values, each name it does not give at its default.
pub fn budget_params(values: &(impl Values + ?Sized)) -> BudgetParams {
    use crate::engine::budget::{bucket, deadline, duplicates, half_open, herd, register, retry_after, status};
    let seed = whole(values, "seed");
    let requests = whole(values, "requests");
    BudgetParams {
        deadline: deadline::DeadlineParams {
            inbound_ms: whole(values, "inbound_ms"),
            work_ms: [
                whole(values, "edge_work_ms"),
                whole(values, "checkout_work_ms"),
                whole(values, "payments_work_ms"),
            ],
            hard_timeout_ms: whole(values, "hard_timeout_ms"),
            propagate: switch(values, "propagate"),
            early_reject: switch(values, "early_reject"),
        },
        register: register::RegisterParams {
            deadline_ms: whole(values, "deadline_ms"),
            payments_timeout_ms: whole(values, "payments_timeout_ms"),
            payments_attempts: whole(values, "payments_attempts"),
            inventory_timeout_ms: whole(values, "inventory_timeout_ms"),
            inventory_attempts: whole(values, "inventory_attempts"),
        },
        retry_after: retry_after::RetryAfterParams {
            honour: switch(values, "honour"),
            clients: whole(values, "clients") as u32,
            rate_per_s: whole(values, "rate_per_s"),
            duration_ms: whole(values, "duration_ms"),
            window_start_ms: whole(values, "window_start_ms"),
            window_end_ms: whole(values, "window_end_ms"),
            deadline_ms: whole(values, "request_deadline_ms"),
            api_latency_ms: whole(values, "api_latency_ms"),
            seed,
        },
        bucket: bucket::BucketParams {
            demand_per_s: whole(values, "demand_per_s"),
            duration_ms: whole(values, "duration_ms"),
            token_bucket: switch(values, "token_bucket"),
            bucket_rate_per_s: whole(values, "bucket_rate_per_s"),
            bucket_burst: whole(values, "bucket_burst"),
            api_limit_per_s: whole(values, "api_limit_per_s"),
            api_burst: whole(values, "api_burst"),
        },
        duplicates: duplicates::DuplicatesParams {
            requests,
            drop_share: value(values, "drop_share"),
            idempotency_key: switch(values, "idempotency_key"),
            seed,
        },
        status: status::StatusParams {
            status: whole(values, "status") as u16,
            requests,
            retry_client_errors: switch(values, "retry_client_errors"),
            seed,
        },
        herd: herd::HerdParams {
            clients: whole(values, "herd_clients") as u32,
            outage_ms: whole(values, "outage_ms"),
            seed,
        },
        herd_sleep: HerdSleep(match whole(values, "herd_sleep") {
            1 => Sleep::PlusMinus25,
            2 => Sleep::Full,
            _ => Sleep::FixedSecond,
        }),
        half_open: half_open::HalfOpenParams {
            half_open_limit: whole(values, "half_open_limit") as u32,
            rate_per_s: whole(values, "call_rate_per_s"),
            timeout_ms: whole(values, "call_timeout_ms"),
            cooldown_s: value(values, "cooldown_s"),
            success_threshold: whole(values, "success_threshold") as u32,
        },
    }
}

/// Lab 5's parameters: each one its lab file must define, with the widest range the engine
/// accepts (the content checker holds a lab file to them).
// Lab 5's table (`content::params::budget`, whose test holds the two equal).
#[linkme::distributed_slice(crate::content::lab::PARAMETER_LIMITS)]
static PARAMETER_LIMITS: LabParameterLimits = LabParameterLimits {
    lab: LabId::Budget,
    whole_lab_problems: no_whole_lab_problems,
    limits: &[
        limit("inbound_ms", 1000.0, 120000.0, true),
        limit("edge_work_ms", 0.0, 60000.0, true),
        limit("checkout_work_ms", 0.0, 60000.0, true),
        limit("payments_work_ms", 0.0, 60000.0, true),
        limit("hard_timeout_ms", 100.0, 120000.0, true),
        limit("propagate", 0.0, 1.0, true),
        limit("early_reject", 0.0, 1.0, true),
        limit("deadline_ms", 100.0, 60000.0, true),
        limit("payments_timeout_ms", 1.0, 10000.0, true),
        limit("payments_attempts", 1.0, 10.0, true),
        limit("inventory_timeout_ms", 1.0, 10000.0, true),
        limit("inventory_attempts", 1.0, 10.0, true),
        limit("honour", 0.0, 1.0, true),
        limit("clients", 1.0, 100.0, true),
        limit("rate_per_s", 1.0, 100.0, true),
        limit("duration_ms", 1000.0, 60000.0, true),
        limit("window_start_ms", 0.0, 60000.0, true),
        limit("window_end_ms", 0.0, 60000.0, true),
        limit("request_deadline_ms", 10.0, 60000.0, true),
        limit("api_latency_ms", 0.0, 1000.0, true),
        limit("token_bucket", 0.0, 1.0, true),
        limit("bucket_rate_per_s", 1.0, 1000.0, true),
        limit("bucket_burst", 1.0, 1000.0, true),
        limit("api_limit_per_s", 1.0, 1000.0, true),
        limit("api_burst", 1.0, 1000.0, true),
        limit("demand_per_s", 1.0, 1000.0, true),
        limit("requests", 10.0, 100000.0, true),
        limit("drop_share", 0.0, 1.0, false),
        limit("idempotency_key", 0.0, 1.0, true),
        limit("status", 400.0, 504.0, true),
        limit("retry_client_errors", 0.0, 1.0, true),
        limit("herd_clients", 10.0, 100000.0, true),
        limit("outage_ms", 0.0, 60000.0, true),
        limit("herd_sleep", 0.0, 2.0, true),
        limit("half_open_limit", 0.0, 100.0, true),
        limit("call_rate_per_s", 1.0, 10000.0, true),
        limit("call_timeout_ms", 1.0, 10000.0, true),
        limit("cooldown_s", 0.1, 600.0, false),
        limit("seed", 0.0, 10000.0, true),
        limit("success_threshold", 1.0, 20.0, true),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::values::Defaults;

    #[test]
    fn the_defaults_are_the_engines() {
        let resolved = budget_params(&Defaults);
        let engine = BudgetParams::default();
        assert_eq!(resolved.deadline, engine.deadline);
        assert_eq!(resolved.register, engine.register);
        assert_eq!(resolved.retry_after, engine.retry_after);
        assert_eq!(resolved.bucket, engine.bucket);
        assert_eq!(resolved.duplicates, engine.duplicates);
        assert_eq!(resolved.herd, engine.herd);
        assert_eq!(resolved.herd_sleep, engine.herd_sleep);
        assert_eq!(resolved.half_open, engine.half_open);
        assert_eq!(resolved.status, engine.status);
    }

    #[test]
    fn values_are_checked_against_their_range_in_one_line() {
        let attempts = parameter("inventory_attempts").expect("a parameter");
        assert_eq!(parse_value(attempts, "2"), Ok(2.0));
        assert_eq!(
            parse_value(attempts, "0").unwrap_err(),
            "allowed: a whole number from 1 to 10"
        );
        assert!(parse_value(attempts, "2.5").is_err());
        let honour = parameter("honour").expect("a parameter");
        assert_eq!(parse_value(honour, "ignore"), Ok(0.0));
        assert_eq!(parse_value(honour, "obey").unwrap_err(), "allowed: honour, ignore");
        let status = parameter("status").expect("a parameter");
        assert!(parse_value(status, "404").is_err(), "not a status the scenario offers");
        let share = parameter("drop_share").expect("a parameter");
        assert!(parse_value(share, "NaN").is_err());
        assert!(parse_value(share, "1.5").is_err());
    }

    #[test]
    fn a_flag_of_another_scenario_is_refused() {
        assert_eq!(
            foreign_flag(&[("drop_share", 0.1)], BudgetScenario::Deadline).as_deref(),
            Some("--drop-share applies to --scenario duplicates only, not deadline")
        );
        assert_eq!(foreign_flag(&[("requests", 10.0)], BudgetScenario::Status), None);
    }

    #[test]
    fn a_scenarios_values_are_its_own_settings_given_or_default() {
        let given: &[(&str, f64)] = &[("inventory_attempts", 2.0)];
        let shown = scenario_values(given, BudgetScenario::Register);
        assert_eq!(shown.len(), 5);
        assert!(shown.contains(&("inventory_attempts", 2.0)));
        assert!(shown.contains(&("deadline_ms", 2_000.0)));
    }

    #[test]
    fn a_live_run_past_its_limits_is_refused_in_one_line() {
        assert_eq!(live_problem(BudgetScenario::Herd, &budget_params(&Defaults)), None);
        let herd: &[(&str, f64)] = &[("herd_clients", 6_000.0)];
        assert_eq!(
            live_problem(BudgetScenario::Herd, &budget_params(herd)).as_deref(),
            Some("--herd-clients 6000 with --live; allowed: 10 to 5000")
        );
        let many: &[(&str, f64)] = &[("clients", 100.0), ("rate_per_s", 100.0)];
        let refused = live_problem(BudgetScenario::RetryAfter, &budget_params(many)).expect("refused");
        assert!(refused.contains("is 40000 calls with --live"), "{refused}");
        let requests: &[(&str, f64)] = &[("requests", 6_000.0)];
        assert!(live_problem(BudgetScenario::Status, &budget_params(requests)).is_some());
        assert_eq!(live_problem(BudgetScenario::Deadline, &budget_params(requests)), None);
    }

    #[test]
    fn names_and_flags_are_unique() {
        let specs: Vec<&BudgetParameter> = all().collect();
        for (i, a) in specs.iter().enumerate() {
            for b in &specs[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.flag, b.flag);
            }
            assert!((a.min..=a.max).contains(&a.default), "{}", a.name);
        }
    }
}

#[cfg(test)]
mod lab_file_tests {
    //! `labs/budget.toml` is not loaded by the app yet (Lab 5 has no `LabId` variant until its
    //! page exists), so this holds it to what the content checker would: the table's names,
    //! ranges and defaults, every check at settings for every parameter, a metric its run
    //! names, and steps that point at checks.
    use super::*;
    use crate::content::LabFile;
    use crate::content::question::CheckSettings;
    use crate::engine::budget::{self, MetricValue};

    const FILE: &str = include_str!("../../../labs/budget.toml");

    #[test]
    fn the_lab_file_keeps_to_the_table_and_its_checks_are_scored() {
        let lab: LabFile = toml::from_str(FILE).expect("labs/budget.toml parses");
        assert_eq!(lab.id, "budget");
        assert_eq!(lab.parameters.len(), all().count());
        for spec in &lab.parameters {
            let table = parameter(&spec.name).unwrap_or_else(|| panic!("{} is not in the table", spec.name));
            assert_eq!(
                (spec.min, spec.max, spec.default),
                (table.min, table.max, table.default),
                "{}",
                spec.name
            );
        }
        assert!(lab.checks.len() >= 10);
        for check in &lab.checks {
            let own = check
                .settings
                .as_ref()
                .and_then(CheckSettings::fixed)
                .expect("its own settings");
            assert_eq!(own.len(), all().count(), "{}: every parameter", check.id);
            let values = budget_params(own);
            let metric = check
                .metric
                .as_deref()
                .and_then(|m| m.strip_prefix("budget."))
                .expect("budget.NAME");
            let found = budget::BudgetScenario::ALL.iter().any(|&scenario| {
                budget::run(scenario, &values)
                    .metrics
                    .iter()
                    .any(|(name, value)| *name == metric && matches!(value, MetricValue::Number(_)))
            });
            assert!(found, "{}: no run names {metric}", check.id);
        }
        for step in &lab.steps {
            let id = step.check.as_deref().expect("every step has a check");
            assert!(lab.checks.iter().any(|c| c.id == id), "step points at {id}");
        }
    }

    /// A switch or a choice reads on its slider as the words its flag takes (`Propagate 1`
    /// was read as a count); a switch, which has no words, as off and on.
    #[test]
    fn a_switch_or_a_choice_reads_as_its_words() {
        let lab: LabFile = toml::from_str(FILE).expect("labs/budget.toml parses");
        let mut read = 0;
        for table in all() {
            let words: Vec<(&str, f64)> = match table.kind {
                FlagKind::Switch => vec![("off", 0.0), ("on", 1.0)],
                // A choice whose values are its indices (a status is its own number).
                FlagKind::Choice(words) if words.iter().all(|(_, value)| value.fract() == 0.0 && *value < 10.0) => {
                    words.to_vec()
                }
                _ => continue,
            };
            let spec = lab
                .parameters
                .iter()
                .find(|spec| spec.name == table.name)
                .expect("in the file");
            for (word, value) in words {
                read += 1;
                assert_eq!(spec.display(value), word, "{} at {value}", spec.name);
            }
        }
        assert!(read > 10, "only {read} words read");
    }

    #[test]
    fn the_content_checker_holds_the_lab_file_to_the_table() {
        let required = crate::content::lab::required_parameters_of(crate::content::LabId::Budget);
        let table: Vec<_> = all()
            .map(|spec| (spec.name, spec.min, spec.max, spec.integer))
            .collect();
        let checked: Vec<_> = required.iter().map(|l| (l.name, l.min, l.max, l.integer)).collect();
        assert_eq!(checked, table);
    }

    #[test]
    fn the_checks_answers_are_the_materials_numbers() {
        let lab: LabFile = toml::from_str(FILE).expect("labs/budget.toml parses");
        let value_of = |id: &str| {
            let check = lab.checks.iter().find(|c| c.id == id).expect("the check");
            let own = check
                .settings
                .as_ref()
                .and_then(CheckSettings::fixed)
                .expect("settings");
            let metric = check
                .metric
                .as_deref()
                .and_then(|m| m.strip_prefix("budget."))
                .expect("metric");
            let values = budget_params(own);
            budget::BudgetScenario::ALL
                .iter()
                .find_map(|&s| budget::run(s, &values).number(metric))
                .expect("a value")
        };
        #[rustfmt::skip]
        let expected = [
            ("budget-checkout-budget", 23_000.0), ("budget-payments-budget", 19_000.0),
            ("budget-wasted", 2_000.0), ("budget-early-reject", 1.0),
            ("budget-worst-case", 2_050.0), ("budget-worst-case-fixed", 1_900.0),
            ("budget-honour-arrivals", 10.0), ("budget-bucket-429s", 0.0),
            ("budget-duplicates-no-key", 41.0), ("budget-duplicates-key", 0.0),
            ("budget-status-400", 1.0), ("budget-herd-fixed", 1_000.0),
            ("budget-half-open", 20.0),
        ];
        for (id, value) in expected {
            assert_eq!(value_of(id), value, "{id}");
        }
    }
}
