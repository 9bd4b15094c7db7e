//! Saved progress: guided steps and checks per lab (predictions made in the lab), answers per
//! question given in the quiz.
//!
//! The file lives under the user's data directory (`--progress FILE` overrides it) and
//! is written atomically: a temporary file in the same directory, flushed, then renamed
//! over the old one, so a crash mid-write never leaves half a file. A file that cannot
//! be read (bad TOML, not UTF-8) is moved aside, never overwritten; a file from a newer
//! version, a file that is not a regular file and an oversized file are refused.
//!
//! Two instances may share one file (the app and `quiz` side by side): reading and
//! writing hold an exclusive lock on `<name>.lock` beside it, and a save replays the
//! answers and steps recorded since the last load or save onto what the file holds now,
//! so neither instance loses the other's answers.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use color_eyre::eyre::{Result, WrapErr, bail};
use serde::{Deserialize, Serialize};

use crate::content::{LabFile, Question};
use crate::error::UsageError;
use crate::learning::schedule::{self, Slot};
use crate::user_file;

/// The `format_version` this build writes. It reads 1 and 2 too: version 2 added each quiz
/// question's Leitner slot and the drills' self-grades, version 3 the on-call drills'
/// summaries, and an older file is upgraded as it is read (see [`Progress::upgrade`]). A build
/// that knows only an older version refuses a newer file rather than move it aside, so an
/// older binary cannot lose what a newer one saved.
pub const FORMAT_VERSION: u32 = 3;

/// The on-call summaries kept: the latest drills, enough for an interview's "tell me about
/// an incident" and a trend, while the file stays a few kilobytes.
pub const ONCALL_KEPT: usize = 20;

/// Version 1's rule: right answers in a row after which a question was learned.
const VERSION_1_LEARNED_STREAK: u32 = 3;

/// What a learner has done.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub format_version: u32,
    #[serde(default)]
    pub labs: BTreeMap<String, LabProgress>,
    /// Answers given in the quiz (the app's quiz screen and `quiz`), per question id: the
    /// quiz's counts and `quiz --review` read these only. The quiz asks the bank, never a
    /// lab's check; a check predicted in its lab counts in [`LabProgress::check_answers`].
    ///
    /// A file written before the two were kept apart (one without any `check_answers`) may
    /// also hold here the predictions made in a lab. The quiz asks only the bank now, and
    /// [`Progress::quiz_counts`] takes only the ids it asks, so they no longer count in the
    /// quiz; the lab's `checks_passed` still counts them in the lab as before.
    #[serde(default)]
    pub questions: BTreeMap<String, QuestionProgress>,
    /// Interview drills graded (`quiz --drill`), per drill id: how often, and the checklist
    /// points missed the last time, which the next run of that drill shows first.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub drills: BTreeMap<String, DrillProgress>,
    /// On-call drills played to their end, oldest first (the last [`ONCALL_KEPT`]): each
    /// debrief's summary and where the debrief itself was saved. Absent before version 3.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub oncall: Vec<OncallSummary>,
    /// What was recorded here since the file was last read or written: the next save
    /// replays it onto the file's current content. Not saved itself.
    #[serde(skip)]
    unsaved: Unsaved,
}

/// One thing a learner did, as a save replays it.
#[derive(Clone, Debug, PartialEq)]
enum Change {
    Answer {
        question_id: String,
        lab: Option<String>,
        right: bool,
        /// The UTC day it was given on (the schedule's day, not the save's).
        day: u32,
        /// The run's number was on screen before the answer (a lab's `x`).
        seen_first: bool,
    },
    Drill {
        drill_id: String,
        missed: Vec<String>,
    },
    Step {
        lab: String,
        title: String,
    },
    Visit {
        lab: String,
        page: String,
    },
    Oncall(OncallSummary),
}

/// The changes not yet saved. Bookkeeping only: two records with the same content are
/// equal whatever each has still to save.
#[derive(Clone, Debug, Default)]
struct Unsaved(Vec<Change>);

impl PartialEq for Unsaved {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
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
    /// The lab's pages already opened (`lab`, and Lab 1's `fleet`): a page's first visit
    /// opens its lesson by itself, once. Absent in files written before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub visited: Vec<String>,
    /// Predictions of the lab's checks made in the lab, per check id (right or not): what
    /// a lab's predict saves, kept out of the quiz's [`Progress::questions`]. Absent in files
    /// written before it existed (see there for where their predictions went).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub check_answers: BTreeMap<String, QuestionProgress>,
}

/// Answers to one question, over every session.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionProgress {
    pub answered: u32,
    pub right: u32,
    /// Right answers in a row, up to the latest.
    pub streak: u32,
    /// The question's Leitner box ([`schedule`]); absent (0) in version 1 files until upgraded.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub box_level: u32,
    /// The UTC day it is due again (0: due now).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub due_day: u32,
    /// Whether the first answer ever given was right. A right answer typed after a verdict
    /// showed the run's number is recall, not a prediction: the lab counts it as done but
    /// says "after a miss". Version 1 files did not keep it; they are upgraded from their
    /// counts (never missed: right the first time).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub first_try_right: bool,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

impl QuestionProgress {
    /// One more answer on `day`: a right one extends the streak, a wrong one ends it, and the
    /// schedule moves the question's box and due day.
    fn record(&mut self, right: bool, day: u32) {
        if self.answered == 0 {
            self.first_try_right = right;
        }
        self.answered += 1;
        if right {
            self.right += 1;
            self.streak += 1;
        } else {
            self.streak = 0;
        }
        let slot = self.slot().after_answer(right, day);
        self.box_level = slot.box_level;
        self.due_day = slot.due_day;
    }

