//! Counts in prose: a small count as a word ("five labs"), and a noun that agrees with its
//! count ("1 answer", "2 answers"), for the lines where a number is read as a sentence; a
//! number with its unit ("1 call", "2 calls", "1 ms"), for every place that writes one; and
//! [`same_text`], text compared where `==` cannot be (in a constant).

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

/// `shown` (a number as written) and its unit, the unit in the singular for a count of one:
/// "1 hop", "3 hops", "1 ms"; `shown` alone when there is no unit.
pub fn with_unit(shown: &str, unit: &str) -> String {
    if unit.is_empty() {
        shown.to_string()
    } else if shown == "1" {
        format!("1 {}", singular_unit(unit))
    } else {
        format!("{shown} {unit}")
    }
}

/// A counted unit for a count of one: "1 hop", "1 replica", not "1 hops". Only a word's
/// plural loses its "s"; a unit of measure (`s`, `ms`, `calls/s`, `req/s`) stays as it is.
pub fn singular_unit(unit: &str) -> &str {
    let is_counted_noun = unit.len() > 2 && unit.bytes().all(|b| b.is_ascii_lowercase()) && unit.ends_with('s');
    if is_counted_noun { &unit[..unit.len() - 1] } else { unit }
}

/// `text` with its first letter a capital: a page's title ("the fleet view") starting a line.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `a == b` for `&str` in a `const fn` (`PartialEq` is not callable there): the lab files
/// ordered by `LabId` and the parameter bounds looked up by name, both at compile time.
pub const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() {
        if a[at] != b[at] {
            return false;
        }
        at += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_one_takes_the_singular_and_units_of_measure_stay() {
        for (unit, one) in [
            ("hops", "hop"),
            ("calls", "call"),
            ("replicas", "replica"),
            ("attempts", "attempt"),
        ] {
            assert_eq!(singular_unit(unit), one);
            assert_eq!(with_unit("1", unit), format!("1 {one}"));
            assert_eq!(with_unit("2", unit), format!("2 {unit}"));
        }
        for unit in ["s", "ms", "calls/s", "req/s", "QPS", "share", "HTTP status"] {
            assert_eq!(singular_unit(unit), unit);
        }
        assert_eq!(with_unit("0.5", ""), "0.5");
    }

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
