//! Saved progress: guided steps and checks per lab, answers per question.
//!
//! The file lives under the user's data directory (`--progress FILE` overrides it) and
//! is written atomically: a temporary file in the same directory, flushed, then renamed
//! over the old one, so a crash mid-write never leaves half a file. A file that cannot
//! be read is moved aside, never overwritten; a file from a newer version is refused.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use color_eyre::eyre::{Result, WrapErr, bail};
use serde::{Deserialize, Serialize};

use crate::content::LabFile;

/// The `format_version` this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// What a learner has done.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub format_version: u32,
    #[serde(default)]
    pub labs: BTreeMap<String, LabProgress>,
    #[serde(default)]
    pub questions: BTreeMap<String, QuestionProgress>,
}

/// Progress in one lab.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabProgress {
    /// Titles of the guided steps done.
    #[serde(default)]
    pub steps_done: Vec<String>,
    /// Ids of the lab's checks answered right.
    #[serde(default)]
    pub checks_passed: Vec<String>,
}

/// Answers to one question, over every session.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionProgress {
    pub answered: u32,
    pub right: u32,
    /// Right answers in a row, up to the latest.
    pub streak: u32,
}

impl Progress {
    pub fn new() -> Self {
        Self {
            format_version: FORMAT_VERSION,
            ..Self::default()
        }
    }

    /// Records an answer to a question (bank question or lab check).
    pub fn record_answer(&mut self, question_id: &str, lab: Option<&str>, right: bool) {
        let entry = self.questions.entry(question_id.to_string()).or_default();
        entry.answered += 1;
        if right {
            entry.right += 1;
            entry.streak += 1;
        } else {
            entry.streak = 0;
        }
        if let Some(lab) = lab
            && right
        {
            let lab = self.labs.entry(lab.to_string()).or_default();
            if !lab.checks_passed.iter().any(|id| id == question_id) {
                lab.checks_passed.push(question_id.to_string());
            }
        }
    }

    /// Marks a guided step of a lab as done.
    pub fn mark_step(&mut self, lab: &str, step_title: &str) {
        let lab = self.labs.entry(lab.to_string()).or_default();
        if !lab.steps_done.iter().any(|title| title == step_title) {
            lab.steps_done.push(step_title.to_string());
        }
    }

    /// Progress in a lab as `done / total` of its own guided steps and checks: only the
    /// titles and ids the lab file has count (a quiz question tagged with the lab, or a step
    /// a facilitator has since renamed, does not).
    pub fn lab_fraction(&self, lab: &LabFile) -> (usize, usize) {
        let total = lab.steps.len() + lab.checks.len();
        let Some(saved) = self.labs.get(&lab.id) else {
            return (0, total);
        };
        let steps = lab
            .steps
            .iter()
            .filter(|step| saved.steps_done.contains(&step.title))
            .count();
        let checks = lab
            .checks
            .iter()
            .filter(|check| saved.checks_passed.contains(&check.id))
            .count();
        (steps + checks, total)
    }
}

/// Where progress is kept when no `--progress FILE` is given.
pub fn default_path() -> Option<PathBuf> {
    dirs::data_dir().map(|dir| dir.join("resilience-lab").join("progress.toml"))
}

/// The outcome of loading: the progress, and a message when something was set aside.
#[derive(Debug)]
pub struct Loaded {
    pub progress: Progress,
    /// Said to the user once: e.g. that an unreadable file was moved aside.
    pub notice: Option<String>,
}