    /// Where the question stands in the review schedule.
    pub fn slot(&self) -> Slot {
        Slot {
            box_level: self.box_level,
            due_day: self.due_day,
        }
    }
}

/// An on-call drill's debrief, summed up: what it was, how it went, where the whole is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OncallSummary {
    pub incident: String,
    pub seed: u64,
    /// Out of 100.
    pub score: u32,
    /// Drill seconds from the incident's start until goodput was back; absent: never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restored_after_s: Option<f64>,
    /// Levers pulled that the incident did not call for.
    pub wrong_levers: u32,
    /// The debrief's JSON file (its Markdown beside it); absent when it was not saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debrief: Option<String>,
}

/// An interview drill's self-grades.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrillProgress {
    /// How many times it was graded to the end.
    pub graded: u32,
    /// The checklist points answered "no" the last time, as the checklist words them.
    #[serde(default)]
    pub missed_last: Vec<String>,
}

/// What the quiz's counts say: questions answered in the quiz, of them those right at the
/// last try, out of the questions the quiz may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuizCounts {
    pub answered: usize,
    pub right_last: usize,
    pub total: usize,
}

impl Progress {
    pub fn new() -> Self {
        Self {
            format_version: FORMAT_VERSION,
            ..Self::default()
        }
    }

    /// Records an answer where it was given: `lab` names the lab whose check was predicted
    /// there (it counts in that lab only); `None` is the quiz (it counts in the quiz only,
    /// a lab's check asked by the quiz included).
    pub fn record_answer(&mut self, question_id: &str, lab: Option<&str>, right: bool) {
        self.record_answer_on(question_id, lab, right, schedule::today_utc_day());
    }

    /// [`Progress::record_answer`] on a given UTC day (the schedule's tests walk the calendar).
    pub fn record_answer_on(&mut self, question_id: &str, lab: Option<&str>, right: bool, day: u32) {
        self.record(question_id, lab, right, day, false);
    }

    /// A lab's check answered after the learner chose to see its run (`x`): it counts as an
    /// answer, and a right one does the step, but it was never a prediction, so it is not
    /// first-try right (home says "after x", or "after a miss" once one was wrong).
    pub fn record_answer_after_seeing(&mut self, question_id: &str, lab: &str, right: bool) {
        self.record(question_id, Some(lab), right, schedule::today_utc_day(), true);
    }

    fn record(&mut self, question_id: &str, lab: Option<&str>, right: bool, day: u32, seen_first: bool) {
        self.unsaved.0.push(Change::Answer {
            question_id: question_id.to_string(),
            lab: lab.map(str::to_string),
            right,
            day,
            seen_first,
        });
        self.apply_answer(question_id, lab, right, day, seen_first);
    }

    /// Records a drill graded to its end: the checklist points the learner did not cover.
    pub fn record_drill(&mut self, drill_id: &str, missed: &[String]) {
        self.unsaved.0.push(Change::Drill {
            drill_id: drill_id.to_string(),
            missed: missed.to_vec(),
        });
        self.apply_drill(drill_id, missed);
    }

    /// Records an on-call drill played to its end.
    pub fn record_oncall(&mut self, summary: OncallSummary) {
        self.unsaved.0.push(Change::Oncall(summary.clone()));
        self.apply_oncall(summary);
    }

    fn apply_oncall(&mut self, summary: OncallSummary) {
        self.oncall.push(summary);
        let extra = self.oncall.len().saturating_sub(ONCALL_KEPT);
        self.oncall.drain(..extra);
    }

    /// The home screen's line for the on-call drill.
    pub fn oncall_line(&self) -> String {
        match self.oncall.last() {
            None => "not played yet".to_string(),
            Some(last) => format!("played {}, last score {} / 100", self.oncall.len(), last.score),
        }
    }

    fn apply_drill(&mut self, drill_id: &str, missed: &[String]) {
        let drill = self.drills.entry(drill_id.to_string()).or_default();
        drill.graded += 1;
        drill.missed_last = missed.to_vec();
    }

    /// A version 1 file's questions get the Leitner box their streak of right answers earned
    /// under version 1's rule: three in a row was learned, so it is learned here too, due again
    /// one learned interval after the upgrade (the days of its answers were not kept); a
    /// shorter streak is its box, due now. The file is then this build's version. Only
    /// version 1 needs it: in version 2 a question with a streak has a box of at least 1, since
    /// a box 0 question is always due and its first right answer moves it up. Version 3 only
    /// added the on-call summaries, which a version 2 file has none of: its number moves on.
    fn upgrade(&mut self) {
        if self.format_version < 2 {
            let never_missed = |answers: &QuestionProgress| answers.answered > 0 && answers.answered == answers.right;
            for lab in self.labs.values_mut() {
                for answers in lab.check_answers.values_mut() {
                    answers.first_try_right = never_missed(answers);
                }
            }
            let today = schedule::today_utc_day();
            for question in self.questions.values_mut() {
                question.first_try_right = never_missed(question);
                if question.box_level != 0 || question.streak == 0 {
                    continue;
                }
                if question.streak >= VERSION_1_LEARNED_STREAK {
                    question.box_level = schedule::LEARNED_BOX;
                    question.due_day = today + schedule::INTERVALS_DAYS[schedule::LEARNED_BOX as usize];
                } else {
                    question.box_level = question.streak;
                }
            }
        }
        self.format_version = FORMAT_VERSION;
    }

