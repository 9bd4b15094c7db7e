//! The session file: every answer and every reveal of a room, in JSON, written as they
//! arrive, so a host restarted with the same file carries on, and several rooms' files
//! merge into one course's (`class merge`).
//!
//! The file is rewritten whole on each change, into a temporary file beside it that is then
//! renamed over it: a host killed mid-write leaves the previous file, never half of one.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// One answer as it arrived: who, to which check, the number, when (Unix seconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnswerRecord {
    pub name: String,
    pub check: String,
    pub value: f64,
    pub t: f64,
}

/// One reveal: the check's measured value and tolerance, and how the room did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RevealRecord {
    pub check: String,
    /// The value the run measured; `None` when the run does not produce it.
    pub value: Option<f64>,
    pub tolerance: f64,
    /// Participants whose answer counted (one each, their last before the reveal).
    pub answers: usize,
    /// Of those, the ones within tolerance.
    pub within: usize,
    pub t: f64,
}

/// A step a joined app reported: the participant is on `step` (from 1) of `lab`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    pub name: String,
    pub lab: String,
    pub step: u32,
    pub t: f64,
}

/// What a session file holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionFile {
    /// The room's code: a restarted host keeps it, so the class need not join again.
    #[serde(default)]
    pub code: String,
    /// The check open when the file was written, if any.
    #[serde(default)]
    pub open: Option<String>,
    #[serde(default)]
    pub answers: Vec<AnswerRecord>,
    #[serde(default)]
    pub reveals: Vec<RevealRecord>,
    #[serde(default)]
    pub steps: Vec<StepRecord>,
}

impl SessionFile {
    /// Reads `path`; a missing file is an empty session (a new room).
    pub fn load(path: &Path) -> Result<SessionFile, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                serde_json::from_str(&text).map_err(|err| format!("{}: not a session file ({err})", path.display()))
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(SessionFile::default()),
            Err(err) => Err(format!("{}: {err}", path.display())),
        }
    }

    /// Writes the session to `path` atomically (a temporary file, then a rename).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        let temporary = std::path::PathBuf::from(temporary);
        let text = serde_json::to_string(self).map_err(std::io::Error::other)?;
        std::fs::write(&temporary, text)?;
        std::fs::rename(&temporary, path)
    }

    /// Several rooms' sessions as one course's: every answer, reveal and step, in time
    /// order; a participant's name gets its room's code after it (`Ada@K7QX2M`) so that
    /// two Adas of two rooms stay two people.
    pub fn merge(sessions: &[SessionFile]) -> SessionFile {
        let mut merged = SessionFile {
            code: sessions.iter().map(|s| s.code.as_str()).collect::<Vec<_>>().join("+"),
            ..SessionFile::default()
        };
        for session in sessions {
            let who = |name: &str| format!("{name}@{}", session.code);
            merged.answers.extend(session.answers.iter().map(|a| AnswerRecord {
                name: who(&a.name),
                ..a.clone()
            }));
            merged.reveals.extend(session.reveals.iter().cloned());
            merged.steps.extend(session.steps.iter().map(|s| StepRecord {
                name: who(&s.name),
                ..s.clone()
            }));
        }
        merged.answers.sort_by(|a, b| a.t.total_cmp(&b.t));
        merged.reveals.sort_by(|a, b| a.t.total_cmp(&b.t));
        merged.steps.sort_by(|a, b| a.t.total_cmp(&b.t));
        merged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(name: &str, t: f64) -> AnswerRecord {
        AnswerRecord {
            name: name.to_string(),
            check: "c".to_string(),
            value: 1.0,
            t,
        }
    }

    #[test]
    fn saves_and_loads_back_and_a_missing_file_is_a_new_room() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("room.json");
        assert_eq!(SessionFile::load(&path), Ok(SessionFile::default()));
        let session = SessionFile {
            code: "K7QX2M".into(),
            open: Some("c".into()),
            answers: vec![answer("ada", 1.5)],
            ..SessionFile::default()
        };
        session.save(&path).expect("save");
        assert_eq!(SessionFile::load(&path), Ok(session));
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(
            text.contains(r#""answers":[{"name":"ada","check":"c","value":1.0,"t":1.5}]"#),
            "{text}"
        );
        std::fs::write(&path, "{not json").expect("write");
        assert!(SessionFile::load(&path).unwrap_err().contains("not a session file"));
    }

    #[test]
    fn merging_keeps_two_rooms_people_apart_in_time_order() {
        let a = SessionFile {
            code: "AAAAAA".into(),
            answers: vec![answer("ada", 3.0)],
            ..SessionFile::default()
        };
        let b = SessionFile {
            code: "BBBBBB".into(),
            answers: vec![answer("ada", 2.0)],
            ..SessionFile::default()
        };
        let merged = SessionFile::merge(&[a, b]);
        let names: Vec<&str> = merged.answers.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["ada@BBBBBB", "ada@AAAAAA"]);
        assert_eq!(merged.code, "AAAAAA+BBBBBB");
    }
}
