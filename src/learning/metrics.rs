//! Named numbers a lab run produces, for the predict-then-observe checks.
//!
//! A check in a lab file names a metric such as `breaker.with_breaker.sick_calls`; the
//! app scores the learner's prediction against the value a run reports here, and
//! `resilience-lab check` refuses a check whose metric no run produces.

use crate::content::params::fleet as fleet_params;
use crate::content::params::{self, Defaults, Values};
use crate::content::question::CheckSettings;
use crate::content::{Content, LabFile, LabId, Question};
use crate::engine::brownout::{self, BrownoutComparison};
use crate::engine::budget;
use crate::engine::fleet::{self, FleetRun};
use crate::engine::health::{self, DriverRun, WorkOutcome};
use crate::engine::retry::{self, RetryPolicy, ScenarioResult};

/// A metric's name and its value in one run.
pub type Metric = (String, f64);

/// The name of `field` of Lab 2's row for `policy`: `retry.a.db_attempts_per_action`. The
/// printer names its fields with it too ([`crate::report::retry_cells`]).
pub fn retry_metric(policy: RetryPolicy, field: &str) -> String {
    let letter = match policy {
        RetryPolicy::Layered => "a",
        RetryPolicy::TopOnly => "b",
        RetryPolicy::TopOnlyBudget => "c",
    };
    format!("retry.{letter}.{field}")
}

/// The A/B/C rows of Lab 2 as metrics `retry.a.db_attempts_per_action` and so on.
pub fn retry_metrics(rows: &[(RetryPolicy, ScenarioResult)]) -> Vec<Metric> {
    let mut metrics = Vec::new();
    for (policy, result) in rows {
        metrics.push((retry_metric(*policy, "db_attempts"), result.db_attempts as f64));
        metrics.push((
            retry_metric(*policy, "db_attempts_per_action"),
            result.db_attempts_per_action,
        ));
        metrics.push((retry_metric(*policy, "success_ratio"), result.success_ratio));
    }
    metrics
}

/// Lab 3's two callers: the label the Atlas prints and the metrics' key (`breaker.<key>.*`).
pub const BREAKER_CALLERS: [(&str, &str); 2] = [("timeout only", "timeout_only"), ("with breaker", "with_breaker")];

/// The name of `field` of Lab 3's caller `key`: `breaker.with_breaker.sick_calls`.
pub fn breaker_metric(key: &str, field: &str) -> String {
    format!("breaker.{key}.{field}")
}

/// Lab 2's Full Jitter ceilings, one per attempt from 0, as metrics
/// `retry.jitter.attempt_4_ceiling_s` and so on: the bound each sleep is drawn under.
pub fn retry_jitter_metrics(ceilings_s: &[f64]) -> Vec<Metric> {
    ceilings_s
        .iter()
        .enumerate()
        .map(|(attempt, ceiling_s)| (format!("retry.jitter.attempt_{attempt}_ceiling_s"), *ceiling_s))
        .collect()
}

/// At most about this many database attempts for the five-layer run: at p = 1 with 10
/// attempts a layer one action costs 100,000, so the run takes fewer actions as the chain
/// multiplies (at p = 1 the mean per action is exact whatever the count; 3 attempts a layer
/// keeps 4,115 actions).
const FIVE_LAYERS_ATTEMPTS_MAX: u64 = 1_000_000;

/// Lab 2's chain lengthened to five layers, the depth of Amazon's example, by two more hops
/// like the back end (browser, front end, back end, back end, back end), with no budget:
/// metric `retry.five_layers.db_attempts_per_action`. The rows on screen stay at three.
pub fn retry_five_layers_metrics(settings: &params::RetrySettings) -> Vec<Metric> {
    let backend = settings.layered.last().copied().unwrap_or(1);
    let mut attempts = settings.layered.clone();
    attempts.extend([backend, backend]);
    let worst_per_action: u64 = attempts.iter().map(|a| u64::from(*a)).product::<u64>().max(1);
    let result = retry::run_scenario(&retry::ScenarioParams {
        p: settings.p,
        attempts,
        budget: 0.0,
        actions: settings
            .actions
            .min((FIVE_LAYERS_ATTEMPTS_MAX / worst_per_action).max(1)),
        seed: settings.seed,
    });
    vec![(
        "retry.five_layers.db_attempts_per_action".to_string(),
        result.db_attempts_per_action,
    )]
}

