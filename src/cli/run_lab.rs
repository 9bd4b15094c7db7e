//! `run <lab>`: the subcommands come from a registry that each one's own file fills
//! (`commands/<lab>.rs` adds its [`RunSubcommand`] to [`RUN_SUBCOMMANDS`]), so a new lab
//! adds its subcommand without a variant here or an arm in `commands::dispatch`.
//!
//! Each row's `augment` is a one-variant `#[derive(Subcommand)]` enum's, so the subcommand's
//! name, help and flags are clap's derive exactly as before the registry; the rows are added
//! in their `order`, which is `run --help`'s.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::{ArgMatches, Command, FromArgMatches, Subcommand};
use color_eyre::eyre::Result;

/// What a `run` subcommand gets besides its own flags: the global options it may use.
pub struct RunContext<'a> {
    /// `--content`: a folder whose lab files replace the built-in ones.
    pub content_dir: Option<&'a Path>,
    /// `--progress`: the progress file (the drill saves its debrief beside it).
    pub progress: Option<&'a Path>,
}

/// One `run` subcommand, registered by the file that runs it.
pub struct RunSubcommand {
    /// Its name on the command line (`run budget`).
    pub name: &'static str,
    /// Its place in `run --help`: the labs in their order, the fleet after Lab 4, the
    /// drill last.
    pub order: u8,
    /// Adds the subcommand to `run` (a one-variant derived enum's `augment_subcommands`).
    pub augment: fn(Command) -> Command,
    /// Runs it: `matches` are `run`'s, whose subcommand is this one.
    pub run: fn(&ArgMatches, &RunContext, &mut dyn Write) -> Result<ExitCode>,
}

/// Every `run` subcommand, in no order (a distributed slice, `linkme`; [`in_order`] sorts).
#[linkme::distributed_slice]
pub static RUN_SUBCOMMANDS: [RunSubcommand];

/// The registered subcommands in `run --help`'s order.
pub fn in_order() -> Vec<&'static RunSubcommand> {
    let mut rows: Vec<&'static RunSubcommand> = RUN_SUBCOMMANDS.iter().collect();
    rows.sort_by_key(|row| (row.order, row.name));
    rows
}

/// The parsed `run <lab> ...`: which subcommand, and `run`'s matches for it to read its
/// flags from.
#[derive(Clone)]
pub struct RunLab {
    pub subcommand: &'static RunSubcommand,
    pub matches: ArgMatches,
}

impl RunLab {
    /// Runs the parsed subcommand.
    pub fn run(&self, context: &RunContext, out: &mut dyn Write) -> Result<ExitCode> {
        (self.subcommand.run)(&self.matches, context, out)
    }
}

impl std::fmt::Debug for RunLab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunLab")
            .field("subcommand", &self.subcommand.name)
            .finish()
    }
}

impl Subcommand for RunLab {
    fn augment_subcommands(cmd: Command) -> Command {
        in_order().into_iter().fold(cmd, |cmd, row| (row.augment)(cmd))
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        RUN_SUBCOMMANDS.iter().any(|row| row.name == name)
    }
}

impl FromArgMatches for RunLab {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let name = matches
            .subcommand_name()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        let subcommand = RUN_SUBCOMMANDS
            .iter()
            .find(|row| row.name == name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        Ok(RunLab {
            subcommand,
            matches: matches.clone(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// Registers a `run` subcommand from the file that runs it: a one-variant enum that clap
/// derives (the variant's doc comment is its help, as it was in `cli.rs`'s enum) and its row
/// of [`RUN_SUBCOMMANDS`], whose `run` parses the flags and hands them to the body:
///
/// ```ignore
/// run_subcommand! {
///     /// Lab 2: retry amplification, one retry layer, a retry budget.
///     RetrySubcommand::Retry(Deferred<RetryArgs>), name: "retry", order: 20,
///     run: |args, context, out| run_retry(&lab_content(context, LabId::Retry)?, &args, out)
/// }
/// ```
macro_rules! run_subcommand {
    (
        $(#[doc = $doc:literal])*
        $enum:ident::$variant:ident($args:ty), name: $name:literal, order: $order:literal,
        run: |$parsed:ident, $context:pat_param, $out:ident| $body:expr
    ) => {
        /// A `run` subcommand as clap derives it (its help is the variant's doc comment).
        #[derive(Debug, clap::Subcommand)]
        enum $enum {
            $(#[doc = $doc])*
            $variant($args),
        }

        const _: () = {
            #[linkme::distributed_slice($crate::cli::run_lab::RUN_SUBCOMMANDS)]
            static RUN: $crate::cli::run_lab::RunSubcommand = $crate::cli::run_lab::RunSubcommand {
                name: $name,
                order: $order,
                augment: <$enum as clap::Subcommand>::augment_subcommands,
                run: |matches, $context, $out| {
                    let $enum::$variant($parsed) = $crate::cli::run_lab::parsed(matches)?;
                    $body
                },
            };
        };
    };
}
pub(crate) use run_subcommand;

/// The flags of the subcommand in `matches` (`run`'s), parsed by its derived enum `T`.
pub fn parsed<T: FromArgMatches>(matches: &ArgMatches) -> Result<T> {
    Ok(T::from_arg_matches(matches)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_subcommand_has_one_row_and_its_own_place() {
        let rows = in_order();
        // The labs' own subcommands come in the labs' order; the others (the fleet, the
        // drill) go where their `order` puts them, each once.
        let labs: Vec<&str> = rows
            .iter()
            .map(|row| row.name)
            .filter(|name| crate::content::LabId::from_name(name).is_some())
            .collect();
        let all: Vec<&str> = crate::content::LabId::ALL.iter().map(|lab| lab.name()).collect();
        assert_eq!(labs, all);
        let mut names: Vec<&str> = rows.iter().map(|row| row.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), rows.len(), "two rows share a name");
        let mut orders: Vec<u8> = rows.iter().map(|row| row.order).collect();
        orders.dedup();
        assert_eq!(orders.len(), rows.len(), "two rows share a place");
    }

    #[test]
    fn every_lab_has_a_run_subcommand() {
        for lab in crate::content::LabId::ALL {
            assert!(RunLab::has_subcommand(lab.name()), "run {lab}");
        }
    }
}
