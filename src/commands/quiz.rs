//! `quiz`: questions in the plain terminal, one at a time, answers typed on stdin.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use crate::cli::QuizArgs;
use crate::commands::drill;
use crate::commands::plain_text::{fit, read_answer, terminal_width, was_not_text};
use crate::content::{Content, QuestionKind};
use crate::error::UsageError;
use crate::learning::{progress, quiz, review, schedule};

/// Asks a quiz in the plain terminal: one question at a time, answers typed on stdin.
pub fn run_quiz(
    content: &Content,
    args: &QuizArgs,
    progress_file: &Path,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let questions = content.quiz_questions();
    if let Some(topic) = &args.topic
        && !questions.iter().any(|q| &q.topic == topic)
    {
        let mut topics: Vec<&str> = questions.iter().map(|q| q.topic.as_str()).collect();
        topics.sort_unstable();
        topics.dedup();
        return Err(UsageError(format!(
            "--topic {topic} has no questions; allowed: {}",
            topics.join(", ")
        ))
        .into());
    }
    let mut loaded = progress::load(progress_file)?;
    if let Some(notice) = loaded.notice.take() {
        writeln!(out, "note: {notice}")?;
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs() % 100_000)
    });
    let filter = quiz::Filter {
        lab: args.lab.clone(),
        topic: args.topic.clone(),
    };
    if let Some(name) = &args.drill {
        let name = (!name.is_empty()).then_some(name.as_str());
        return drill::run(
            name,
            seed,
            &mut loaded.progress,
            progress_file,
            terminal_width(),
            input,
            out,
        );
    }
    let drawn = if args.review {
        let admitted: Vec<crate::content::Question> = questions.iter().filter(|q| filter.admits(q)).cloned().collect();
        let today = schedule::today_utc_day();
        let due = review::due_count(&admitted, &loaded.progress, today);
        writeln!(
            out,
            "{due} question(s) due for review today; they come first, then new ones, then those waiting for their day"
        )?;
        let ordered = review::order(&admitted, &loaded.progress, seed, today);
        quiz::ask_in_order(&ordered[..ordered.len().min(usize::from(args.count))], seed)
    } else {
        quiz::draw(&questions, &filter, usize::from(args.count), seed)
    };
    if drawn.is_empty() {
        return Err(
            UsageError("no question matches --lab and --topic together; try one of them alone".to_string()).into(),
        );
    }

    let width = terminal_width();
    // Fewer than asked is said, not left to be noticed: the filter may admit few questions,
    // and a session draws one question per fact.
    let fewer = if drawn.len() < usize::from(args.count) {
        format!(" of the {} asked (no more match, one a fact)", args.count)
    } else {
        String::new()
    };
    let heading = format!(
        "resilience-lab quiz: {} question(s){fewer}, seed {seed} (--seed {seed} asks the same quiz again)",
        drawn.len()
    );
    writeln!(out, "{}", fit(&heading, width, 0))?;
    writeln!(
        out,
        "{}",
        fit(
            "Answer with a letter or a number, then Enter. Type q to stop.",
            width,
            0
        )
    )?;
    let mut score = quiz::Score::default();
    let mut save_failed = false;
    'questions: for (number, asked) in drawn.iter().enumerate() {
        let question = &asked.question;
        let lab = question
            .lab
            .as_deref()
            .map(|lab| format!(", lab {lab}"))
            .unwrap_or_default();
        writeln!(
            out,
            "\nQuestion {} of {} ({}, {}{lab})",
            number + 1,
            drawn.len(),
            question.topic,
            question.difficulty.label()
        )?;
        writeln!(out, "{}", fit(&question.prompt, width, 0))?;
        match question.kind {
            QuestionKind::Choice => {
                for (letter, choice) in asked.shown_choices() {
                    writeln!(out, "{}", fit(&format!("  {letter}) {choice}"), width, 5))?;
                }
                // The letters this question takes (a four-choice question stops at d).
                if let Some((last, _)) = asked.shown_choices().last() {
                    writeln!(out, "  (a letter, a to {last})")?;
                }
            }
            // The bank has no predict checks (they are asked in their labs).
            QuestionKind::Number | QuestionKind::Predict => writeln!(out, "  (a number{})", unit_hint(question))?,
        }
        let response = loop {
            write!(out, "> ")?;
            out.flush()?;
            let mut line = String::new();
            if read_answer(input, &mut line)? == 0 {
                writeln!(out)?;
                break 'questions;
            }
            if was_not_text(&line) {
                writeln!(out, "  that line is not UTF-8 text; type the answer again (q to stop)")?;
                continue;
            }
            let line = line.trim();
            if line.eq_ignore_ascii_case("q") {
                break 'questions;
            }
            match parse_response(asked, line) {
                Ok(response) => break response,
                Err(refusal) => writeln!(out, "  {refusal}")?,
            }
        };
        let verdict = quiz::grade(asked, &response, &[]);
        let word = if verdict.right { "Right." } else { "Not quite." };
        let reading = verdict
            .reading
            .as_deref()
            .map(|reading| format!(" You typed {reading}."))
            .unwrap_or_default();
        writeln!(
            out,
            "{}",
            fit(&format!("{word}{reading} The answer: {}", verdict.expected), width, 0)
        )?;
        writeln!(out, "{}", fit(&format!("Why: {}", question.explanation), width, 5))?;
        writeln!(out, "{}", fit(&format!("Source: {}", question.source), width, 8))?;
        score.record(question, &verdict);
        loaded
            .progress
            // The quiz counts in the quiz: a lab's progress is its own steps and checks, done there.
            .record_answer(&question.id, None, verdict.right);
        // A failed save is said once and the quiz goes on, as in the app.
        if let Err(error) = progress::save(progress_file, &mut loaded.progress)
            && !save_failed
        {
            save_failed = true;
            writeln!(out, "note: progress not saved ({error:#}); the quiz goes on")?;
        }
    }

    let percent = (score.right * 100).checked_div(score.asked).unwrap_or(0);
    writeln!(out, "\nScore: {} of {} right ({percent}%).", score.right, score.asked)?;
    if !score.missed.is_empty() {
        writeln!(out, "\nWhat you missed:")?;
        for (number, (question, verdict)) in score.missed.iter().enumerate() {
            writeln!(out, "{}. {}", number + 1, question.prompt)?;
            writeln!(out, "   Answer: {}", verdict.expected)?;
            writeln!(out, "   Why: {}", question.explanation)?;
            writeln!(out, "   Source: {}", question.source)?;
        }
    }
    if score.asked > 0 && save_failed {
        writeln!(out, "\nProgress could not be saved to {}", progress_file.display())?;
    } else if score.asked > 0 {
        writeln!(out, "\nProgress saved to {}", progress_file.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn unit_hint(question: &crate::content::Question) -> String {
    question
        .unit
        .as_deref()
        .map(|unit| format!(", in {unit}"))
        .unwrap_or_default()
}

/// Reads what the learner typed as the kind of answer the question takes, or says in one
/// line what is allowed: a letter in either case, alone or as `a)`, `(a)`, `a.`; a number read
/// by `quiz::answer`, as the app reads it.
fn parse_response(asked: &quiz::Asked, line: &str) -> Result<quiz::Response, String> {
    match asked.question.kind {
        QuestionKind::Choice => {
            let letters: Vec<char> = asked.shown_choices().iter().map(|(l, _)| *l).collect();
            quiz::read_letter(line, &letters)
                .map(quiz::Response::Letter)
                .ok_or_else(|| {
                    let letters: Vec<String> = letters.iter().map(char::to_string).collect();
                    format!("type one of {}, or q to stop", letters.join(", "))
                })
        }
        QuestionKind::Number | QuestionKind::Predict => quiz::answer::read(&asked.question, line)
            .map(quiz::Response::Number)
            .map_err(|refusal| format!("{refusal}, or q to stop")),
    }
}
