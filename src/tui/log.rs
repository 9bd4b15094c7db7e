//! The diagnostics file (`--log FILE`): the only place the app writes text while it runs.
//!
//! Anything printed to stdout or stderr would land on top of the screen, so diagnostics
//! go here, or nowhere when no `--log` was given.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use color_eyre::eyre::{Result, WrapErr};

static LOG_FILE: OnceLock<Mutex<File>> = OnceLock::new();

/// Opens (truncates) the log file; later calls to [`line`] append to it.
pub fn open(path: &Path) -> Result<()> {
    let file = File::create(path).wrap_err_with(|| format!("opening the log file {}", path.display()))?;
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
