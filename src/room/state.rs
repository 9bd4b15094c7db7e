//! A room's state: the checks it may ask, the one open now, every participant's answers
//! (the last before a reveal counts), the reveals, and the session file it writes.
//!
//! Participants change it only through [`Room::answer`] and [`Room::step`], which the
//! rules ([`crate::room::rules`]) guard; [`Room::open`], [`Room::reveal`] and
//! [`Room::close`] are the host's controls, called by the host's own process only.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::content::{Content, LabFile, Question};
use crate::room::rules::{self, RateLimit};
use crate::room::session::{AnswerRecord, RevealRecord, SessionFile, StepRecord};

/// Participants one room keeps at most: a room of 200 with room to spare, and a bound on
/// the memory a stream of invented names can take.
pub const PARTICIPANTS_MAX: usize = 1_000;
/// Seconds a check stays open on the projector's countdown before the host reveals.
pub const COUNTDOWN_S: u64 = 90;

/// A check the room may ask: its lab and the question.
#[derive(Clone, Debug)]
pub struct RoomCheck {
    pub lab: LabFile,
    pub check: Question,
}

/// Why a participant's write was not taken: each maps to one HTTP status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteRefusal {
    /// No such room: the code is wrong (403).
    WrongCode,
    /// The name is empty once cleaned (400).
    NoName,
    /// The answer is not a number this check takes; the reader's line says what is (400).
    BadAnswer(String),
    /// No check of that id in the room (404).
    UnknownCheck,
    /// The check is revealed: answers after the reveal do not count (409).
    Revealed,
    /// Too many answers from this participant; wait this many ms (429).
    TooFast(u64),
    /// The room is full (503).
    Full,
}

impl WriteRefusal {
    /// The HTTP status and one line saying what was wrong and what is allowed.
    pub fn status_and_line(&self) -> (u16, String) {
        match self {
            WriteRefusal::WrongCode => (403, "wrong room code: type the code the projector shows".into()),
            WriteRefusal::NoName => (400, "a name is needed: letters or digits, up to 24".into()),
            WriteRefusal::BadAnswer(why) => (400, format!("answer not taken: {why}")),
            WriteRefusal::UnknownCheck => (404, "no such check in this room".into()),
            WriteRefusal::Revealed => (409, "this check is revealed: answers no longer count".into()),
            WriteRefusal::TooFast(ms) => (429, format!("too many answers: wait {} s", ms.div_ceil(1000))),
            WriteRefusal::Full => (503, format!("the room is full ({PARTICIPANTS_MAX} people)")),
        }
    }
}

/// The check open on the projector.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenCheck {
    pub id: String,
    /// When it opened (Unix ms), for the countdown.
    pub opened_ms: u64,
}

/// One participant as the class board lists them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Participant {
    /// The lab and step (from 1) a joined app last reported.
    pub step: Option<(String, u32)>,
    /// Revealed checks this participant answered within tolerance.
    pub right: u32,
    /// Revealed checks this participant answered.
    pub answered: u32,
}

/// A room.
#[derive(Debug)]
pub struct Room {
    pub code: String,
    checks: Vec<RoomCheck>,
    pub open: Option<OpenCheck>,
    /// (check, name) to the last value before that check's reveal.
    latest: BTreeMap<(String, String), f64>,
    pub participants: BTreeMap<String, Participant>,
    session: SessionFile,
    path: Option<PathBuf>,
    rate: RateLimit,
    /// Bumped on every change, so a view redraws only when something arrived.
    pub version: u64,
    /// The last failure to write the session file, to show the host.
    pub write_error: Option<String>,
}

