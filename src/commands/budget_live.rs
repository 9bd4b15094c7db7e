//! `run budget --live`: Lab 5 on 127.0.0.1, reported beside the simulation at the same
//! settings. Live runs have their own bounds, so that a run stays short on a small machine.

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr};

use crate::cli::BudgetArgs;
use crate::engine::budget::{BudgetParams, BudgetRun, BudgetScenario};
use crate::error::UsageError;
use crate::live::budget::runner;
use crate::report::{self, BudgetReport};

/// A live run's limits: calls in the retry-after runs, orders, seconds of real time.
const LIVE_MAX_CALLS: u64 = 2_000;
const LIVE_MAX_ORDERS: u64 = 5_000;
const LIVE_MAX_DURATION_MS: u64 = 10_000;

fn usage(message: String) -> color_eyre::Report {
    UsageError(message).into()
}

fn check_live_bounds(scenario: BudgetScenario, p: &BudgetParams) -> Result<()> {
    if !runner::has_live(scenario) {
        return Err(usage(format!(
            "--live runs every scenario; {} has no live run",
            scenario.name()
        )));
    }
    let ra = &p.retry_after;
    let calls = u64::from(ra.clients) * ra.rate_per_s * ra.duration_ms / 1_000;
    if scenario == BudgetScenario::RetryAfter && (calls > LIVE_MAX_CALLS || ra.duration_ms > LIVE_MAX_DURATION_MS) {
        return Err(usage(format!(
            "--clients {} x --rate-per-s {} for --duration-ms {} is {calls} calls with --live; allowed: up to {LIVE_MAX_CALLS} calls and {LIVE_MAX_DURATION_MS} ms",
            ra.clients, ra.rate_per_s, ra.duration_ms
        )));
    }
    if scenario == BudgetScenario::Herd && u64::from(p.herd.clients) > LIVE_MAX_ORDERS {
        return Err(usage(format!(
            "--herd-clients {} with --live; allowed: 10 to {LIVE_MAX_ORDERS}",
            p.herd.clients
        )));
    }
    if matches!(scenario, BudgetScenario::Duplicates | BudgetScenario::Status)
        && p.duplicates.requests > LIVE_MAX_ORDERS
    {
        return Err(usage(format!(
            "--requests {} with --live; allowed: 10 to {LIVE_MAX_ORDERS}",
            p.duplicates.requests
        )));
    }
    Ok(())
}

pub(crate) fn run_live(
    args: &BudgetArgs,
    scenario: BudgetScenario,
    params: &BudgetParams,
    shown: &[(&'static str, f64)],
    sim: &BudgetRun,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    check_live_bounds(scenario, params)?;
    let runtime = super::run::live_runtime()?;
    let live = runtime
        .block_on(runner::run(scenario, params))
        .wrap_err("running Lab 5 live on 127.0.0.1")?
        .ok_or_else(|| usage(format!("--scenario {} has no live run", scenario.name())))?;
    let report = BudgetReport {
        scenario,
        mode: "live",
        params: shown,
        run: &live.run,
        sim_beside: Some(sim),
        notes: &live.notes,
    };
    report::write_budget(&report, args.mode.json, out)?;
    Ok(ExitCode::SUCCESS)
}
