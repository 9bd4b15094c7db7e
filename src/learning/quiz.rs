//! Quiz logic shared by the quiz screen and the plain-terminal quiz: pick, present, grade, score.
//!
//! Choices are shuffled per question from the session's seed, so a bank written with the
//! right answer first never gives it away, and a seed replays the same quiz.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::content::LabId;
use crate::content::question::{Answer, Question, QuestionKind};
use crate::learning::metrics::{self, Metric};

pub mod answer;

pub use answer::{Reading, trim_number};

/// Which questions to draw from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only questions of this lab.
    pub lab: Option<LabId>,
    /// Only questions of this topic.
    pub topic: Option<String>,
}

impl Filter {
    pub fn admits(&self, question: &Question) -> bool {
        self.lab.is_none_or(|lab| question.lab.as_deref() == Some(lab.name()))
            && self.topic.as_ref().is_none_or(|topic| &question.topic == topic)
    }
}

/// A question as asked: its choices in the order shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub question: Question,
    /// Indices into `question.choices`, in display order (empty for typed answers).
    pub choice_order: Vec<usize>,
}

impl Asked {
    /// The choices as shown, lettered a, b, c ...
    pub fn shown_choices(&self) -> Vec<(char, &str)> {
        self.choice_order
            .iter()
            .enumerate()
            .map(|(shown, &original)| (letter(shown), self.question.choices[original].as_str()))
            .collect()
    }

    /// The letter under which the right choice is shown.
    pub fn right_letter(&self) -> Option<char> {
        let right = self.question.right_choice()?;
        self.choice_order
            .iter()
            .position(|&original| original == right)
            .map(letter)
    }
}

/// The choice letter in `text`, in either case, alone or as `a)`, `(a)` or `a.`, if it is one
/// of `letters` (shown lowercase).
pub fn read_letter(text: &str, letters: &[char]) -> Option<char> {
    let text = text.trim();
    let inner = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .or_else(|| text.strip_suffix(')'))
        .or_else(|| text.strip_suffix('.'))
        .unwrap_or(text)
        .trim();
    let mut chars = inner.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    (chars.next().is_none() && letters.contains(&letter)).then_some(letter)
}

fn letter(index: usize) -> char {
    (b'a' + index as u8) as char
}

/// Draws up to `count` questions that pass `filter`, shuffled with `seed`, choices shuffled too.
pub fn draw(questions: &[Question], filter: &Filter, count: usize, seed: u64) -> Vec<Asked> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut picked: Vec<&Question> = questions.iter().filter(|q| filter.admits(q)).collect();
    picked.shuffle(&mut rng);
    // At most one question per fact: a second would be answered by the first's explanation.
    let mut facts = std::collections::BTreeSet::new();
    picked.retain(|q| q.fact.as_ref().is_none_or(|fact| facts.insert(fact.clone())));
    picked.truncate(count);
    with_shuffled_choices(picked, &mut rng)
}

/// Asks `questions` in the order given (e.g. a review's), choices shuffled with `seed`.
pub fn ask_in_order(questions: &[&Question], seed: u64) -> Vec<Asked> {
    with_shuffled_choices(questions.to_vec(), &mut StdRng::seed_from_u64(seed))
}

fn with_shuffled_choices(questions: Vec<&Question>, rng: &mut StdRng) -> Vec<Asked> {
    questions
        .into_iter()
        .map(|question| {
            let mut choice_order: Vec<usize> = (0..question.choices.len()).collect();
            choice_order.shuffle(rng);
            Asked {
                question: question.clone(),
                choice_order,
            }
        })
        .collect()
}

/// What the learner answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    Letter(char),
    /// A typed number as [`answer::read`] read it.
    Number(Reading),
}

/// The verdict on one answer, with what was expected.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub right: bool,
    /// The right answer in words, e.g. `c) 64` or `64 attempts (within 0.5)`.
    pub expected: String,
    /// How a typed answer was read when not as typed, e.g. `20, read as 20% = 0.2`.
    pub reading: Option<String>,
}

/// The number a typed answer is scored against: the answer, or the run's metric for a predict check.
pub fn expected_number(question: &Question, run: &[Metric]) -> Option<f64> {
    match question.kind {
        QuestionKind::Number => match question.answer {
            Some(Answer::Number(value)) => Some(value),
            _ => None,
        },
        QuestionKind::Predict => metrics::lookup(run, question.metric.as_deref()?),
        QuestionKind::Choice => None,
    }
}

