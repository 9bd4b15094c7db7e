//! Spaced repetition for `quiz --review`, from the answers progress keeps.
//!
//! Progress keeps, per question, its Leitner slot ([`crate::learning::schedule`]): a box and
//! the UTC day it is due again. A review asks what is due today first, lowest box first (a
//! question missed today comes back today; one answered right once comes back a day later,
//! then three, then a week), then questions never asked, then those waiting for their day
//! (soonest first), and learned ones last until their three weeks are up. Answering a question right again before its day
//! moves nothing, so a question is learned only over several days.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::content::question::Question;
use crate::learning::progress::{Progress, QuestionProgress};
use crate::learning::schedule::LEARNED_BOX;

/// Where a question stands for review on a given day; lower comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// Answered before and due today; the number is its box (0 = missed, [`LEARNED_BOX`] a
    /// learned question back for its refresh).
    Due(u32),
    /// Never answered.
    New,
    /// Answered before and not due yet; the number is the day it is due.
    Waiting(u32),
    /// In the learned box and not due; the number is the day it is due again.
    Learned(u32),
}

/// A question's standing on `today` from its saved answers.
pub fn standing(saved: Option<&QuestionProgress>, today: u32) -> Standing {
    let Some(saved) = saved.filter(|p| p.answered > 0) else {
        return Standing::New;
    };
    let slot = saved.slot();
    if slot.is_due(today) {
        // A learned question whose interval has passed is due again, after the others.
        Standing::Due(slot.box_level)
    } else if slot.box_level >= LEARNED_BOX {
        Standing::Learned(slot.due_day)
    } else {
        Standing::Waiting(slot.due_day)
    }
}

/// How many of `questions` are due for review on `today`.
pub fn due_count(questions: &[Question], progress: &Progress, today: u32) -> usize {
    questions
        .iter()
        .filter(|q| matches!(standing(progress.questions.get(&q.id), today), Standing::Due(_)))
        .count()
}

/// `questions` in review order on `today`: by standing, shuffled with `seed` within one.
pub fn order<'a>(questions: &'a [Question], progress: &Progress, seed: u64, today: u32) -> Vec<&'a Question> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut ordered: Vec<&Question> = questions.iter().collect();
    ordered.shuffle(&mut rng);
    // A stable sort keeps the shuffle inside each standing.
    ordered.sort_by_key(|q| standing(progress.questions.get(&q.id), today));
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
            given_away_by: Vec::new(),
            given_away_at_any_settings: false,
            fact: None,
            explanation: "because".into(),
            source: "here".into(),
        }
    }

    const DAY: u32 = 20_000;

    #[test]
    fn misses_come_first_then_new_then_waiting_then_learned() {
        let bank: Vec<Question> = ["learned", "new", "missed", "waiting", "due"].map(question).into();
        let mut progress = Progress::new();
        // Right on four due days: learned.
        for day in [DAY - 20, DAY - 19, DAY - 16, DAY - 9] {
            progress.record_answer_on("learned", None, true, day);
        }
        progress.record_answer_on("missed", None, true, DAY - 3);
        progress.record_answer_on("missed", None, false, DAY);
        progress.record_answer_on("waiting", None, true, DAY);
        progress.record_answer_on("due", None, true, DAY - 1);
        for seed in 0..5 {
            let ids: Vec<&str> = order(&bank, &progress, seed, DAY)
                .iter()
                .map(|q| q.id.as_str())
                .collect();
            assert_eq!(ids, ["missed", "due", "new", "waiting", "learned"], "seed {seed}");
        }
        assert_eq!(due_count(&bank, &progress, DAY), 2, "the miss and the one due today");
        assert_eq!(
            standing(progress.questions.get("learned"), DAY),
            Standing::Learned(DAY + 12)
        );
        assert_eq!(
            due_count(&bank, &progress, DAY + 1),
            3,
            "tomorrow the right answer of today is due"
        );
    }

    #[test]
    fn three_right_answers_in_one_sitting_do_not_learn_a_question() {
        let bank: Vec<Question> = ["q"].map(question).into();
        let mut progress = Progress::new();
        for _ in 0..3 {
            progress.record_answer_on("q", None, true, DAY);
        }
        assert_eq!(standing(progress.questions.get("q"), DAY), Standing::Waiting(DAY + 1));
        assert_eq!(due_count(&bank, &progress, DAY + 1), 1, "it comes back tomorrow");
    }
}
