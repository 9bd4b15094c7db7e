//! Reading a typed numeric answer: one number, then optionally a unit of the question's kind.
//!
//! The one reader for the app's number input (quiz and lab predictions) and the plain `quiz`,
//! so an answer is read the same way wherever it is typed. A right answer written another
//! right way is read as that answer and the verdict says how (`10690 ms, read as 10.69 s`);
//! an answer the reader cannot take whole is refused with a line saying what is allowed, never
//! shortened into another number (`4^3` is not `4`, nor `43`).

use crate::content::question::Question;

/// A typed answer as the question's number.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// In the question's unit (a share as 0 to 1).
    pub value: f64,
    /// How the text was read when that is not the number as typed, e.g. `20, read as 20% = 0.2`.
    pub note: Option<String>,
    /// Whether a unit or `%` was typed: a percentage typed with `%` is not also read as a fraction.
    pub unit_typed: bool,
}

impl From<f64> for Reading {
    /// A number with nothing to convert (a live probe's status code, a test's value).
    fn from(value: f64) -> Self {
        Reading {
            value,
            note: None,
            unit_typed: false,
        }
    }
}

/// Characters a typed answer may hold: a number, a unit word, `%`, `/` (req/s) and spaces.
pub fn takes_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | ',' | '_' | '-' | '+' | '%' | '/' | ' ')
}

/// The one line a refused character gets.
pub fn refused_char_hint(c: char) -> String {
    format!("'{c}' is not taken: one number, e.g. 64, optionally with a unit (20%, 500 ms); Backspace erases it")
}

/// The hint for text typed so far that no more typing can make an answer to `question`:
/// letters before any number, or letters after it that begin no unit word this answer
/// takes (`5x` for a count of attempts), said at once rather than at Enter. `None` while the
/// text may still become one (`5 m` on its way to `5 ms`, `1e` to `1e3`, `3,` to `3,000`).
pub fn dead_end(question: &Question, text: &str) -> Option<String> {
    let kind = kind(question);
    let trimmed = text.trim_start();
    let (number_text, rest) = split_number(trimmed);
    let letters_first = number_text.is_empty() && trimmed.starts_with(|c: char| c.is_ascii_alphabetic());
    if letters_first {
        return Some(format!("type a number first ({}); Backspace erases", allowed(kind)));
    }
    let suffix = rest.trim_start().to_ascii_lowercase();
    let unfinished_number = ["e", "e-", "e+", ",", "_"].contains(&suffix.as_str()) && !rest.starts_with(' ');
    if number_text.is_empty() || suffix.is_empty() || unfinished_number {
        return None;
    }
    // Only a suffix of unit characters is judged here; anything else is read's to refuse.
    if !suffix
        .chars()
        .all(|c| c.is_ascii_alphabetic() || matches!(c, '%' | '/' | ' ' | '.'))
    {
        return None;
    }
    let begins_a_unit = unit_words(kind)
        .iter()
        .any(|word| word.to_ascii_lowercase().starts_with(&suffix));
    (!begins_a_unit).then(|| {
        format!(
            "'{}' is not a unit of this answer; {}; Backspace erases",
            rest.trim(),
            allowed(kind)
        )
    })
}

/// The unit words an answer of `kind` may end with, as [`with_unit`] takes them.
fn unit_words(kind: Kind<'_>) -> Vec<&str> {
    match kind {
        Kind::Time(_) => TIME_UNITS.iter().map(|(name, _)| *name).collect(),
        Kind::Percent | Kind::Share => vec!["%"],
        Kind::Rate(unit) => RATE_UNITS.iter().copied().chain([unit]).collect(),
        Kind::Other("") => Vec::new(),
        Kind::Other(unit) => {
            let singular = unit.strip_suffix('s').unwrap_or(unit);
            let mut words = vec![unit, singular];
            if unit.eq_ignore_ascii_case("x") {
                words.push("times");
            }
            words
        }
    }
}

/// Time units the bank uses, with their length in seconds.
#[rustfmt::skip]
const TIME_UNITS: &[(&str, f64)] = &[
    ("ms",           0.001),
    ("msec",         0.001),
    ("millisecond",  0.001),
    ("milliseconds", 0.001),
    ("s",            1.0),
    ("sec",          1.0),
    ("secs",         1.0),
    ("second",       1.0),
    ("seconds",      1.0),
];

/// Rate units: all per second, so one reads as another.
const RATE_UNITS: &[&str] = &[
    "qps",
    "/s",
    "per s",
    "rps",
    "req/s",
    "requests/s",
    "calls/s",
    "queries/s",
];

