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
/// instead of clap's "unexpected argument '-0' found". A subcommand whose flags are defined
/// when it is parsed (`cli::Deferred`) gets the same setting then.
pub fn command() -> Command {
    crate::cli::allow_negative_values(Cli::command())
}

/// A parse error of the command line `args` (the program's name first) as one line. A wrong
/// choice (`--theme blue`, `quiz --lab foo`) lists the allowed values, which clap prints on a
/// line of their own; a flag given no value (`--warmup-s` last) says what it takes, which clap
/// does not say at all.
pub fn one_line(error: &clap::Error, args: &[String]) -> String {
    let rendered = error.render().to_string();
    let first_line = rendered
        .lines()
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
    match error.kind() {
        ErrorKind::InvalidValue => {}
        // clap names the missing flags on the lines after its first, which alone ends in ':'.
        ErrorKind::MissingRequiredArgument => {
            return match error.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(missing)) if !missing.is_empty() => {
                    format!("{} {}", first_line.trim_end(), missing.join(", "))
                }
                _ => first_line,
            };
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => return missing_subcommand(args),
        _ => return first_line,
    }
    // A wrong choice reads as every other refused value does ("for '--p <P>': allowed: ...");
    // "a value is required ... but none was supplied" goes on after a semicolon.
    match error.get(ContextKind::ValidValue) {
        Some(ContextValue::Strings(values)) if !values.is_empty() => {
            format!("{first_line}: allowed: {}", values.join(", "))
        }
        _ => match what_a_missing_value_allows(error, args) {
            Some(allowed) => format!("{first_line}; allowed: {allowed}"),
            None => first_line,
        },
    }
}

/// `run` (or `serve`) with nothing after it: which subcommands it takes, in one line. (clap
/// would print the subcommand's whole help, 18 lines, as if help had been asked for.)
fn missing_subcommand(args: &[String]) -> String {
    let mut current = command();
    let mut path = Vec::new();
    for word in args.iter().skip(1).filter(|word| !word.starts_with('-')) {
        match current.find_subcommand(word) {
            Some(sub) => {
                current = sub.clone();
                path.push(word.clone());
            }
            None => break,
        }
    }
    let names: Vec<String> = current
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
        .map(|sub| sub.get_name().to_string())
        .collect();
    let path = path.join(" ");
    format!(
        "error: `{path}` needs one of: {}; e.g. `resilience-lab {path} {} --help`",
        names.join(", "),
        names.first().map_or("", String::as_str)
    )
}

/// For "a value is required for '--flag <V>'": the flag's own check run on an empty value, which
/// answers with the range it allows. The flag is looked up in the subcommand the words of `args`
/// name, because one flag (`--duration-s`) allows different ranges in different labs.
fn what_a_missing_value_allows(error: &clap::Error, args: &[String]) -> Option<String> {
    let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue) else {
        return None;
    };
    if !value.is_empty() {
        return None;
    }
    let Some(ContextValue::String(flag)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let long = flag.strip_prefix("--")?.split(' ').next()?;
    // The same subcommands again with the flag given an empty value: its check then refuses
    // "" and says what it allows.
    let mut current = command();
    let mut again: Vec<String> = args.iter().take(1).cloned().collect();
    for word in args.iter().skip(1).filter(|word| !word.starts_with('-')) {
        match current.find_subcommand(word) {
            Some(sub) => {
                current = sub.clone();
                again.push(word.clone());
            }
            None => break,
        }
    }
    again.push(format!("--{long}="));
    let refused = command().try_get_matches_from(again).err()?.render().to_string();
    let reason = refused.lines().next()?.split_once("allowed: ")?.1.to_string();
    Some(reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    fn words(args: &[&str]) -> Vec<String> {
        std::iter::once("resilience-lab")
            .chain(args.iter().copied())
            .map(String::from)
            .collect()
    }

    fn error_of(args: &[&str]) -> String {
        let matches = command().try_get_matches_from(std::iter::once("resilience-lab").chain(args.iter().copied()));
        match matches.and_then(|m| Cli::from_arg_matches(&m)) {
            Ok(cli) => panic!("{args:?} parsed: {cli:?}"),
            Err(error) => one_line(&error, &words(args)),
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
            (
                &["quiz", "--count", "-5"],
                "'--count <COUNT>': allowed: a whole number from 1 to 200",
            ),
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
        assert!(
            error_of(&["quiz", "--lab", "foo"])
                .ends_with("'--lab <LAB>': allowed: health, retry, breaker, overload, budget")
        );
        assert!(error_of(&["--theme", "blue", "labs"]).ends_with("'--theme <THEME>': allowed: light, dark"));
    }

    #[test]
    fn a_flag_given_no_value_says_what_it_takes() {
        for (args, says) in [
            (&["run", "health", "--warmup-s"][..], "; allowed: a number from 0 to"),
            (&["run", "retry", "--p"], "; allowed: a number from 0 to 1"),
            (&["run", "fleet", "--fail-open"], "; allowed: on or off"),
            (&["quiz", "--count"], "; allowed: a whole number from 1 to 200"),
        ] {
            let line = error_of(args);
            assert!(
                line.contains("a value is required for") && line.contains(says),
                "{args:?}: {line}"
            );
        }
        // A lab's own range, not another lab's flag of the same name.
        assert!(error_of(&["run", "fleet", "--duration-s"]).ends_with("; allowed: a number from 10 to 3600"));
        assert!(error_of(&["run", "overload", "--duration-s"]).ends_with("; allowed: a number from 1 to 600"));
    }

    #[test]
    fn a_missing_flag_or_subcommand_is_one_whole_line() {
        for (args, says) in [
            (&["progress", "--yes"][..], "were not provided: --reset"),
            (&["policy", "check"], "were not provided: <FILE>"),
            (
                &["run", "overload", "--scenario", "metastable", "--cut-at-s", "10"],
                "were not provided: --cut-to-per-s <CUT_TO_PER_S>",
            ),
            (&["run"], "`run` needs one of: health, retry, breaker, overload, fleet"),
            (&["serve"], "`serve` needs one of: health, database"),
        ] {
            let line = error_of(args);
            assert!(line.starts_with("error: ") && line.contains(says), "{args:?}: {line}");
            assert!(!line.contains('\n'), "{args:?}: {line}");
        }
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
