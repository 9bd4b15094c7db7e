//! The command line's edges that clap's defaults get wrong for this app: negative numbers,
//! the allowed values of a choice, each in one line (the port's range is `cli::parse_port`).
//!
//! `main` parses with [`command`] instead of `Cli::parse`, and reports a parse error with
//! [`one_line`].

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Command, CommandFactory};

use crate::cli::Cli;

/// The command line, with every flag that takes a value accepting a negative number as that
/// value: `--p -0.1` then reaches the flag's own check, which names the flag and its range,
/// instead of clap's "unexpected argument '-0' found".
pub fn command() -> Command {
    allow_negative_values(Cli::command())
}

fn allow_negative_values(command: Command) -> Command {
    let command = command.mut_args(|arg| {
        if arg.get_action().takes_values() {
            // Lists (`--brownout-s -5,10`, `--attempts -1,2`) are not numbers: they need hyphen values.
            arg.allow_negative_numbers(true).allow_hyphen_values(true)
        } else {
            arg
        }
    });
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    names.into_iter().fold(command, |command, name| {
        command.mut_subcommand(name, allow_negative_values)
    })
}

/// A parse error as one line; a wrong choice (`--theme blue`, `quiz --lab foo`) lists the
/// allowed values, which clap prints on a line of their own.
pub fn one_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let first_line = rendered
        .lines()
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
    let allowed = match (error.kind(), error.get(ContextKind::ValidValue)) {
        (ErrorKind::InvalidValue, Some(ContextValue::Strings(values))) if !values.is_empty() => values.join(", "),
        _ => return first_line,
    };
    format!("{first_line}; allowed: {allowed}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    fn error_of(args: &[&str]) -> String {
        let matches = command().try_get_matches_from(std::iter::once("resilience-lab").chain(args.iter().copied()));
        match matches.and_then(|m| Cli::from_arg_matches(&m)) {
            Ok(cli) => panic!("{args:?} parsed: {cli:?}"),
            Err(error) => one_line(&error),
        }
    }

    #[test]
    fn negative_numbers_name_the_flag_and_its_range() {
        for (args, says) in [
            (
                &["run", "retry", "--p", "-0.1"][..],
                "'--p <P>': allowed: a number from 0 to 1",
            ),
            (
                &["run", "retry", "--budget", "-1"],
                "'--budget <BUDGET>': allowed: a number from 0 to 1",
            ),
            (
                &["run", "retry", "--actions", "-1"],
                "'--actions <ACTIONS>': allowed: a whole number from 1",
            ),
            (
                &["run", "health", "--port", "-1"],
                "'--port <PORT>': allowed: a whole number from 0 to 65535",
            ),
            (
                &["serve", "health", "--port", "-1"],
                "'--port <PORT>': allowed: a whole number from 0 to 65535",
            ),
            (&["quiz", "--count", "-5"], "'--count <COUNT>': -5 is not in 1..=200"),
            (
                &["run", "breaker", "--brownout-s", "-5,10"],
                "'--brownout-s <START,END>': allowed: START,END",
            ),
            (
                &["run", "retry", "--attempts", "-1,2"],
                "'--attempts <ATTEMPTS>': allowed: 1 to 6",
            ),
        ] {
            let line = error_of(args);
            assert!(line.contains(says), "{args:?}: {line}");
        }
    }

    #[test]
    fn a_wrong_choice_lists_the_allowed_values() {
        assert!(error_of(&["quiz", "--lab", "foo"]).ends_with("; allowed: health, retry, breaker"));
        assert!(error_of(&["--theme", "blue", "labs"]).ends_with("; allowed: light, dark"));
    }

    #[test]
    fn flags_and_subcommands_still_parse() {
        let matches = command()
            .try_get_matches_from(["resilience-lab", "run", "breaker", "--json", "--rate", "50"])
            .expect("parses");
        assert!(Cli::from_arg_matches(&matches).is_ok());
        let missing = command().try_get_matches_from(["resilience-lab", "run", "retry", "--p"]);
        assert!(missing.is_err(), "a flag still needs its value");
    }
}
