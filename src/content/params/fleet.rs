//! Lab 1 at fleet scale: the `fleet_*` parameters of `labs/health.toml`, and `run fleet`'s
//! flags, to the fleet model's [`FleetParams`]. The fleet view's sliders, the fleet checks'
//! own settings and the command line all resolve through [`resolve`], with one set of
//! bounds ([`BOUNDS`]) and one rule for what holds between parameters.
//!
//! `fleet_scenario` picks the scenario the other parameters start from (its index in
//! [`FleetScenario::ALL`]: what the scenario fixes beyond the sliders, such as a rolling restart's
//! routing delay or the black hole's balancing); every other parameter a source gives then
//! sets its field, and one it does not give keeps the scenario's value. The sliders and a
//! check's settings give every `fleet_*` slider, so a check says everything it is about; the
//! command line gives what was typed (`--scenario` and the flags), and a few parameters no
//! slider has (`fleet_duration_s`, `fleet_time_scale`, ...: [`FLAG_ONLY`]).
//!
//! The lab file's defaults are the default scenario's values (a unit test holds them so),
//! so a source that gives nothing runs the same whether it falls back to either.

use crate::content::lab::LabFile;
use crate::content::params::bound::{AtBound, Bound, value};
use crate::content::values::Values;
use crate::engine::fleet::{Balancing, Database, DbWindow, FleetParams, FleetScenario, OnDbDown};
use crate::error::UsageError;

/// How late a slow database answers unless `fleet_db_latency_ms` says: past the probes'
/// timeout, so a probe that checks it fails.
pub const SLOW_DB_LATENCY_MS: u64 = 2_000;

/// How far below the shortest probe period a too-long probe timeout is held: the timeout
/// slider's step, so the value used is one the slider could show.
const TIMEOUT_MARGIN_S: f64 = 0.5;

/// The parameters that only the command line sets (no slider has them), by their names in
/// a [`Values`] source; choices are indices (`fleet_on_db_down`: 0 degrade, 1 fail;
/// `fleet_balancing`: 0 round-robin, 1 least-requests; `fleet_fail_open`: 0 off, 1 on).
pub const FLAG_ONLY: [&str; 14] = [
    "fleet_duration_s",
    "fleet_time_scale",
    "fleet_stagger_s",
    "fleet_backoff_reset_s",
    "fleet_deregister_s",
    "fleet_warmup_s",
    "fleet_work_s",
    "fleet_routing_delay_s",
    "fleet_load_start_s",
    "fleet_on_db_down",
    "fleet_balancing",
    "fleet_fail_open",
    "fleet_black_holes",
    "fleet_db_latency_ms",
];

/// The widest range of each numeric fleet parameter: `run fleet`'s flags refuse a value
/// outside it, a slider or a check's setting outside it is held at its edge. (The lab file's
/// sliders show a part of these ranges.)
#[rustfmt::skip]
pub const BOUNDS: [Bound; 25] = [
    Bound::new("fleet_replicas",            "--replicas",           1.0,  10.0),
    Bound::new("fleet_duration_s",          "--duration-s",        10.0, 3_600.0),
    Bound::new("fleet_time_scale",          "--time-scale",         0.02, 1.0),
    Bound::new("fleet_stagger_s",           "--stagger-s",          0.0,  60.0),
    Bound::new("fleet_startup_period_s",    "--startup-period-s",   1.0,  60.0),
    Bound::new("fleet_startup_threshold",   "--startup-threshold",  1.0,  60.0),
    Bound::new("fleet_readiness_period_s",  "--readiness-period-s", 1.0,  60.0),
    Bound::new("fleet_readiness_threshold", "--readiness-threshold", 1.0, 30.0),
    Bound::new("fleet_liveness_period_s",   "--liveness-period-s",  1.0,  60.0),
    Bound::new("fleet_liveness_threshold",  "--liveness-threshold", 1.0,  30.0),
    Bound::new("fleet_timeout_s",           "--probe-timeout-s",    0.1,  30.0),
    Bound::new("fleet_backoff_initial_s",   "--backoff-initial-s",  0.0, 300.0),
    Bound::new("fleet_backoff_factor",      "--backoff-factor",     1.0,  10.0),
    Bound::new("fleet_backoff_cap_s",       "--backoff-cap-s",      0.0, 3_600.0),
    Bound::new("fleet_backoff_reset_s",     "--backoff-reset-s",    1.0, 3_600.0),
    Bound::new("fleet_pre_stop_s",          "--pre-stop-s",         0.0, 120.0),
    Bound::new("fleet_grace_s",             "--grace-s",            0.0, 300.0),
    Bound::new("fleet_deregister_s",        "--deregister-s",       0.0,  60.0),
    Bound::new("fleet_warmup_s",            "--warmup-s",           0.0,  60.0),
    Bound::new("fleet_routing_delay_s",     "--routing-delay-s",    0.0,  30.0),
    Bound::new("fleet_load_per_s",          "--load-per-s",         0.0, 1_000.0),
    Bound::new("fleet_load_start_s",        "--load-start-s",       0.0, 3_600.0),
    Bound::new("fleet_db_latency_ms",       "--db-latency-ms",      1.0, 60_000.0),
    Bound::new("fleet_roll_at_s",           "--roll-at-s",          0.0, 3_600.0),
    Bound::new("fleet_black_holes",         "--black-holes",        0.0,  10.0),
];