    fn apply_answer(&mut self, question_id: &str, lab: Option<&str>, right: bool, day: u32, seen_first: bool) {
        let Some(lab) = lab else {
            self.questions
                .entry(question_id.to_string())
                .or_default()
                .record(right, day);
            return;
        };
        let lab = self.labs.entry(lab.to_string()).or_default();
        let answers = lab.check_answers.entry(question_id.to_string()).or_default();
        answers.record(right, day);
        if seen_first && answers.answered == 1 {
            answers.first_try_right = false;
        }
        if right && !lab.checks_passed.iter().any(|id| id == question_id) {
            lab.checks_passed.push(question_id.to_string());
        }
    }

    /// The quiz's counts over `questions` (what the quiz may ask): only answers given in
    /// the quiz, and only to questions it still has (a renamed id no longer counts).
    pub fn quiz_counts(&self, questions: &[Question]) -> QuizCounts {
        let saved: Vec<&QuestionProgress> = questions.iter().filter_map(|q| self.questions.get(&q.id)).collect();
        QuizCounts {
            answered: saved.iter().filter(|p| p.answered > 0).count(),
            right_last: saved.iter().filter(|p| p.streak > 0).count(),
            total: questions.len(),
        }
    }

    /// Marks a guided step of a lab as done.
    pub fn mark_step(&mut self, lab: &str, step_title: &str) {
        self.unsaved.0.push(Change::Step {
            lab: lab.to_string(),
            title: step_title.to_string(),
        });
        self.apply_step(lab, step_title);
    }

    fn apply_step(&mut self, lab: &str, step_title: &str) {
        let lab = self.labs.entry(lab.to_string()).or_default();
        if !lab.steps_done.iter().any(|title| title == step_title) {
            lab.steps_done.push(step_title.to_string());
        }
    }

    /// Marks a page of a lab (`lab`, `fleet`) as visited: its first visit is over.
    pub fn mark_visited(&mut self, lab: &str, page: &str) {
        self.unsaved.0.push(Change::Visit {
            lab: lab.to_string(),
            page: page.to_string(),
        });
        self.apply_visit(lab, page);
    }

    fn apply_visit(&mut self, lab: &str, page: &str) {
        let lab = self.labs.entry(lab.to_string()).or_default();
        if !lab.visited.iter().any(|seen| seen == page) {
            lab.visited.push(page.to_string());
        }
    }

    /// Whether a page of a lab was visited before (in this session or an earlier one).
    pub fn visited(&self, lab: &str, page: &str) -> bool {
        self.labs
            .get(lab)
            .is_some_and(|saved| saved.visited.iter().any(|seen| seen == page))
    }

    /// Progress in a lab, its steps and its checks apart: only the titles and ids the lab
    /// file has count (a quiz question tagged with the lab, or a step a facilitator has since
    /// renamed, does not). A step whose check was answered is done however the answer fared:
    /// a trial's learner who had worked through all 11 of Lab 1's steps read "9 of 21 steps
    /// and checks" (steps and checks counted together, a step only once its check was right)
    /// and took it for half the lab skipped.
    pub fn lab_counts(&self, lab: &LabFile) -> LabCounts {
        let mut counts = LabCounts {
            steps: lab.steps.len(),
            checks: lab.checks.len(),
            ..LabCounts::default()
        };
        let Some(saved) = self.labs.get(&lab.id) else {
            return counts;
        };
        let answered = |id: &str| saved.check_answers.get(id).is_some_and(|a| a.answered > 0);
        counts.steps_done = lab
            .steps
            .iter()
            .filter(|step| saved.steps_done.contains(&step.title) || step.check.as_deref().is_some_and(answered))
            .count();
        let passed: Vec<_> = lab
            .checks
            .iter()
            .filter(|check| saved.checks_passed.contains(&check.id))
            .collect();
        counts.checks_right = passed.len();
        // Right, but not as a first prediction: after a wrong answer (a verdict had shown
        // the run's number), or with every answer right yet the first given after `x`
        // showed the run (no miss to speak of: a trial read "after a miss" for a reveal).
        for answers in passed.iter().filter_map(|check| saved.check_answers.get(&check.id)) {
            if answers.first_try_right {
                continue;
            }
            if answers.answered > answers.right {
                counts.right_after_a_miss += 1;
            } else {
                counts.right_after_seeing += 1;
            }
        }
        counts
    }

    /// "4/7 steps tried · 2/7 checks right", then ", 1 after a miss" and ", 1 after x" when
    /// a right check came after one. A step is tried once its check is answered, right or
    /// not: "steps 11/11" beside 6 of 10 checks right read as a lab finished.
    pub fn lab_summary(&self, lab: &LabFile) -> String {
        self.lab_summary_in(lab, "steps tried", "checks right")
    }

    /// [`Progress::lab_summary`] in fewer words, "6/11 tried · 4/10 right, 1 after x", for a
    /// row that would otherwise squeeze the lab's title to a few letters (home at 80 columns
    /// once a check is right after a miss or after x: "Lab 1  Tru… 6/11 steps tried · ...").
    pub fn lab_summary_short(&self, lab: &LabFile) -> String {
        self.lab_summary_in(lab, "tried", "right")
    }

