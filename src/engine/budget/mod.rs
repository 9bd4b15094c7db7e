//! Lab 5, a request's budget: deadlines down a chain, the register's worst case,
//! `Retry-After`, a client-side token bucket, idempotency keys, retries that know what not
//! to repeat, the retry herd and the half-open herd.
//!
//! Pure: every scenario runs on a virtual clock with the project's CPython generator, and
//! the live lab (`live::budget`) calls the same rules ([`bucket::TokenBucket`],
//! [`duplicates::Ledger`], [`backoff::NoteRetry`], [`retry_after::retry_after_s`], the
//! project's [`crate::engine::breaker::Breaker`]). One module per scenario; each module's
//! doc states the conventions its numbers rest on. [`run`] gives a scenario's named
//! numbers ([`BudgetRun::metrics`]), the names `run budget --json` and the lab's checks use.

pub mod backoff;
pub mod bucket;
pub mod deadline;
pub mod duplicates;
pub mod half_open;
pub mod herd;
pub mod register;
pub mod retry_after;
pub mod status;

use serde::Serialize;

use backoff::Sleep;

/// The lab's seven scenarios.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BudgetScenario {
    #[default]
    Deadline,
    Register,
    RetryAfter,
    Duplicates,
    Status,
    Herd,
    HalfOpen,
}

impl BudgetScenario {
    pub const ALL: [BudgetScenario; 7] = [
        BudgetScenario::Deadline,
        BudgetScenario::Register,
        BudgetScenario::RetryAfter,
        BudgetScenario::Duplicates,
        BudgetScenario::Status,
        BudgetScenario::Herd,
        BudgetScenario::HalfOpen,
    ];

    /// The name on the command line and in the JSON.
    #[rustfmt::skip]
    pub fn name(self) -> &'static str {
        match self {
            BudgetScenario::Deadline   => "deadline",
            BudgetScenario::Register   => "register",
            BudgetScenario::RetryAfter => "retry-after",
            BudgetScenario::Duplicates => "duplicates",
            BudgetScenario::Status     => "status",
            BudgetScenario::Herd       => "herd",
            BudgetScenario::HalfOpen   => "half-open",
        }
    }

    pub fn from_name(name: &str) -> Option<BudgetScenario> {
        BudgetScenario::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Every scenario's settings; a run reads its own scenario's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BudgetParams {
    pub deadline: deadline::DeadlineParams,
    pub register: register::RegisterParams,
    pub retry_after: retry_after::RetryAfterParams,
    pub bucket: bucket::BucketParams,
    pub duplicates: duplicates::DuplicatesParams,
    pub status: status::StatusParams,
    pub herd: herd::HerdParams,
    /// Which sleep of the herd `peak_per_10ms` reports (all three are always run).
    pub herd_sleep: HerdSleep,
    pub half_open: half_open::HalfOpenParams,
}

/// [`Sleep`] with a default, for [`BudgetParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HerdSleep(#[serde(serialize_with = "sleep_name")] pub Sleep);

impl Default for HerdSleep {
    fn default() -> Self {
        HerdSleep(Sleep::FixedSecond)
    }
}

fn sleep_name<S: serde::Serializer>(sleep: &Sleep, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(sleep.name())
}

/// A named number of a run: one value, or one per hop.
#[derive(Clone, Debug, PartialEq)]
pub enum MetricValue {
    Number(f64),
    /// One per hop; `None` where a hop knew nothing (no propagation) or was not reached.
    List(Vec<Option<f64>>),
}

/// What one scenario's run gives.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetRun {
    pub scenario: BudgetScenario,
    /// The scenario's named numbers, in the order the report prints them.
    pub metrics: Vec<(&'static str, MetricValue)>,
    /// The deadline's waterfall (scenario `deadline`), else empty.
    pub hops: Vec<deadline::HopRow>,
    /// The register's attempts on their timeline (scenario `register`), else empty.
    pub attempts: Vec<register::Attempt>,
    /// `policy check`'s findings on the lab's register (scenario `register`).
    pub policy_problems: Vec<String>,
}

impl BudgetRun {
    /// The number named `name`, if the run has it as one number.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.metrics.iter().find_map(|(n, v)| match v {
            MetricValue::Number(x) if *n == name => Some(*x),
            _ => None,
        })
    }
}

