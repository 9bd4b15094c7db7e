//! The quiz screen's state machine: pick a lab or topic and a count, answer one question at
//! a time, see right or wrong with the explanation at once, then review what was missed.
//!
//! ```text
//! Setup --Enter--> Question --answer--> Feedback --Enter--> Question ... --> Review
//!   ^                  |  Esc/q              | Esc/q                            |
//!   +--- Enter --------+---------------------+-------------------------------- +
//! ```
//!
//! Drawing, grading and scoring live elsewhere (`view/quiz.rs`, `crate::learning::quiz`); this module
//! only moves between stages and says what the app must record ([`QuizOutcome::Answered`]).

use crate::content::{Content, Question, QuestionKind};
use crate::learning::progress::Progress;
use crate::learning::quiz::{self, Asked, Filter, Response, Score, Verdict};
use crate::learning::{review, schedule};
use crate::tui::keys::Context;
use crate::tui::msg::Msg;
use crate::tui::widgets::number_input::NumberInput;

/// How many questions a quiz asks unless the learner changes it.
pub const DEFAULT_COUNT: usize = 10;

/// The most questions one quiz may ask (the bank is smaller than this today).
pub const MAX_COUNT: usize = 50;

/// One entry of the picker: its label and which questions it admits.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub label: String,
    pub filter: Filter,
    /// Questions the filter admits, shown beside the label.
    pub available: usize,
    /// A review: the questions in the review schedule's order (due today first, lowest box
    /// first, then new ones), as `quiz --review` asks them, instead of a random draw.
    pub review: bool,
}

/// Where the quiz is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Setup,
    Question,
    Feedback,
    Review,
}

/// The answer just given, shown until the learner moves on.
#[derive(Clone, Debug, PartialEq)]
pub struct Feedback {
    /// What the learner answered, as shown: `b) 64` or `64`.
    pub response: String,
    pub verdict: Verdict,
}

/// What the app must do after a message.
#[derive(Clone, Debug, PartialEq)]
pub enum QuizOutcome {
    /// Nothing changed on screen.
    Unchanged,
    Changed,
    /// An answer was graded: record it in progress (and save).
    Answered {
        question_id: String,
        lab: Option<String>,
        right: bool,
    },
    /// Leave for the home screen.
    Home,
}

/// The quiz screen's state.
#[derive(Clone, Debug)]
pub struct QuizScreen {
    pub picks: Vec<Pick>,
    /// The highlighted pick.
    pub picked: usize,
    /// Questions to ask.
    pub count: usize,
    pub stage: Stage,
    /// This quiz's questions, in order.
    pub asked: Vec<Asked>,
    /// Index into `asked` of the question showing.
    pub current: usize,
    /// The highlighted choice (arrows + Enter answer with it).
    pub cursor: usize,
    pub input: NumberInput,
    pub feedback: Option<Feedback>,
    pub score: Score,
    /// First line shown of the review.
    pub review_scroll: u16,
    /// The seed of the next quiz's draw; it moves on after each quiz so two quizzes differ.
    pub seed: u64,
    /// A one-line hint, e.g. "type a number first".
    pub hint: Option<String>,
}

impl QuizScreen {
    pub fn new(content: &Content) -> Self {
        let questions = content.quiz_questions();
        let count_of = |filter: &Filter| questions.iter().filter(|q| filter.admits(q)).count();
        let mut filters = vec![("All questions".to_string(), Filter::default())];
        let review_label = "Review: what is due today first";
        filters.push((review_label.to_string(), Filter::default()));
        for (number, lab) in content.labs.iter().enumerate() {
            let filter = Filter {
                lab: Some(lab.lab),
                topic: None,
            };
            filters.push((format!("Lab {} · {}", number + 1, lab.title), filter));
        }
        let mut topics: Vec<&str> = content.bank.iter().map(|e| e.question.topic.as_str()).collect();
        topics.sort_unstable();
        topics.dedup();
        for topic in topics {
            let filter = Filter {
                lab: None,
                topic: Some(topic.to_string()),
            };
            filters.push((format!("Topic: {topic}"), filter));
        }
        let picks = filters
            .into_iter()
            .map(|(label, filter)| Pick {
                available: count_of(&filter),
                review: label == review_label,
                label,
                filter,
            })
            .collect();
        Self {
            picks,
            picked: 0,
            count: DEFAULT_COUNT,
            stage: Stage::Setup,
            asked: Vec::new(),
            current: 0,
            cursor: 0,
            input: NumberInput::default(),
            feedback: None,
            score: Score::default(),
            review_scroll: 0,
            seed: 1,
            hint: None,
        }
    }