    fn lab_summary_in(&self, lab: &LabFile, tried: &str, right: &str) -> String {
        let counts = self.lab_counts(lab);
        let mut line = format!(
            "{}/{} {tried} · {}/{} {right}",
            counts.steps_done, counts.steps, counts.checks_right, counts.checks
        );
        if counts.right_after_a_miss > 0 {
            line += &format!(", {} after a miss", counts.right_after_a_miss);
        }
        if counts.right_after_seeing > 0 {
            line += &format!(", {} after x", counts.right_after_seeing);
        }
        line
    }
}

/// A lab's progress as home and `progress` show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabCounts {
    pub steps_done: usize,
    pub steps: usize,
    /// Checks counted as passed (right at the first try or after a miss).
    pub checks_right: usize,
    pub checks: usize,
    /// Right after a wrong answer.
    pub right_after_a_miss: usize,
    /// Right with no wrong answer, but first answered after `x` showed the run.
    pub right_after_seeing: usize,
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

/// The largest progress file read: a few hundred answers take a few kilobytes, so anything
/// near this is not a progress file (and `--progress /dev/zero` must not fill memory).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Loads progress from `path`: a fresh record if there is no file yet.
///
/// A file that cannot be parsed (or is not UTF-8) is renamed to
/// `<name>.unreadable-<unix seconds>` (with `-2`, `-3`... if that name is taken) and a fresh
/// record is returned with a notice. A file of a newer format, a path that is not a regular
/// file and a file over [`MAX_FILE_BYTES`] are errors, and are left untouched.
pub fn load(path: &Path) -> Result<Loaded> {
    let path = &through_links(path);
    refuse_what_is_not_a_progress_file(path)?;
    // Reading needs no lock file of its own: a save replaces the file by a rename, so a
    // reader sees the old file or the new one whole. An existing lock is still honoured, and
    // only a file that must be moved aside (a write) takes one.
    let lock = FileLock::existing(path);
    match read_parsed(path)? {
        Read::Unreadable(_) => {
            drop(lock);
            let _lock = FileLock::take(path, false)?;
            read_locked(path)
        }
        read => read_locked_from(path, read),
    }
}

/// The path a save writes to: the target of a symbolic link (followed to its end), so
/// that files linked to one shared progress file stay one file.
fn through_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // The kernel's own limit on links followed in one lookup (SYMLOOP_MAX on Linux).
    for _ in 0..40 {
        if !fs::symlink_metadata(&path).is_ok_and(|metadata| metadata.file_type().is_symlink()) {
            break;
        }
        let Ok(target) = fs::read_link(&path) else { break };
        path = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    path
}

/// A path that exists but is a folder, a device or a pipe, or is too big: one line, exit 2.
fn refuse_what_is_not_a_progress_file(path: &Path) -> Result<()> {
    user_file::inspect(path, MAX_FILE_BYTES)
        .map(|_| ())
        .map_err(|refusal| refused(path, &refusal))
}

/// The one line for a path [`user_file`] would not read.
fn refused(path: &Path, refusal: &user_file::FileRefusal) -> color_eyre::eyre::Report {
    let allowed = match refusal {
        user_file::FileRefusal::TooBig { .. } => {
            "too big to be progress (a few kilobytes); pass --progress with another file"
        }
        _ => "allowed: a regular file (or a path where one can be created)",
    };
    UsageError(format!(
        "progress file {} {}; {allowed}",
        path.display(),
        refusal.line()
    ))
    .into()
}

/// A progress file as read, before anything is done about it.
enum Read {
    Missing,
    Parsed(Progress),
    Unreadable(String),
}

/// Reads and parses the file; a file of a newer format is an error.
fn read_parsed(path: &Path) -> Result<Read> {
    let bytes = match user_file::read(path, MAX_FILE_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(Read::Missing),
        Err(refusal) => return Err(refused(path, &refusal)),
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => return Ok(Read::Unreadable(format!("not UTF-8: {}", err.utf8_error()))),
    };
    if let Some(version) = newer_format_version(&text) {
        bail!(
            "progress file {} was written by a newer resilience-lab (format_version {version}, this one reads {FORMAT_VERSION}); \
             update resilience-lab or pass --progress with another file",
            path.display()
        );
    }
    match toml::from_str::<Progress>(&text) {
        Ok(progress) => Ok(Read::Parsed(progress)),
        Err(err) => Ok(Read::Unreadable(err.message().trim_end().replace('\n', " "))),
    }
}

/// Reads and parses the file, moving an unreadable one aside; the caller holds the lock.
fn read_locked(path: &Path) -> Result<Loaded> {
    let read = read_parsed(path)?;
    read_locked_from(path, read)
}

fn read_locked_from(path: &Path, read: Read) -> Result<Loaded> {
    match read {
        Read::Missing => Ok(Loaded {
            progress: Progress::new(),
            notice: None,
        }),
        Read::Parsed(mut progress) => {
            progress.upgrade();
            Ok(Loaded { progress, notice: None })
        }
        Read::Unreadable(reason) => move_aside(path, &reason),
    }
}

/// Renames an unreadable file out of the way and starts afresh, saying so.
fn move_aside(path: &Path, reason: &str) -> Result<Loaded> {
    let aside = aside_path(path);
    fs::rename(path, &aside)
        .wrap_err_with(|| format!("cannot move unreadable progress file {} aside", path.display()))?;
    Ok(Loaded {
        progress: Progress::new(),
        notice: Some(format!(
            "progress file {} could not be read ({reason}); it was moved to {} and progress starts afresh",
            path.display(),
            aside.display()
        )),
    })
}

