//! A number being typed: the quiz's number questions and a lab's prediction prompt.

use crate::quiz;

/// Longest typed number, in characters: enough for `-1,234,567.891`.
pub const MAX_INPUT_CHARS: usize = 16;

/// A number being typed: digits, `.`, `,` and `-`, edited with Backspace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NumberInput {
    pub text: String,
}

impl NumberInput {
    /// Adds `c` if it can be part of a number; returns whether the text changed.
    pub fn push(&mut self, c: char) -> bool {
        let allowed = c.is_ascii_digit() || matches!(c, '.' | ',' | '-');
        if allowed && self.text.chars().count() < MAX_INPUT_CHARS {
            self.text.push(c);
            true
        } else {
            false
        }
    }

    /// Removes the last character; returns whether there was one.
    pub fn erase(&mut self) -> bool {
        self.text.pop().is_some()
    }

    /// The number typed, read as leniently as the plain-terminal quiz reads it.
    pub fn value(&self) -> Option<f64> {
        quiz::parse_number(&self.text)
    }

    pub fn clear(&mut self) {
        self.text.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_number_characters_are_typed() {
        let mut input = NumberInput::default();
        for c in "6x4.5".chars() {
            input.push(c);
        }
        assert_eq!(input.text, "64.5");
        assert_eq!(input.value(), Some(64.5));
        assert!(input.erase());
        assert_eq!(input.text, "64.");
        input.clear();
        assert_eq!(input.value(), None);
    }
}
