//! `labs export DIR`: writes the shipped lab files and the Atlas's dependency register into
//! DIR, so a laptop that got only the binary can tune a class's defaults
//! (`check --content DIR`, `--content DIR`) and try `policy check` on the register.
//!
//! Nothing the user saved is lost: if any file it would write already exists, it writes none
//! and names the first, exit code 2.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use color_eyre::eyre::Result;

use crate::content::{self, LabId};
use crate::error::UsageError;

/// The Atlas's register of the checkout service's dependencies (its `dependencies.json`),
/// the one the operating chapter checks.
const ATLAS_REGISTER: &str = include_str!("../../assets/register/dependencies.json");

/// The files `labs export` writes under `dir`, with their text.
fn files(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut files: Vec<(PathBuf, &'static str)> = content::shipped_lab_files()
        .map(|(id, text): (LabId, &'static str)| (dir.join("labs").join(format!("{}.toml", id.name())), text))
        .collect();
    files.push((dir.join("dependencies.json"), ATLAS_REGISTER));
    files
}

/// Writes every file, or none when one of them exists already.
pub fn export(dir: &Path, out: &mut dyn Write) -> Result<ExitCode> {
    let files = files(dir);
    if let Some((taken, _)) = files.iter().find(|(path, _)| path.exists()) {
        return Err(UsageError(format!(
            "{} exists already; labs export writes nothing over a file: choose an empty or new folder",
            taken.display()
        ))
        .into());
    }
    for (path, text) in &files {
        let parent = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent)
            .map_err(|err| UsageError(format!("{}: cannot be created: {err}", parent.display())))?;
        // create_new: a file that appeared since the check above is not overwritten either.
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|err| UsageError(format!("{}: cannot be written: {err}", path.display())))?;
        file.write_all(text.as_bytes())?;
        writeln!(out, "wrote {}", path.display())?;
    }
    writeln!(
        out,
        "edit a parameter's default in {}, check it with `resilience-lab check --content {}`, \
         and run with `--content {}`; `policy check {}` checks the Atlas's register",
        dir.join("labs").display(),
        dir.display(),
        dir.display(),
        dir.join("dependencies.json").display()
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_export_loads_as_content_and_passes_the_policy_file_to_the_checker() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut out = Vec::new();
        export(dir.path(), &mut out).expect("exports");
        for id in LabId::ALL {
            assert!(dir.path().join("labs").join(format!("{}.toml", id.name())).is_file());
        }
        let content = crate::content::Content::load(Some(dir.path())).expect("the exported labs load");
        assert_eq!(content.labs.len(), LabId::ALL.len());
        let register =
            crate::commands::policy::read_register(&dir.path().join("dependencies.json")).expect("the register reads");
        assert_eq!(
            crate::engine::policy::check(&register).len(),
            3,
            "the Atlas's three findings"
        );
    }

    #[test]
    fn an_existing_file_is_never_overwritten() {
        let dir = tempfile::tempdir().expect("temp dir");
        let edited = dir.path().join("labs").join("breaker.toml");
        std::fs::create_dir_all(edited.parent().expect("parent")).expect("labs folder");
        std::fs::write(&edited, "# my class's edits\n").expect("write");
        let refusal = export(dir.path(), &mut Vec::new()).expect_err("refused");
        assert!(refusal.to_string().contains("breaker.toml exists already"), "{refusal}");
        assert_eq!(std::fs::read_to_string(&edited).expect("read"), "# my class's edits\n");
        assert!(
            !dir.path().join("dependencies.json").exists(),
            "nothing else was written"
        );
    }
}
