//! `run budget`: Lab 5 headless, simulated on the virtual clock or live on 127.0.0.1.

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use crate::cli::BudgetArgs;
use crate::content::params::budget::{self as params, budget_params, combination_problem};
use crate::engine::budget;
use crate::error::UsageError;
use crate::report::{self, BudgetReport};

fn usage(message: String) -> color_eyre::Report {
    UsageError(message).into()
}

/// Runs `run budget` and writes its report.
pub(crate) fn run_budget(args: &BudgetArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let scenario = args.scenario.unwrap_or_default();
    if let Some(problem) = params::foreign_flag(&args.values, scenario) {
        return Err(usage(problem));
    }
    let resolved = budget_params(args);
    if let Some(problem) = combination_problem(&resolved) {
        return Err(usage(problem));
    }
    let shown = params::scenario_values(args, scenario);
    let sim = budget::run(scenario, &resolved);
    if args.mode.live {
        return super::budget_live::run_live(args, scenario, &resolved, &shown, &sim, out);
    }
    let report = BudgetReport {
        scenario,
        mode: "sim",
        params: &shown,
        run: &sim,
        sim_beside: None,
        notes: &[],
    };
    report::write_budget(&report, args.mode.json, out)?;
    Ok(ExitCode::SUCCESS)
}
