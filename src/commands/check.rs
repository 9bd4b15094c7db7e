//! `check`: every lab file and bank file validated, and every check's metric produced by a run.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr};

use crate::content::params::Defaults;
use crate::content::{Content, lint};
use crate::learning::metrics;

pub fn check(content_dir: Option<&Path>, out: &mut dyn Write) -> Result<ExitCode> {
    let content = match Content::load(content_dir) {
        Ok(content) => content,
        Err(errors) => {
            for error in &errors {
                writeln!(out, "{error}")?;
            }
            writeln!(out, "{} problem(s) found", errors.len())?;
            return Ok(ExitCode::from(2));
        }
    };
    let mut problems = Vec::new();
    for (lab, origin) in content.labs.iter().zip(&content.origins) {
        for check in &lab.checks {
            // The run the check is scored at: its own settings, or the defaults the sliders start at.
            let known = metrics::check_run(lab, check, &Defaults);
            if let Some(metric) = &check.metric
                && metrics::lookup(&known, metric).is_none()
            {
                let names: Vec<&str> = known
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .filter(|n| n.starts_with(&lab.id))
                    .collect();
                problems.push(format!(
                    "{origin}: check \"{}\": no run produces metric \"{metric}\" (at its settings); use one of: {}",
                    check.id,
                    names.join(", ")
                ));
            }
        }
    }
    problems.extend(answer_length_problems(&content));
    for problem in &problems {
        writeln!(out, "{problem}")?;
    }
    if !problems.is_empty() {
        writeln!(out, "{} problem(s) found", problems.len())?;
        return Ok(ExitCode::from(2));
    }
    for (lab, origin) in content.labs.iter().zip(&content.origins) {
        writeln!(
            out,
            "ok  {origin}: {} parameters, {} steps, {} checks",
            lab.parameters.len(),
            lab.steps.len(),
            lab.checks.len()
        )
        .wrap_err("writing the check report")?;
    }
    // One line per bank file, in the order the files were read.
    let mut files: Vec<(String, usize)> = Vec::new();
    for entry in &content.bank {
        let origin = entry.origin.to_string();
        match files.iter_mut().find(|(name, _)| *name == origin) {
            Some((_, count)) => *count += 1,
            None => files.push((origin, 1)),
        }
    }
    for (origin, count) in files {
        writeln!(out, "ok  {origin}: {count} questions")?;
    }
    let lab_checks: usize = content.labs.iter().map(|lab| lab.checks.len()).sum();
    writeln!(
        out,
        "{} questions and {lab_checks} lab checks, every id unique",
        content.bank.len()
    )?;
    let figures = lint::length_figures(&content.all_questions());
    writeln!(
        out,
        "{} choice questions: the right answer is strictly the longest in {} ({:.0}%); median right/longest distractor {:.2}",
        figures.choice_questions,
        figures.right_strictly_longest,
        figures.longest_share() * 100.0,
        figures.median_ratio
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Choice questions whose right answer is much longer than any distractor, as `file:line: problem`.
fn answer_length_problems(content: &Content) -> Vec<String> {
    let bank = content.bank.iter().filter_map(|entry| {
        lint::length_problem(&entry.question).map(|problem| format!("{}:{}: {problem}", entry.origin, entry.line))
    });
    let checks = content.labs.iter().zip(&content.origins).flat_map(|(lab, origin)| {
        lab.checks
            .iter()
            .filter_map(move |check| lint::length_problem(check).map(|problem| format!("{origin}: {problem}")))
    });
    bank.chain(checks).collect()
}