/// The format_version of a file newer than this build, read without trusting the rest.
fn newer_format_version(text: &str) -> Option<u32> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let version = u32::try_from(table.get("format_version")?.as_integer()?).ok()?;
    (version > FORMAT_VERSION).then_some(version)
}

/// `<name>.unreadable-<unix seconds>`, or with `-2`, `-3`... when that name is taken: two
/// files set aside in one second must not overwrite each other. The lock is held, so no
/// other instance picks the same name between the test and the rename.
fn aside_path(path: &Path) -> PathBuf {
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    let candidate = |n: u32| {
        let mut aside = name.clone();
        aside.push(format!(".unreadable-{stamp}"));
        if n > 1 {
            aside.push(format!("-{n}"));
        }
        path.with_file_name(aside)
    };
    (1..)
        .map(candidate)
        .find(|aside| fs::symlink_metadata(aside).is_err())
        .unwrap_or_else(|| candidate(0))
}

/// An exclusive lock on `<name>.lock` beside the progress file, held while it lives.
///
/// The lock is on a file of its own because saving replaces the progress file (a lock on
/// the old one would not stop a writer that opened the new one). The lock file stays: removing
/// it would let two instances lock two different files.
struct FileLock {
    _file: Option<fs::File>,
}

impl FileLock {
    /// Takes the lock, waiting for another instance's read or save to finish. Reading in a
    /// folder where no lock file can be made goes on unlocked: nobody can save there either.
    fn take(path: &Path, for_save: bool) -> Result<FileLock> {
        let lock_path = lock_path(path);
        let file = match fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
        {
            Ok(file) => file,
            Err(_) if !for_save => return Ok(FileLock { _file: None }),
            Err(err) => return Err(err).wrap_err_with(|| format!("cannot open lock file {}", lock_path.display())),
        };
        fs4::FileExt::lock(&file).wrap_err_with(|| format!("cannot lock {}", lock_path.display()))?;
        Ok(FileLock { _file: Some(file) })
    }

    /// Takes the lock if its file exists, creating nothing (a read leaves no file behind);
    /// no lock when there is none or it cannot be taken.
    fn existing(path: &Path) -> FileLock {
        let file = fs::OpenOptions::new()
            .write(true)
            .open(lock_path(path))
            .ok()
            .filter(|file| fs4::FileExt::lock(file).is_ok());
        FileLock { _file: file }
    }
}

/// `<name>.lock` beside the progress file.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".lock");
    path.with_file_name(name)
}

/// Saves atomically, merged with what the file holds now.
///
/// Under the lock: read the file (another instance may have saved since), replay onto it
/// what `progress` recorded since it was loaded or last saved, write a temporary file beside
/// `path`, flush it to disk, rename it over. `progress` then holds the merged record.
/// Temporary files that a killed instance left are removed (no writer is mid-save while the
/// lock is held).
pub fn save(path: &Path, progress: &mut Progress) -> Result<()> {
    let path = &through_links(path);
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).wrap_err_with(|| format!("cannot create folder {}", dir.display()))?;
    refuse_what_is_not_a_progress_file(path)?;
    let _lock = FileLock::take(path, true)?;
    let mut merged = read_locked(path)?.progress;
    for change in &progress.unsaved.0 {
        match change {
            Change::Answer {
                question_id,
                lab,
                right,
                day,
                seen_first,
            } => merged.apply_answer(question_id, lab.as_deref(), *right, *day, *seen_first),
            Change::Drill { drill_id, missed } => merged.apply_drill(drill_id, missed),
            Change::Step { lab, title } => merged.apply_step(lab, title),
            Change::Visit { lab, page } => merged.apply_visit(lab, page),
            Change::Oncall(summary) => merged.apply_oncall(summary.clone()),
        }
    }
    let text = toml::to_string_pretty(&merged).wrap_err("cannot encode progress")?;
    let mut temp_prefix = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    temp_prefix.push(".tmp-");
    remove_stale_temporaries(dir, &temp_prefix.to_string_lossy());
    let mut temp_name = temp_prefix;
    temp_name.push(std::process::id().to_string());
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
    fs::rename(&temp, path).wrap_err_with(|| format!("cannot replace progress file {}", path.display()))?;
    *progress = merged;
    Ok(())
}

