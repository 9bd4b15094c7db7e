//! Lab 4: a queueing run's parameters from the sliders, a check's settings or `run overload`'s
//! flags, through one [`apply`] and one set of bounds ([`BOUNDS`]).
//!
//! The two kinds of source start from different runs: the sliders from the scenario of the
//! chosen policy (its traffic mix and length) with the lab file's defaults for what they do
//! not give, the command line from the scenario `--scenario` names with only the flags
//! typed on top. Both then go through [`apply`].
//!
//! What a run may cost is bounded here too: [`check_cost`] (the simulation's arrivals) and
//! [`check_live`] (a live run's [`LIVE_BOUNDS`], tighter than [`BOUNDS`] on a 2-core machine).
//! The app's live run at the lesson's scale is resolved here as well ([`live_scaled`]).

use crate::content::LabId;
use crate::content::lab::{LabFile, LabParameterLimits, limit, no_whole_lab_problems};
use crate::content::params::bound::{AtBound, Bound, value};
use crate::content::values::Values;
use crate::engine::overload::metastable::MetastableParams;
use crate::engine::overload::{self, Arrivals, BulkheadDependency, OverloadParams, OverloadScenario, SheddingPolicy};
use crate::error::UsageError;

/// Lab 4's names that only the command line sets (no slider has them).
pub const FLAG_ONLY: [&str; 7] = [
    "duration_s",
    "throttle_window_s",
    "random_seed",
    "x_calls_per_s",
    "x_latency_ms",
    "x_timeout_ms",
    "x_pool",
];

/// The widest range of each of Lab 4's numeric parameters: `run overload`'s flags refuse a
/// value outside it, a slider or a check's setting is held at its edge.
#[rustfmt::skip]
pub const BOUNDS: [Bound; 15] = [
    Bound::new("offered_per_s",     "--offered-per-s",      1.0, 100_000.0),
    Bound::new("workers",           "--workers",            1.0,  10_000.0),
    Bound::new("service_ms",        "--service-ms",         0.1,  10_000.0),
    Bound::new("client_timeout_ms", "--client-timeout-ms",  1.0, 600_000.0),
    Bound::new("duration_s",        "--duration-s",         1.0,     600.0),
    Bound::new("age_cap_ms",        "--age-cap-ms",         1.0,  60_000.0),
    Bound::new("admission_limit",   "--admission-limit",    1.0, 1_000_000.0),
    Bound::new("throttle_k",        "--k",                  1.0,      10.0),
    Bound::new("throttle_window_s", "--throttle-window-s",  1.0,     120.0),
    Bound::new("random_seed",       "--random-seed",        0.0, 4_294_967_295.0),
    Bound::new("x_calls_per_s",     "--x-calls-per-s",      0.0, 100_000.0),
    Bound::new("x_latency_ms",      "--x-latency-ms",       0.1, 1_000_000.0),
    Bound::new("x_timeout_ms",      "--x-timeout-ms",       1.0, 1_000_000.0),
    Bound::new("x_pool",            "--x-pool",             0.0,  10_000.0),
    Bound::new("policy",            "--policy",             0.0,       5.0),
];

/// The bound of `name` (one of [`BOUNDS`]' names), else none.
pub fn bound_of(name: &str) -> Bound {
    Bound::of(&BOUNDS, name)
}

/// Most arrivals one simulated run may have (about a second of work): offered x duration.
pub const MAX_ARRIVALS_PER_RUN: f64 = 20_000_000.0;

