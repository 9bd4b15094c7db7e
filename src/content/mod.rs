//! The content: `labs/*.toml` and the quiz bank `assets/quiz/*.toml`, embedded in the
//! binary and overridable from a folder.
//!
//! Facilitators tune a class's defaults by copying a lab file into `DIR/labs/` (or a bank
//! file into `DIR/assets/quiz/`), editing it, and starting the app with `--content DIR`;
//! files DIR does not have come from the embedded copies. Every file is parsed with `deny_unknown_fields` and then checked
//! (ranges, steps, ids), and every problem names the file, the line and the column.

pub mod bank;
pub mod book;
pub mod fleet_changes;
pub mod frame_budget;
pub mod lab;
pub mod lab_id;
pub mod lint;
pub mod location;
pub mod moot;
pub mod override_dir;
pub mod page;
pub mod parameter;
pub mod params;
pub mod question;
pub mod settings;
pub mod values;

use std::path::Path;

use crate::words::same_text;

pub use bank::BankEntry;
pub use lab::{LabFile, ParameterSpec};
pub use lab_id::LabId;
pub use location::{ContentError, Origin};
pub use question::{Question, QuestionKind};

/// The lab ids as lab files write them, in the order the app shows them.
pub const LAB_IDS: [&str; LabId::ALL.len()] = {
    let mut names = [""; LabId::ALL.len()];
    let mut index = 0;
    while index < names.len() {
        names[index] = LabId::ALL[index].name();
        index += 1;
    }
    names
};

// `LAB_FILES`: every lab file in `labs/` as build.rs found it, sorted by id.
include!(concat!(env!("OUT_DIR"), "/lab_files.rs"));

/// The lab files as shipped, embedded at build time in [`LabId::ALL`]'s order: each TOML text,
/// and the same document as JSON (written by build.rs, empty if the TOML does not parse),
/// which loads several times faster. A new lab's file is found in the folder; a `LabId`
/// whose file is missing stops the build here.
const EMBEDDED_LABS: [(LabId, &str, &str); LabId::ALL.len()] = {
    let mut table = [(LabId::ALL[0], "", ""); LabId::ALL.len()];
    let mut index = 0;
    while index < table.len() {
        let id = LabId::ALL[index];
        let (_, toml, json) = LAB_FILES[lab_file_index(id.name())];
        table[index] = (id, toml, json);
        index += 1;
    }
    table
};

/// Where the lab file of id `name` is in [`LAB_FILES`].
const fn lab_file_index(name: &str) -> usize {
    let mut at = 0;
    while at < LAB_FILES.len() {
        if same_text(LAB_FILES[at].0, name) {
            return at;
        }
        at += 1;
    }
    panic!("a LabId has no file in labs/ (build.rs embeds what the folder holds)")
}

/// Each shipped lab file as written (`labs/<id>.toml`), for `labs export`.
pub fn shipped_lab_files() -> impl Iterator<Item = (LabId, &'static str)> {
    EMBEDDED_LABS.iter().map(|(id, toml, _)| (*id, *toml))
}

/// All lab content, loaded and validated.
#[derive(Clone, Debug)]
pub struct Content {
    pub labs: Vec<LabFile>,
    /// Where each lab came from, in the order of `labs`.
    pub origins: Vec<Origin>,
    /// The quiz bank, every file's questions in file order.
    pub bank: Vec<BankEntry>,
}

impl Content {
    /// Loads the embedded labs, replacing any that `override_dir/labs/` has.
    ///
    /// Returns every problem found in every file, not only the first.
    pub fn load(override_dir: Option<&Path>) -> Result<Content, Vec<ContentError>> {
        Self::load_parts(override_dir, true)
    }

    /// Loads the labs only, with an empty bank: the headless runs need no questions, and
    /// parsing the bank would double their start-up time.
    pub fn load_labs(override_dir: Option<&Path>) -> Result<Content, Vec<ContentError>> {
        Self::load_parts(override_dir, false)
    }