/// Grades a response; `run` holds the metrics a predict check is scored against.
pub fn grade(asked: &Asked, response: &Response, run: &[Metric]) -> Verdict {
    let question = &asked.question;
    match (question.kind, response) {
        (QuestionKind::Choice, Response::Letter(picked)) => {
            let right_letter = asked.right_letter();
            let right_text = question.right_choice().map_or("", |i| question.choices[i].as_str());
            Verdict {
                right: right_letter == Some(picked.to_ascii_lowercase()),
                expected: format!("{}) {right_text}", right_letter.unwrap_or('?')),
                reading: None,
            }
        }
        (QuestionKind::Number | QuestionKind::Predict, Response::Number(typed)) => {
            let Some(expected) = expected_number(question, run) else {
                return Verdict {
                    right: false,
                    expected: "no value for this question".to_string(),
                    reading: None,
                };
            };
            let tolerance = question.tolerance.unwrap_or(0.0);
            let within = if tolerance > 0.0 {
                format!(" (within {})", trim_number(tolerance))
            } else {
                String::new()
            };
            let within_expected = |value: f64| question.number_is_right(value, expected);
            // A percentage typed as a fraction (0.782 for 78.2 %) is read as that percentage;
            // one typed with `%` is the percentage it says.
            let as_percent =
                (!typed.unit_typed && question.percent_fraction(typed.value, expected)).then_some(typed.value * 100.0);
            let right = within_expected(typed.value) || as_percent.is_some_and(within_expected);
            let reading = match as_percent.filter(|_| !within_expected(typed.value)) {
                Some(percent) => Some(format!(
                    "{}, read as {}%",
                    trim_number(typed.value),
                    trim_number(percent)
                )),
                None => typed.note.clone(),
            };
            Verdict {
                right,
                expected: format!(
                    "{}{within}",
                    crate::words::with_unit(&trim_number(expected), question.unit.as_deref().unwrap_or_default())
                ),
                reading,
            }
        }
        _ => Verdict {
            right: false,
            expected: "an answer of the other kind".to_string(),
            reading: None,
        },
    }
}

/// The running score of a session and what was missed, for the review.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    pub asked: usize,
    pub right: usize,
    /// Missed questions with the verdict, in the order asked.
    pub missed: Vec<(Question, Verdict)>,
}