/// Refuses runs whose values, each inside [`BOUNDS`], multiply into too much work: the run's
/// arrivals, and with `sweep` those of the sweep's top load (3 x capacity).
pub fn check_cost(p: &OverloadParams, sweep: bool) -> Result<(), UsageError> {
    let x_per_s = p.dependency.as_ref().map_or(0.0, |d| d.calls_per_s);
    let arrivals = (p.offered_per_s + x_per_s + p.health_checks_per_s) * p.duration_s;
    if arrivals > MAX_ARRIVALS_PER_RUN {
        return Err(UsageError(format!(
            "--offered-per-s {} for --duration-s {} is {arrivals:.0} arrivals; allowed: (offered + X calls) x duration up to {MAX_ARRIVALS_PER_RUN:.0}",
            p.offered_per_s, p.duration_s
        )));
    }
    let sweep_top = overload::SWEEP_FRACTIONS.last().copied().unwrap_or(3.0) * p.capacity_per_s() * p.duration_s;
    if sweep && sweep_top > MAX_ARRIVALS_PER_RUN {
        return Err(UsageError(format!(
            "--sweep runs up to 3 x capacity ({:.0}/s) for --duration-s {}: {sweep_top:.0} arrivals; allowed: up to {MAX_ARRIVALS_PER_RUN:.0} (fewer --workers, a longer --service-ms or a shorter --duration-s)",
            p.capacity_per_s(),
            p.duration_s
        )));
    }
    Ok(())
}

/// The most a live run offers per second: 12.5 x the live pool's 400/s, bounded work for
/// the client, the server and the simulation run beside it.
pub const LIVE_MAX_OFFERED_PER_S: f64 = 5_000.0;

/// One of a live run's bounds: the parameter's bound, the field of the resolved run it
/// holds, and what the refusal adds about why.
#[derive(Clone, Copy, Debug)]
pub struct LiveBound {
    pub bound: Bound,
    /// The value the bound holds in a resolved run: a row names its own field, so a new row
    /// cannot read another parameter's value by falling through a match.
    pub read: fn(&OverloadParams) -> f64,
    pub why: &'static str,
}

/// A live run's bounds on this 2-core machine, each inside its bound in [`BOUNDS`] (whose
/// flag and minimum they keep unless the live server needs more): `run overload --live`
/// refuses a run past one (the app's live view holds its offered load to
/// [`LIVE_MAX_OFFERED_PER_S`]).
#[rustfmt::skip]
pub const LIVE_BOUNDS: [LiveBound; 4] = [
    LiveBound { bound: Bound::named(&BOUNDS, "duration_s").up_to(120.0),                   read: |p| p.duration_s,          why: "" },
    LiveBound { bound: Bound::named(&BOUNDS, "offered_per_s").up_to(LIVE_MAX_OFFERED_PER_S), read: |p| p.offered_per_s,       why: "" },
    LiveBound { bound: Bound::named(&BOUNDS, "workers").up_to(256.0),                       read: |p| f64::from(p.workers), why: "" },
    LiveBound { bound: Bound::named(&BOUNDS, "service_ms").from(1.0),                      read: |p| p.service_ms,          why: " (timers are 1 ms)" },
];

/// Refuses a live run Lab 4's live server cannot give: a dependency (bulkhead, or any
/// `--x-*`), a value past its [`LIVE_BOUNDS`] in the resolved run `p`, or a random seed
/// among `values` (live arrivals are evenly spaced).
pub fn check_live(
    scenario: OverloadScenario,
    p: &OverloadParams,
    values: &(impl Values + ?Sized),
) -> Result<(), UsageError> {
    if scenario == OverloadScenario::Bulkhead || p.dependency.is_some() {
        return Err(UsageError(
            "--live runs fifo, age-cap, lifo, admission, criticality and throttle; bulkhead and metastable are --sim only"
                .to_string(),
        ));
    }
    for LiveBound { bound, read, why } in LIVE_BOUNDS {
        let resolved = read(p);
        if !(bound.min..=bound.max).contains(&resolved) {
            return Err(UsageError(format!(
                "{} {resolved} with --live; allowed: {} to {}{why}",
                bound.flag, bound.min, bound.max
            )));
        }
    }
    if values.value("random_seed").is_some() {
        return Err(UsageError(
            "--random-seed applies to --sim only (live arrivals are evenly spaced)".to_string(),
        ));
    }
    Ok(())
}

/// The policies that read each policy-specific parameter: a run of another policy ignores it.
#[rustfmt::skip]
const READ_BY: [(&str, &[SheddingPolicy]); 4] = [
    ("age_cap_ms",        &[SheddingPolicy::AgeCap]),
    ("admission_limit",   &[SheddingPolicy::Admission, SheddingPolicy::Criticality, SheddingPolicy::Throttle]),
    ("throttle_k",        &[SheddingPolicy::Throttle]),
    ("throttle_window_s", &[SheddingPolicy::Throttle]),
];

