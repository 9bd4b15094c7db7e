//! `progress`: the saved progress shown, or erased after asking.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use crate::cli::ProgressArgs;
use crate::content::Content;
use crate::error::UsageError;

/// The progress file to use: `--progress FILE`, else the user's data directory.
pub fn progress_path(flag: Option<&Path>) -> Result<std::path::PathBuf> {
    match flag {
        Some(path) => Ok(path.to_path_buf()),
        None => crate::learning::progress::default_path()
            .ok_or_else(|| UsageError("no data directory is known here; pass --progress FILE".to_string()).into()),
    }
}

/// Shows saved progress, or erases it after asking.
pub fn run_progress(
    content: &Content,
    args: &ProgressArgs,
    progress_file: &Path,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    if args.reset {
        // Refused before anything is asked: only this app's progress may be erased.
        if !crate::learning::progress::erasable(progress_file)? {
            writeln!(out, "nothing to reset: {} does not exist", progress_file.display())?;
            return Ok(ExitCode::SUCCESS);
        }
        if !args.yes {
            write!(
                out,
                "Erase all saved progress in {}? Type yes to confirm: ",
                progress_file.display()
            )?;
            out.flush()?;
            let mut answer = String::new();
            input.read_line(&mut answer)?;
            // The word the prompt asks for: a stray `y` keeps the progress.
            if !answer.trim().eq_ignore_ascii_case("yes") {
                writeln!(out, "kept: nothing was erased")?;
                return Ok(ExitCode::SUCCESS);
            }
        }
        crate::learning::progress::erase(progress_file)?;
        writeln!(out, "progress erased: {}", progress_file.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    let loaded = crate::learning::progress::load(progress_file)?;
    // On stderr: stdout is the report, which a script may read.
    if let Some(notice) = &loaded.notice {
        crate::output::error_line(&format!("note: {notice}"));
    }
    let progress = &loaded.progress;
    writeln!(out, "progress file: {}", progress_file.display())?;
    for lab in &content.labs {
        writeln!(out, "  {:<40} {}", lab.title, progress.lab_summary(lab))?;
    }
    // The quiz's own answers: a lab's predictions are in its row above.
    let quiz = progress.quiz_counts(&content.quiz_questions());
    writeln!(
        out,
        "  questions answered: {} of {}; right at the last try: {}",
        quiz.answered, quiz.total, quiz.right_last
    )?;
    // Only when there are some: a learner who never played the drill sees no empty row.
    if !progress.oncall.is_empty() {
        writeln!(out, "  on-call drills saved: {}", progress.oncall.len())?;
        for drill in &progress.oncall {
            writeln!(out, "    {}", oncall_row(drill))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One saved drill's summary, oldest first as they were played.
fn oncall_row(drill: &crate::learning::progress::OncallSummary) -> String {
    let restored = drill.restored_after_s.map_or_else(
        || "goodput never back".to_string(),
        |s| format!("goodput back {s} s after the onset"),
    );
    let debrief = drill
        .debrief
        .as_deref()
        .map_or_else(String::new, |path| format!("; debrief {path}"));
    format!(
        "{} seed {}: {} / 100, {restored}, {} wrong lever(s){debrief}",
        drill.incident, drill.seed, drill.score, drill.wrong_levers
    )
}
