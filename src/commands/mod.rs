//! What each subcommand does: load content, run an engine, hand the report back.
//!
//! Output goes to the writer `main` passes in, so that `main.rs` stays the one place
//! that owns the process's standard output. One file per subcommand:
//!
//! - [`run`]: `run health`, `run retry`, `run breaker`, simulated or live; each other lab's
//!   `run` subcommand is its own file (`budget`, `overload`, `fleet`, `oncall`). Every `run`
//!   subcommand adds its row to [`crate::cli::RUN_SUBCOMMANDS`] from its file: `dispatch`
//!   names none of them.
//! - [`serve`]: `serve health`, the Lab 1 server in the foreground.
//! - [`class`]: `class host`, `class join`, `class merge`, a workshop's room.
//! - [`check`]: `check`, the lab files and the bank validated.
//! - [`quiz`]: `quiz` in the plain terminal.
//! - [`progress`]: `progress`, shown or reset.
//! - [`policy`]: `policy check FILE`, a dependency register against the Atlas's policy.
//! - [`drill`]: `quiz --drill`, an interview drill.
//! - [`plain_text`]: the wrapping the plain quiz and the drill share.

mod budget;
pub mod check;
pub mod class;
mod drill;
mod export;
/// Lab 1 at fleet scale: `run fleet`, `serve database`, `serve health --database-port`.
mod fleet;
/// The lab files and the bank loaded, a content problem as one usage error.
mod load;
/// `run oncall`: the on-call drill headless, its debrief and its replay.
pub mod oncall;
mod overload;
/// Wrapped text for the plain quiz and drill.
mod plain_text;
pub mod policy;
pub mod progress;
pub mod quiz;
pub mod run;
pub mod serve;

use std::io::{BufRead, Write};
use std::process::ExitCode;

use color_eyre::eyre::Result;

use clap::Subcommand;

use crate::cli::{Cli, Command, LabsArgs, LabsCommand, RunContext, RunLab, ServeLab};
use crate::content::{Content, LabId};
use crate::error::UsageError;
pub use load::load_content;
use load::{content_result, load_labs};

/// Runs the parsed command line, reading answers from `input` and writing its report to `out`.
pub fn dispatch(cli: Cli, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<ExitCode> {
    let content_dir = cli.content.clone();
    match cli.command {
        Some(Command::Quiz(args)) => {
            let content = load_content(content_dir.as_deref())?;
            quiz::run_quiz(
                &content,
                &args,
                &progress::progress_path(cli.progress.as_deref())?,
                input,
                out,
            )
        }
        Some(Command::Progress(args)) => {
            let content = load_content(content_dir.as_deref())?;
            progress::run_progress(
                &content,
                &args,
                &progress::progress_path(cli.progress.as_deref())?,
                input,
                out,
            )
        }
        Some(Command::Check) => check::check(content_dir.as_deref(), out),
        Some(Command::Policy(args)) => policy::run(&args, out),
        Some(Command::Class(args)) => class::run(&args.command, content_dir.as_deref(), out),
        // `main` opens the terminal app for it; a caller that dispatches it gets one line.
        Some(Command::Oncall(_)) => {
            Err(UsageError("oncall opens the terminal app; headless, use `run oncall`".to_string()).into())
        }
        Some(Command::Run(run)) => run.lab.run(
            &RunContext {
                content_dir: content_dir.as_deref(),
                progress: cli.progress.as_deref(),
            },
            out,
        ),
        Some(Command::Serve(serve)) => {
            let content = content_result(Content::load_lab(content_dir.as_deref(), LabId::Health))?;
            match serve.lab {
                ServeLab::Health(args) => fleet::serve_replica(&content, &args, out),
                ServeLab::Database(args) => fleet::serve_database(&args, out),
            }
        }
        // `main` opens the terminal app when there is no subcommand; the list is the fallback.
        Some(Command::Labs(LabsArgs {
            command: Some(LabsCommand::Export { dir }),
        })) => export::export(&dir, out),
        Some(Command::Labs(LabsArgs { command: None })) | None => {
            let content = load_labs(content_dir.as_deref())?;
            list_labs(&content, out)
        }
    }
}

fn list_labs(content: &Content, out: &mut dyn Write) -> Result<ExitCode> {
    writeln!(
        out,
        "resilience-lab: {} labs on how a service survives its dependencies\n",
        crate::words::count_in_words(content.labs.len())
    )?;
    for (number, lab) in content.labs.iter().enumerate() {
        writeln!(
            out,
            "  Lab {}  {:<38} resilience-lab run {} --sim",
            number + 1,
            lab.title,
            lab.id
        )?;
        writeln!(out, "         {}", lab.objective)?;
        // A later page with a `run` subcommand of its own (Lab 1's fleet: replicas, probes
        // and a Service) gets its line, named as the lab file names the page.
        for page in lab.pages.iter().skip(1).filter(|page| RunLab::has_subcommand(&page.id)) {
            writeln!(
                out,
                "         {:<38} resilience-lab run {} --sim",
                format!("{} (F in the app)", crate::words::capitalised(&page.title)),
                page.id
            )?;
        }
    }
    writeln!(
        out,
        "\nAdd --json for a JSON report, --help on any command for its flags."
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lab_list_names_each_labs_command_and_a_later_page_with_its_own() {
        let content = load_labs(None).expect("the built-in labs load");
        let mut out = Vec::new();
        list_labs(&content, &mut out).expect("written");
        let text = String::from_utf8(out).expect("text");
        for lab in LabId::ALL {
            let line = format!("resilience-lab run {lab} --sim");
            assert_eq!(text.matches(&line).count(), 1, "{line} in:\n{text}");
        }
        // Lab 1's second page, the fleet, has `run fleet`, named by the lab file's title.
        let fleet = text
            .lines()
            .find(|line| line.ends_with("resilience-lab run fleet --sim"))
            .unwrap_or_else(|| panic!("no fleet line in:\n{text}"));
        assert!(
            fleet.trim_start().starts_with("The fleet view (F in the app)"),
            "{fleet}"
        );
    }
}