/// Dependency X unless the scenario has one: 100 calls/s of 2 s each, a 10 s timeout, no pool.
const DEFAULT_X: BulkheadDependency = BulkheadDependency {
    calls_per_s: 100.0,
    latency_ms: 2_000.0,
    timeout_ms: 10_000.0,
    pool: None,
};

/// `base` with every value `values` gives on top, held to [`BOUNDS`] as `at` says. On the
/// command line a policy-specific value for a run whose policy does not read it is refused
/// (unless `every_policy`: a sweep runs every policy, and the value reaches its own curve).
pub fn apply(
    base: OverloadParams,
    values: &(impl Values + ?Sized),
    at: AtBound,
    every_policy: bool,
) -> Result<OverloadParams, UsageError> {
    let given = |name: &str| Bound::given(&BOUNDS, values, name, at);
    let count = |v: f64| v.round().max(1.0) as u32;
    let mut p = base;
    if let Some(v) = given("policy")? {
        p.policy = SheddingPolicy::ALL[(v.round().max(0.0) as usize).min(SheddingPolicy::ALL.len() - 1)];
    }
    macro_rules! set {
        ($($name:literal => $field:expr, $convert:expr;)*) => {
            $(if let Some(v) = given($name)? { $field = $convert(v); })*
        };
    }
    let same = |v: f64| v;
    set!(
        "offered_per_s" => p.offered_per_s, same;
        "workers" => p.workers, count;
        "service_ms" => p.service_ms, same;
        "client_timeout_ms" => p.client_timeout_ms, same;
        "duration_s" => p.duration_s, same;
        "age_cap_ms" => p.age_cap_ms, same;
        "admission_limit" => p.admission_limit, count;
        "throttle_k" => p.throttle_k, same;
        "throttle_window_s" => p.throttle_window_s, same;
    );
    if let Some(seed) = given("random_seed")? {
        p.arrivals = Arrivals::Random { seed: seed as u64 };
    }
    let x: Vec<(&str, Option<f64>)> = ["x_calls_per_s", "x_latency_ms", "x_timeout_ms", "x_pool"]
        .into_iter()
        .map(|name| given(name).map(|v| (name, v)))
        .collect::<Result<_, _>>()?;
    if x.iter().any(|(_, v)| v.is_some()) {
        let mut dependency = p.dependency.take().unwrap_or(DEFAULT_X);
        for (name, v) in x {
            let Some(v) = v else { continue };
            match name {
                "x_calls_per_s" => dependency.calls_per_s = v,
                "x_latency_ms" => dependency.latency_ms = v,
                "x_timeout_ms" => dependency.timeout_ms = v,
                // 0 shares the whole pool.
                _ => dependency.pool = (v >= 0.5).then_some(v.round() as u32),
            }
        }
        p.dependency = Some(dependency);
    }
    if at == AtBound::Refuse && !every_policy {
        for (name, policies) in READ_BY {
            if values.value(name).is_some() && !policies.contains(&p.policy) {
                let readers: Vec<&str> = policies.iter().map(|policy| policy.name()).collect();
                return Err(UsageError(format!(
                    "{} applies to the {} {} only; this run's policy is {} (--policy, or --sweep for every policy's curve)",
                    bound_of(name).flag,
                    readers.join(", "),
                    if readers.len() == 1 { "policy" } else { "policies" },
                    p.policy.name()
                )));
            }
        }
    }
    Ok(p)
}

/// The lab file's defaults under a source's values: what the sliders do not give.
struct WithDefaults<'a, V: Values + ?Sized> {
    lab: &'a LabFile,
    values: &'a V,
}

impl<V: Values + ?Sized> Values for WithDefaults<'_, V> {
    fn value(&self, name: &str) -> Option<f64> {
        let slider = self.lab.parameters.iter().any(|spec| spec.name == name);
        match self.values.value(name) {
            Some(v) => Some(v),
            None if slider => Some(value(self.lab, self.values, name)),
            None => None,
        }
    }
}

