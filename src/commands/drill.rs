//! `quiz --drill`: one interview drill in the plain terminal. The prompt and its time
//! limit, a clock that runs until Enter, then the model answer and the checklist, one
//! point at a time (y or n), and the score. Word-wrapped at a terminal's width as the plain
//! quiz is (`plain_text::fit`); a pipe gets each paragraph on one line.
//!
//! A drill graded to its end is saved in progress (the points missed), and the next run of
//! the same drill shows them before the prompt: practice that remembers what to work on.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use color_eyre::eyre::Result;

use crate::commands::plain_text::{fit, read_answer};
use crate::error::UsageError;
use crate::learning::drill;
use crate::learning::progress::{self, Progress};

/// Runs the drill named `name` (its id), or the one `seed` picks, reading Enter and y/n
/// from `input`, wrapped at `width` columns (a terminal's; `None` for a pipe). A drill graded
/// to its end is saved to `progress_file`.
pub fn run(
    name: Option<&str>,
    seed: u64,
    progress: &mut Progress,
    progress_file: &Path,
    width: Option<usize>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let drills = drill::drills();
    let chosen = match name {
        Some(name) => drills.iter().find(|d| d.id == name).ok_or_else(|| {
            let ids: Vec<&str> = drills.iter().map(|d| d.id.as_str()).collect();
            UsageError(format!("--drill {name} is no drill; allowed: {}", ids.join(", ")))
        })?,
        None => drill::pick(&drills, seed).ok_or_else(|| UsageError("no interview drills are built in".to_string()))?,
    };
    let again = match name {
        Some(_) => format!("--drill {} asks it again", chosen.id),
        None => format!("seed {seed}; --drill {} asks it again", chosen.id),
    };
    let heading = format!(
        "resilience-lab interview drill {} of {} ({again})",
        drills.iter().position(|d| d.id == chosen.id).map_or(1, |i| i + 1),
        drills.len()
    );
    writeln!(out, "{}\n", fit(&heading, width, 0))?;
    if let Some(last) = progress.drills.get(&chosen.id) {
        let times = if last.graded == 1 {
            "once".to_string()
        } else {
            format!("{} times", last.graded)
        };
        if last.missed_last.is_empty() {
            writeln!(
                out,
                "{}\n",
                fit(
                    &format!("Graded {times} before; last time you covered every point."),
                    width,
                    0
                )
            )?;
        } else {
            writeln!(
                out,
                "{}",
                fit(&format!("Graded {times} before; last time you missed:"), width, 0)
            )?;
            for point in &last.missed_last {
                writeln!(out, "{}", fit(&format!("  - {point}"), width, 4))?;
            }
            writeln!(out)?;
        }
    }
    writeln!(out, "{}\n", fit(&chosen.prompt, width, 0))?;
    let limit = format!(
        "You have {} minutes. Answer aloud or on paper, then press Enter (q to stop).",
        chosen.minutes
    );
    writeln!(out, "{}", fit(&limit, width, 0))?;
    write!(out, "> ")?;
    out.flush()?;
    let started = Instant::now();
    let mut line = String::new();
    if read_answer(input, &mut line)? == 0 || line.trim().eq_ignore_ascii_case("q") {
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let took_s = started.elapsed().as_secs();
    let limit_s = u64::from(chosen.minutes) * 60;
    let verdict = if took_s <= limit_s {
        "within the time".to_string()
    } else {
        format!("{} over", drill::minutes_and_seconds(took_s - limit_s))
    };
    writeln!(
        out,
        "\nYou took {} of {} min: {verdict}.",
        drill::minutes_and_seconds(took_s),
        chosen.minutes
    )?;
    writeln!(out, "\nA model answer:")?;
    for paragraph in chosen.model_answer.trim().lines() {
        writeln!(out, "{}", fit(paragraph, width, 0))?;
    }
    writeln!(
        out,
        "\n{}",
        fit("Grade yourself: did your answer cover each point? (y or n)", width, 0)
    )?;
    let mut covered = Vec::new();
    let mut asked = 0;
    'points: for point in &chosen.checklist {
        loop {
            write!(out, "{} ", fit(&format!("  {point}?"), width, 2))?;
            out.flush()?;
            if read_answer(input, &mut line)? == 0 {
                writeln!(out)?;
                break 'points;
            }
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => covered.push(true),
                "n" | "no" => covered.push(false),
                "q" => break 'points,
                _ => {
                    writeln!(out, "  type y or n (q to stop)")?;
                    continue;
                }
            }
            asked += 1;
            break;
        }
    }
    let points = covered.iter().filter(|c| **c).count();
    writeln!(out, "\nCovered {points} of {} points.", chosen.checklist.len())?;
    let missed: Vec<&String> = chosen
        .checklist
        .iter()
        .zip(&covered)
        .filter(|(_, c)| !**c)
        .map(|(point, _)| point)
        .collect();
    if !missed.is_empty() {
        writeln!(out, "To work on:")?;
        for point in missed {
            writeln!(out, "{}", fit(&format!("  - {point}"), width, 4))?;
        }
    }
    if asked < chosen.checklist.len() {
        writeln!(
            out,
            "(stopped after {asked} of {} points; not saved)",
            chosen.checklist.len()
        )?;
    } else {
        let missed: Vec<String> = chosen
            .checklist
            .iter()
            .zip(&covered)
            .filter(|(_, c)| !**c)
            .map(|(point, _)| point.clone())
            .collect();
        progress.record_drill(&chosen.id, &missed);
        match progress::save(progress_file, progress) {
            Ok(()) => writeln!(
                out,
                "{}",
                fit(
                    "Saved in progress: the next run of this drill shows what you missed.",
                    width,
                    0
                )
            )?,
            Err(error) => writeln!(out, "note: the grade was not saved ({error:#})")?,
        }
    }
    writeln!(out, "{}", fit(&format!("Source: {}", chosen.source), width, 8))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::run;

    /// Every row the drill prints at `width` columns, answering Enter then y to every point.
    fn rows_at(seed: u64, width: Option<usize>) -> String {
        let mut input: &[u8] = b"\ny\ny\ny\ny\ny\ny\ny\ny\ny\ny\n";
        let mut out = Vec::new();
        let dir = tempfile::tempdir().expect("temp dir");
        let mut progress = crate::learning::progress::Progress::new();
        let file = dir.path().join("progress.toml");
        run(None, seed, &mut progress, &file, width, &mut input, &mut out).expect("the drill runs");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn the_drill_wraps_at_the_terminal_like_the_quiz_and_stays_whole_in_a_pipe() {
        for seed in 0..8 {
            let wrapped = rows_at(seed, Some(60));
            // A checklist prompt waits after "? " for the answer a terminal would echo, with its
            // Enter: here the next prompt follows on the same row, so a row ends at each "? ".
            for row in wrapped.lines().flat_map(|line| line.split("? ")) {
                assert!(row.chars().count() <= 60, "seed {seed}: {row:?}");
            }
            // The same words, only broken at spaces.
            let words = |text: &str| text.split_whitespace().map(str::to_string).collect::<Vec<_>>();
            assert_eq!(words(&wrapped), words(&rows_at(seed, None)), "seed {seed}");
        }
        let piped = rows_at(1, None);
        assert!(
            piped.lines().any(|row| row.chars().count() > 60),
            "a pipe gets whole paragraphs"
        );
    }
}