/// Removes `<name>.tmp-*` files in `dir`: a save that was killed between writing and renaming.
fn remove_stale_temporaries(dir: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(prefix) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether `path` holds a progress file that [`erase`] would erase: false when there is
/// none; an error (one line, exit code 2) for anything that is not this app's progress.
pub fn erasable(path: &Path) -> Result<bool> {
    let path = &through_links(path);
    refuse_what_is_not_a_progress_file(path)?;
    let not_progress = |why: &str| -> color_eyre::eyre::Report {
        UsageError(format!(
            "{} is not a resilience-lab progress file ({why}); nothing was erased; allowed: a progress file this app wrote",
            path.display()
        ))
        .into()
    };
    let bytes = match user_file::read(path, MAX_FILE_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(false),
        Err(refusal) => return Err(refused(path, &refusal)),
    };
    let text = String::from_utf8(bytes).map_err(|_| not_progress("not UTF-8 text"))?;
    // A file of a newer format is still this app's progress.
    if newer_format_version(&text).is_none()
        && let Err(err) = toml::from_str::<Progress>(&text)
    {
        return Err(not_progress(
            err.message().trim_end().lines().next().unwrap_or("not TOML"),
        ));
    }
    Ok(true)
}

/// Erases the progress file, under the lock so that no save is half-way through. Only a
/// regular file that reads as this app's progress ([`erasable`]) is removed; through a
/// symbolic link, its target is (the link would otherwise show the same progress again).
pub fn erase(path: &Path) -> Result<()> {
    let path = &through_links(path);
    let _lock = FileLock::take(path, true)?;
    if !erasable(path)? {
        return Ok(());
    }
    fs::remove_file(path).wrap_err_with(|| format!("cannot erase progress file {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("list")
            .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn answers_build_streaks_and_lab_checks() {
        let mut progress = Progress::new();
        progress.record_answer("q1", Some("retry"), true);
        progress.record_answer("q1", Some("retry"), true);
        progress.record_answer("q1", Some("retry"), false);
        let q1 = &progress.labs["retry"].check_answers["q1"];
        assert_eq!((q1.answered, q1.right, q1.streak), (3, 2, 0));
        assert_eq!(progress.labs["retry"].checks_passed, ["q1"]);
        assert!(
            progress.questions.is_empty(),
            "a lab's predictions are not quiz answers"
        );
        progress.record_answer("q1", None, false);
        assert_eq!(
            progress.questions["q1"].answered, 1,
            "the quiz asking it counts in the quiz"
        );
        assert_eq!(
            progress.labs["retry"].check_answers["q1"].answered, 3,
            "and not in the lab"
        );
        progress.mark_step("retry", "Layered retries");
        let content = crate::content::Content::load(None).expect("embedded content loads");
        let retry = content.lab(crate::content::LabId::Retry);
        // "q1" is no check of Lab 2: only its own step counts.
        let counts = progress.lab_counts(retry);
        assert_eq!((counts.steps_done, counts.checks_right), (1, 0));
        assert_eq!((counts.steps, counts.checks), (retry.steps.len(), retry.checks.len()));
        progress.record_answer("retry-predict-layered", Some("retry"), true);
        assert_eq!(progress.lab_counts(retry).checks_right, 1);
    }

    #[test]
    fn a_step_answered_wrong_is_done_and_its_check_not_right() {
        let content = crate::content::Content::load(None).expect("embedded content loads");
        let retry = content.lab(crate::content::LabId::Retry);
        let step = retry
            .steps
            .iter()
            .find(|s| s.check.is_some())
            .expect("a step with a check");
        let check = step.check.as_deref().expect("its check");
        let mut progress = Progress::default();
        progress.record_answer(check, Some("retry"), false);
        let counts = progress.lab_counts(retry);
        assert_eq!((counts.steps_done, counts.checks_right), (1, 0), "{counts:?}");
        let (steps, checks) = (retry.steps.len(), retry.checks.len());
        assert_eq!(
            progress.lab_summary(retry),
            format!("1/{steps} steps tried · 0/{checks} checks right")
        );
        progress.record_answer_after_seeing(check, "retry", true);
        assert_eq!(
            progress.lab_summary(retry),
            format!("1/{steps} steps tried · 1/{checks} checks right, 1 after a miss")
        );
    }

    /// A check right at its first answer, given after `x` showed the run, was no miss: home
    /// says "after x" (a trial read "1 after a miss" for a check it had only revealed).
    #[test]
    fn a_right_answer_after_x_is_counted_after_x_not_after_a_miss() {
        let content = crate::content::Content::load(None).expect("embedded content loads");
        let breaker = content.lab(crate::content::LabId::Breaker);
        let mut progress = Progress::default();
        progress.record_answer_after_seeing("breaker-predict-sick-calls", "breaker", true);
        let counts = progress.lab_counts(breaker);
        assert_eq!(
            (counts.right_after_a_miss, counts.right_after_seeing),
            (0, 1),
            "{counts:?}"
        );
        assert_eq!(
            progress.lab_summary(breaker),
            format!(
                "1/{} steps tried · 1/{} checks right, 1 after x",
                breaker.steps.len(),
                breaker.checks.len()
            )
        );
    }

    #[test]
    fn an_old_file_keeps_loading_and_its_lab_answers_leave_the_quiz() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        // Written before predictions were kept apart: Lab 2's check predicted right in the
        // lab landed in `questions` too, beside a quiz answer and an id the bank has dropped.
        fs::write(
            &path,
            "format_version = 1\n\n[labs.retry]\nsteps_done = []\nchecks_passed = [\"retry-predict-layered\"]\n\n\
             [questions.retry-predict-layered]\nanswered = 1\nright = 1\nstreak = 1\n\n\
             [questions.overload-capacity]\nanswered = 1\nright = 0\nstreak = 0\n\n\
             [questions.a-dropped-question]\nanswered = 1\nright = 1\nstreak = 1\n",
        )
        .expect("write");
        let mut progress = load(&path).expect("an old file loads").progress;
        let content = crate::content::Content::load(None).expect("embedded content loads");
        let questions = content.quiz_questions();
        let quiz = progress.quiz_counts(&questions);
        // Only the bank's question counts: the old lab prediction and the dropped id do not.
        assert_eq!((quiz.answered, quiz.right_last, quiz.total), (1, 0, questions.len()));
        let retry = content.lab(crate::content::LabId::Retry);
        assert_eq!(progress.lab_counts(retry).checks_right, 1);
        // A new prediction in the lab is saved beside them, and the quiz's count stays.
        progress.record_answer("retry-predict-budget", Some("retry"), false);
        save(&path, &mut progress).expect("save");
        let saved = load(&path).expect("load").progress;
        assert_eq!(saved.quiz_counts(&questions).answered, 1);
        assert_eq!(saved.labs["retry"].check_answers["retry-predict-budget"].answered, 1);
    }

    #[test]
    fn a_version_2_file_upgrades_to_3_and_keeps_an_on_call_summary() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        fs::write(
            &path,
            "format_version = 2\n\n[labs.retry]\nsteps_done = [\"Layered retries\"]\nchecks_passed = []\n\n\
             [drills.retry-storm]\ngraded = 1\nmissed_last = []\n",
        )
        .expect("write");
        let mut progress = load(&path).expect("a version 2 file loads").progress;
        assert_eq!(progress.format_version, 3);
        assert!(progress.oncall.is_empty());
        assert_eq!(progress.oncall_line(), "not played yet");
        // Another instance plays a drill in between: both summaries survive the merge.
        let mut other = load(&path).expect("load").progress;
        other.record_oncall(OncallSummary {
            incident: "payments-503".into(),
            seed: 2,
            score: 60,
            ..OncallSummary::default()
        });
        save(&path, &mut other).expect("save");
        progress.record_oncall(OncallSummary {
            incident: "recommendations-hang".into(),
            seed: 1,
            score: 90,
            restored_after_s: Some(21.0),
            wrong_levers: 0,
            debrief: Some("oncall-debriefs/recommendations-hang-seed1.json".into()),
        });
        save(&path, &mut progress).expect("save");
        let text = fs::read_to_string(&path).expect("saved");
        assert!(text.contains("format_version = 3"), "{text}");
        let saved = load(&path).expect("load").progress;
        assert_eq!(saved.labs["retry"].steps_done, ["Layered retries"]);
        assert_eq!(saved.drills["retry-storm"].graded, 1);
        let incidents: Vec<&str> = saved.oncall.iter().map(|s| s.incident.as_str()).collect();
        assert_eq!(incidents, ["payments-503", "recommendations-hang"]);
        assert_eq!(saved.oncall[1].restored_after_s, Some(21.0));
        assert_eq!(saved.oncall_line(), "played 2, last score 90 / 100");
    }

    #[test]
    fn only_the_latest_on_call_summaries_are_kept() {
        let mut progress = Progress::new();
        for seed in 0..(ONCALL_KEPT as u64 + 5) {
            progress.record_oncall(OncallSummary {
                seed,
                ..OncallSummary::default()
            });
        }
        assert_eq!(progress.oncall.len(), ONCALL_KEPT);
        assert_eq!(progress.oncall[0].seed, 5);
    }

    #[test]
    fn a_visit_survives_a_save_and_files_without_visits_still_load() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        // A file of the format before `visited` existed.
        fs::write(
            &path,
            "format_version = 1\n\n[labs.retry]\nsteps_done = [\"Layered retries\"]\nchecks_passed = []\n",
        )
        .expect("write");
        let mut progress = load(&path).expect("an old file loads").progress;
        assert!(!progress.visited("retry", "lab"));
        // Another instance saves a visit in between: both survive the merge.
        let mut other = load(&path).expect("load").progress;
        other.mark_visited("health", "fleet");
        save(&path, &mut other).expect("save");
        progress.mark_visited("retry", "lab");
        progress.mark_visited("retry", "lab");
        save(&path, &mut progress).expect("save");
        let saved = load(&path).expect("load").progress;
        assert!(saved.visited("retry", "lab") && saved.visited("health", "fleet"));
        assert!(!saved.visited("health", "lab"));
        assert_eq!(saved.labs["retry"].visited, ["lab"]);
        assert_eq!(saved.labs["retry"].steps_done, ["Layered retries"]);
    }

    #[test]
    fn saves_and_loads_atomically() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("nested").join("progress.toml");
        let mut progress = Progress::new();
        progress.record_answer("q", None, true);
        save(&path, &mut progress).expect("save");
        assert_eq!(load(&path).expect("load").progress, progress);
        assert_eq!(
            names_in(path.parent().expect("parent")),
            ["progress.toml", "progress.toml.lock"],
            "no temporary file is left behind"
        );
    }

    #[test]
    fn unreadable_files_are_moved_aside_not_overwritten() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        fs::write(&path, "this is = = not toml").expect("write");
        let loaded = load(&path).expect("load");
        assert!(loaded.notice.expect("a notice").contains("moved to"));
        assert!(!path.exists());
        let aside: Vec<String> = names_in(dir.path())
            .into_iter()
            .filter(|name| name.contains(".unreadable-"))
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

    #[test]
    fn two_writers_on_one_file_lose_no_answer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        let rounds = 40;
        // Both load first, as the app and `quiz` do at start, then answer and save in turns
        // that the threads interleave as they please.
        let writers: Vec<_> = ["app", "quiz"]
            .into_iter()
            .map(|who| {
                let mut progress = load(&path).expect("load").progress;
                let path = path.clone();
                std::thread::spawn(move || {
                    for round in 0..rounds {
                        progress.record_answer("shared", Some("retry"), round % 2 == 0);
                        progress.record_answer(&format!("{who}-only"), None, true);
                        progress.mark_step("retry", &format!("{who} step"));
                        save(&path, &mut progress).expect("save");
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().expect("writer");
        }
        let saved = load(&path).expect("load").progress;
        let shared = &saved.labs["retry"].check_answers["shared"];
        assert_eq!((shared.answered, shared.right), (2 * rounds, rounds));
        assert_eq!(saved.questions["app-only"].answered, rounds);
        assert_eq!(saved.questions["quiz-only"].answered, rounds);
        let mut steps = saved.labs["retry"].steps_done.clone();
        steps.sort();
        assert_eq!(steps, ["app step", "quiz step"]);
        assert_eq!(saved.labs["retry"].checks_passed, ["shared"]);
    }

    #[test]
    fn what_is_not_a_progress_file_is_refused_in_one_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (path, says) in [
            (Path::new("/dev/zero").to_path_buf(), "is not a regular file"),
            (dir.path().to_path_buf(), "is a folder"),
        ] {
            let err = load(&path).expect_err("refused");
            assert!(err.downcast_ref::<UsageError>().is_some(), "exit code 2: {err:#}");
            assert!(
                err.to_string().contains(says) && !err.to_string().contains('\n'),
                "{err:#}"
            );
        }
        let big = dir.path().join("big.toml");
        fs::write(&big, vec![b'#'; MAX_FILE_BYTES as usize + 1]).expect("write");
        let err = load(&big).expect_err("refused");
        assert!(err.to_string().contains("too big to be progress"), "{err:#}");
        assert!(big.exists(), "left untouched");
        let err = save(&big, &mut Progress::new()).expect_err("not overwritten either");
        assert!(err.to_string().contains("too big"), "{err:#}");
    }

    #[test]
    fn a_file_that_is_not_utf8_is_moved_aside_and_names_never_collide() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        // Three unreadable files in (almost certainly) one second: three names.
        for content in [&b"format_version = 1\n\xff\xfe"[..], b"= = =", b"\xc3"] {
            fs::write(&path, content).expect("write");
            let loaded = load(&path).expect("moved aside, not refused");
            assert!(loaded.notice.expect("notice").contains("could not be read"));
            assert_eq!(loaded.progress, Progress::new());
        }
        let aside: Vec<String> = names_in(dir.path())
            .into_iter()
            .filter(|name| name.contains(".unreadable-"))
            .collect();
        assert_eq!(aside.len(), 3, "{aside:?}");
        let kept: Vec<Vec<u8>> = aside
            .iter()
            .map(|name| fs::read(dir.path().join(name)).expect("read"))
            .collect();
        assert!(kept.contains(&b"\xc3".to_vec()) && kept.contains(&b"= = =".to_vec()));
    }

    #[test]
    fn a_temporary_file_left_by_a_kill_is_removed_by_the_next_save() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        fs::write(dir.path().join("progress.toml.tmp-999999"), "half a fi").expect("write");
        save(&path, &mut Progress::new()).expect("save");
        assert_eq!(names_in(dir.path()), ["progress.toml", "progress.toml.lock"]);
    }

    #[test]
    fn reset_erases_only_this_apps_progress() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        user_file::make_fifo(&fifo);
        let text = dir.path().join("notes.txt");
        fs::write(&text, "my notes\n").expect("write");
        let cargo = dir.path().join("Cargo.toml");
        fs::write(&cargo, "[package]\nname = \"x\"\n").expect("write");
        let binary = dir.path().join("blob");
        fs::write(&binary, b"\xff\xfe").expect("write");
        // /dev/null is only looked at: neither call may touch it.
        for path in [Path::new("/dev/null"), &fifo, &text, &cargo, &binary, dir.path()] {
            for err in [erasable(path).expect_err("refused"), erase(path).expect_err("refused")] {
                assert!(err.downcast_ref::<UsageError>().is_some(), "exit code 2: {err:#}");
                assert!(!err.to_string().contains('\n'), "one line: {err:#}");
            }
            assert!(fs::symlink_metadata(path).is_ok(), "{} left in place", path.display());
        }
        assert_eq!(fs::read_to_string(&text).expect("read"), "my notes\n");
        let progress = dir.path().join("progress.toml");
        assert!(!erasable(&progress).expect("nothing there"));
        save(&progress, &mut Progress::new()).expect("save");
        assert!(erasable(&progress).expect("progress"));
        erase(&progress).expect("erased");
        assert!(!progress.exists());
    }

    #[test]
    fn a_linked_progress_file_is_written_through_to_its_target() {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::create_dir(dir.path().join("shared")).expect("mkdir");
        let target = dir.path().join("shared").join("progress.toml");
        save(&target, &mut Progress::new()).expect("save");
        let link = dir.path().join("mine.toml");
        std::os::unix::fs::symlink("shared/progress.toml", &link).expect("symlink");
        let mut progress = load(&link).expect("load").progress;
        progress.record_answer("q", None, true);
        save(&link, &mut progress).expect("save through the link");
        assert!(
            fs::symlink_metadata(&link).expect("link").file_type().is_symlink(),
            "still a link"
        );
        assert_eq!(load(&target).expect("target").progress.questions.len(), 1);
        // The lock lives beside the target, so every linked instance takes the same one.
        assert_eq!(names_in(dir.path()), ["mine.toml", "shared"]);
    }

    #[test]
    fn reading_leaves_no_lock_file_behind() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("progress.toml");
        load(&path).expect("fresh");
        assert!(names_in(dir.path()).is_empty());
        fs::write(&path, "format_version = 1\n").expect("write");
        load(&path).expect("load");
        assert_eq!(names_in(dir.path()), ["progress.toml"]);
        let fifo = dir.path().join("fifo");
        user_file::make_fifo(&fifo);
        assert!(load(&fifo).is_err(), "a FIFO is refused, not waited on");
    }
}