/// Lab 4's run at the sliders or a check's settings: the scenario of the chosen policy (its
/// traffic mix and length), with the eight sliders' values on top.
pub fn overload_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> OverloadParams {
    let values = WithDefaults { lab, values };
    let policy_index = values
        .value("policy")
        .unwrap_or(0.0)
        .round()
        .clamp(0.0, (SheddingPolicy::ALL.len() - 1) as f64) as usize;
    let policy = SheddingPolicy::ALL[policy_index];
    let scenario = OverloadScenario::ALL
        .into_iter()
        .find(|scenario| scenario.policy() == policy && scenario.params().dependency.is_none())
        .unwrap_or(OverloadScenario::Fifo);
    match apply(scenario.params(), &values, AtBound::Clamp, true) {
        Ok(params) => params,
        // Clamping holds every value inside its bound, and no rule is refused at the sliders.
        Err(refused) => unreachable!("clamped overload parameters refuse nothing: {refused}"),
    }
}

/// The bulkhead case at `values`: dependency X (100 calls/s, 2 s per call) beside the
/// other traffic, with X's own pool of 40 of the workers.
pub fn overload_bulkhead_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> OverloadParams {
    OverloadParams {
        policy: SheddingPolicy::Fifo,
        dependency: OverloadScenario::Bulkhead.params().dependency,
        ..overload_params(lab, values)
    }
}

/// A hanging dependency called 100 times a second with a 500 ms timeout and no pool of
/// its own: the timeout alone caps the slots the calls hold.
pub fn overload_hang_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> OverloadParams {
    OverloadParams {
        policy: SheddingPolicy::Fifo,
        dependency: Some(BulkheadDependency {
            calls_per_s: 100.0,
            latency_ms: 1_000_000.0,
            timeout_ms: 500.0,
            pool: None,
        }),
        ..overload_params(lab, values)
    }
}

/// The metastable model's settings (`run overload --scenario metastable`): the model's own
/// defaults with every value `values` gives on top. Names as the flags: `offered_per_s` (the
/// load), `capacity_per_s`, `attempts`, `retry_cap_per_s`, `budget` (0: none), `trigger_s`,
/// `after_s`, and `cut_at_s` with `cut_to_per_s` (the load cut, both or neither). clap holds
/// each flag to its range and type; the model takes whole seconds and attempts.
pub fn metastable_params(values: &(impl Values + ?Sized)) -> MetastableParams {
    let whole = |v: f64| v as u32;
    let mut p = MetastableParams::default();
    if let Some(v) = values.value("offered_per_s") {
        p.load_per_s = v;
    }
    if let Some(v) = values.value("capacity_per_s") {
        p.capacity_per_s = v;
    }
    if let Some(v) = values.value("attempts") {
        p.attempts = whole(v);
    }
    p.retry_cap_per_s = values.value("retry_cap_per_s");
    if let Some(v) = values.value("budget") {
        p.budget_ratio = (v > 0.0).then_some(v);
    }
    if let Some(v) = values.value("trigger_s") {
        p.trigger_s = whole(v);
    }
    if let Some(v) = values.value("after_s") {
        p.after_s = whole(v);
    }
    if let (Some(at_s), Some(load)) = (values.value("cut_at_s"), values.value("cut_to_per_s")) {
        p.load_changes = vec![(whole(at_s), load)];
    }
    p
}

/// The app's live pool: 8 slots x 20 ms = 400 requests/s on a 2-core machine. The app's
/// sliders speak the lesson's scale; its live run keeps their ratios on this pool
/// ([`live_scaled`]), while `run overload --live` takes its flags as given.
pub const LIVE_WORKERS: u32 = 8;
pub const LIVE_SERVICE_MS: f64 = 20.0;
/// The app's live run's length: long enough for per-second samples, short enough to wait
/// for (within [`LIVE_BOUNDS`]' 1 to 120 s).
pub const LIVE_MIN_S: f64 = 2.0;
pub const LIVE_MAX_S: f64 = 30.0;

/// How a live run's numbers read at the lesson's scale: each factor is lesson / live.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiveScale {
    /// Rates (requests per second): the pool's capacity ratio.
    pub rate: f64,
    /// Counts held in the server (queue lengths): the workers ratio.
    pub pool: f64,
    /// Times (waits, timeouts, the run's seconds): the service times ratio.
    pub time: f64,
}