/// The bound of `name` (one of [`BOUNDS`]' names; the table's unit test holds every name
/// the resolver and the command line ask for).
pub fn bound_of(name: &str) -> Bound {
    Bound::of(&BOUNDS, name)
}

/// The scenario `fleet_scenario` names (clamped into [`FleetScenario::ALL`]).
pub fn scenario_of(index: f64) -> FleetScenario {
    let last = FleetScenario::ALL.len() - 1;
    FleetScenario::ALL[(index.round().max(0.0) as usize).min(last)]
}

/// The fleet parameters at the sliders or a check's settings: [`resolve`] holding every
/// value at its bound, which refuses nothing.
pub fn clamped(lab: &LabFile, values: &(impl Values + ?Sized)) -> FleetParams {
    match resolve(lab, values, AtBound::Clamp) {
        Ok(params) => params,
        // Clamping holds every value inside its bound; no rule is left to refuse.
        Err(refused) => unreachable!("a clamped fleet refuses nothing: {refused}"),
    }
}

/// The fleet parameters at `values`: the scenario `fleet_scenario` names, with every value
/// the source gives on top, each held to [`BOUNDS`] and the rules between them as `at` says.
pub fn resolve(lab: &LabFile, values: &(impl Values + ?Sized), at: AtBound) -> Result<FleetParams, UsageError> {
    let mut p = FleetParams::scenario(scenario_of(value(lab, values, "fleet_scenario")));
    // A given value held to its bound (a bound-less name is taken as given).
    let given = |name: &str| Bound::given(&BOUNDS, values, name, at);
    let count = |value: f64| value.round().max(1.0) as u32;
    let switch = |value: f64| value >= 0.5;
    macro_rules! set {
        ($($name:literal => $field:expr, $convert:expr;)*) => {
            $(if let Some(v) = given($name)? { $field = $convert(v); })*
        };
    }
    let same = |v: f64| v;
    set!(
        "fleet_replicas" => p.replicas, count;
        "fleet_liveness_db" => p.server.liveness_checks_db, switch;
        "fleet_readiness_db" => p.server.readiness_checks_db, switch;
        "fleet_duration_s" => p.duration_s, same;
        "fleet_time_scale" => p.time_scale, same;
        "fleet_stagger_s" => p.stagger_s, same;
        "fleet_startup_period_s" => p.startup.period_s, same;
        "fleet_startup_threshold" => p.startup.failure_threshold, count;
        "fleet_readiness_period_s" => p.readiness.period_s, same;
        "fleet_readiness_threshold" => p.readiness.failure_threshold, count;
        "fleet_liveness_period_s" => p.liveness.period_s, same;
        "fleet_liveness_threshold" => p.liveness.failure_threshold, count;
        "fleet_backoff_initial_s" => p.backoff.initial_s, same;
        "fleet_backoff_factor" => p.backoff.factor, same;
        "fleet_backoff_cap_s" => p.backoff.cap_s, same;
        "fleet_backoff_reset_s" => p.backoff.reset_after_s, same;
        "fleet_pre_stop_s" => p.pre_stop_s, same;
        "fleet_grace_s" => p.grace_s, same;
        "fleet_deregister_s" => p.server.deregister_s, same;
        "fleet_warmup_s" => p.server.warmup_s, same;
        "fleet_work_s" => p.server.work_s, same;
        "fleet_routing_delay_s" => p.routing_delay_s, same;
        "fleet_load_per_s" => p.load_per_s, same;
        "fleet_load_start_s" => p.load_start_s, same;
        "fleet_fail_open" => p.fail_open, switch;
        "fleet_black_holes" => p.black_holes, |v: f64| v.round().max(0.0) as u32;
    );
    if let Some(v) = given("fleet_on_db_down")? {
        p.on_db_down = if switch(v) { OnDbDown::Fail } else { OnDbDown::Degrade };
    }
    if let Some(v) = given("fleet_balancing")? {
        p.balancing = if switch(v) {
            Balancing::LeastRequests
        } else {
            Balancing::RoundRobin
        };
    }
    // The lab file: "0: none".
    if let Some(roll_at_s) = given("fleet_roll_at_s")? {
        p.roll_at_s = (roll_at_s > 0.0).then_some(roll_at_s);
    }
    if let Some(timeout_s) = given("fleet_timeout_s")? {
        for probe in [&mut p.startup, &mut p.readiness, &mut p.liveness] {
            probe.timeout_s = timeout_s;
        }
    }
    resolve_database(&mut p, values, at)?;
    hold_between(&mut p, at)?;
    Ok(p)
}

