//! The question bank: `assets/quiz/*.toml`, embedded and overridable like the lab files.

use serde::Deserialize;
use toml::Spanned;

use crate::content::lab::FORMAT_VERSION;
use crate::content::location::ContentError;
use crate::content::location::Origin;
use crate::content::question::{self, Question};

/// The bank files as shipped, one per topic family, embedded at build time.
pub const EMBEDDED_BANK: [(&str, &str); 7] = [
    ("health", include_str!("../../assets/quiz/health.toml")),
    ("fleet", include_str!("../../assets/quiz/fleet.toml")),
    ("retries", include_str!("../../assets/quiz/retries.toml")),
    ("breakers", include_str!("../../assets/quiz/breakers.toml")),
    ("overload", include_str!("../../assets/quiz/overload.toml")),
    ("atlas", include_str!("../../assets/quiz/atlas.toml")),
    ("interview", include_str!("../../assets/quiz/interview.toml")),
];

/// One bank file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BankFile {
    format_version: u32,
    #[serde(rename = "question", default)]
    questions: Vec<Question>,
}

/// Where each question starts, to point messages at it.
#[derive(Deserialize)]
struct BankSpans {
    #[serde(rename = "question", default)]
    questions: Vec<Spanned<toml::Table>>,
}

/// A question with the place it was read from, for messages.
#[derive(Clone, Debug)]
pub struct BankEntry {
    pub question: Question,
    pub origin: Origin,
    /// 1-based line of its `[[question]]` header.
    pub line: usize,
}

/// Parses and checks one bank file.
pub fn parse(text: &str, origin: &Origin) -> Result<Vec<BankEntry>, Vec<ContentError>> {
    let file = origin.to_string();
    let bank: BankFile = toml::from_str(text).map_err(|err| {
        vec![ContentError::at(
            &file,
            text,
            err.span(),
            err.message().trim_end().replace('\n', " "),
        )]
    })?;
    let spans: BankSpans =
        toml::from_str(text).map_err(|err| vec![ContentError::at(&file, text, err.span(), err.message())])?;
    let mut errors = Vec::new();
    if bank.format_version > FORMAT_VERSION {
        errors.push(ContentError::at(
            &file,
            text,
            None,
            format!(
                "format_version {} is newer than this resilience-lab reads ({FORMAT_VERSION})",
                bank.format_version
            ),
        ));
    }
    let mut entries = Vec::new();
    for (index, question) in bank.questions.into_iter().enumerate() {
        let span = spans.questions.get(index).map(Spanned::span);
        let located = ContentError::at(&file, text, span.clone(), "");
        if question.kind == question::QuestionKind::Predict {
            errors.push(ContentError {
                message: format!(
                    "question \"{}\": predict checks belong in a lab file's [[check]]",
                    question.id
                ),
                ..located.clone()
            });
        }
        if question.settings.is_some() || !question.shows.is_empty() {
            errors.push(ContentError {
                message: format!(
                    "question \"{}\": settings and shows belong to a lab file's [[check]]; remove them",
                    question.id
                ),
                ..located.clone()
            });
        }
        for problem in question::problems(&question) {
            errors.push(ContentError {
                message: format!("question \"{}\": {problem}", question.id),
                ..located.clone()
            });
        }
        entries.push(BankEntry {
            question,
            origin: origin.clone(),
            line: located.line,
        });
    }
    if errors.is_empty() { Ok(entries) } else { Err(errors) }
}
