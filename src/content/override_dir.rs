//! What a `--content DIR` folder holds that would otherwise be skipped in silence: an entry
//! under `labs/` (or `assets/quiz/`) that is not one of the files this version reads, or one
//! that has the right name but is a folder, a pipe or a device.
//!
//! Without this, `check` printed "ok (built in)" for a lab whose override was a misnamed or
//! unreadable file, and the class ran the shipped defaults instead of the facilitator's.

use std::fs;
use std::path::Path;

use crate::content::location::ContentError;

/// Problems with the entries of `dir/folder`, which may hold only `names` (each `<name>.toml`).
///
/// Hidden files (`.DS_Store`, editor swap files) and backups ending in `~` are left alone.
pub fn problems(dir: &Path, folder: &str, names: &[&str]) -> Vec<ContentError> {
    let path = dir.join(folder);
    let expected: Vec<String> = names.iter().map(|name| format!("{name}.toml")).collect();
    let Ok(metadata) = fs::metadata(&path) else {
        return Vec::new();
    };
    if !metadata.is_dir() {
        return vec![ContentError::whole_file(
            path.display().to_string(),
            &format!(
                "is not a folder; --content DIR takes {folder}/ as a folder of {}",
                expected.join(", ")
            ),
        )];
    }
    let Ok(entries) = fs::read_dir(&path) else {
        return vec![ContentError::whole_file(path.display().to_string(), "cannot be listed")];
    };
    let mut found: Vec<(String, std::path::PathBuf)> = entries
        .flatten()
        .map(|entry| (entry.file_name().to_string_lossy().into_owned(), entry.path()))
        .filter(|(name, _)| !name.starts_with('.') && !name.ends_with('~'))
        .collect();
    found.sort();
    let mut problems = Vec::new();
    for (name, entry) in found {
        let file = entry.display().to_string();
        if !expected.contains(&name) {
            problems.push(ContentError::whole_file(
                file,
                &format!(
                    "is not a file this resilience-lab reads; {folder}/ may hold {} (rename it or remove it)",
                    expected.join(", ")
                ),
            ));
        } else if !fs::metadata(&entry).is_ok_and(|m| m.is_file()) {
            problems.push(ContentError::whole_file(
                file,
                "is not a regular file (a folder, a pipe or a device); it must be a TOML file",
            ));
        }
    }
    problems
}