/// What kind of number a question asks for, from its unit (and, for a share, its prompt).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind<'q> {
    /// A length of time; the factor is the question's unit in seconds.
    Time(f64),
    Percent,
    /// A share or a probability, from 0 to 1.
    Share,
    Rate(&'q str),
    /// A count or a plain number, in this unit word (empty for none).
    Other(&'q str),
}

fn kind(question: &Question) -> Kind<'_> {
    let unit = question.unit.as_deref().unwrap_or("").trim();
    let lower = unit.to_ascii_lowercase();
    if let Some((_, seconds)) = TIME_UNITS.iter().find(|(name, _)| *name == lower) {
        return Kind::Time(*seconds);
    }
    if unit == "%" {
        return Kind::Percent;
    }
    if is_share(question) {
        return Kind::Share;
    }
    if RATE_UNITS.contains(&lower.as_str()) {
        return Kind::Rate(unit);
    }
    Kind::Other(unit)
}

/// Whether `question` asks for a share from 0 to 1: its unit says so (`probability`, `share`),
/// or it has no unit and its prompt does ("(0 to 1)", "what share", "what probability").
pub fn is_share(question: &Question) -> bool {
    let unit = question.unit.as_deref().unwrap_or("").trim().to_ascii_lowercase();
    if matches!(unit.as_str(), "probability" | "share") {
        return true;
    }
    let prompt = question.prompt.to_ascii_lowercase();
    unit.is_empty()
        && ["(0 to 1)", "what share", "what probability"]
            .iter()
            .any(|p| prompt.contains(p))
}

/// Reads `text` as an answer to `question`, or says in one line why it cannot and what is allowed.
pub fn read(question: &Question, text: &str) -> Result<Reading, String> {
    let kind = kind(question);
    let trimmed = text.trim();
    let (number_text, rest) = split_number(trimmed);
    let Some(typed) = number_text.parse::<f64>().ok().filter(|v| v.is_finite()) else {
        return Err(format!("type a number first ({})", allowed(kind)));
    };
    let suffix = rest.trim();
    if suffix.is_empty() {
        return in_range(kind, trimmed, bare(kind, typed));
    }
    if !suffix
        .chars()
        .all(|c| c.is_ascii_alphabetic() || matches!(c, '%' | '/' | ' ' | '.'))
    {
        return Err(format!(
            "'{trimmed}' is not one number: type the number itself, e.g. 64 ({})",
            allowed(kind)
        ));
    }
    let reading = with_unit(kind, typed, suffix)
        .ok_or_else(|| format!("'{suffix}' is not a unit of this answer; {}", allowed(kind)))?;
    in_range(kind, trimmed, reading)
}

/// `reading`, or a refusal when a share falls outside 0 to 1: `2000` read as 2000% is no share,
/// and scoring it would only say "wrong" about a slip of the keyboard.
fn in_range(kind: Kind, typed: &str, reading: Reading) -> Result<Reading, String> {
    match kind {
        // The range once: the allowed forms (`allowed(kind)`) would say it again.
        Kind::Share if !(0.0..=1.0).contains(&reading.value) => Err(format!(
            "'{typed}' is outside a share's range; allowed: 0 to 1, or 0% to 100% (0.2, 20 or 20%)"
        )),
        _ => Ok(reading),
    }
}

/// The number at the start of `text` (thousands separators dropped) and what follows it.
fn split_number(text: &str) -> (String, &str) {
    let mut number = String::new();
    let mut end = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let next_is_digit = chars.get(i + 1).is_some_and(|(_, n)| n.is_ascii_digit());
        let sign_first = matches!(c, '-' | '+') && number.is_empty();
        let exponent = matches!(c, 'e' | 'E')
            && !number.is_empty()
            && (next_is_digit
                || chars.get(i + 1).is_some_and(|(_, n)| {
                    matches!(n, '-' | '+') && chars.get(i + 2).is_some_and(|(_, d)| d.is_ascii_digit())
                }));
        let sign_of_exponent = matches!(c, '-' | '+') && number.ends_with(['e', 'E']);
        if c.is_ascii_digit() || c == '.' || sign_first || exponent || sign_of_exponent {
            number.push(c);
        } else if matches!(c, ',' | '_') && !number.is_empty() && next_is_digit {
            // A thousands separator: 3,000 and 3_000 are 3000.
        } else {
            break;
        }
        end = at + c.len_utf8();
        i += 1;
    }
    (number, &text[end..])
}

/// A number typed without a unit, in the question's kind.
fn bare(kind: Kind, typed: f64) -> Reading {
    match kind {
        // Above 1 it cannot be a share: it is a percentage.
        Kind::Share if typed > 1.0 => Reading {
            value: typed / 100.0,
            note: Some(format!(
                "{}, read as {}% = {}",
                trim(typed),
                trim(typed),
                trim(typed / 100.0)
            )),
            unit_typed: false,
        },
        _ => Reading::from(typed),
    }
}