/// Loads progress from `path`: a fresh record if there is no file yet.
///
/// A file that cannot be parsed is renamed to `<name>.unreadable-<unix seconds>` and a
/// fresh record is returned with a notice; a file of a newer format is an error, and is
/// left untouched.
pub fn load(path: &Path) -> Result<Loaded> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Loaded {
                progress: Progress::new(),
                notice: None,
            });
        }
        Err(err) => return Err(err).wrap_err_with(|| format!("cannot read progress file {}", path.display())),
    };
    if let Some(version) = newer_format_version(&text) {
        bail!(
            "progress file {} was written by a newer resilience-lab (format_version {version}, this one reads {FORMAT_VERSION}); \
             update resilience-lab or pass --progress with another file",
            path.display()
        );
    }
    match toml::from_str::<Progress>(&text) {
        Ok(progress) => Ok(Loaded { progress, notice: None }),
        Err(err) => {
            let aside = aside_path(path);
            fs::rename(path, &aside)
                .wrap_err_with(|| format!("cannot move unreadable progress file {} aside", path.display()))?;
            let reason = err.message().trim_end().replace('\n', " ");
            Ok(Loaded {
                progress: Progress::new(),
                notice: Some(format!(
                    "progress file {} could not be read ({reason}); it was moved to {} and progress starts afresh",
                    path.display(),
                    aside.display()
                )),
            })
        }
    }
}

/// The format_version of a file newer than this build, read without trusting the rest.
fn newer_format_version(text: &str) -> Option<u32> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let version = u32::try_from(table.get("format_version")?.as_integer()?).ok()?;
    (version > FORMAT_VERSION).then_some(version)
}

fn aside_path(path: &Path) -> PathBuf {
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".unreadable-{stamp}"));
    path.with_file_name(name)
}

/// Saves atomically: write a temporary file beside `path`, flush it to disk, rename it over.
pub fn save(path: &Path, progress: &Progress) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).wrap_err_with(|| format!("cannot create folder {}", dir.display()))?;
    let text = toml::to_string_pretty(progress).wrap_err("cannot encode progress")?;
    let mut temp_name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    temp_name.push(format!(".tmp-{}", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let write = || -> std::io::Result<()> {
        let mut file = fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    };
    if let Err(err) = write() {
        let _ = fs::remove_file(&temp);
        return Err(err).wrap_err_with(|| format!("cannot write progress to {}", temp.display()));
    }
    fs::rename(&temp, path).wrap_err_with(|| format!("cannot replace progress file {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_build_streaks_and_lab_checks() {
        let mut progress = Progress::new();
        progress.record_answer("q1", Some("retry"), true);
        progress.record_answer("q1", Some("retry"), true);
        progress.record_answer("q1", Some("retry"), false);
        let q1 = &progress.questions["q1"];
        assert_eq!((q1.answered, q1.right, q1.streak), (3, 2, 0));
        assert_eq!(progress.labs["retry"].checks_passed, ["q1"]);
        progress.mark_step("retry", "Layered retries");
        let content = crate::content::Content::load(None).expect("embedded content loads");
        let retry = content.lab(crate::content::LabId::Retry);
        // "q1" is no check of Lab 2: only its own step counts.
        assert_eq!(progress.lab_fraction(retry), (1, 4));
        progress.record_answer("retry-predict-layered", Some("retry"), true);
        assert_eq!(progress.lab_fraction(retry), (2, 4));
    }

    #[test]
    fn saves_and_loads_atomically() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("nested").join("progress.toml");
        let mut progress = Progress::new();
        progress.record_answer("q", None, true);
        save(&path, &progress).expect("save");
        assert_eq!(load(&path).expect("load").progress, progress);
        let leftovers: Vec<_> = fs::read_dir(path.parent().expect("parent")).expect("list").collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn unreadable_files_are_moved_aside_not_overwritten() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        fs::write(&path, "this is = = not toml").expect("write");
        let loaded = load(&path).expect("load");
        assert!(loaded.notice.expect("a notice").contains("moved to"));
        assert!(!path.exists());
        let aside: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(aside.len(), 1);
        assert_eq!(
            fs::read_to_string(dir.path().join(&aside[0])).expect("read"),
            "this is = = not toml"
        );
    }

    #[test]
    fn newer_files_are_refused_and_kept() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        fs::write(&path, "format_version = 9\n[future]\nx = 1\n").expect("write");
        let err = load(&path).expect_err("refused");
        assert!(err.to_string().contains("newer resilience-lab (format_version 9"));
        assert!(path.exists());
    }
}