/// `fleet_db_state` (0 up, 1 slow, 2 down), `fleet_db_start_s`, `fleet_db_end_s` and
/// `fleet_db_latency_ms` on top of the scenario's outage. A state that is not given keeps the
/// scenario's (a window given to a scenario without one is an outage); a window that is not
/// given keeps the scenario's, else 30 to 90 s; a window that ends before it starts is none.
fn resolve_database(p: &mut FleetParams, values: &(impl Values + ?Sized), at: AtBound) -> Result<(), UsageError> {
    let refuse = |message: &str| match at {
        AtBound::Refuse => Err(UsageError(message.to_string())),
        AtBound::Clamp => Ok(()),
    };
    let current = p.database.first().copied();
    let window = match (values.value("fleet_db_start_s"), values.value("fleet_db_end_s")) {
        (Some(start_s), Some(end_s)) => Some((start_s, end_s)),
        _ => None,
    };
    let latency_ms = values
        .value("fleet_db_latency_ms")
        .map(|v| bound_of("fleet_db_latency_ms").hold(v, at))
        .transpose()?
        .map(|v| v.round() as u64);
    let state = match values.value("fleet_db_state").map(|v| v.round() as i64) {
        Some(0) => {
            if window.is_some() || latency_ms.is_some() {
                // The sliders always give a window: only typed flags are a mistake here.
                refuse("--db up has no window or latency; allowed with --db down or slow")?;
            }
            p.database.clear();
            return Ok(());
        }
        Some(1) => Database::Slow {
            latency_ms: latency_ms.unwrap_or(SLOW_DB_LATENCY_MS),
        },
        Some(_) => {
            if latency_ms.is_some() {
                refuse("--db-latency-ms applies to --db slow only")?;
            }
            Database::Down
        }
        None => match (current.map(|w| w.state), latency_ms) {
            (Some(Database::Slow { .. }), Some(latency_ms)) => Database::Slow { latency_ms },
            (_, Some(_)) => return refuse("--db-latency-ms applies to --db slow only"),
            (Some(state), None) => state,
            (None, None) if window.is_some() => Database::Down,
            (None, None) => return Ok(()),
        },
    };
    let (start_s, end_s) = window.or(current.map(|w| (w.start_s, w.end_s))).unwrap_or((30.0, 90.0));
    p.database.clear();
    if end_s > start_s {
        p.database.push(DbWindow { start_s, end_s, state });
    }
    Ok(())
}

