//! `run budget`: Lab 5 headless, simulated on the virtual clock or live on 127.0.0.1.

/// `run budget`'s flags, built from Lab 5's parameter table.
mod args;
/// `run budget --live`: Lab 5's chain on 127.0.0.1.
mod live;

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use args::BudgetArgs;

use crate::cli::{Deferred, run_subcommand};
use crate::content::params::budget::{self as params, budget_params, combination_problem};
use crate::engine::budget;
use crate::error::UsageError;
use crate::report::{self, BudgetReport};

run_subcommand! {
    /// Lab 5: a request's budget (deadlines down a chain, the register's worst case,
    /// Retry-After and a token bucket, idempotency keys, what not to retry, the retry herd,
    /// the half-open herd). Each flag belongs to one scenario; `--json` names every number.
    BudgetSubcommand::Budget(Box<Deferred<BudgetArgs>>), name: "budget", order: 50,
    run: |args, _, out| {
        // Lab 5 reads its defaults from its parameter table, not from a loaded lab file.
        run_budget(&args, out)
    }
}

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
        return live::run_live(args, scenario, &resolved, &shown, &sim, out);
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