/// Both callers of Lab 3 as metrics `breaker.timeout_only.calls` and so on.
pub fn breaker_metrics(run: &BrownoutComparison) -> Vec<Metric> {
    let mut metrics = Vec::new();
    for ((_, key), summary) in BREAKER_CALLERS
        .iter()
        .zip([&run.timeout_only.summary, &run.with_breaker.summary])
    {
        metrics.push((breaker_metric(key, "calls"), summary.calls as f64));
        metrics.push((breaker_metric(key, "sick_calls"), summary.sick_calls as f64));
        metrics.push((breaker_metric(key, "degraded"), summary.degraded as f64));
        metrics.push((breaker_metric(key, "p99_wait_ms"), summary.p99_wait_ms));
        metrics.push((breaker_metric(key, "stuck"), summary.stuck));
    }
    let transitions = &run.with_breaker.transitions;
    metrics.push(("breaker.with_breaker.transitions".to_string(), transitions.len() as f64));
    if let Some(first) = transitions.first() {
        metrics.push(("breaker.with_breaker.first_open_s".to_string(), first.t_s));
    }
    metrics
}

/// The names of the Atlas schedule's `/readyz` probes, in its order (metric
/// `health.readyz_<name>_code`).
const READYZ_PROBES: [&str; 4] = ["warmup", "ready", "draining", "stopped"];

fn readyz_metric(name: &str) -> String {
    format!("health.readyz_{name}_code")
}

/// When the probe behind a `health.readyz_*_code` metric goes out in the Atlas schedule
/// (`health::readyz_moments`): the moment a live check of that metric waits for.
pub fn readyz_moment(metric: &str) -> Option<health::ProbeMoment> {
    let index = READYZ_PROBES.iter().position(|name| readyz_metric(name) == metric)?;
    health::readyz_moments().get(index).copied()
}

/// Whether the request sent after SIGTERM was served (1) or not (0).
pub const HEALTH_LATE_REQUEST_DONE: &str = "health.late_request_done";
/// The simulated server's exit code.
pub const HEALTH_EXIT_CODE: &str = "health.exit_code";

/// The Atlas driver's observations of Lab 1 as metrics `health.readyz_warmup_code` and so on.
pub fn health_metrics(run: &DriverRun) -> Vec<Metric> {
    let mut metrics = Vec::new();
    let readyz: Vec<u16> = run
        .probes
        .iter()
        .filter(|p| p.path == "/readyz")
        .map(|p| p.code)
        .collect();
    for (name, code) in READYZ_PROBES.iter().zip(&readyz) {
        metrics.push((readyz_metric(name), f64::from(*code)));
    }
    if let Some(livez) = run.probes.iter().find(|p| p.path == "/livez") {
        metrics.push(("health.livez_code".to_string(), f64::from(livez.code)));
    }
    let late_done = run.work.get(1).is_some_and(|w| *w == WorkOutcome::Done);
    metrics.push((HEALTH_LATE_REQUEST_DONE.to_string(), f64::from(u8::from(late_done))));
    metrics.push((HEALTH_EXIT_CODE.to_string(), f64::from(run.exit_code)));
    metrics
}

/// The metric of probe `index` of `run` (its place in `run.probes`), as [`health_metrics`]
/// names them: the nth `/readyz` probe is the nth of [`READYZ_PROBES`], the first `/livez`
/// is `health.livez_code`. A view masking a probe's code asks this.
pub fn health_probe_metric(run: &DriverRun, index: usize) -> Option<String> {
    let probe = run.probes.get(index)?;
    let before = run.probes.get(..index)?.iter().filter(|p| p.path == probe.path).count();
    match probe.path.as_str() {
        "/readyz" => READYZ_PROBES.get(before).map(|name| readyz_metric(name)),
        "/livez" if before == 0 => Some("health.livez_code".to_string()),
        _ => None,
    }
}

