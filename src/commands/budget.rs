//! `run budget`: Lab 5 headless, simulated on the virtual clock or live on 127.0.0.1.

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use crate::cli::BudgetArgs;
use crate::content::params::budget::{self as params, budget_params, combination_problem};
use crate::content::values::Values;
use crate::engine::budget::{self, BudgetScenario};
use crate::error::UsageError;
use crate::report::{self, BudgetReport};

fn usage(message: String) -> color_eyre::Report {
    UsageError(message).into()
}

/// The first flag given that does not belong to `scenario`, as one line.
fn foreign_flag(args: &BudgetArgs, scenario: BudgetScenario) -> Option<String> {
    args.values.iter().find_map(|(name, _)| {
        let spec = params::parameter(name)?;
        (!spec.scenarios.contains(&scenario)).then(|| {
            let owners: Vec<&str> = spec.scenarios.iter().map(|s| s.name()).collect();
            format!(
                "--{} applies to --scenario {} only, not {}",
                spec.flag,
                owners.join(" or "),
                scenario.name()
            )
        })
    })
}

/// The scenario's parameters by name as resolved: the flags given, else the defaults.
pub(crate) fn scenario_params(args: &impl Values, scenario: BudgetScenario) -> Vec<(&'static str, f64)> {
    params::all()
        .filter(|spec| spec.scenarios.contains(&scenario))
        .map(|spec| (spec.name, args.value(spec.name).unwrap_or(spec.default)))
        .collect()
}

/// Runs `run budget` and writes its report.
pub(crate) fn run_budget(args: &BudgetArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let scenario = args.scenario.unwrap_or_default();
    if let Some(problem) = foreign_flag(args, scenario) {
        return Err(usage(problem));
    }
    let resolved = budget_params(args);
    if let Some(problem) = combination_problem(&resolved) {
        return Err(usage(problem));
    }
    let shown = scenario_params(args, scenario);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(scenario: BudgetScenario, values: Vec<(&'static str, f64)>) -> BudgetArgs {
        BudgetArgs {
            scenario: Some(scenario),
            values,
            ..BudgetArgs::default()
        }
    }

    #[test]
    fn a_flag_of_another_scenario_is_refused() {
        let problem = foreign_flag(
            &args(BudgetScenario::Deadline, vec![("drop_share", 0.1)]),
            BudgetScenario::Deadline,
        );
        assert_eq!(
            problem.as_deref(),
            Some("--drop-share applies to --scenario duplicates only, not deadline")
        );
        assert_eq!(
            foreign_flag(
                &args(BudgetScenario::Status, vec![("requests", 10.0)]),
                BudgetScenario::Status
            ),
            None
        );
    }

    #[test]
    fn params_show_the_scenarios_own_settings() {
        let shown = scenario_params(
            &args(BudgetScenario::Register, vec![("inventory_attempts", 2.0)]),
            BudgetScenario::Register,
        );
        assert_eq!(shown.len(), 5);
        assert!(shown.contains(&("inventory_attempts", 2.0)));
        assert!(shown.contains(&("deadline_ms", 2_000.0)));
    }
}
