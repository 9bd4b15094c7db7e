//! Word wrap of styled lines with a hanging indent, for the book and the lessons.
//!
//! ratatui's `Paragraph` wraps every line back to column 0, so a wrapped bullet's second
//! line would start under its `-`. Here a line that starts with a list marker (`- `, `* `,
//! `1. `) or with a code block's gutter continues under the text after it. Lines come out
//! no wider than the width asked for, so a `Paragraph` drawing them wraps nothing more.
//! [`fit_or_wrap`] picks the longest wording of a status line that fits, for panels with
//! few rows, and wraps rather than cuts when none does.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// How many leading columns of `text` the wrapped rows of its line should skip: the
/// indentation plus a list marker and its space, or the indentation alone.
pub fn hanging_indent(text: &str) -> usize {
    let spaces = text.chars().take_while(|c| *c == ' ').count();
    let rest = &text[spaces..];
    let marker = if rest.starts_with("- ") || rest.starts_with("* ") || rest.starts_with("• ") {
        2
    } else {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with(". ") {
            digits + 2
        } else {
            0
        }
    };
    spaces + marker
}

/// `line` wrapped at `width` columns, rows after the first indented by `indent` columns.
/// Words wider than a row are cut; spaces at a break are dropped.
pub fn wrap_line(line: Line<'static>, width: usize, indent: usize) -> Vec<Line<'static>> {
    if line.width() <= width || width == 0 {
        return vec![line];
    }
    // A hanging indent that leaves less than half the row is not worth it.
    let indent = if indent * 2 > width { 0 } else { indent };
    // Words with their style; each word keeps the spaces before it.
    let mut words: Vec<(String, Style)> = Vec::new();
    for span in &line.spans {
        let style = span.style;
        let mut current = String::new();
        let mut in_space = false;
        for c in span.content.chars() {
            if c == ' ' {
                if !in_space && !current.trim().is_empty() {
                    words.push((std::mem::take(&mut current), style));
                }
                in_space = true;
            } else {
                in_space = false;
            }
            current.push(c);
        }
        if !current.is_empty() {
            words.push((current, style));
        }
    }
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for (word, style) in words {
        let mut word = word;
        let word_width = word.chars().count();
        if used + word_width > width && used > indent {
            rows.push(Line::from(std::mem::take(&mut row)).style(line.style));
            row.push(Span::raw(" ".repeat(indent)));
            used = indent;
            word = word.trim_start().to_string();
        }
        // Too wide for any row: cut it into rows.
        while used + word.chars().count() > width {
            let room = width - used;
            let head: String = word.chars().take(room).collect();
            word = word.chars().skip(room).collect();
            row.push(Span::styled(head, style));
            rows.push(Line::from(std::mem::take(&mut row)).style(line.style));
            row.push(Span::raw(" ".repeat(indent)));
            used = indent;
        }
        used += word.chars().count();
        row.push(Span::styled(word, style));
    }
    if used > indent || rows.is_empty() {
        rows.push(Line::from(row).style(line.style));
    }
    rows
}

/// The first of `candidates` (longest wording first) that fits `width` columns, else the
/// last; `None` only when there is no candidate.
pub fn first_that_fits(candidates: Vec<Line<'static>>, width: usize) -> Option<Line<'static>> {
    let last = candidates.len().saturating_sub(1);
    candidates
        .into_iter()
        .enumerate()
        .find(|(index, line)| *index == last || line.width() <= width)
        .map(|(_, line)| line)
}

/// The first of `candidates` (longest wording first, each with every number and unit) that
/// fits `width` columns; else the last, wrapped: a number is never cut off at the border.
pub fn fit_or_wrap(candidates: Vec<Line<'static>>, width: usize) -> Vec<Line<'static>> {
    first_that_fits(candidates, width).map_or_else(Vec::new, |line| wrap_line(line, width, 0))
}

/// Splits `text` into lines of at most `width` characters at spaces (a word longer than
/// the width gets a line of its own).
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(lines: &[Line]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_wrapped_bullet_continues_under_its_text() {
        let line = Line::from(vec![Span::raw("- "), Span::raw("one two three four five six")]);
        let rows = wrap_line(line, 12, hanging_indent("- one"));
        assert_eq!(plain(&rows), ["- one two", "  three four", "  five six"]);
    }

    #[test]
    fn numbered_items_and_plain_lines_get_their_indents() {
        assert_eq!(hanging_indent("12. text"), 4);
        assert_eq!(hanging_indent("  - nested"), 4);
        assert_eq!(hanging_indent("Plain text"), 0);
        let rows = wrap_line(Line::from("alpha beta gamma"), 10, 0);
        assert_eq!(plain(&rows), ["alpha beta", "gamma"]);
    }

    #[test]
    fn a_word_wider_than_the_row_is_cut_and_short_lines_stay() {
        let rows = wrap_line(Line::from("abcdefghijkl"), 5, 0);
        assert_eq!(plain(&rows), ["abcde", "fghij", "kl"]);
        assert_eq!(plain(&wrap_line(Line::from("short"), 20, 0)), ["short"]);
    }

    #[test]
    fn the_longest_wording_that_fits_is_taken_else_the_last_wraps() {
        let candidates = || vec![Line::from("measured 1.41 of 100.0%"), Line::from("1.41, 100.0%")];
        assert_eq!(plain(&fit_or_wrap(candidates(), 30)), ["measured 1.41 of 100.0%"]);
        assert_eq!(plain(&fit_or_wrap(candidates(), 12)), ["1.41, 100.0%"]);
        assert_eq!(plain(&fit_or_wrap(candidates(), 8)), ["1.41,", "100.0%"]);
    }

    #[test]
    fn words_wrap_at_spaces() {
        assert_eq!(wrap_words("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap_words("", 6), [""]);
        assert_eq!(wrap_words("longerthanwidth x", 4), ["longerthanwidth", "x"]);
    }
}