/// Lab 1's fleet view as metrics `fleet.restarts`, `fleet.requests.refused` and so on
/// (the fields of `run fleet --json`, under `fleet.`).
pub fn fleet_metrics(run: &FleetRun) -> Vec<Metric> {
    let mut metrics = vec![
        ("fleet.restarts".to_string(), f64::from(run.total_restarts())),
        ("fleet.no_ready_endpoint_s".to_string(), run.no_ready_endpoint_s),
    ];
    let totals = &run.requests;
    for (name, count) in [
        ("ok", totals.ok),
        ("degraded", totals.degraded),
        ("failed", totals.failed),
        ("refused", totals.refused),
    ] {
        metrics.push((format!("fleet.requests.{name}"), count as f64));
    }
    if let Some(first_s) = run.first_restart_s() {
        metrics.push(("fleet.first_restart_s".to_string(), first_s));
    }
    metrics
}

/// The value of `name` in `metrics`, if the run produced it.
pub fn lookup(metrics: &[Metric], name: &str) -> Option<f64> {
    metrics.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
}

/// Every metric the simulation of `lab` produces at `values` (the lab file's defaults for
/// any name `values` does not give). Lab 2 runs its three policies only, not the p-curve.
pub fn run_metrics(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<Metric> {
    match lab.lab {
        LabId::Retry => {
            let settings = params::retry_settings(lab, values);
            let mut metrics = retry_metrics(&retry::compare_policies(
                &settings.layered,
                settings.p,
                settings.budget,
                settings.actions,
                settings.seed,
            ));
            metrics.extend(retry_jitter_metrics(&retry::atlas_jitter_ceilings_s()));
            metrics.extend(retry_five_layers_metrics(&settings));
            metrics
        }
        // Lab files that `check` accepts make calls; a run that makes none is the Atlas's.
        LabId::Breaker => breaker_metrics(&brownout::compare(
            &params::brownout_params(lab, values).unwrap_or_default(),
        )),
        LabId::Health => {
            let mut metrics = health_metrics(&health::simulate_driver(
                &params::health_config(lab, values),
                health::SIM_DRIVER_PORT,
            ));
            metrics.extend(fleet_metrics(&fleet::simulate(&fleet_params::clamped(lab, values))));
            metrics
        }
        LabId::Overload => overload_all_metrics(lab, values),
        LabId::Budget => {
            let params = params::budget::budget_params(values);
            budget_metrics(&budget::run_all(&params))
        }
    }
}

/// The name of Lab 5's number `name`: `budget.worst_case_ms`, as `run budget --json` calls
/// it with the lab's prefix.
pub fn budget_metric(name: &str) -> String {
    format!("budget.{name}")
}

/// Lab 5's named numbers of `runs` (one per scenario): each scenario's single numbers under
/// [`budget_metric`]; a name two scenarios share (`attempts`) is the first one's. The lists
/// (`hop_budget_ms`) are named hop by hop already (`checkout_budget_ms`).
pub fn budget_metrics(runs: &[budget::BudgetRun]) -> Vec<Metric> {
    let mut all: Vec<Metric> = Vec::new();
    for run in runs {
        for (name, value) in &run.metrics {
            let budget::MetricValue::Number(value) = value else {
                continue;
            };
            let name = budget_metric(name);
            if !all.iter().any(|(known, _)| *known == name) {
                all.push((name, *value));
            }
        }
    }
    all
}

/// Lab 4 at `values`: the run, the bulkhead case (`overload.bulkhead.*`), the hanging
/// dependency capped by its timeout (`overload.hang.*`), and the paper's metastable model
/// (its own numbers, which the sliders do not move).
fn overload_all_metrics(lab: &LabFile, values: &(impl Values + ?Sized)) -> Vec<Metric> {
    use crate::engine::overload::{self, metastable};
    let mut all = overload_metrics(&overload::run(&params::overload_params(lab, values)));
    for case in SlotsCase::ALL {
        all.extend(overload_case_metrics(case, &overload::run(&case.params(lab, values))));
    }
    all.extend(overload_metastable_metrics(&metastable::run(
        &metastable::MetastableParams::default(),
    )));
    all
}

/// Lab 4's cases beside the run at the sliders, which the slots view draws: the bulkhead
/// (X's 100 calls/s beside the rest) and the hanging dependency capped by its timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotsCase {
    Bulkhead,
    Hang,
}