/// The lesson-scale settings `params` at the live scale: the same offered / capacity,
/// timeout / service time and queue limits / workers ratios, the run's length scaled like
/// every other time (within [`LIVE_MIN_S`] and [`LIVE_MAX_S`], in whole seconds), the
/// offered load at most [`LIVE_MAX_OFFERED_PER_S`] (as on the command line), and the
/// factors that read the live numbers back at the lesson's scale.
pub fn live_scaled(params: &OverloadParams) -> (OverloadParams, LiveScale) {
    let time = params.service_ms.max(1e-9) / LIVE_SERVICE_MS;
    let pool = f64::from(params.workers.max(1)) / f64::from(LIVE_WORKERS);
    let live = OverloadParams {
        workers: LIVE_WORKERS,
        service_ms: LIVE_SERVICE_MS,
        client_timeout_ms: params.client_timeout_ms / time,
        age_cap_ms: params.age_cap_ms / time,
        admission_limit: ((f64::from(params.admission_limit) / pool).round() as u32).max(1),
        duration_s: (params.duration_s / time).round().clamp(LIVE_MIN_S, LIVE_MAX_S),
        dependency: None,
        trace_at_s: None,
        ..params.clone()
    };
    let rate = params.capacity_per_s() / live.capacity_per_s();
    let live = OverloadParams {
        offered_per_s: (params.offered_per_s / rate).round().clamp(1.0, LIVE_MAX_OFFERED_PER_S),
        ..live
    };
    (live, LiveScale { rate, pool, time })
}