fn num(name: &'static str, value: impl Into<f64>) -> (&'static str, MetricValue) {
    (name, MetricValue::Number(value.into()))
}

fn count(name: &'static str, value: u64) -> (&'static str, MetricValue) {
    (name, MetricValue::Number(value as f64))
}

fn empty_run(scenario: BudgetScenario, metrics: Vec<(&'static str, MetricValue)>) -> BudgetRun {
    BudgetRun {
        scenario,
        metrics,
        hops: Vec::new(),
        attempts: Vec::new(),
        policy_problems: Vec::new(),
    }
}

/// Runs `scenario` at `p`.
pub fn run(scenario: BudgetScenario, p: &BudgetParams) -> BudgetRun {
    match scenario {
        BudgetScenario::Deadline => from_deadline(deadline::run(&p.deadline)),
        BudgetScenario::Register => from_register(p.register.deadline_ms, register::run(&p.register)),
        BudgetScenario::RetryAfter => run_retry_after(&p.retry_after, &p.bucket),
        BudgetScenario::Duplicates => from_duplicates(&duplicates::run(&p.duplicates)),
        BudgetScenario::Status => from_status(&status::run(&p.status)),
        BudgetScenario::Herd => {
            let runs: Vec<herd::HerdRun> = Sleep::ALL.iter().map(|&s| herd::run(&p.herd, s)).collect();
            let chosen = runs
                .iter()
                .find(|r| r.sleep == p.herd_sleep.0.name())
                .map_or(0, |r| r.peak_per_10ms);
            empty_run(
                scenario,
                vec![
                    count("peak_per_10ms", chosen),
                    count("peak_per_10ms_fixed", runs[0].peak_per_10ms),
                    count("peak_per_10ms_jitter25", runs[1].peak_per_10ms),
                    count("peak_per_10ms_full", runs[2].peak_per_10ms),
                    num("peak_at_ms_fixed", runs[0].peak_at_ms),
                    count("gave_up", runs.iter().map(|r| r.gave_up).sum()),
                ],
            )
        }
        BudgetScenario::HalfOpen => {
            let chosen = half_open::run(&p.half_open);
            let note = half_open::run(&half_open::HalfOpenParams {
                half_open_limit: 0,
                ..p.half_open.clone()
            });
            let probe = half_open::run(&half_open::HalfOpenParams {
                half_open_limit: 1,
                ..p.half_open.clone()
            });
            empty_run(
                scenario,
                vec![
                    count("half_open_calls_first_s", chosen.half_open_calls_first_s),
                    count("half_open_calls_first_s_note", note.half_open_calls_first_s),
                    count("half_open_calls_first_s_one_probe", probe.half_open_calls_first_s),
                    count("calls_first_s", chosen.calls_first_s),
                    num("reopened_at_s", chosen.reopened_at_s.unwrap_or(0.0)),
                ],
            )
        }
    }
}

/// What one scenario's run depends on: its own part of [`BudgetParams`], so that two
/// settings that differ only elsewhere share the run.
#[derive(Clone, Debug, PartialEq)]
enum RunInputs {
    Deadline(deadline::DeadlineParams),
    Register(register::RegisterParams),
    RetryAfter(retry_after::RetryAfterParams, bucket::BucketParams),
    Duplicates(duplicates::DuplicatesParams),
    Status(status::StatusParams),
    Herd(herd::HerdParams, HerdSleep),
    HalfOpen(half_open::HalfOpenParams),
}

fn inputs(scenario: BudgetScenario, p: &BudgetParams) -> RunInputs {
    match scenario {
        BudgetScenario::Deadline => RunInputs::Deadline(p.deadline.clone()),
        BudgetScenario::Register => RunInputs::Register(p.register.clone()),
        BudgetScenario::RetryAfter => RunInputs::RetryAfter(p.retry_after.clone(), p.bucket.clone()),
        BudgetScenario::Duplicates => RunInputs::Duplicates(p.duplicates.clone()),
        BudgetScenario::Status => RunInputs::Status(p.status.clone()),
        BudgetScenario::Herd => RunInputs::Herd(p.herd.clone(), p.herd_sleep),
        BudgetScenario::HalfOpen => RunInputs::HalfOpen(p.half_open.clone()),
    }
}

/// Runs a memo keeps: a few settings' worth of every scenario.
const MEMO_RUNS: usize = 64;

thread_local! {
    /// The latest runs by their inputs. Why: a check names one number, but its run is all
    /// seven scenarios (its settings do not say which one), and a lab's 13 checks differ
    /// from the defaults in one setting each; the herd and the status scenarios seed a
    /// generator per client, 0.25 s for the seven in a debug build. Runs are pure, so a
    /// kept run is the run.
    static MEMO: std::cell::RefCell<Vec<(RunInputs, BudgetRun)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Every scenario at `p`, in [`BudgetScenario::ALL`]'s order (each the same as [`run`]'s).
pub fn run_all(p: &BudgetParams) -> Vec<BudgetRun> {
    BudgetScenario::ALL
        .iter()
        .map(|&scenario| {
            let key = inputs(scenario, p);
            let kept = MEMO.with(|memo| {
                memo.borrow()
                    .iter()
                    .find(|(inputs, _)| *inputs == key)
                    .map(|(_, run)| run.clone())
            });
            kept.unwrap_or_else(|| {
                let fresh = run(scenario, p);
                MEMO.with(|memo| {
                    let mut memo = memo.borrow_mut();
                    if memo.len() >= MEMO_RUNS {
                        memo.remove(0);
                    }
                    memo.push((key, fresh.clone()));
                });
                fresh
            })
        })
        .collect()
}

/// Scenario `duplicates`'s named numbers, simulated or counted live.
pub fn from_duplicates(r: &duplicates::DuplicatesRun) -> BudgetRun {
    empty_run(
        BudgetScenario::Duplicates,
        vec![
            count("requests", r.requests),
            count("dropped_after_commit", r.dropped_after_commit),
            count("duplicates", r.duplicates),
            count("charges", r.charges),
            count("attempts", r.attempts),
        ],
    )
}

/// Scenario `status`'s named numbers, simulated or counted live.
pub fn from_status(r: &status::StatusRun) -> BudgetRun {
    empty_run(
        BudgetScenario::Status,
        vec![
            count("attempts", r.attempts),
            num("attempts_per_request", r.attempts_per_request),
            count("pointless_attempts", r.pointless_attempts),
            num("backoff_ms_per_request", r.backoff_ms_per_request),
        ],
    )
}

/// Scenario `deadline`'s named numbers and waterfall, simulated or measured live.
pub fn from_deadline(r: deadline::DeadlineRun) -> BudgetRun {
    let hop_value = |f: fn(&deadline::HopRow) -> Option<u64>| -> Vec<Option<f64>> {
        deadline::HOPS
            .iter()
            .map(|name| r.hops.iter().find(|h| h.name == *name).and_then(f).map(|v| v as f64))
            .collect()
    };
    let received = hop_value(|h| h.received_ms);
    let mut metrics = vec![
        ("hop_budget_ms", MetricValue::List(received.clone())),
        ("hop_spent_ms", MetricValue::List(hop_value(|h| Some(h.spent_ms)))),
        ("hop_passed_ms", MetricValue::List(hop_value(|h| h.passed_ms))),
    ];
    // The list's entries one by one, for checks (a check names one number).
    for (name, value) in [
        ("edge_budget_ms", received[0]),
        ("checkout_budget_ms", received[1]),
        ("payments_budget_ms", received[2]),
    ] {
        if let Some(value) = value {
            metrics.push(num(name, value));
        }
    }
    metrics.extend([
        count("processor_wait_ms", r.processor_wait_ms),
        count("end_ms", r.end_ms),
        count("wasted_ms", r.wasted_ms),
        count("early_rejections", r.early_rejections),
        count("answered_at_ms", r.answered_at_ms),
    ]);
    BudgetRun {
        hops: r.hops,
        ..empty_run(BudgetScenario::Deadline, metrics)
    }
}

/// Scenario `register`'s named numbers and timeline, simulated or measured live.
pub fn from_register(deadline_ms: u64, r: register::RegisterRun) -> BudgetRun {
    let metrics = vec![
        count("worst_case_ms", r.worst_case_ms),
        count("deadline_ms", deadline_ms),
        count("within_deadline", r.within_deadline),
        count("attempts_after_deadline", r.attempts_after_deadline),
        count("policy_flags_worst_case", r.policy_flags_worst_case),
        count("policy_problems", r.policy_problems.len() as u64),
    ];
    BudgetRun {
        attempts: r.attempts,
        policy_problems: r.policy_problems,
        ..empty_run(BudgetScenario::Register, metrics)
    }
}

fn run_retry_after(p: &retry_after::RetryAfterParams, b: &bucket::BucketParams) -> BudgetRun {
    let at = |honour| retry_after::run(&retry_after::RetryAfterParams { honour, ..p.clone() });
    let with = |token_bucket| {
        bucket::run(&bucket::BucketParams {
            token_bucket,
            ..b.clone()
        })
    };
    from_retry_after(p, b, [&at(false), &at(true)], [&with(false), &with(true)])
}

/// Scenario `retry-after`'s named numbers from its four runs (ignoring and honouring the
/// header; without and with the client's bucket), simulated or measured live.
pub fn from_retry_after(
    p: &retry_after::RetryAfterParams,
    b: &bucket::BucketParams,
    [ignoring, honouring]: [&retry_after::RetryAfterRun; 2],
    [without_bucket, with_bucket]: [&bucket::BucketRun; 2],
) -> BudgetRun {
    let chosen = if p.honour { honouring } else { ignoring };
    let cut = if ignoring.arrivals_in_window == 0 {
        0.0
    } else {
        1.0 - honouring.arrivals_in_window as f64 / ignoring.arrivals_in_window as f64
    };
    let chosen_bucket = if b.token_bucket { with_bucket } else { without_bucket };
    let metrics = vec![
        count("calls", chosen.calls),
        count("arrivals_in_window", chosen.arrivals_in_window),
        count("arrivals_in_window_ignoring", ignoring.arrivals_in_window),
        count("arrivals_in_window_honouring", honouring.arrivals_in_window),
        num("window_arrivals_cut", cut),
        count("answered_429", chosen.answered_429),
        count("succeeded", chosen.succeeded),
        count("gave_up_for_deadline", chosen.gave_up_for_deadline),
        count("exhausted", chosen.exhausted),
        count("api_429s", chosen_bucket.api_429s),
        count("api_429s_without_bucket", without_bucket.api_429s),
        count("api_429s_with_bucket", with_bucket.api_429s),
        count("local_rejections", chosen_bucket.local_rejections),
        num(
            "bucket_share_of_limit",
            b.bucket_rate_per_s as f64 / b.api_limit_per_s.max(1) as f64,
        ),
    ];
    empty_run(BudgetScenario::RetryAfter, metrics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_all_is_each_run() {
        let mut p = BudgetParams::default();
        for _ in 0..2 {
            let all = run_all(&p);
            for (scenario, kept) in BudgetScenario::ALL.iter().zip(&all) {
                assert_eq!(*kept, run(*scenario, &p), "{}", scenario.name());
            }
            p.register.inventory_attempts = 2;
        }
    }

    #[test]
    fn names_round_trip() {
        for scenario in BudgetScenario::ALL {
            assert_eq!(BudgetScenario::from_name(scenario.name()), Some(scenario));
        }
        assert_eq!(BudgetScenario::from_name("deadlines"), None);
    }

    #[test]
    fn every_scenario_names_its_numbers() {
        let p = BudgetParams::default();
        let deadline = run(BudgetScenario::Deadline, &p);
        assert_eq!(
            deadline.metrics[0].1,
            MetricValue::List(vec![Some(30_000.0), Some(23_000.0), Some(19_000.0)])
        );
        assert_eq!(deadline.number("checkout_budget_ms"), Some(23_000.0));
        assert_eq!(run(BudgetScenario::Register, &p).number("worst_case_ms"), Some(2_050.0));
        assert_eq!(
            run(BudgetScenario::Status, &p).number("attempts_per_request"),
            Some(1.0)
        );
        assert_eq!(
            run(BudgetScenario::HalfOpen, &p).number("half_open_calls_first_s"),
            Some(20.0)
        );
        assert_eq!(run(BudgetScenario::Herd, &p).number("peak_per_10ms"), Some(1_000.0));
        let ra = run(BudgetScenario::RetryAfter, &p);
        assert_eq!(ra.number("api_429s_with_bucket"), Some(0.0));
        assert!(ra.number("window_arrivals_cut").is_some_and(|cut| cut >= 0.9));
    }
}