/// The rules between parameters, refused or held as `at` says:
///
/// - a probe's timeout is below every probe period (Kubernetes marks a probe failed at its
///   timeout, and the next one is due at its period): held half a step below the shortest;
/// - the back-off cap is at least its first delay (else every wait is cut below the first
///   delay the learner set): held at the first delay;
/// - no more black holes than replicas: held at the replicas.
///
/// A rolling restart at or after the run's end is refused on the command line; at the
/// sliders it is a run in which no replica is replaced.
fn hold_between(p: &mut FleetParams, at: AtBound) -> Result<(), UsageError> {
    let shortest_s = [p.startup, p.readiness, p.liveness]
        .iter()
        .map(|probe| probe.period_s)
        .fold(f64::INFINITY, f64::min);
    let timeout_s = p.startup.timeout_s.max(p.readiness.timeout_s).max(p.liveness.timeout_s);
    if timeout_s >= shortest_s {
        let held_s = at.at_most(timeout_s, shortest_s - TIMEOUT_MARGIN_S, || {
            format!("--probe-timeout-s {timeout_s} must be below every probe period; allowed: below {shortest_s}")
        })?;
        let held_s = held_s.max(TIMEOUT_MARGIN_S);
        for probe in [&mut p.startup, &mut p.readiness, &mut p.liveness] {
            probe.timeout_s = held_s;
        }
    }
    let initial_s = p.backoff.initial_s;
    p.backoff.cap_s = at.at_least(p.backoff.cap_s, initial_s, || {
        format!(
            "--backoff-cap-s {} is below --backoff-initial-s {initial_s}; allowed: a cap from {initial_s} to {}",
            p.backoff.cap_s,
            bound_of("fleet_backoff_cap_s").max
        )
    })?;
    let replicas = f64::from(p.replicas);
    p.black_holes = at.at_most(f64::from(p.black_holes), replicas, || {
        format!(
            "--black-holes {} is more than the {} replicas; allowed: 0 to {}",
            p.black_holes, p.replicas, p.replicas
        )
    })? as u32;
    if at == AtBound::Refuse
        && let Some(roll_s) = p.roll_at_s
        && roll_s >= p.duration_s
    {
        return Err(UsageError(format!(
            "--roll-at-s {roll_s} is not within the run; allowed: below --duration-s {}",
            p.duration_s
        )));
    }
    Ok(())
}

/// The longest a live run may take in real seconds.
const MAX_LIVE_S: f64 = 600.0;
/// The most requests per real second a live run may send.
const MAX_LIVE_RATE_PER_S: f64 = 2_000.0;

/// The fewest real milliseconds between requests for a live run with a fast-failing
/// replica behind least-requests balancing (issue 27 item 13). The simulation's fast fail
/// takes 1 model ms ([`crate::engine::fleet::FAST_FAIL_MS`]), so at every arrival the
/// black hole is idle and draws the request; live, the round trip through the Service to
/// it took 1 to 2.5 real ms (debug build, the shared 2-core machine), and when requests
/// come closer than that it is seldom idle, the healthy replicas take the rest and live
/// reports far more ok: 10 replicas, `--load-per-s 200 --time-scale 0.1` (0.5 ms apart)
/// gave live ok 3,694 to 5,499 against the simulation's 1,736, which the simulation
/// itself gives with a fast fail of 10 to 20 model ms (1 to 2 real ms): live was the wrong
/// side. The scenario's own 30/s at 0.1 is 3.3 ms apart.
pub const BLACK_HOLE_GAP_MIN_MS: f64 = 3.0;

/// Limits of a live run: its real length and rate, and the replicas' scaled settings,
/// which `serve health` checks against Lab 1's ranges.
pub fn check_live(p: &FleetParams) -> Result<(), UsageError> {
    let real_s = p.duration_s * p.time_scale;
    if real_s > MAX_LIVE_S {
        return Err(UsageError(format!(
            "--duration-s {} at --time-scale {} takes {real_s:.0} real seconds; allowed with --live: up to {MAX_LIVE_S}",
            p.duration_s, p.time_scale
        )));
    }
    let rate = p.load_per_s / p.time_scale;
    if rate > MAX_LIVE_RATE_PER_S {
        return Err(UsageError(format!(
            "--load-per-s {} at --time-scale {} is {rate:.0} real requests/s; allowed with --live: up to {MAX_LIVE_RATE_PER_S}",
            p.load_per_s, p.time_scale
        )));
    }
    let gap_ms = p.time_scale / p.load_per_s * 1e3;
    if p.black_holes > 0 && p.balancing == Balancing::LeastRequests && gap_ms < BLACK_HOLE_GAP_MIN_MS {
        let most = p.time_scale * 1e3 / BLACK_HOLE_GAP_MIN_MS;
        return Err(UsageError(format!(
            "--load-per-s {} at --time-scale {} sends requests {gap_ms:.2} real ms apart, closer than a live round trip to the fast-failing replica, so the run could not be compared with the simulation; allowed with --live: at least {BLACK_HOLE_GAP_MIN_MS} ms apart (--load-per-s up to {most:.0} at this --time-scale)",
            p.load_per_s, p.time_scale
        )));
    }
    for (flag, model_s, min, max) in [
        ("--warmup-s", p.server.warmup_s, 0.0, 10.0),
        ("--deregister-s", p.server.deregister_s, 0.0, 10.0),
        (
            "--time-scale (the replicas' 15 s drain limit)",
            p.server.grace_s,
            0.5,
            60.0,
        ),
    ] {
        let real = model_s * p.time_scale;
        if !(min..=max).contains(&real) {
            return Err(UsageError(format!(
                "{flag} {model_s} at --time-scale {} is {real} real seconds; allowed with --live: {min} to {max}",
                p.time_scale
            )));
        }
    }
    Ok(())
}