/// A number typed with `suffix` as its unit, converted to the question's; `None` for a unit
/// of another kind.
fn with_unit(kind: Kind, typed: f64, suffix: &str) -> Option<Reading> {
    let lower = suffix.to_ascii_lowercase();
    let same = |value: f64| Reading {
        value,
        note: None,
        unit_typed: true,
    };
    match kind {
        Kind::Time(question_s) => {
            let (name, seconds) = TIME_UNITS.iter().find(|(name, _)| *name == lower)?;
            let value = typed * seconds / question_s;
            let converted = (seconds - question_s).abs() > f64::EPSILON;
            let question_unit = if question_s < 1.0 { "ms" } else { "s" };
            Some(Reading {
                value,
                note: converted.then(|| format!("{} {name}, read as {} {question_unit}", trim(typed), trim(value))),
                unit_typed: true,
            })
        }
        Kind::Percent => (lower == "%").then(|| same(typed)),
        Kind::Share => (lower == "%").then(|| Reading {
            value: typed / 100.0,
            note: Some(format!("{}%, read as {}", trim(typed), trim(typed / 100.0))),
            unit_typed: true,
        }),
        Kind::Rate(unit) => {
            (RATE_UNITS.contains(&lower.as_str()) || lower == unit.to_ascii_lowercase()).then(|| same(typed))
        }
        Kind::Other(unit) => {
            let unit = unit.to_ascii_lowercase();
            let singular = unit.strip_suffix('s').unwrap_or(&unit);
            let times = unit == "x" && matches!(lower.as_str(), "x" | "times");
            (!unit.is_empty() && (lower == unit || lower == singular || times)).then(|| same(typed))
        }
    }
}

/// What a question of `kind` takes, for a refusal.
fn allowed(kind: Kind) -> String {
    match kind {
        Kind::Time(question_s) => {
            let unit = if question_s < 1.0 { "ms" } else { "s" };
            format!("allowed: a number in {unit}, or with its unit: s or ms (500 ms, 0.5 s)")
        }
        Kind::Percent => "allowed: a percentage, 78.2 or 78.2% (0.782 reads as 78.2%)".to_string(),
        Kind::Share => "allowed: a share from 0 to 1, or a percentage: 0.2, 20 or 20%".to_string(),
        Kind::Rate(unit) => format!("allowed: a number in {unit}, optionally with a per-second unit (req/s, QPS)"),
        Kind::Other("") => "allowed: a number, e.g. 64 or 1.5".to_string(),
        Kind::Other(unit) => format!("allowed: a number, optionally followed by {unit}"),
    }
}

