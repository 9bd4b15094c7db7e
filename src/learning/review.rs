//! Spaced repetition for `quiz --review`, from the answers progress already keeps.
//!
//! Progress records, per question, how often it was answered, how often right, and the
//! streak of right answers up to the latest. That streak is a Leitner box: a miss puts a
//! question back in box 0, each right answer moves it up one, and at [`LEARNED_STREAK`]
//! it counts as learned. A review asks the lowest boxes first: the questions missed last
//! time, then those answered right once, then twice, then the ones never asked, and only
//! then the learned ones (fewest right answers in a row first). So a miss comes back at the
//! next review and a question answered right several times waits until the rest are done.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::content::question::Question;
use crate::learning::progress::{Progress, QuestionProgress};

/// Right answers in a row after which a question is learned and no longer due.
pub const LEARNED_STREAK: u32 = 3;

/// Where a question stands for review; lower comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// Answered before but not yet learned; the number is the streak (0 = missed last time).
    Due(u32),
    /// Never answered.
    New,
    /// Answered right [`LEARNED_STREAK`] or more times in a row; the number is the streak.
    Learned(u32),
}

/// A question's standing from its saved answers.
pub fn standing(saved: Option<&QuestionProgress>) -> Standing {
    match saved {
        None => Standing::New,
        Some(p) if p.answered == 0 => Standing::New,
        Some(p) if p.streak >= LEARNED_STREAK => Standing::Learned(p.streak),
        Some(p) => Standing::Due(p.streak),
    }
}

/// How many of `questions` are due for review.
pub fn due_count(questions: &[Question], progress: &Progress) -> usize {
    questions
        .iter()
        .filter(|q| matches!(standing(progress.questions.get(&q.id)), Standing::Due(_)))
        .count()
}

/// `questions` in review order: by standing, shuffled with `seed` within one standing.
pub fn order<'a>(questions: &'a [Question], progress: &Progress, seed: u64) -> Vec<&'a Question> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut ordered: Vec<&Question> = questions.iter().collect();
    ordered.shuffle(&mut rng);
    // A stable sort keeps the shuffle inside each standing.
    ordered.sort_by_key(|q| standing(progress.questions.get(&q.id)));
    ordered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::question::{Answer, Difficulty, QuestionKind};

    fn question(id: &str) -> Question {
        Question {
            id: id.into(),
            topic: "retries".into(),
            lab: None,
            difficulty: Difficulty::Easy,
            kind: QuestionKind::Number,
            prompt: "?".into(),
            choices: vec![],
            answer: Some(Answer::Number(1.0)),
            tolerance: Some(0.0),
            unit: None,
            metric: None,
            settings: None,
            shows: Vec::new(),
            fact: None,
            explanation: "because".into(),
            source: "here".into(),
        }
    }

    #[test]
    fn misses_come_first_and_learned_questions_last() {
        let bank: Vec<Question> = ["learned", "new", "missed", "once", "twice"].map(question).into();
        let mut progress = Progress::new();
        for _ in 0..4 {
            progress.record_answer("learned", None, true);
        }
        progress.record_answer("missed", None, true);
        progress.record_answer("missed", None, false);
        progress.record_answer("once", None, true);
        progress.record_answer("twice", None, true);
        progress.record_answer("twice", None, true);
        for seed in 0..5 {
            let ids: Vec<&str> = order(&bank, &progress, seed).iter().map(|q| q.id.as_str()).collect();
            assert_eq!(ids, ["missed", "once", "twice", "new", "learned"], "seed {seed}");
        }
        assert_eq!(due_count(&bank, &progress), 3);
        progress.record_answer("twice", None, true);
        assert_eq!(
            standing(progress.questions.get("twice")),
            Standing::Learned(3),
            "the third right answer in a row learns it"
        );
        assert_eq!(due_count(&bank, &progress), 2);
    }
}