impl Score {
    pub fn record(&mut self, question: &Question, verdict: &Verdict) {
        self.asked += 1;
        if verdict.right {
            self.right += 1;
        } else {
            self.missed.push((question.clone(), verdict.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::question::Difficulty;

    fn choice() -> Question {
        Question {
            id: "q".into(),
            topic: "retries".into(),
            lab: Some("retry".into()),
            difficulty: Difficulty::Easy,
            kind: QuestionKind::Choice,
            prompt: "?".into(),
            choices: vec!["64".into(), "12".into(), "4".into()],
            answer: Some(Answer::Text("64".into())),
            tolerance: None,
            unit: None,
            metric: None,
            settings: None,
            shows: Vec::new(),
            given_away_by: Vec::new(),
            given_away_at_any_settings: false,
            fact: None,
            explanation: "4 x 4 x 4".into(),
            source: "SRE book".into(),
        }
    }

    #[test]
    fn the_right_letter_follows_the_shuffle() {
        let asked = Asked {
            question: choice(),
            choice_order: vec![2, 0, 1],
        };
        assert_eq!(asked.right_letter(), Some('b'));
        assert!(grade(&asked, &Response::Letter('b'), &[]).right);
        assert!(grade(&asked, &Response::Letter('B'), &[]).right);
        let wrong = grade(&asked, &Response::Letter('a'), &[]);
        assert!(!wrong.right);
        assert_eq!(wrong.expected, "b) 64");
    }

    #[test]
    fn a_letter_is_read_in_either_case_and_with_its_bracket() {
        let letters = ['a', 'b', 'c', 'd'];
        for text in ["a", "A", "a)", "(a)", "a.", " (A) ", "A)"] {
            assert_eq!(read_letter(text, &letters), Some('a'), "{text}");
        }
        assert_eq!(read_letter("D", &letters), Some('d'));
        for text in ["e", "ab", "a))", "", "()", "1"] {
            assert_eq!(read_letter(text, &letters), None, "{text}");
        }
    }

    #[test]
    fn a_session_draws_at_most_one_question_per_fact() {
        let bank: Vec<Question> = (0..6)
            .map(|i| Question {
                id: format!("q{i}"),
                fact: (i < 4).then(|| "first-open".to_string()),
                ..choice()
            })
            .collect();
        for seed in 0..20 {
            let drawn = draw(&bank, &Filter::default(), 6, seed);
            let sharing = drawn.iter().filter(|a| a.question.fact.is_some()).count();
            assert_eq!(sharing, 1, "seed {seed}: {sharing} questions of one fact");
            assert_eq!(drawn.len(), 3, "the two without a fact and one of the four");
        }
    }

    /// The breaker group of the bank: each pair's second question states the first's answer
    /// in its prompt or explanation, so the two may not be drawn into one session.
    #[rustfmt::skip]
    const RESTATED: [(&str, &str, &str); 8] = [
        ("breaker-lab-open-time-default",    "breaker-lab-open-time-window-100", "10.29"),
        ("breaker-lab-open-time-default",    "breaker-long-timeout-inside",      "10.29"),
        ("breaker-lab-open-time-window-100", "atlas-q3-lesson",                  "10.69"),
        ("atlas-q3-fresh-breaker",           "atlas-q3-lesson",                  "100 s"),
        ("atlas-q3-full-window",             "atlas-q3-lesson",                  "50 s"),
        ("breaker-lab-extra-degraded",       "breaker-lab-open-s-1",             "3,133"),
        ("breaker-lab-stuck-littles-law",    "interview-littles-law-breaker",    "20"),
        ("breaker-lab-p99",                  "interview-breaker-and-timeout",    "200 ms"),
    ];

    #[test]
    fn questions_that_restate_each_others_answers_share_a_fact() {
        let content = crate::content::Content::load(None).expect("the built-in bank loads");
        let bank = content.quiz_questions();
        let find = |id: &str| bank.iter().find(|q| q.id == id).unwrap_or_else(|| panic!("{id}"));
        for (asked, telling, number) in RESTATED {
            let (asked, telling) = (find(asked), find(telling));
            let text = format!("{} {}", telling.prompt, telling.explanation);
            assert!(text.contains(number), "{}: no longer states {number}", telling.id);
            assert!(
                asked.fact.is_some() && asked.fact == telling.fact,
                "{} states {}'s {number}: give both one fact",
                telling.id,
                asked.id
            );
        }
    }

    #[test]
    fn draws_are_filtered_and_repeatable() {
        let mut other = choice();
        other.id = "other".into();
        other.lab = None;
        let bank = vec![choice(), other];
        let filter = Filter {
            lab: Some(LabId::Retry),
            topic: None,
        };
        let drawn = draw(&bank, &filter, 10, 1);
        assert_eq!(drawn.len(), 1);
        assert_eq!(
            draw(&bank, &Filter::default(), 2, 9),
            draw(&bank, &Filter::default(), 2, 9)
        );
    }

    #[test]
    fn predict_checks_score_against_the_run() {
        let predict = Question {
            kind: QuestionKind::Predict,
            choices: vec![],
            answer: None,
            tolerance: Some(10.0),
            unit: Some("calls".into()),
            metric: Some("breaker.with_breaker.sick_calls".into()),
            ..choice()
        };
        let asked = Asked {
            question: predict,
            choice_order: vec![],
        };
        let run = vec![("breaker.with_breaker.sick_calls".to_string(), 44.0)];
        assert!(grade(&asked, &Response::Number(50.0.into()), &run).right);
        let verdict = grade(&asked, &Response::Number(3000.0.into()), &run);
        assert!(!verdict.right);
        assert_eq!(verdict.expected, "44 calls (within 10)");
    }

    #[test]
    fn a_percentage_may_be_typed_as_a_fraction() {
        let rate = Question {
            kind: QuestionKind::Number,
            choices: vec![],
            answer: Some(Answer::Number(78.2)),
            tolerance: Some(0.5),
            unit: Some("%".into()),
            ..choice()
        };
        let asked = Asked {
            question: rate.clone(),
            choice_order: vec![],
        };
        for (typed, right) in [(78.2, true), (0.782, true), (0.78, true), (0.70, false), (7.82, false)] {
            assert_eq!(
                grade(&asked, &Response::Number(typed.into()), &[]).right,
                right,
                "{typed}"
            );
        }
        // Other units are read as typed: 0.782 calls is not 78.2 calls.
        let calls = Asked {
            question: Question {
                unit: Some("calls".into()),
                ..rate
            },
            choice_order: vec![],
        };
        assert!(!grade(&calls, &Response::Number(0.782.into()), &[]).right);
    }
}