    /// Which part of the key table applies.
    pub fn context(&self) -> Context {
        match self.stage {
            Stage::Setup => Context::QuizSetup,
            Stage::Question => match self.question().map(|q| q.kind) {
                Some(QuestionKind::Choice) => Context::QuizChoice,
                _ => Context::QuizNumber,
            },
            Stage::Feedback => Context::QuizFeedback,
            Stage::Review => Context::QuizReview,
        }
    }

    /// The question showing, if a quiz is under way.
    pub fn question(&self) -> Option<&Question> {
        self.asked.get(self.current).map(|asked| &asked.question)
    }

    /// How many choices the question showing has (none for a typed answer or no question).
    pub fn choices(&self) -> usize {
        self.asked.get(self.current).map_or(0, |asked| asked.choice_order.len())
    }

    /// Back to the picker, keeping the pick and count.
    pub fn reset(&mut self) {
        self.stage = Stage::Setup;
        self.asked.clear();
        self.current = 0;
        self.feedback = None;
        self.score = Score::default();
        self.input.clear();
        self.hint = None;
    }

    /// Draws the questions (or takes a review's, from `progress`) and asks the first.
    pub fn start(&mut self, content: &Content, progress: &Progress) -> QuizOutcome {
        let Some(pick) = self.picks.get(self.picked) else {
            return QuizOutcome::Unchanged;
        };
        let questions = content.quiz_questions();
        let asked = if pick.review {
            let ordered = review::order(&questions, progress, self.seed, schedule::today_utc_day());
            quiz::ask_in_order(&ordered[..ordered.len().min(self.count)], self.seed)
        } else {
            quiz::draw(&questions, &pick.filter, self.count, self.seed)
        };
        if asked.is_empty() {
            self.hint = Some("no questions here: choose another lab or topic".to_string());
            return QuizOutcome::Changed;
        }
        self.seed = self.seed.wrapping_add(1);
        self.asked = asked;
        self.current = 0;
        self.cursor = 0;
        self.score = Score::default();
        self.feedback = None;
        self.input.clear();
        self.hint = None;
        self.review_scroll = 0;
        self.stage = Stage::Question;
        QuizOutcome::Changed
    }

    /// Applies one message.
    pub fn update(&mut self, msg: Msg, content: &Content, progress: &Progress) -> QuizOutcome {
        match self.stage {
            Stage::Setup => self.update_setup(msg, content, progress),
            Stage::Question => self.update_question(msg),
            Stage::Feedback => match msg {
                Msg::Open => self.next(),
                Msg::Back => self.finish(),
                _ => QuizOutcome::Unchanged,
            },
            Stage::Review => self.update_review(msg),
        }
    }

    fn update_setup(&mut self, msg: Msg, content: &Content, progress: &Progress) -> QuizOutcome {
        let before = (self.picked, self.count);
        match msg {
            Msg::Up => self.picked = self.picked.saturating_sub(1),
            Msg::Down => self.picked = (self.picked + 1).min(self.picks.len().saturating_sub(1)),
            Msg::Step(delta) => {
                let count = self.count as i64 + i64::from(delta);
                self.count = count.clamp(1, MAX_COUNT as i64) as usize;
            }
            Msg::Open => return self.start(content, progress),
            Msg::Back => return QuizOutcome::Home,
            _ => {}
        }
        if before == (self.picked, self.count) {
            QuizOutcome::Unchanged
        } else {
            self.hint = None;
            QuizOutcome::Changed
        }
    }