    /// Loads one lab only, for a headless run of it: parsing the other two would be most of
    /// the run's start-up. `check` and the app load them all.
    pub fn load_lab(override_dir: Option<&Path>, id: LabId) -> Result<Content, Vec<ContentError>> {
        Self::load_selected(override_dir, false, Some(id))
    }

    fn load_parts(override_dir: Option<&Path>, with_bank: bool) -> Result<Content, Vec<ContentError>> {
        Self::load_selected(override_dir, with_bank, None)
    }

    fn load_selected(
        override_dir: Option<&Path>,
        with_bank: bool,
        only_lab: Option<LabId>,
    ) -> Result<Content, Vec<ContentError>> {
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
        if let Some(dir) = override_dir {
            errors.extend(override_dir::problems(dir, "labs", &LAB_IDS));
            if with_bank {
                let bank_names: Vec<&str> = bank::EMBEDDED_BANK.iter().map(|(name, _)| *name).collect();
                errors.extend(override_dir::problems(dir, "assets/quiz", &bank_names));
            }
        }
        for (id, embedded, embedded_json) in EMBEDDED_LABS {
            if only_lab.is_some_and(|only| only != id) {
                continue;
            }
            let name = id.name();
            let Some((origin, text)) =
                read_overridable(override_dir, &format!("labs/{name}.toml"), embedded, &mut errors)
            else {
                continue;
            };
            let parsed = match origin {
                Origin::Embedded(_) => lab::parse_built_in(embedded_json, &text, &origin.to_string(), id),
                Origin::File(_) => lab::parse(&text, &origin.to_string(), id),
            };
            match parsed {
                Ok(lab) => {
                    labs.push(lab);
                    origins.push(origin);
                }
                Err(mut found) => errors.append(&mut found),
            }
        }
        let mut bank = Vec::new();
        let bank_files = if with_bank { &bank::EMBEDDED_BANK[..] } else { &[] };
        for &(name, embedded) in bank_files {
            let path = format!("assets/quiz/{name}.toml");
            let Some((origin, text)) = read_overridable(override_dir, &path, embedded, &mut errors) else {
                continue;
            };
            match bank::parse(&text, &origin) {
                Ok(mut entries) => bank.append(&mut entries),
                Err(mut found) => errors.append(&mut found),
            }
        }
        errors.extend(duplicate_ids(&labs, &origins, &bank));
        if errors.is_empty() {
            Ok(Content { labs, origins, bank })
        } else {
            Err(errors)
        }
    }

    /// What the quiz asks: the bank. A lab's checks are asked in their lab, where the settings
    /// they are about stand on the screen; in the quiz a check's "with the sliders as they are"
    /// had no sliders to refer to.
    pub fn quiz_questions(&self) -> Vec<Question> {
        self.bank.iter().map(|entry| entry.question.clone()).collect()
    }

    /// Every question: the bank's, then each lab's checks (tagged with their lab), for `check`.
    pub fn all_questions(&self) -> Vec<Question> {
        let mut all: Vec<Question> = self.bank.iter().map(|entry| entry.question.clone()).collect();
        for lab in &self.labs {
            all.extend(lab.checks.iter().map(|check| Question {
                lab: Some(lab.id.clone()),
                ..check.clone()
            }));
        }
        all
    }

    /// The lab `id`; every [`LabId`] is present once loading succeeded (with
    /// [`Content::load_lab`], the one lab asked for).
    pub fn lab(&self, id: LabId) -> &LabFile {
        self.labs
            .iter()
            .find(|lab| lab.lab == id)
            .unwrap_or_else(|| panic!("lab {id} is loaded by Content::load"))
    }
}

/// The text of `relative` from `override_dir` if it has the file, else the embedded copy.
fn read_overridable(
    override_dir: Option<&Path>,
    relative: &str,
    embedded: &str,
    errors: &mut Vec<ContentError>,
) -> Option<(Origin, String)> {
    let overridden = override_dir.map(|dir| dir.join(relative)).filter(|path| path.is_file());
    match overridden {
        Some(path) => match std::fs::read_to_string(&path) {
            Ok(text) => Some((Origin::File(path), text)),
            Err(err) => {
                errors.push(ContentError::whole_file(
                    path.display().to_string(),
                    &format!("cannot be read: {err}"),
                ));
                None
            }
        },
        None => Some((Origin::Embedded(relative.to_string()), embedded.to_string())),
    }
}

