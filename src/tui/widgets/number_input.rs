//! A number being typed: the quiz's number questions and a lab's prediction prompt.

use crate::content::Question;
use crate::learning::quiz::answer::{self, Reading};

/// Longest typed answer, in characters: enough for `-1,234,567.891` or `10690 ms`.
pub const MAX_INPUT_CHARS: usize = 20;

/// A number being typed, with an optional unit (`20%`, `10690 ms`), edited with Backspace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NumberInput {
    pub text: String,
    /// A character no answer holds, typed after `text`: until Backspace takes it back, every
    /// key and Enter are refused, so `4^3` can become neither `43` nor `4`.
    pub refused: Option<char>,
}

impl NumberInput {
    /// Adds `c` when an answer can hold it; otherwise says in one line why not and what to do.
    pub fn push(&mut self, c: char) -> Result<(), String> {
        if let Some(refused) = self.refused {
            return Err(answer::refused_char_hint(refused));
        }
        if !answer::takes_char(c) {
            self.refused = Some(c);
            return Err(answer::refused_char_hint(c));
        }
        if self.text.chars().count() >= MAX_INPUT_CHARS {
            return Err(format!("at most {MAX_INPUT_CHARS} characters: Backspace erases"));
        }
        self.text.push(c);
        Ok(())
    }

    /// The hint the text typed so far needs for `question`: the refused character's, or the
    /// one for letters no unit word of the answer begins with (so `5x` says so before Enter).
    pub fn hint(&self, question: &Question) -> Option<String> {
        match self.refused {
            Some(refused) => Some(answer::refused_char_hint(refused)),
            None => answer::dead_end(question, &self.text),
        }
    }

    /// Removes the refused character, else the last one; returns whether there was one.
    pub fn erase(&mut self) -> bool {
        self.refused.take().is_some() || self.text.pop().is_some()
    }

    /// The answer typed, read for `question` as the plain-terminal quiz reads it.
    pub fn read(&self, question: &Question) -> Result<Reading, String> {
        match self.refused {
            Some(refused) => Err(answer::refused_char_hint(refused)),
            None => answer::read(question, &self.text),
        }
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.refused = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_no_answer_holds_is_refused_out_loud_until_erased() {
        let mut input = NumberInput::default();
        assert_eq!(input.push('4'), Ok(()));
        let refused = input.push('^').expect_err("^ is refused");
        assert!(refused.contains("'^' is not taken"), "{refused}");
        // The 3 after it is refused too: 4^3 must not become 43.
        assert_eq!(input.push('3'), Err(refused.clone()));
        assert_eq!(input.text, "4");
        assert!(
            input
                .read(&crate::content::Content::load(None).expect("content").labs[0].checks[0])
                .is_err()
        );
        assert!(input.erase(), "Backspace takes the refused character back");
        for c in "0 ms".chars() {
            assert_eq!(input.push(c), Ok(()));
        }
        assert_eq!(input.text, "40 ms");
        assert!(input.erase());
        assert_eq!(input.text, "40 m");
        input.clear();
        assert!(!input.erase());
    }
}
