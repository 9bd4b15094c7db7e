//! Lints on the bank that a parser cannot see: a choice question whose right answer gives
//! itself away by being much longer than the wrong ones.
//!
//! A reader who knows nothing and always picks the longest option should score no better
//! than chance. `check` reports every choice question whose right answer is more than
//! [`MAX_RIGHT_TO_DISTRACTOR`] times as long as its longest distractor, and the figures
//! below let a test hold the whole bank to "right answer strictly longest in about a third".

use crate::content::question::{Question, QuestionKind};

/// How much longer than the longest distractor a right answer may be, in characters.
pub const MAX_RIGHT_TO_DISTRACTOR: f64 = 1.5;

/// The lengths that matter for one choice question, in characters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChoiceLengths {
    pub right_chars: usize,
    pub longest_distractor_chars: usize,
}

impl ChoiceLengths {
    /// The right answer's length over the longest distractor's.
    pub fn ratio(&self) -> f64 {
        self.right_chars as f64 / self.longest_distractor_chars.max(1) as f64
    }

    /// Whether "pick the longest" would pick the right answer and nothing else.
    pub fn right_is_strictly_longest(&self) -> bool {
        self.right_chars > self.longest_distractor_chars
    }
}

/// The lengths of a choice question's right answer and longest distractor; `None` for
/// typed answers or a question without a right choice (`check` reports that elsewhere).
pub fn choice_lengths(question: &Question) -> Option<ChoiceLengths> {
    if question.kind != QuestionKind::Choice {
        return None;
    }
    let right = question.right_choice()?;
    let chars = |text: &String| text.chars().count();
    let longest_distractor_chars = question
        .choices
        .iter()
        .enumerate()
        .filter(|(index, _)| *index != right)
        .map(|(_, text)| chars(text))
        .max()?;
    Some(ChoiceLengths {
        right_chars: chars(&question.choices[right]),
        longest_distractor_chars,
    })
}

/// The problem with a question's lengths, in words that say what to fix, if any.
pub fn length_problem(question: &Question) -> Option<String> {
    let lengths = choice_lengths(question)?;
    (lengths.ratio() > MAX_RIGHT_TO_DISTRACTOR).then(|| {
        format!(
            "question \"{}\": the right answer is {} characters, {:.2}x the longest distractor ({}); \
             allowed: up to {MAX_RIGHT_TO_DISTRACTOR}x. Shorten it or write distractors of the same detail",
            question.id,
            lengths.right_chars,
            lengths.ratio(),
            lengths.longest_distractor_chars
        )
    })
}

/// How guessable a set of choice questions is by length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LengthFigures {
    pub choice_questions: usize,
    /// Questions where the right answer is longer than every distractor.
    pub right_strictly_longest: usize,
    /// The median of right answer / longest distractor, in characters.
    pub median_ratio: f64,
}

impl LengthFigures {
    /// The share of choice questions "pick the longest" gets right.
    pub fn longest_share(&self) -> f64 {
        self.right_strictly_longest as f64 / self.choice_questions.max(1) as f64
    }
}

/// The figures over every choice question in `questions`.
pub fn length_figures<'a>(questions: impl IntoIterator<Item = &'a Question>) -> LengthFigures {
    let lengths: Vec<ChoiceLengths> = questions.into_iter().filter_map(choice_lengths).collect();
    let mut ratios: Vec<f64> = lengths.iter().map(ChoiceLengths::ratio).collect();
    ratios.sort_by(f64::total_cmp);
    let median_ratio = match ratios.len() {
        0 => 0.0,
        n if n % 2 == 1 => ratios[n / 2],
        n => (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0,
    };
    LengthFigures {
        choice_questions: lengths.len(),
        right_strictly_longest: lengths.iter().filter(|l| l.right_is_strictly_longest()).count(),
        median_ratio,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::question::{Answer, Difficulty};

    fn choice(right: &str, wrong: &[&str]) -> Question {
        let mut choices = vec![right.to_string()];
        choices.extend(wrong.iter().map(|w| w.to_string()));
        Question {
            id: "q".into(),
            topic: "retries".into(),
            lab: None,
            difficulty: Difficulty::Easy,
            kind: QuestionKind::Choice,
            prompt: "?".into(),
            choices,
            answer: Some(Answer::Text(right.into())),
            tolerance: None,
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

    #[test]
    fn a_right_answer_far_longer_than_every_distractor_is_reported() {
        let giveaway = choice("a long and careful answer that explains itself", &["no", "never"]);
        let problem = length_problem(&giveaway).expect("reported");
        assert!(
            problem.contains("46 characters, 9.20x the longest distractor (5)"),
            "{problem}"
        );
        let fair = choice("twelve chars", &["ten chars!", "eight ch"]);
        assert_eq!(length_problem(&fair), None, "1.2x is within the limit");
    }

    #[test]
    fn figures_count_strictly_longest_and_take_the_median() {
        let bank = [
            choice("aaaa", &["aa"]),  // 2.0, strictly longest
            choice("aa", &["aa"]),    // 1.0, a tie is not strictly longest
            choice("a", &["aaaa"]),   // 0.25
            choice("aaa", &["aaaa"]), // 0.75
        ];
        let figures = length_figures(&bank);
        assert_eq!(figures.choice_questions, 4);
        assert_eq!(figures.right_strictly_longest, 1);
        assert!((figures.median_ratio - 0.875).abs() < 1e-12);
        assert!((figures.longest_share() - 0.25).abs() < 1e-12);
    }
}
