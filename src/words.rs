//! Counts in prose: a small count as a word ("five labs"), for the lines where a number is
//! read as a sentence and a new lab should need no edit.

/// `count` as a word up to twelve, as digits above.
pub fn count_in_words(count: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ];
    WORDS
        .get(count)
        .map_or_else(|| count.to_string(), |word| word.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts_are_words_and_larger_ones_digits() {
        assert_eq!(count_in_words(5), "five");
        assert_eq!(count_in_words(0), "no");
        assert_eq!(count_in_words(13), "13");
    }
}