/// Lab 4's parameters: each one its lab file must define, with the widest range the engine
/// accepts (the content checker holds a lab file to them).
#[linkme::distributed_slice(crate::content::lab::PARAMETER_LIMITS)]
static PARAMETER_LIMITS: LabParameterLimits = LabParameterLimits {
    lab: LabId::Overload,
    whole_lab_problems: no_whole_lab_problems,
    limits: &[
        limit("offered_per_s", 1.0, 100_000.0, false),
        limit("workers", 1.0, 10_000.0, true),
        limit("service_ms", 0.1, 10_000.0, false),
        limit("client_timeout_ms", 1.0, 600_000.0, false),
        limit("policy", 0.0, 5.0, true),
        limit("age_cap_ms", 1.0, 60_000.0, false),
        limit("admission_limit", 1.0, 1_000_000.0, true),
        limit("throttle_k", 1.0, 10.0, false),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::values::Defaults;
    use crate::content::{Content, LabId};

    #[test]
    fn the_metastable_model_takes_each_value_by_its_flags_name() {
        assert_eq!(metastable_params(&Defaults), MetastableParams::default());
        let given: &[(&str, f64)] = &[
            ("offered_per_s", 70.0),
            ("capacity_per_s", 90.0),
            ("attempts", 3.0),
            ("retry_cap_per_s", 5.0),
            ("budget", 0.0),
            ("trigger_s", 12.0),
            ("after_s", 40.0),
            ("cut_at_s", 30.0),
            ("cut_to_per_s", 20.0),
        ];
        let p = metastable_params(given);
        assert_eq!((p.load_per_s, p.capacity_per_s, p.attempts), (70.0, 90.0, 3));
        assert_eq!(
            (p.retry_cap_per_s, p.budget_ratio),
            (Some(5.0), None),
            "a 0 budget is none"
        );
        assert_eq!((p.trigger_s, p.after_s, p.load_changes), (12, 40, vec![(30, 20.0)]));
        let cut_without_load = metastable_params(&[("cut_at_s", 30.0)][..]);
        assert!(cut_without_load.load_changes.is_empty(), "a cut needs its load too");
    }

    #[test]
    fn a_policys_own_value_for_another_policy_is_refused_unless_a_sweep_runs_every_policy() {
        let age_cap: &[(&str, f64)] = &[("policy", 3.0), ("age_cap_ms", 100.0)];
        let refused = apply(OverloadScenario::Fifo.params(), age_cap, AtBound::Refuse, false).expect_err("ignored");
        assert!(
            refused
                .0
                .starts_with("--age-cap-ms applies to the age-cap policy only; this run's policy is admission"),
            "{refused}"
        );
        assert!(apply(OverloadScenario::Fifo.params(), age_cap, AtBound::Refuse, true).is_ok());
        assert!(apply(OverloadScenario::Fifo.params(), age_cap, AtBound::Clamp, false).is_ok());
        let read: &[(&str, f64)] = &[("policy", 1.0), ("age_cap_ms", 100.0)];
        let p = apply(OverloadScenario::Fifo.params(), read, AtBound::Refuse, false).expect("age-cap reads it");
        assert_eq!((p.policy, p.age_cap_ms), (SheddingPolicy::AgeCap, 100.0));
    }

    #[test]
    fn the_sliders_start_from_their_policys_scenario_and_the_lab_files_defaults() {
        let content = Content::load(None).expect("embedded content loads");
        let lab = content.lab(LabId::Overload);
        let p = overload_params(lab, &Defaults);
        assert_eq!(
            p.offered_per_s,
            crate::content::params::bound::default_of(lab, "offered_per_s")
        );
        let held: &[(&str, f64)] = &[("workers", 0.0)];
        assert_eq!(overload_params(lab, held).workers, 1, "held at its bound");
    }

    #[test]
    fn values_in_range_that_multiply_into_too_much_work_are_refused() {
        let heavy = OverloadParams {
            offered_per_s: 100_000.0,
            duration_s: 600.0,
            ..OverloadParams::default()
        };
        assert!(check_cost(&heavy, false).is_err());
        assert!(check_cost(&OverloadParams::default(), true).is_ok());
    }

    /// A FIFO run every live bound takes.
    fn live_fine() -> OverloadParams {
        OverloadParams {
            duration_s: 20.0,
            workers: 8,
            service_ms: 20.0,
            offered_per_s: 500.0,
            ..OverloadScenario::Fifo.params()
        }
    }

    #[test]
    fn a_live_run_is_held_to_its_live_bounds_with_the_flag_named() {
        let live = |p: OverloadParams| check_live(OverloadScenario::Fifo, &p, &Defaults).map_err(|refused| refused.0);
        let fine = live_fine();
        assert_eq!(live(fine.clone()), Ok(()));
        assert_eq!(
            live(OverloadParams {
                workers: 300,
                ..fine.clone()
            }),
            Err("--workers 300 with --live; allowed: 1 to 256".to_string())
        );
        assert_eq!(
            live(OverloadParams {
                service_ms: 0.5,
                ..fine.clone()
            }),
            Err("--service-ms 0.5 with --live; allowed: 1 to 10000 (timers are 1 ms)".to_string())
        );
        let seeded: &[(&str, f64)] = &[("random_seed", 3.0)];
        assert!(check_live(OverloadScenario::Fifo, &fine, seeded).is_err());
        assert!(check_live(OverloadScenario::Bulkhead, &fine, &Defaults).is_err());
    }

    /// Each live bound is a tighter use of its parameter's bound in [`BOUNDS`], and holds
    /// that parameter: a value the command line takes but the live server cannot, given by
    /// the bound's name, is refused naming the bound's flag.
    #[test]
    fn each_live_bound_holds_its_own_parameter_inside_its_wider_bound() {
        let fine = live_fine();
        for LiveBound { bound: live, .. } in LIVE_BOUNDS {
            let wide = bound_of(live.name);
            assert_eq!(live.flag, wide.flag, "{} is one of BOUNDS' names", live.name);
            assert!(wide.min <= live.min && live.max <= wide.max, "{live:?} inside {wide:?}");
            let past = if live.max < wide.max { wide.max } else { wide.min };
            assert!(!(live.min..=live.max).contains(&past), "{} is tighter live", live.name);
            let given: &[(&str, f64)] = &[(live.name, past)];
            let p = apply(fine.clone(), given, AtBound::Refuse, false).expect("inside BOUNDS");
            let refused = check_live(OverloadScenario::Fifo, &p, &Defaults).expect_err("past the live bound");
            assert!(
                refused.0.starts_with(&format!("{} {past} with --live", live.flag)),
                "{refused}"
            );
        }
    }
}