    fn update_question(&mut self, msg: Msg) -> QuizOutcome {
        let Some(asked) = self.asked.get(self.current) else {
            return QuizOutcome::Unchanged;
        };
        let choices = asked.choice_order.len();
        match (asked.question.kind, msg) {
            (_, Msg::Back) => self.finish(),
            (QuestionKind::Choice, Msg::Answer(index)) if usize::from(index) < choices => {
                self.answer_choice(usize::from(index))
            }
            // A letter past the last choice (`e` on a four-choice question) says so, not nothing.
            (QuestionKind::Choice, Msg::Answer(_)) if choices > 0 => {
                let last = char::from(b'a' + u8::try_from(choices - 1).unwrap_or(0));
                self.hint = Some(format!("this question has choices a to {last}"));
                QuizOutcome::Changed
            }
            (QuestionKind::Choice, Msg::Up) if choices > 0 => {
                self.cursor = self.cursor.saturating_sub(1);
                QuizOutcome::Changed
            }
            (QuestionKind::Choice, Msg::Down) if choices > 0 => {
                self.cursor = (self.cursor + 1).min(choices - 1);
                QuizOutcome::Changed
            }
            (QuestionKind::Choice, Msg::Open) if choices > 0 => self.answer_choice(self.cursor),
            (QuestionKind::Number | QuestionKind::Predict, Msg::Type(c)) => {
                // A key the input does not take says so rather than vanish; the next good one clears it.
                self.hint = self.input.push(c).err().or_else(|| self.input.hint(&asked.question));
                QuizOutcome::Changed
            }
            (QuestionKind::Number | QuestionKind::Predict, Msg::Erase) => {
                let erased = self.input.erase();
                self.hint = self.input.hint(&asked.question);
                changed(erased)
            }
            (QuestionKind::Number | QuestionKind::Predict, Msg::Open) => match self.input.read(&asked.question) {
                Ok(reading) => {
                    let shown = reading
                        .note
                        .clone()
                        .unwrap_or_else(|| self.input.text.trim().to_string());
                    self.grade(Response::Number(reading), shown)
                }
                Err(refusal) => {
                    self.hint = Some(refusal);
                    QuizOutcome::Changed
                }
            },
            _ => QuizOutcome::Unchanged,
        }
    }

    fn answer_choice(&mut self, index: usize) -> QuizOutcome {
        let Some(asked) = self.asked.get(self.current) else {
            return QuizOutcome::Unchanged;
        };
        let Some((letter, text)) = asked.shown_choices().get(index).map(|(l, t)| (*l, t.to_string())) else {
            return QuizOutcome::Unchanged;
        };
        self.cursor = index;
        self.grade(Response::Letter(letter), format!("{letter}) {text}"))
    }

    fn grade(&mut self, response: Response, shown: String) -> QuizOutcome {
        let asked = &self.asked[self.current];
        // The bank's questions carry their answers; no run is needed.
        let verdict = quiz::grade(asked, &response, &[]);
        let question = asked.question.clone();
        self.score.record(&question, &verdict);
        let right = verdict.right;
        self.feedback = Some(Feedback {
            response: shown,
            verdict,
        });
        self.hint = None;
        self.stage = Stage::Feedback;
        QuizOutcome::Answered {
            question_id: question.id,
            lab: question.lab,
            right,
        }
    }

    fn next(&mut self) -> QuizOutcome {
        self.feedback = None;
        self.input.clear();
        self.cursor = 0;
        if self.current + 1 < self.asked.len() {
            self.current += 1;
            self.stage = Stage::Question;
            QuizOutcome::Changed
        } else {
            self.finish()
        }
    }

    /// Ends the quiz (all asked, or the learner stopped) and shows the review.
    fn finish(&mut self) -> QuizOutcome {
        self.stage = Stage::Review;
        self.feedback = None;
        self.review_scroll = 0;
        QuizOutcome::Changed
    }