/// A number (as an answer is read back or a tolerance shown) without float noise: `64`, `1.1111`, `0.5`.
pub fn trim_number(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

fn trim(value: f64) -> String {
    trim_number(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::question::{Difficulty, QuestionKind};

    fn asking(unit: &str, prompt: &str) -> Question {
        Question {
            id: "q".into(),
            topic: "t".into(),
            lab: None,
            difficulty: Difficulty::Easy,
            kind: QuestionKind::Predict,
            prompt: prompt.into(),
            choices: Vec::new(),
            answer: None,
            tolerance: Some(0.02),
            unit: Some(unit.into()),
            metric: Some("m".into()),
            settings: None,
            shows: Vec::new(),
            given_away_by: Vec::new(),
            given_away_at_any_settings: false,
            fact: None,
            explanation: "why".into(),
            source: "src".into(),
        }
    }

    #[test]
    fn a_dead_end_is_named_while_a_prefix_of_a_unit_is_not() {
        let ms = asking("ms", "How long?");
        let count = asking("attempts", "How many?");
        let share = asking("", "What share (0 to 1)?");
        for (question, text) in [
            (&ms, "5 m"),
            (&ms, "5 mill"),
            (&ms, "1e"),
            (&count, "3,"),
            (&count, "4 attempt"),
        ] {
            assert_eq!(dead_end(question, text), None, "{text}");
        }
        for (question, text) in [(&ms, "5x"), (&count, "5x"), (&share, "0.2 p"), (&count, "x")] {
            let hint = dead_end(question, text).unwrap_or_else(|| panic!("{text} is a dead end"));
            assert!(hint.ends_with("Backspace erases"), "{hint}");
        }
        assert_eq!(dead_end(&count, ""), None);
        assert_eq!(dead_end(&count, "-"), None);
    }

    fn value(question: &Question, text: &str) -> f64 {
        read(question, text).unwrap_or_else(|e| panic!("{text}: {e}")).value
    }

    #[test]
    fn a_share_above_100_percent_is_refused_with_the_range() {
        let share = asking("", "What share of the offered load is refused (0 to 1)?");
        for text in ["2000", "101", "150%", "-0.2"] {
            let refusal = read(&share, text).expect_err(text);
            assert!(refusal.contains("0 to 1, or 0% to 100%"), "{text}: {refusal}");
            // Said once: the refusal named the range and then the allowed forms with it again.
            assert_eq!(refusal.matches("0 to 1").count(), 1, "{text}: {refusal}");
        }
        for text in ["100", "100%", "0", "1", "0.5"] {
            assert!(read(&share, text).is_ok(), "{text}");
        }
    }

    #[test]
    fn a_share_takes_a_percentage_above_one() {
        let share = asking("", "What share of the offered load is refused (0 to 1)?");
        for text in ["0.2", "20", "20%", "20 %", " 20 % "] {
            assert!((value(&share, text) - 0.2).abs() < 1e-12, "{text}");
        }
        assert_eq!(
            read(&share, "20").expect("reads").note.as_deref(),
            Some("20, read as 20% = 0.2")
        );
        assert_eq!(
            read(&share, "20%").expect("reads").note.as_deref(),
            Some("20%, read as 0.2")
        );
        assert_eq!(read(&share, "0.2").expect("reads").note, None);
        // 1 is a share (everything); only above 1 is a percentage.
        assert_eq!(value(&share, "1"), 1.0);
        assert!(is_share(&asking("probability", "?")));
        assert!(is_share(&asking("", "With what probability does it refuse?")));
        assert!(!is_share(&asking("", "How many?")));
        assert!(!is_share(&asking("requests", "What share, in requests?")));
    }

    #[test]
    fn times_convert_between_s_and_ms() {
        let in_s = asking("s", "When?");
        assert!((value(&in_s, "10690 ms") - 10.69).abs() < 1e-9);
        assert!((value(&in_s, "10690ms") - 10.69).abs() < 1e-9);
        assert_eq!(value(&in_s, "10.69 s"), 10.69);
        assert_eq!(value(&in_s, "10.69 seconds"), 10.69);
        assert_eq!(
            read(&in_s, "10690 ms").expect("reads").note.as_deref(),
            Some("10690 ms, read as 10.69 s")
        );
        let in_ms = asking("ms", "How long?");
        assert_eq!(value(&in_ms, "2.05 s"), 2050.0);
        assert_eq!(value(&in_ms, "2,050"), 2050.0);
    }

    #[test]
    fn a_unit_of_another_kind_is_refused_with_what_is_allowed() {
        let in_s = asking("s", "When?");
        let refusal = read(&in_s, "10 requests").expect_err("refused");
        assert!(
            refusal.contains("'requests' is not a unit") && refusal.contains("s or ms"),
            "{refusal}"
        );
        assert!(read(&in_s, "10%").is_err());
        assert!(read(&asking("attempts", "?"), "64 ms").is_err());
        assert!(read(&asking("%", "?"), "50 s").is_err());
        assert!(read(&asking("", "How many?"), "3 ms").is_err());
    }

    #[test]
    fn the_question_s_own_unit_reads_as_typed() {
        assert_eq!(value(&asking("attempts", "?"), "64 attempts"), 64.0);
        assert_eq!(value(&asking("attempts", "?"), "1 attempt"), 1.0);
        assert_eq!(value(&asking("calls", "?"), "3,000 Calls"), 3000.0);
        assert_eq!(value(&asking("x", "?"), "1.331x"), 1.331);
        assert_eq!(value(&asking("QPS", "?"), "560 qps"), 560.0);
        assert_eq!(value(&asking("QPS", "?"), "560 req/s"), 560.0);
        assert_eq!(value(&asking("%", "?"), "78.2%"), 78.2);
        assert!(read(&asking("%", "?"), "78.2%").expect("reads").unit_typed);
        assert_eq!(value(&asking("HTTP status", "?"), "503"), 503.0);
        assert_eq!(value(&asking("", "?"), "-1.5e3"), -1500.0);
    }

    #[test]
    fn nothing_is_turned_into_another_number() {
        let attempts = asking("attempts", "How many?");
        for text in ["4^3", "4*4*4", "4x4", "4 4", "6 x 4", "(64)", "64!"] {
            assert!(
                read(&attempts, text).is_err(),
                "{text} must be refused, not read as a number"
            );
        }
        assert!(read(&attempts, "").is_err());
        assert!(
            read(&attempts, "lots")
                .expect_err("refused")
                .starts_with("type a number first")
        );
        assert!(!takes_char('^') && !takes_char('*') && !takes_char('('));
        assert!(takes_char('%') && takes_char('m') && takes_char(' '));
    }
}
