//! Content for the subcommands: the lab files and the question bank loaded, with a content
//! problem turned into one usage error in one line (`check` lists every problem). A sibling of
//! the subcommands' files, so that one of them (`class host`) loads content without importing
//! the dispatcher that calls it.

use std::path::Path;

use color_eyre::eyre::Result;

use crate::cli::RunContext;
use crate::content::{Content, ContentError, LabId};
use crate::error::UsageError;

/// Loads the labs, turning content problems into one usage error per problem line.
pub fn load_content(content_dir: Option<&Path>) -> Result<Content> {
    content_result(Content::load(content_dir))
}

/// Content problems as one usage error in one line: the first problem, and how many more
/// there are (`check` lists them all, a line each).
pub(super) fn content_result(loaded: std::result::Result<Content, Vec<ContentError>>) -> Result<Content> {
    loaded.map_err(|errors| {
        let first = errors
            .first()
            .map_or_else(|| "the content does not load".to_string(), ContentError::to_string);
        let message = match errors.len() {
            0 | 1 => first,
            count => format!(
                "{first} (and {} more: `resilience-lab check` lists them all)",
                count - 1
            ),
        };
        UsageError(message).into()
    })
}

/// Loads the labs without the question bank, for commands that ask no questions.
pub(super) fn load_labs(content_dir: Option<&Path>) -> Result<Content> {
    content_result(Content::load_labs(content_dir))
}

/// The lab file of `lab` for a `run` subcommand (with `--content`'s, if given).
pub(super) fn lab_content(context: &RunContext, lab: LabId) -> Result<Content> {
    content_result(Content::load_lab(context.content_dir, lab))
}
