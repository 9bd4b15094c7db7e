//! Where on-call debriefs are kept: a folder beside the progress file, one pair of files
//! (JSON and Markdown) a drill, and never one written over an older one, since a debrief is
//! what the learner brings to an interview ("tell me about an incident").
//!
//! The app and `run oncall --debrief` both save here.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use color_eyre::eyre::{Result, WrapErr, eyre};

/// Where debriefs go: a folder beside the progress file.
pub fn debrief_dir(progress_file: &Path) -> PathBuf {
    progress_file.parent().unwrap_or(Path::new(".")).join("oncall-debriefs")
}

/// Writes the debrief's two files under a stem no earlier debrief uses; returns the JSON's path.
pub fn save_debrief(dir: &Path, stem: &str, json: &str, markdown: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).wrap_err_with(|| format!("creating {}", dir.display()))?;
    for n in 1..10_000 {
        let name = if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{n}")
        };
        let json_path = dir.join(format!("{name}.json"));
        let md_path = dir.join(format!("{name}.md"));
        if md_path.exists() {
            continue;
        }
        // create_new: a file that appeared since the check is never overwritten.
        let mut file = match OpenOptions::new().write(true).create_new(true).open(&json_path) {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err).wrap_err_with(|| format!("writing {}", json_path.display())),
        };
        file.write_all(json.as_bytes())?;
        let mut md = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&md_path)
            .wrap_err_with(|| format!("writing {}", md_path.display()))?;
        md.write_all(markdown.as_bytes())?;
        return Ok(json_path);
    }
    Err(eyre!("{}: too many debriefs named {stem}", dir.display()))
}