/// The `fleet_*` values scenario `scenario` starts from, for the fleet view's scenario key:
/// (name, value) for every slider [`resolve`] reads.
pub fn scenario_values(scenario: FleetScenario) -> Vec<(&'static str, f64)> {
    values_of(&FleetParams::scenario(scenario))
}

/// The `fleet_*` values that give `p` as far as the sliders reach (its scenario, the first
/// database window, the liveness probe's timeout for all three): how `run fleet`'s flags are
/// compared with their scenario in the same terms as the sliders.
pub fn values_of(p: &FleetParams) -> Vec<(&'static str, f64)> {
    let index = FleetScenario::ALL.iter().position(|s| *s == p.scenario).unwrap_or(0);
    let (db_state, start_s, end_s) = match p.database.first() {
        Some(w) => {
            let state = match w.state {
                Database::Up => 0.0,
                Database::Slow { .. } => 1.0,
                Database::Down => 2.0,
            };
            (state, w.start_s, w.end_s)
        }
        None => (0.0, 30.0, 90.0),
    };
    vec![
        ("fleet_scenario", index as f64),
        ("fleet_replicas", f64::from(p.replicas)),
        ("fleet_liveness_db", f64::from(u8::from(p.server.liveness_checks_db))),
        ("fleet_readiness_db", f64::from(u8::from(p.server.readiness_checks_db))),
        ("fleet_db_state", db_state),
        ("fleet_db_start_s", start_s),
        ("fleet_db_end_s", end_s),
        ("fleet_startup_period_s", p.startup.period_s),
        ("fleet_startup_threshold", f64::from(p.startup.failure_threshold)),
        ("fleet_readiness_period_s", p.readiness.period_s),
        ("fleet_readiness_threshold", f64::from(p.readiness.failure_threshold)),
        ("fleet_liveness_period_s", p.liveness.period_s),
        ("fleet_liveness_threshold", f64::from(p.liveness.failure_threshold)),
        ("fleet_timeout_s", p.liveness.timeout_s),
        ("fleet_backoff_initial_s", p.backoff.initial_s),
        ("fleet_backoff_factor", p.backoff.factor),
        ("fleet_backoff_cap_s", p.backoff.cap_s),
        ("fleet_pre_stop_s", p.pre_stop_s),
        ("fleet_grace_s", p.grace_s),
        ("fleet_load_per_s", p.load_per_s),
        ("fleet_roll_at_s", p.roll_at_s.unwrap_or(0.0)),
    ]
}