/// The milliseconds since the Unix epoch now.
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Room {
    /// A room asking the labs' checks of `content`, carrying on from the session at `path`
    /// when that file exists (its code, open check, answers and reveals).
    pub fn new(content: &Content, path: Option<PathBuf>) -> Result<Room, String> {
        let session = match &path {
            Some(path) => SessionFile::load(path)?,
            None => SessionFile::default(),
        };
        let checks = content
            .labs
            .iter()
            .flat_map(|lab| {
                lab.checks.iter().map(|check| RoomCheck {
                    lab: lab.clone(),
                    check: Question {
                        lab: Some(lab.id.clone()),
                        ..check.clone()
                    },
                })
            })
            .collect();
        let code = if session.code.is_empty() {
            rules::new_code()
        } else {
            session.code.clone()
        };
        let mut room = Room {
            code,
            checks,
            open: None,
            latest: BTreeMap::new(),
            participants: BTreeMap::new(),
            session: SessionFile::default(),
            path,
            rate: RateLimit::default(),
            version: 0,
            write_error: None,
        };
        room.replay(session);
        room.save();
        Ok(room)
    }

    /// Takes in a saved session as though its events had just arrived, in their order.
    fn replay(&mut self, session: SessionFile) {
        self.session.code = self.code.clone();
        for step in session.steps {
            self.participants.entry(step.name.clone()).or_default().step = Some((step.lab.clone(), step.step));
            self.session.steps.push(step);
        }
        let mut reveals = session.reveals.into_iter().peekable();
        for answer in session.answers {
            while let Some(reveal) = reveals.next_if(|r| r.t < answer.t) {
                self.apply_reveal(reveal);
            }
            self.participants.entry(answer.name.clone()).or_default();
            if !self.revealed(&answer.check) {
                self.latest
                    .insert((answer.check.clone(), answer.name.clone()), answer.value);
            }
            self.session.answers.push(answer);
        }
        for reveal in reveals {
            self.apply_reveal(reveal);
        }
        if let Some(id) = session.open.filter(|id| self.find(id).is_some()) {
            self.open = Some(OpenCheck {
                id,
                opened_ms: unix_ms(),
            });
            self.session.open = self.open.as_ref().map(|o| o.id.clone());
        }
    }

    /// The checks the room may ask, in the labs' order.
    pub fn checks(&self) -> &[RoomCheck] {
        &self.checks
    }

    pub fn find(&self, id: &str) -> Option<&RoomCheck> {
        self.checks.iter().find(|c| c.check.id == id)
    }

    /// The open check, if any.
    pub fn open_check(&self) -> Option<&RoomCheck> {
        self.open.as_ref().and_then(|open| self.find(&open.id))
    }

    pub fn revealed(&self, check: &str) -> bool {
        self.reveal_of(check).is_some()
    }

    /// The reveal of `check`, if it was revealed.
    pub fn reveal_of(&self, check: &str) -> Option<&RevealRecord> {
        self.session.reveals.iter().rev().find(|r| r.check == check)
    }

    /// Every answer as it arrived, duplicates included (the session file's list).
    pub fn log(&self) -> &[AnswerRecord] {
        &self.session.answers
    }

    /// The answers that count for `check`: one per participant, their last before the reveal.
    pub fn answers(&self, check: &str) -> Vec<(&str, f64)> {
        self.latest
            .range((check.to_string(), String::new())..)
            .take_while(|((c, _), _)| c == check)
            .map(|((_, name), value)| (name.as_str(), *value))
            .collect()
    }

    /// A participant's answer: `text` read by the same reader as the app's prompt
    /// ([`crate::learning::quiz::answer::read`]). Refused unless the code is the room's, the name is
    /// something once cleaned, the check exists and is not revealed, and the participant's
    /// allowance has room. A second answer to the same check replaces the first.
    pub fn answer(
        &mut self,
        code: &str,
        name: &str,
        check: &str,
        text: &str,
        now_ms: u64,
    ) -> Result<f64, WriteRefusal> {
        let name = self.admit(code, name)?;
        let Some(asked) = self.find(check) else {
            return Err(WriteRefusal::UnknownCheck);
        };
        let text: String = text.chars().take(rules::ANSWER_MAX_CHARS).collect();
        let reading = crate::learning::quiz::answer::read(&asked.check, &text).map_err(WriteRefusal::BadAnswer)?;
        if self.revealed(check) {
            return Err(WriteRefusal::Revealed);
        }
        self.rate.take(&name, now_ms).map_err(WriteRefusal::TooFast)?;
        self.participants.entry(name.clone()).or_default();
        self.latest.insert((check.to_string(), name.clone()), reading.value);
        self.session.answers.push(AnswerRecord {
            name,
            check: check.to_string(),
            value: reading.value,
            t: now_ms as f64 / 1000.0,
        });
        self.save();
        Ok(reading.value)
    }

    /// A joined app's step: `name` is on `step` (from 1) of `lab`.
    pub fn step(&mut self, code: &str, name: &str, lab: &str, step: u32, now_ms: u64) -> Result<(), WriteRefusal> {
        let name = self.admit(code, name)?;
        if !self.checks.iter().any(|c| c.lab.id == lab) {
            return Err(WriteRefusal::UnknownCheck);
        }
        self.rate.take(&name, now_ms).map_err(WriteRefusal::TooFast)?;
        let lab: String = lab.chars().take(rules::NAME_MAX_CHARS).collect();
        self.participants.entry(name.clone()).or_default().step = Some((lab.clone(), step));
        self.session.steps.push(StepRecord {
            name,
            lab,
            step,
            t: now_ms as f64 / 1000.0,
        });
        self.save();
        Ok(())
    }

    /// The code checked and the name cleaned; a new name only while the room has space.
    fn admit(&self, code: &str, name: &str) -> Result<String, WriteRefusal> {
        if !rules::code_matches(&self.code, code) {
            return Err(WriteRefusal::WrongCode);
        }
        let name = rules::clean_name(name).ok_or(WriteRefusal::NoName)?;
        if !self.participants.contains_key(&name) && self.participants.len() >= PARTICIPANTS_MAX {
            return Err(WriteRefusal::Full);
        }
        Ok(name)
    }

    /// Host control: opens `check` on the projector and the page.
    pub fn open(&mut self, check: &str, now_ms: u64) -> Result<(), String> {
        if self.find(check).is_none() {
            let ids: Vec<&str> = self.checks.iter().map(|c| c.check.id.as_str()).collect();
            return Err(format!(
                "no check \"{check}\"; the labs' checks are: {}",
                ids.join(", ")
            ));
        }
        self.open = Some(OpenCheck {
            id: check.to_string(),
            opened_ms: now_ms,
        });
        self.session.open = Some(check.to_string());
        self.save();
        Ok(())
    }

    /// Host control: closes the open check (the page goes back to waiting).
    pub fn close(&mut self) {
        self.open = None;
        self.session.open = None;
        self.save();
    }

    /// Host control: reveals the open check. The check runs at its own settings through the
    /// lab screen's scoring ([`crate::room::reveal::measure`]); every participant's counted
    /// answer is graded by the same verdict. `None` when no check is open.
    pub fn reveal(&mut self, now_ms: u64) -> Option<RevealRecord> {
        let asked = self.open_check()?.clone();
        let id = asked.check.id.clone();
        let measured = crate::room::reveal::measure(&asked.lab, &asked.check);
        let answers = self.answers(&id);
        let within = answers
            .iter()
            .filter(|(_, value)| measured.is_right(&asked.check, *value))
            .count();
        let record = RevealRecord {
            check: id,
            value: measured.value,
            tolerance: asked.check.tolerance.unwrap_or(0.0),
            answers: answers.len(),
            within,
            t: now_ms as f64 / 1000.0,
        };
        self.apply_reveal(record.clone());
        self.save();
        Some(record)
    }

    /// Records a reveal and credits each participant who answered it.
    fn apply_reveal(&mut self, record: RevealRecord) {
        if let Some(asked) = self.find(&record.check).cloned() {
            let measured = crate::room::reveal::Measured::at(&asked.lab, &asked.check, record.value);
            let counted: Vec<(String, f64)> = self
                .answers(&record.check)
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect();
            for (name, value) in counted {
                let participant = self.participants.entry(name).or_default();
                participant.answered += 1;
                participant.right += u32::from(measured.is_right(&asked.check, value));
            }
        }
        self.session.reveals.push(record);
    }

    /// Writes the session file, keeping the error to show the host.
    fn save(&mut self) {
        self.version += 1;
        if let Some(path) = &self.path {
            self.write_error = self
                .session
                .save(path)
                .err()
                .map(|err| format!("session file {}: {err}", path.display()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(path: Option<PathBuf>) -> Room {
        let content = Content::load(None).expect("the built-in labs load");
        Room::new(&content, path).expect("a room")
    }

    const CHECK: &str = "retry-predict-layered";

    #[test]
    fn the_last_answer_before_the_reveal_counts_once() {
        let mut room = room(None);
        let code = room.code.clone();
        assert_eq!(room.answer(&code, "ada", CHECK, "60", 0), Ok(60.0));
        assert_eq!(room.answer(&code, "ada", CHECK, "64", 1), Ok(64.0));
        assert_eq!(room.answer(&code, "bob", CHECK, "8", 2), Ok(8.0));
        assert_eq!(room.answers(CHECK), [("ada", 64.0), ("bob", 8.0)]);
        assert_eq!(room.log().len(), 3, "the file keeps every answer");
        room.open(CHECK, 3).expect("open");
        let reveal = room.reveal(4).expect("a check is open");
        assert_eq!((reveal.value, reveal.answers, reveal.within), (Some(64.0), 2, 1));
        assert_eq!(room.answer(&code, "ada", CHECK, "8", 5), Err(WriteRefusal::Revealed));
        assert_eq!(room.participants["ada"].right, 1);
        assert_eq!(
            room.participants["bob"],
            Participant {
                step: None,
                right: 0,
                answered: 1
            }
        );
    }

    #[test]
    fn writes_are_refused_without_the_code_a_name_a_number_or_allowance() {
        let mut room = room(None);
        let code = room.code.clone();
        assert_eq!(
            room.answer("WRONG1", "ada", CHECK, "64", 0),
            Err(WriteRefusal::WrongCode)
        );
        assert_eq!(
            room.answer(&code, "\u{1b}\u{7}", CHECK, "64", 0),
            Err(WriteRefusal::NoName)
        );
        assert_eq!(
            room.answer(&code, "ada", "nope", "64", 0),
            Err(WriteRefusal::UnknownCheck)
        );
        assert!(matches!(
            room.answer(&code, "ada", CHECK, "lots", 0),
            Err(WriteRefusal::BadAnswer(_))
        ));
        for t in 0..rules::RATE_BURST {
            room.answer(&code, "ada", CHECK, "64", u64::from(t))
                .expect("within the burst");
        }
        assert!(matches!(
            room.answer(&code, "ada", CHECK, "64", 10),
            Err(WriteRefusal::TooFast(_))
        ));
        assert!(room.log().iter().all(|a| a.name == "ada"));
    }

    #[test]
    fn a_restarted_host_carries_on_from_its_session_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("room.json");
        let mut first = room(Some(path.clone()));
        let code = first.code.clone();
        first.open(CHECK, 0).expect("open");
        first.answer(&code, "ada", CHECK, "64", 1).expect("taken");
        first.answer(&code, "bob", CHECK, "9", 2).expect("taken");
        drop(first);
        let mut second = room(Some(path.clone()));
        assert_eq!(second.code, code, "the class keeps its code");
        assert_eq!(second.open.as_ref().map(|o| o.id.as_str()), Some(CHECK));
        assert_eq!(second.answers(CHECK), [("ada", 64.0), ("bob", 9.0)]);
        second.answer(&code, "bob", CHECK, "64", 3).expect("a resend replaces");
        let reveal = second.reveal(4).expect("open");
        assert_eq!((reveal.answers, reveal.within), (2, 2));
        drop(second);
        let third = room(Some(path));
        assert!(third.revealed(CHECK));
        assert_eq!(third.participants["bob"].right, 1, "credit is replayed, not doubled");
    }
}
