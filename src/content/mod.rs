//! The lab content: `labs/*.toml`, embedded in the binary and overridable from a folder.
//!
//! Facilitators tune a class's defaults by copying a lab file into `DIR/labs/`, editing
//! it, and starting the app with `--content DIR`; files DIR does not have come from the
//! embedded copies. Every file is parsed with `deny_unknown_fields` and then checked
//! (ranges, steps, ids), and every problem names the file, the line and the column.

pub mod lab;
pub mod location;
pub mod question;

use std::path::{Path, PathBuf};

pub use lab::{LabFile, ParameterSpec};
pub use location::ContentError;
pub use question::{Question, QuestionKind};

/// The lab ids, in the order the app shows them.
pub const LAB_IDS: [&str; 3] = ["health", "retry", "breaker"];

/// The lab files as shipped, embedded at build time.
const EMBEDDED_LABS: [(&str, &str); 3] = [
    ("health", include_str!("../../labs/health.toml")),
    ("retry", include_str!("../../labs/retry.toml")),
    ("breaker", include_str!("../../labs/breaker.toml")),
];

/// Where a piece of content came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Embedded(String),
    File(PathBuf),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Embedded(name) => write!(f, "{name} (built in)"),
            Origin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// All lab content, loaded and validated.
#[derive(Clone, Debug)]
pub struct Content {
    pub labs: Vec<LabFile>,
    /// Where each lab came from, in the order of `labs`.
    pub origins: Vec<Origin>,
}

impl Content {
    /// Loads the embedded labs, replacing any that `override_dir/labs/` has.
    ///
    /// Returns every problem found in every file, not only the first.
    pub fn load(override_dir: Option<&Path>) -> Result<Content, Vec<ContentError>> {
        if let Some(dir) = override_dir
            && !dir.is_dir()
        {
            return Err(vec![ContentError::whole_file(
                dir.display().to_string(),
                "is not a folder: --content takes a folder with a labs/ folder inside",
            )]);
        }
        let mut labs = Vec::new();
        let mut origins = Vec::new();
        let mut errors = Vec::new();
        for (id, embedded) in EMBEDDED_LABS {
            let file_name = format!("labs/{id}.toml");
            let overridden = override_dir.map(|dir| dir.join(&file_name)).filter(|p| p.is_file());
            let (origin, text) = match overridden {
                Some(path) => match std::fs::read_to_string(&path) {
                    Ok(text) => (Origin::File(path), text),
                    Err(err) => {
                        errors.push(ContentError::whole_file(
                            path.display().to_string(),
                            &format!("cannot be read: {err}"),
                        ));
                        continue;
                    }
                },
                None => (Origin::Embedded(file_name), embedded.to_string()),
            };
            match lab::parse(&text, &origin.to_string(), id) {
                Ok(lab) => {
                    labs.push(lab);
                    origins.push(origin);
                }
                Err(mut found) => errors.append(&mut found),
            }
        }
        if errors.is_empty() {
            Ok(Content { labs, origins })
        } else {
            Err(errors)
        }
    }

    /// The lab with this id; every id of [`LAB_IDS`] is present once loading succeeded.
    pub fn lab(&self, id: &str) -> &LabFile {
        self.labs
            .iter()
            .find(|lab| lab.id == id)
            .unwrap_or_else(|| panic!("lab {id} is loaded by Content::load"))
    }
}
