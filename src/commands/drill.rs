//! `quiz --drill`: one interview drill in the plain terminal. The prompt and its time
//! limit, a clock that runs until Enter, then the model answer and the checklist, one
//! point at a time (y or n), and the score. Word-wrapped at a terminal's width as the plain
//! quiz is (`plain_text::fit`); a pipe gets each paragraph on one line.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use color_eyre::eyre::Result;

use crate::commands::plain_text::{fit, read_answer};
use crate::error::UsageError;
use crate::learning::drill;

/// Runs the drill `seed` picks, reading Enter and y/n from `input`, wrapped at `width` columns
/// (a terminal's; `None` for a pipe).
pub fn run(seed: u64, width: Option<usize>, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<ExitCode> {
    let drills = drill::drills();
    let Some(chosen) = drill::pick(&drills, seed) else {
        return Err(UsageError("no interview drills are built in".to_string()).into());
    };
    let heading = format!(
        "resilience-lab interview drill {} of {}, seed {seed} (--seed {seed} asks it again)",
        drills.iter().position(|d| d.id == chosen.id).map_or(1, |i| i + 1),
        drills.len()
    );
    writeln!(out, "{}\n", fit(&heading, width, 0))?;
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
        writeln!(out, "(stopped after {asked} of {} points)", chosen.checklist.len())?;
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
        run(seed, width, &mut input, &mut out).expect("the drill runs");
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