    fn update_review(&mut self, msg: Msg) -> QuizOutcome {
        let before = self.review_scroll;
        match msg {
            Msg::Up => self.review_scroll = self.review_scroll.saturating_sub(1),
            Msg::Down => self.review_scroll = self.review_scroll.saturating_add(1),
            Msg::ScrollUp => self.review_scroll = self.review_scroll.saturating_sub(10),
            Msg::ScrollDown => self.review_scroll = self.review_scroll.saturating_add(10),
            Msg::Open => {
                self.reset();
                return QuizOutcome::Changed;
            }
            Msg::Back => {
                self.reset();
                return QuizOutcome::Home;
            }
            _ => {}
        }
        // The view clamps the scroll to the text; this bound only stops runaway counts.
        self.review_scroll = self.review_scroll.min(2_000);
        changed(before != self.review_scroll)
    }
}

fn changed(yes: bool) -> QuizOutcome {
    if yes {
        QuizOutcome::Changed
    } else {
        QuizOutcome::Unchanged
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::widgets::number_input::MAX_INPUT_CHARS;

    fn content() -> Content {
        Content::load(None).expect("the built-in content loads")
    }

    #[test]
    fn number_input_takes_digits_and_edits() {
        let mut input = NumberInput::default();
        for c in "1,20.5-".chars() {
            assert_eq!(input.push(c), Ok(()));
        }
        assert_eq!(input.text, "1,20.5-");
        assert!(input.erase());
        input.clear();
        assert!(!input.erase());
        for _ in 0..40 {
            let _ = input.push('9');
        }
        assert_eq!(input.text.len(), MAX_INPUT_CHARS);
    }

    #[test]
    fn the_picker_lists_all_a_review_labs_then_topics() {
        let content = content();
        let screen = QuizScreen::new(&content);
        assert_eq!(screen.picks[0].label, "All questions");
        assert!(screen.picks[1].review && screen.picks[1].label.starts_with("Review: "));
        let labs = content.labs.len();
        for lab in 0..labs {
            assert!(screen.picks[2 + lab].label.starts_with(&format!("Lab {} · ", lab + 1)));
        }
        assert!(screen.picks[2 + labs].label.starts_with("Topic: "));
        assert_eq!(screen.picks.iter().filter(|p| p.review).count(), 1);
        assert!(screen.picks.iter().all(|p| p.available > 0));
    }

    /// The app's review asks what `quiz --review` asks: the questions due today first.
    #[test]
    fn the_review_pick_asks_the_due_questions_first() {
        let content = content();
        let mut progress = Progress::new();
        progress.record_answer("retry-three-layers", None, false);
        progress.record_answer("overload-capacity", None, true);
        let mut screen = QuizScreen::new(&content);
        screen.picked = 1;
        screen.count = 3;
        assert_eq!(screen.update(Msg::Open, &content, &progress), QuizOutcome::Changed);
        let ids: Vec<&str> = screen.asked.iter().map(|a| a.question.id.as_str()).collect();
        assert_eq!(ids.len(), 3);
        assert_eq!(ids[0], "retry-three-layers", "the miss is due today: {ids:?}");
        assert!(
            !ids.contains(&"overload-capacity"),
            "answered right today, it waits for tomorrow: {ids:?}"
        );
    }

    #[test]
    fn select_answer_feedback_next_review() {
        let content = content();
        let mut screen = QuizScreen::new(&content);
        assert_eq!(screen.context(), Context::QuizSetup);
        screen.update(Msg::Step(-8), &content, &Progress::new());
        assert_eq!(screen.count, 2);
        assert_eq!(
            screen.update(Msg::Open, &content, &Progress::new()),
            QuizOutcome::Changed
        );
        assert_eq!(screen.stage, Stage::Question);
        assert_eq!(screen.asked.len(), 2);
        for number in 0..2 {
            let asked = screen.asked[number].clone();
            let outcome = match asked.question.kind {
                QuestionKind::Choice => {
                    let right = asked.right_letter().expect("a right letter");
                    // Arrow to the right choice, then Enter.
                    let target = (right as u8 - b'a') as usize;
                    for _ in 0..target {
                        screen.update(Msg::Down, &content, &Progress::new());
                    }
                    screen.update(Msg::Open, &content, &Progress::new())
                }
                _ => {
                    // A wrong number: the review must list it.
                    for c in "-1".chars() {
                        screen.update(Msg::Type(c), &content, &Progress::new());
                    }
                    screen.update(Msg::Open, &content, &Progress::new())
                }
            };
            let QuizOutcome::Answered { question_id, .. } = outcome else {
                panic!("an answer is recorded, got {outcome:?}");
            };
            assert_eq!(question_id, asked.question.id);
            assert_eq!(screen.stage, Stage::Feedback);
            assert!(screen.feedback.is_some());
            screen.update(Msg::Open, &content, &Progress::new());
        }
        assert_eq!(screen.stage, Stage::Review);
        assert_eq!(screen.score.asked, 2);
        assert_eq!(screen.score.asked - screen.score.right, screen.score.missed.len());
        assert_eq!(screen.update(Msg::Back, &content, &Progress::new()), QuizOutcome::Home);
        assert_eq!(screen.stage, Stage::Setup);
    }

    /// A quiz started on as many questions as it asks at most, so every kind is among them.
    fn every_question_drawn(content: &Content) -> QuizScreen {
        let mut screen = QuizScreen::new(content);
        screen.count = MAX_COUNT;
        screen.reset();
        screen.start(content, &Progress::new());
        screen
    }

    /// `e` on a four-choice question is not an answer: the quiz says which letters there are.
    #[test]
    fn a_letter_past_the_last_choice_says_which_letters_there_are() {
        let content = content();
        let mut screen = every_question_drawn(&content);
        let four = screen
            .asked
            .iter()
            .position(|a| a.question.kind == QuestionKind::Choice && a.choice_order.len() == 4)
            .expect("a four-choice question");
        screen.current = four;
        assert_eq!(
            screen.update(Msg::Answer(4), &content, &Progress::new()),
            QuizOutcome::Changed
        );
        assert_eq!(screen.hint.as_deref(), Some("this question has choices a to d"));
        assert_eq!(screen.stage, Stage::Question, "not answered");
        assert_eq!(screen.score.asked, 0);
    }

    #[test]
    fn a_wrong_letter_is_graded_wrong_and_enter_without_a_number_hints() {
        let content = content();
        // Find a choice question and a number question in the same draw, by drawing them all.
        let mut screen = every_question_drawn(&content);
        let choice = screen
            .asked
            .iter()
            .position(|a| a.question.kind == QuestionKind::Choice)
            .expect("a choice question");
        screen.current = choice;
        let right = screen.asked[choice].right_letter().expect("right letter");
        let wrong = if right == 'a' { 1 } else { 0 };
        let outcome = screen.update(Msg::Answer(wrong), &content, &Progress::new());
        assert!(matches!(outcome, QuizOutcome::Answered { right: false, .. }));
        assert_eq!(screen.score.missed.len(), 1);
        let number = screen
            .asked
            .iter()
            .position(|a| a.question.kind != QuestionKind::Choice)
            .expect("a typed question");
        screen.current = number;
        screen.stage = Stage::Question;
        assert_eq!(
            screen.update(Msg::Open, &content, &Progress::new()),
            QuizOutcome::Changed
        );
        assert!(screen.hint.is_some());
        assert_eq!(screen.stage, Stage::Question);
    }

    #[test]
    fn the_quiz_asks_the_bank_and_no_lab_check() {
        let content = content();
        let checks: Vec<&str> = content
            .labs
            .iter()
            .flat_map(|lab| lab.checks.iter().map(|check| check.id.as_str()))
            .collect();
        assert!(!checks.is_empty());
        let mut screen = QuizScreen::new(&content);
        screen.count = MAX_COUNT;
        for pick in 0..screen.picks.len() {
            screen.picked = pick;
            screen.start(&content, &Progress::new());
            for asked in &screen.asked {
                assert!(
                    !checks.contains(&asked.question.id.as_str()),
                    "{} drawn",
                    asked.question.id
                );
                assert_ne!(asked.question.kind, QuestionKind::Predict);
            }
        }
    }
}