/// Question and check ids must be unique across the bank and every lab: progress is keyed by them.
fn duplicate_ids(labs: &[LabFile], origins: &[Origin], bank: &[BankEntry]) -> Vec<ContentError> {
    let mut seen: Vec<(&str, String)> = Vec::new();
    let mut errors = Vec::new();
    let places = bank
        .iter()
        .map(|entry| (entry.question.id.as_str(), format!("{}:{}", entry.origin, entry.line)))
        .chain(labs.iter().zip(origins).flat_map(|(lab, origin)| {
            lab.checks
                .iter()
                .map(move |check| (check.id.as_str(), origin.to_string()))
        }));
    for (id, place) in places {
        if let Some((_, first)) = seen.iter().find(|(seen_id, _)| *seen_id == id) {
            errors.push(ContentError::whole_file(
                place.clone(),
                &format!("id \"{id}\" is already used at {first}; ids must be unique"),
            ));
        } else {
            seen.push((id, place));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lab_has_its_file_in_the_order_of_lab_id() {
        assert_eq!(EMBEDDED_LABS.map(|(id, _, _)| id), LabId::ALL);
        let content = Content::load(None).expect("the built-in labs load");
        for id in LabId::ALL {
            assert_eq!(content.lab(id).id, id.name());
            assert_eq!(LAB_IDS[id.number() as usize - 1], id.name());
        }
    }

    /// The JSON build.rs writes is the fast path to a built-in lab: it must be there (else
    /// every start would quietly parse the TOML) and read as exactly the lab its TOML is.
    #[test]
    fn each_built_in_lab_reads_the_same_from_its_json_as_from_its_toml() {
        for (id, toml_text, json) in EMBEDDED_LABS {
            assert!(!json.is_empty(), "build.rs wrote no JSON for {id}");
            let from_json: lab::LabFile = serde_json::from_str(json).expect("the JSON is a lab file");
            let from_toml = lab::parse(toml_text, "test", id).expect("the TOML is a sound lab file");
            let through_fast_path = lab::parse_built_in(json, toml_text, "test", id).expect("it loads");
            assert_eq!(
                format!("{:?}", lab::LabFile { lab: id, ..from_json }),
                format!("{from_toml:?}")
            );
            assert_eq!(format!("{through_fast_path:?}"), format!("{from_toml:?}"), "{id}");
        }
    }

    /// Without its JSON (the TOML did not parse at build time), a built-in lab is read from
    /// its TOML, so a mistake in it is reported with its line.
    #[test]
    fn a_built_in_lab_without_json_is_read_and_reported_from_its_toml() {
        let (id, toml_text, _) = EMBEDDED_LABS[2];
        let fallback = lab::parse_built_in("", toml_text, "test", id).expect("the TOML still loads");
        assert_eq!(fallback.id, id.name());
        let broken = toml_text.replacen("format_version", "format_version = = ", 1);
        let errors = lab::parse_built_in("", &broken, "labs/breaker.toml (built in)", id).expect_err("refused");
        let line = broken[..broken.find("format_version").expect("the file has one")]
            .matches('\n')
            .count()
            + 1;
        let message = errors[0].to_string();
        assert!(
            message.starts_with(&format!("labs/breaker.toml (built in):{line}:")),
            "{message}"
        );
    }

    #[test]
    fn the_built_in_labs_declare_their_pages() {
        let content = Content::load(None).expect("the built-in labs load");
        let health = content.lab(LabId::Health);
        let ids: Vec<&str> = health.pages.iter().map(|page| page.id.as_str()).collect();
        assert_eq!(ids, ["server", "fleet"]);
        assert!(health.pages[1].parameters.iter().all(|name| name.starts_with("fleet_")));
        for lab in [LabId::Retry, LabId::Breaker, LabId::Overload] {
            assert_eq!(content.lab(lab).pages.len(), 1, "{lab}");
        }
    }
}
