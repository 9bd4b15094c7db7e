//! `run budget --live`: Lab 5 on 127.0.0.1, reported beside the simulation at the same
//! settings. Live runs have their own bounds, so that a run stays short on a small machine.

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr};

use super::args::BudgetArgs;
use crate::content::params::budget as params;
use crate::engine::budget::{BudgetParams, BudgetRun, BudgetScenario};
use crate::error::UsageError;
use crate::live::budget::runner;
use crate::report::{self, BudgetReport};

fn usage(message: String) -> color_eyre::Report {
    UsageError(message).into()
}

/// A scenario without a live run, or a live run past its limits (`params::budget::live_problem`).
fn check_live_bounds(scenario: BudgetScenario, p: &BudgetParams) -> Result<()> {
    if !runner::has_live(scenario) {
        return Err(usage(format!(
            "--live runs every scenario; {} has no live run",
            scenario.name()
        )));
    }
    match params::live_problem(scenario, p) {
        Some(problem) => Err(usage(problem)),
        None => Ok(()),
    }
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
    let runtime = crate::commands::run::live_runtime()?;
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
