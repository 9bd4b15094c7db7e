//! Counts in prose: a small count as a word ("five labs"), and a noun that agrees with its
//! count ("1 answer", "2 answers"), for the lines where a number is read as a sentence.

/// `count` as a word up to twelve, as digits above.
pub fn count_in_words(count: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ];
    WORDS
        .get(count)
        .map_or_else(|| count.to_string(), |word| word.to_string())
}

/// "1 answer" or "3 answers": `count` and the noun it takes.
pub fn count_of(count: usize, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts_are_words_and_larger_ones_digits() {
        assert_eq!(count_in_words(5), "five");
        assert_eq!(count_in_words(0), "no");
        assert_eq!(count_in_words(13), "13");
        assert_eq!(count_of(1, "answer", "answers"), "1 answer");
        assert_eq!(count_of(0, "answer", "answers"), "0 answers");
        assert_eq!(count_of(2, "question", "questions"), "2 questions");
    }
}