impl SlotsCase {
    pub const ALL: [SlotsCase; 2] = [SlotsCase::Bulkhead, SlotsCase::Hang];

    /// Its metrics' prefix, in place of the run's `overload.`.
    pub fn prefix(self) -> &'static str {
        match self {
            SlotsCase::Bulkhead => "overload.bulkhead.",
            SlotsCase::Hang => "overload.hang.",
        }
    }

    /// The case whose number `metric` is, if it is one's.
    pub fn of_metric(metric: &str) -> Option<SlotsCase> {
        SlotsCase::ALL
            .into_iter()
            .find(|case| metric.starts_with(case.prefix()))
    }

    /// Its run's parameters at `values`.
    pub fn params(self, lab: &LabFile, values: &(impl Values + ?Sized)) -> crate::engine::overload::OverloadParams {
        match self {
            SlotsCase::Bulkhead => params::overload_bulkhead_params(lab, values),
            SlotsCase::Hang => params::overload_hang_params(lab, values),
        }
    }

    /// The name of its metric `field`: `overload.bulkhead.free_for_rest`.
    pub fn metric(self, field: &str) -> String {
        format!("{}{field}", self.prefix())
    }
}

/// The metrics of `case`'s run: a run's ([`overload_metrics`]) under the case's prefix.
pub fn overload_case_metrics(case: SlotsCase, run: &crate::engine::overload::OverloadRun) -> Vec<Metric> {
    overload_metrics(run)
        .into_iter()
        .map(|(name, value)| (name.replacen("overload.", case.prefix(), 1), value))
        .collect()
}

/// The run a lab's check is scored against: the simulation at the check's own settings,
/// whatever the sliders say, or at `on_screen` (the sliders) for a check that says
/// `settings = "on screen"`. A check without settings (none in a file `check` accepts)
/// is scored at `on_screen` too.
pub fn check_run(lab: &LabFile, check: &Question, on_screen: &(impl Values + ?Sized)) -> Vec<Metric> {
    match check.settings.as_ref().and_then(CheckSettings::fixed) {
        Some(own) => run_metrics(lab, own),
        None => run_metrics(lab, on_screen),
    }
}

/// Every metric a default run of each lab produces, to check predict checks against.
pub fn default_metrics(content: &Content) -> Vec<Metric> {
    // The lab files' defaults, which `--content` may have changed for a class.
    content
        .labs
        .iter()
        .flat_map(|lab| run_metrics(lab, &Defaults))
        .collect()
}

// ---- Lab 4 (overload) ------------------------------------------------------------------

/// A queueing run of Lab 4 as metrics `overload.queue_len_at_2_s` and so on.
pub fn overload_metrics(run: &crate::engine::overload::OverloadRun) -> Vec<Metric> {
    let mut metrics = Vec::new();
    if let Some(two) = run.seconds.iter().find(|s| s.t_s == 2.0) {
        metrics.push(("overload.queue_len_at_2_s".to_string(), two.queue_len as f64));
        metrics.push(("overload.queue_wait_at_2_s".to_string(), two.queue_wait_s));
    }
    let t = &run.totals;
    metrics.push(("overload.goodput_per_s".to_string(), t.goodput_per_s));
    metrics.push(("overload.max_queue_len".to_string(), t.max_queue_len as f64));
    // After the queue has filled: seconds 3 on, where the shares are steady.
    let steady = run.seconds.get(2..).unwrap_or(&[]);
    let offered: u64 = steady.iter().map(|s| s.offered).sum();
    let refused: u64 = steady.iter().map(|s| s.refused).sum();
    if offered > 0 {
        metrics.push((
            "overload.refused_share_steady".to_string(),
            refused as f64 / offered as f64,
        ));
    }
    if let Some(last) = run.seconds.last() {
        metrics.push(("overload.x_busy_end".to_string(), f64::from(last.x_busy)));
        metrics.push((
            "overload.free_for_rest".to_string(),
            f64::from(run.params.workers.saturating_sub(last.x_busy)),
        ));
    }
    if let Some(p) = t.throttle_probability {
        metrics.push(("overload.throttle_probability".to_string(), p));
    }
    metrics
}

