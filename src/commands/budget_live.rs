//! `run budget --live`: Lab 5 on real sockets (added with `live::budget`).

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use crate::cli::BudgetArgs;
use crate::engine::budget::{BudgetParams, BudgetRun, Scenario};
use crate::error::UsageError;

pub(crate) fn run_live(
    _args: &BudgetArgs,
    scenario: Scenario,
    _params: &BudgetParams,
    _shown: &[(&'static str, f64)],
    _sim: &BudgetRun,
    _out: &mut dyn Write,
) -> Result<ExitCode> {
    Err(UsageError(format!(
        "--live for --scenario {} is not built yet; use --sim",
        scenario.name()
    ))
    .into())
}
