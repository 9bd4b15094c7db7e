//! The diagnostics file (`--log FILE`): the only place the app writes text while it runs.
//!
//! Anything printed to stdout or stderr would land on top of the screen, so diagnostics
//! go here, or nowhere when no `--log` was given.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use color_eyre::eyre::Result;

static LOG_FILE: OnceLock<Mutex<File>> = OnceLock::new();

/// Opens the log file for appending (each session adds to what earlier ones wrote); later
/// calls to [`line`] append to it. A path that cannot be opened is a usage error, in one line.
pub fn open(path: &Path) -> Result<()> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|err| {
            crate::error::UsageError(format!(
                "--log {}: cannot be opened for appending ({err}); allowed: a file in an existing folder",
                path.display()
            ))
        })?;
    let _ = LOG_FILE.set(Mutex::new(file));
    Ok(())
}

/// Appends one line with a timestamp in seconds since the epoch; does nothing without a log file.
pub fn line(text: &str) {
    let Some(file) = LOG_FILE.get() else { return };
    let now_s = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    if let Ok(mut file) = file.lock() {
        // A failed diagnostic write must not take the app down: it is only a diagnostic.
        let _ = writeln!(file, "{now_s:.3} {text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_is_appended_to_and_a_bad_path_is_a_usage_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("app.log");
        std::fs::write(&path, "an earlier session\n").expect("write");
        open(&path).expect("opens");
        line("this session");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.starts_with("an earlier session\n"), "{text}");
        let err = open(&dir.path().join("no-such-folder").join("x.log")).expect_err("refused");
        assert!(err.downcast_ref::<crate::error::UsageError>().is_some(), "exit code 2");
        assert!(err.to_string().starts_with("--log "), "{err}");
    }
}