/// Lab 4's metastable model as metrics `overload.metastable.db_load_end_per_s` and so on.
pub fn overload_metastable_metrics(run: &crate::engine::overload::metastable::MetastableRun) -> Vec<Metric> {
    vec![
        (
            "overload.metastable.db_load_end_per_s".to_string(),
            run.db_load_end_per_s,
        ),
        (
            "overload.metastable.goodput_after_per_s".to_string(),
            run.goodput_after_per_s,
        ),
        (
            "overload.metastable.stable_below_per_s".to_string(),
            run.stable_below_per_s,
        ),
        ("overload.metastable.retry_room_per_s".to_string(), run.retry_room_per_s),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each check of Labs 2 and 3 at its own settings gives the Atlas's printed number
    /// (`retry_lab.py`, `breaker_lab.py` and their exercises), computed by the simulation.
    #[rustfmt::skip]
    const ATLAS_ANSWERS: [(LabId, &str, f64, f64); 14] = [
        // lab           check                                  Atlas    within
        (LabId::Retry,   "retry-predict-layered",               64.0,    0.005),
        (LabId::Retry,   "retry-predict-one-layer",             4.0,     0.005),
        (LabId::Retry,   "retry-predict-budget",                1.11,    0.005),
        (LabId::Retry,   "retry-predict-layered-rare",          1.42,    0.005),
        (LabId::Retry,   "retry-predict-budget-success",        0.782,   0.0005),
        (LabId::Retry,   "retry-predict-jitter-ceiling",        1.6,     1e-9),
        (LabId::Retry,   "retry-predict-five-layers",           243.0,   1e-9),
        (LabId::Breaker, "breaker-predict-sick-calls",          44.0,    1e-9),
        (LabId::Breaker, "breaker-predict-stuck-timeout",       20.0,    0.05),
        (LabId::Breaker, "breaker-predict-p99-breaker",         40.0,    0.5),
        (LabId::Breaker, "breaker-predict-degraded",            3133.0,  1e-9),
        (LabId::Breaker, "breaker-predict-first-open-atlas",    10.29,   0.005),
        (LabId::Breaker, "breaker-predict-first-open",          10.69,   0.005),
        (LabId::Breaker, "breaker-predict-sick-calls-open-1s",  101.0,   1e-9),
    ];

    #[test]
    fn every_check_of_labs_2_and_3_gives_the_atlas_number_at_its_settings() {
        let content = Content::load(None).expect("the built-in labs load");
        for (lab_id, check_id, atlas, within) in ATLAS_ANSWERS {
            let lab = content.lab(lab_id);
            let check = lab
                .checks
                .iter()
                .find(|c| c.id == check_id)
                .unwrap_or_else(|| panic!("{check_id}"));
            let run = check_run(lab, check, &Defaults);
            let value = lookup(&run, check.metric.as_deref().unwrap_or_default()).expect(check_id);
            assert!(
                (value - atlas).abs() <= within,
                "{check_id}: {value} against the Atlas's {atlas}"
            );
        }
        // The Atlas's exercise: a 100-call window opens at the 50th failure, at 10.69 s.
        let lab = content.lab(LabId::Breaker);
        let wide = [("window".to_string(), 100.0), ("min_calls".to_string(), 100.0)];
        let first_open = lookup(&run_metrics(lab, &wide[..]), "breaker.with_breaker.first_open_s");
        assert!(first_open.is_some_and(|t| (t - 10.69).abs() < 0.005), "{first_open:?}");
    }

    #[test]
    fn labs_2_and_3_have_six_steps_with_checks_each() {
        let content = Content::load(None).expect("the built-in labs load");
        for id in [LabId::Retry, LabId::Breaker] {
            let lab = content.lab(id);
            let checked = lab.steps.iter().filter(|step| step.check.is_some()).count();
            assert!(checked >= 6, "{id:?}: {checked} steps with a check");
        }
    }
}
