//! `run budget`'s flags, made from Lab 5's one parameter table
//! (`content::params::budget::PARAMETERS`): a flag per parameter, each checked against the
//! table's range, so the flags, the lab file and a check's settings cannot drift apart.

use clap::{Arg, ArgAction, ArgMatches, FromArgMatches};

use crate::cli::ModeArgs;
use crate::content::params::budget::{self, FlagKind};
use crate::content::values::Values;
use crate::engine::budget::BudgetScenario;

/// `run budget`: a scenario (default deadline) and the flags given, by parameter name.
#[derive(Debug, Clone, Default)]
pub struct BudgetArgs {
    pub mode: ModeArgs,
    pub scenario: Option<BudgetScenario>,
    /// Every parameter flag given, as (parameter name, value), in table order.
    pub values: Vec<(&'static str, f64)>,
}

impl Values for BudgetArgs {
    fn value(&self, name: &str) -> Option<f64> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

fn parse_scenario(text: &str) -> Result<BudgetScenario, String> {
    BudgetScenario::from_name(text.trim()).ok_or_else(|| {
        let names: Vec<&str> = BudgetScenario::ALL.iter().map(|s| s.name()).collect();
        format!("allowed: {}", names.join(", "))
    })
}

fn help_of(spec: &budget::BudgetParameter) -> String {
    let scenarios: Vec<&str> = spec.scenarios.iter().map(|s| s.name()).collect();
    let what = match spec.kind {
        FlagKind::Switch => "on when given".to_string(),
        FlagKind::Choice(_) => budget::allowed(spec).replacen("allowed: ", "", 1),
        FlagKind::Number => format!("{} to {}", spec.min, spec.max),
    };
    let default = match spec.kind {
        FlagKind::Choice(words) => words
            .iter()
            .find(|(_, value)| *value == spec.default)
            .map_or_else(|| spec.default.to_string(), |(word, _)| (*word).to_string()),
        FlagKind::Switch => (if spec.default > 0.0 { "on" } else { "off" }).to_string(),
        FlagKind::Number => spec.default.to_string(),
    };
    format!("{} ({what}; default {default}) [{}]", spec.name, scenarios.join(", "))
}

fn flag(spec: &'static budget::BudgetParameter) -> Arg {
    let arg = Arg::new(spec.name).long(spec.flag).help(help_of(spec));
    let value_name = match spec.kind {
        FlagKind::Choice(_) => "WORD",
        FlagKind::Number | FlagKind::Switch => "N",
    };
    match spec.kind {
        FlagKind::Switch => arg.action(ArgAction::SetTrue),
        FlagKind::Number | FlagKind::Choice(_) => arg
            .action(ArgAction::Set)
            .value_name(value_name)
            .value_parser(move |text: &str| budget::parse_value(spec, text)),
    }
}

impl clap::Args for BudgetArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let cmd = <ModeArgs as clap::Args>::augment_args(cmd).arg(
            Arg::new("scenario")
                .long("scenario")
                .value_name("NAME")
                .help("deadline, register, retry-after, duplicates, status, herd or half-open (default deadline)")
                .value_parser(parse_scenario),
        );
        budget::all().fold(cmd, |cmd, spec| cmd.arg(flag(spec)))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for BudgetArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut values = Vec::new();
        for spec in budget::all() {
            match spec.kind {
                FlagKind::Switch => {
                    if matches.get_flag(spec.name) {
                        values.push((spec.name, 1.0));
                    }
                }
                FlagKind::Number | FlagKind::Choice(_) => {
                    if let Some(value) = matches.get_one::<f64>(spec.name) {
                        values.push((spec.name, *value));
                    }
                }
            }
        }
        Ok(BudgetArgs {
            mode: ModeArgs::from_arg_matches(matches)?,
            scenario: matches.get_one::<BudgetScenario>("scenario").copied(),
            values,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
