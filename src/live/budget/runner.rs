//! Runs one Lab 5 scenario live to its end and measures the simulation's named numbers.
//!
//! Live: `deadline` (time scaled, [`DEADLINE_SCALE`]), `register` (real time, 2 s),
//! `retry-after` (real time, its four runs side by side, 4 s), `duplicates` and `status`
//! (its backoff time scaled, `status::STATUS_SCALE`) and `half-open` (time shifted to the
//! cooldown's end, `half_open::LEAD_S`) and `herd` (real time, the sleep chosen; the
//! other two sleeps' peaks stay the simulation's).

use crate::engine::budget::backoff::Sleep;
use crate::engine::budget::{self, BudgetParams, BudgetRun, BudgetScenario};
use crate::live::budget::{api, chain, half_open, herd, payments, status};

/// Model ms per real ms in the live `deadline` scenario: 30 s run in 1.5 s.
pub const DEADLINE_SCALE: f64 = 20.0;

/// What a live run measured, and how it was made.
pub struct LiveBudget {
    pub run: BudgetRun,
    pub notes: Vec<String>,
}

/// Whether `scenario` has a live run.
pub fn has_live(scenario: BudgetScenario) -> bool {
    matches!(
        scenario,
        BudgetScenario::Deadline
            | BudgetScenario::Register
            | BudgetScenario::RetryAfter
            | BudgetScenario::Duplicates
            | BudgetScenario::Status
            | BudgetScenario::HalfOpen
            | BudgetScenario::Herd
    )
}

/// Runs `scenario` live at `p`; `None` for a scenario without a live run.
pub async fn run(scenario: BudgetScenario, p: &BudgetParams) -> std::io::Result<Option<LiveBudget>> {
    let live = match scenario {
        BudgetScenario::Deadline => LiveBudget {
            run: budget::from_deadline(chain::run_deadline(&p.deadline, DEADLINE_SCALE).await?),
            notes: vec![format!(
                "time scaled 1:{DEADLINE_SCALE}: {} ms of model time ran in {} real ms; numbers are model ms",
                p.deadline.inbound_ms,
                p.deadline.inbound_ms as f64 / DEADLINE_SCALE
            )],
        },
        BudgetScenario::Register => LiveBudget {
            run: budget::from_register(p.register.deadline_ms, chain::run_register(&p.register).await?),
            notes: vec!["real time, unscaled: every attempt waits its whole timeout".to_string()],
        },
        BudgetScenario::RetryAfter => {
            let ignoring = budget::retry_after::RetryAfterParams {
                honour: false,
                ..p.retry_after.clone()
            };
            let honouring = budget::retry_after::RetryAfterParams {
                honour: true,
                ..p.retry_after.clone()
            };
            let without = budget::bucket::BucketParams {
                token_bucket: false,
                ..p.bucket.clone()
            };
            let with = budget::bucket::BucketParams {
                token_bucket: true,
                ..p.bucket.clone()
            };
            let (i, h, wo, w) = tokio::join!(
                api::run_window(&ignoring),
                api::run_window(&honouring),
                api::run_bucket(&without),
                api::run_bucket(&with)
            );
            LiveBudget {
                run: budget::from_retry_after(&p.retry_after, &p.bucket, [&i?.0, &h?.0], [&wo?, &w?]),
                notes: vec![
                    "real time, unscaled (Retry-After counts whole seconds): ignoring and honouring clients, \
                     without and with the bucket, side by side on four API servers"
                        .to_string(),
                ],
            }
        }
        BudgetScenario::Duplicates => LiveBudget {
            run: budget::from_duplicates(&payments::run_duplicates(&p.duplicates).await?),
            notes: vec!["the orders that meet commit-then-drop are the seeded plan the simulation counts".to_string()],
        },
        BudgetScenario::Status => LiveBudget {
            run: budget::from_status(&status::run_status(&p.status).await?),
            notes: vec![format!(
                "the backoff sleeps are time scaled 1:{}: the counts are the server's, the backoff in model ms",
                status::STATUS_SCALE
            )],
        },
        BudgetScenario::HalfOpen => {
            let chosen = half_open::run_half_open(&p.half_open).await?;
            let mut run = budget::run(BudgetScenario::HalfOpen, p);
            // The live run measures the chosen breaker; its two comparisons stay the simulation's.
            for (name, value) in &mut run.metrics {
                let measured = match *name {
                    "half_open_calls_first_s" => chosen.half_open_calls_first_s as f64,
                    "calls_first_s" => chosen.calls_first_s as f64,
                    "reopened_at_s" => chosen.reopened_at_s.unwrap_or(0.0),
                    _ => continue,
                };
                *value = budget::MetricValue::Number(measured);
            }
            LiveBudget {
                run,
                notes: vec![format!(
                    "time shifted, not scaled: the breaker's clock starts {} s before its cooldown ends, then runs in real time                      (the note's and the one-probe comparisons are the simulation's)",
                    half_open::LEAD_S
                )],
            }
        }
        BudgetScenario::Herd => {
            let sleep = p.herd_sleep.0;
            let chosen = herd::run_herd(&p.herd, sleep).await?;
            let companion = match sleep {
                Sleep::FixedSecond => "peak_per_10ms_fixed",
                Sleep::PlusMinus25 => "peak_per_10ms_jitter25",
                Sleep::Full => "peak_per_10ms_full",
            };
            let mut run = budget::run(BudgetScenario::Herd, p);
            for (name, value) in &mut run.metrics {
                if *name == "peak_per_10ms" || *name == companion {
                    *value = budget::MetricValue::Number(chosen.peak_per_10ms as f64);
                }
            }
            LiveBudget {
                run,
                notes: vec![format!(
                    "real time, unscaled: {} clients with the {} sleep on one dependency; the live peak is the machine's \
                     (new connections on 127.0.0.1 spread a spike and queue retries), the other sleeps' peaks are the simulation's",
                    p.herd.clients,
                    sleep.name()
                )],
            }
        }
    };
    Ok(Some(live))
}