/// The `fleet_*` parameters whose values at `values` differ from those of the scenario
/// `fleet_scenario` names, in [`scenario_values`]' order: empty when the run is that scenario
/// as it stands, so that a title can say "black-hole, changed: ..." rather than name a run
/// it is not.
pub fn changed_from_scenario(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<&'static str> {
    let scenario = scenario_of(value(lab, values, "fleet_scenario"));
    scenario_values(scenario)
        .into_iter()
        .filter(|&(name, expected)| (value(lab, values, name) - expected).abs() > 1e-9)
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};

    #[test]
    fn a_black_hole_run_faster_than_a_live_round_trip_is_refused() {
        let mut p = FleetParams::scenario(FleetScenario::BlackHole);
        assert!(check_live(&p).is_ok(), "the scenario's own 30/s at 0.1 (3.3 ms apart)");
        (p.replicas, p.load_per_s) = (10, 200.0);
        let refused = check_live(&p).expect_err("0.5 ms apart").0;
        assert!(refused.contains("0.50 real ms apart"), "{refused}");
        assert!(refused.contains("--load-per-s up to 33"), "{refused}");
        // Round robin sends to the black hole by turn, not by how idle it looks.
        p.balancing = Balancing::RoundRobin;
        assert!(check_live(&p).is_ok());
    }

    /// Every scenario's values are ones its sliders can show (in range, on a step), so a
    /// scenario applied to the sliders reads back as that scenario, unchanged (else its
    /// title would say "changed").
    #[test]
    fn each_scenario_is_reachable_by_the_sliders_and_reads_back_unchanged() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        for scenario in FleetScenario::ALL {
            let values = scenario_values(scenario);
            for &(name, value) in &values {
                let spec = lab.parameters.iter().find(|p| p.name == name).expect("a slider");
                let steps = (value - spec.min) / spec.step;
                assert!(
                    (spec.min..=spec.max).contains(&value) && (steps - steps.round()).abs() < 1e-9,
                    "{scenario:?}: {name} = {value} is not a value of its slider"
                );
            }
            assert_eq!(
                changed_from_scenario(lab, &values[..]),
                Vec::<&str>::new(),
                "{scenario:?}"
            );
            assert_eq!(clamped(lab, &values[..]).scenario, scenario);
        }
    }

    /// A source that gives nothing falls back to the default scenario's values; the lab file's
    /// defaults are the same values, so the app's first screen and `run fleet` with no flag
    /// are one run.
    #[test]
    fn the_lab_files_fleet_defaults_are_the_default_scenarios_values() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        let scenario = scenario_of(crate::content::params::bound::default_of(lab, "fleet_scenario"));
        for (name, expected) in scenario_values(scenario) {
            let default = crate::content::params::bound::default_of(lab, name);
            assert!(
                (default - expected).abs() < 1e-9,
                "{name}: lab file {default}, {scenario:?} {expected}"
            );
        }
        let defaults = resolve(lab, &crate::content::values::Defaults, AtBound::Refuse).expect("the defaults run");
        assert_eq!(defaults, FleetParams::scenario(scenario));
    }

    /// One rule for the probe timeout and one for the back-off cap: the command line refuses
    /// what breaks it, naming the flag and what is allowed; the sliders hold it.
    #[test]
    fn a_rule_between_parameters_is_refused_by_flags_and_held_by_sliders() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        let timeout: &[(&str, f64)] = &[("fleet_timeout_s", 6.0), ("fleet_readiness_period_s", 3.0)];
        let refused = resolve(lab, timeout, AtBound::Refuse).expect_err("refused");
        assert_eq!(
            refused.0,
            "--probe-timeout-s 6 must be below every probe period; allowed: below 3"
        );
        assert_eq!(clamped(lab, timeout).liveness.timeout_s, 2.5);
        let cap: &[(&str, f64)] = &[("fleet_backoff_initial_s", 20.0), ("fleet_backoff_cap_s", 10.0)];
        let refused = resolve(lab, cap, AtBound::Refuse).expect_err("refused");
        assert!(
            refused
                .0
                .starts_with("--backoff-cap-s 10 is below --backoff-initial-s 20"),
            "{refused}"
        );
        assert_eq!(clamped(lab, cap).backoff.cap_s, 20.0);
        let past: &[(&str, f64)] = &[("fleet_replicas", 40.0)];
        assert!(resolve(lab, past, AtBound::Refuse).is_err());
        assert_eq!(clamped(lab, past).replicas, 10);
    }

    #[test]
    fn every_name_the_resolver_reads_has_its_bound_or_is_a_choice() {
        let choices = [
            "fleet_scenario",
            "fleet_liveness_db",
            "fleet_readiness_db",
            "fleet_db_state",
            "fleet_db_start_s",
            "fleet_db_end_s",
            "fleet_on_db_down",
            "fleet_balancing",
            "fleet_fail_open",
            "fleet_work_s",
        ];
        let names = scenario_values(FleetScenario::LivenessChecksDb)
            .into_iter()
            .map(|(name, _)| name)
            .chain(FLAG_ONLY);
        for name in names {
            assert!(
                choices.contains(&name) || !bound_of(name).flag.is_empty(),
                "{name} has no bound"
            );
        }
    }
}
