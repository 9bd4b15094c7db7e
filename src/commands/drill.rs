//! `quiz --drill`: one interview drill in the plain terminal. The prompt and its time
//! limit, a clock that runs until Enter, then the model answer and the checklist, one
//! point at a time (y or n), and the score.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use color_eyre::eyre::Result;

use crate::drill;
use crate::error::UsageError;

/// Runs the drill `seed` picks, reading Enter and y/n from `input`.
pub fn run(seed: u64, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<ExitCode> {
    let drills = drill::drills();
    let Some(chosen) = drill::pick(&drills, seed) else {
        return Err(UsageError("no interview drills are built in".to_string()).into());
    };
    writeln!(
        out,
        "resilience-lab interview drill {} of {}, seed {seed} (--seed {seed} asks it again)\n",
        drills.iter().position(|d| d.id == chosen.id).map_or(1, |i| i + 1),
        drills.len()
    )?;
    writeln!(out, "{}\n", chosen.prompt)?;
    writeln!(
        out,
        "You have {} minutes. Answer aloud or on paper, then press Enter (q to stop).",
        chosen.minutes
    )?;
    write!(out, "> ")?;
    out.flush()?;
    let started = Instant::now();
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 || line.trim().eq_ignore_ascii_case("q") {
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
    writeln!(out, "\nA model answer:\n{}\n", chosen.model_answer.trim())?;
    writeln!(out, "Grade yourself: did your answer cover each point? (y or n)")?;
    let mut covered = Vec::new();
    let mut asked = 0;
    'points: for point in &chosen.checklist {
        loop {
            write!(out, "  {point}? ")?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
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
            writeln!(out, "  - {point}")?;
        }
    }
    if asked < chosen.checklist.len() {
        writeln!(out, "(stopped after {asked} of {} points)", chosen.checklist.len())?;
    }
    writeln!(out, "Source: {}", chosen.source)?;
    Ok(ExitCode::SUCCESS)
}
