//! The app's side of learning: progress loaded before the terminal is taken.
//!
//! The state machines live in the screens (`screens/quiz.rs`, `frame/predict.rs`);
//! `app.rs` records what their outcomes say and saves progress after every answer and step.

use std::path::{Path, PathBuf};

use color_eyre::eyre::Result;

use crate::learning::progress::{self, Loaded, Progress};

/// Where progress lives and what was in it, read before the terminal is taken so that a
/// file from a newer version stops the app with a one-line error and is never overwritten.
///
/// Without `--progress` and without a data directory the app still runs, saving nothing,
/// and says so once.
pub fn load_progress(flag: Option<&Path>) -> Result<(Option<PathBuf>, Loaded)> {
    let Some(path) = flag.map(Path::to_path_buf).or_else(progress::default_path) else {
        return Ok((
            None,
            Loaded {
                progress: Progress::new(),
                notice: Some("progress is not saved: no data directory here; pass --progress FILE".to_string()),
            },
        ));
    };
    let loaded = progress::load(&path)?;
    Ok((Some(path), loaded))
}
