//! Interview drills: an open design prompt, a time limit, then a model answer and a
//! checklist to grade oneself against (`resilience-lab quiz --drill`).
//!
//! The drills live in `assets/drills.toml`, embedded at build time. A drill is spoken or
//! written by the learner, not typed into the program, so the program only keeps time and
//! counts the checklist items the learner says they covered.

use serde::Deserialize;

/// The drills as shipped.
const DRILLS_TOML: &str = include_str!("../../assets/drills.toml");

/// One drill.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Drill {
    pub id: String,
    /// The question as an interviewer would pose it.
    pub prompt: String,
    /// The time to answer, in minutes.
    pub minutes: u32,
    /// A strong answer, in a minute or two of speech.
    pub model_answer: String,
    /// What a strong answer covers, one point each.
    pub checklist: Vec<String>,
    pub source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrillFile {
    #[allow(dead_code)] // read to keep the file's shape checked; version 1 is the only one
    format_version: u32,
    #[serde(rename = "drill")]
    drills: Vec<Drill>,
}

/// The shipped drills; the file is checked by this module's tests, so parsing cannot fail
/// in a build that passed them.
pub fn drills() -> Vec<Drill> {
    toml::from_str::<DrillFile>(DRILLS_TOML)
        .map(|file| file.drills)
        .unwrap_or_default()
}

/// The drill a seed picks.
pub fn pick(drills: &[Drill], seed: u64) -> Option<&Drill> {
    if drills.is_empty() {
        return None;
    }
    drills.get((seed % drills.len() as u64) as usize)
}

/// "2 min 05 s" for a whole number of seconds.
pub fn minutes_and_seconds(total_s: u64) -> String {
    format!("{} min {:02} s", total_s / 60, total_s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_drills_parse_and_are_complete() {
        let file: DrillFile = toml::from_str(DRILLS_TOML).expect("assets/drills.toml parses");
        assert_eq!(file.format_version, 1);
        assert!(file.drills.len() >= 10, "{} drills", file.drills.len());
        for drill in &file.drills {
            assert!((1..=10).contains(&drill.minutes), "{}", drill.id);
            assert!(drill.checklist.len() >= 4, "{}", drill.id);
            assert!(drill.model_answer.len() > 200, "{}", drill.id);
        }
        assert_eq!(drills(), file.drills);
    }

    /// Wherever a drill's answer retries a write, its checklist asks for idempotency keys.
    #[test]
    fn a_drill_that_retries_writes_checks_for_idempotency_keys() {
        let retried_writes: Vec<Drill> = drills()
            .into_iter()
            .filter(|d| d.model_answer.contains("write") && d.model_answer.contains("retr"))
            .collect();
        assert!(retried_writes.len() >= 2, "the retries and mesh drills at least");
        for drill in retried_writes {
            assert!(
                drill.checklist.iter().any(|item| item.contains("idempotency key")),
                "{}: no idempotency key in its checklist",
                drill.id
            );
        }
    }

    /// The recommendations drill sizes its bulkhead for its own call (100 calls/s, 40 ms
    /// healthy, 200 ms timeout), not with the Atlas's separate 50/s x 100 ms example.
    #[test]
    fn the_recommendations_bulkhead_is_sized_for_its_own_call() {
        let all = drills();
        let drill = all
            .iter()
            .find(|d| d.id == "drill-recommendations-hangs")
            .expect("the drill");
        let answer = drill.model_answer.replace('\n', " ");
        assert!(answer.contains("100 calls/s x 40 ms = 4 in flight"), "{answer}");
        assert!(answer.contains("100/s x 200 ms = 20"), "{answer}");
        assert!(!answer.contains("50 calls/s"), "{answer}");
    }

    #[test]
    fn seeds_pick_every_drill_and_times_read_as_minutes() {
        let all = drills();
        let picked: std::collections::BTreeSet<&str> = (0..all.len() as u64)
            .filter_map(|s| pick(&all, s))
            .map(|d| d.id.as_str())
            .collect();
        assert_eq!(picked.len(), all.len());
        assert_eq!(minutes_and_seconds(125), "2 min 05 s");
    }
}
