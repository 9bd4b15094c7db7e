//! Plain-terminal text for `quiz` and `quiz --drill`: word-wrapped at the terminal's width
//! with a hanging indent, whole paragraphs for a pipe. One module both use, so neither imports
//! the other.

/// The terminal's width when the quiz prints to one; `None` for a pipe or a file, whose
/// reader (a script, a screen reader) gets each paragraph on one line.
pub fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    crossterm::terminal::size()
        .ok()
        .map(|(columns, _)| usize::from(columns))
}

/// `text` word-wrapped at `width` (unchanged without one), rows after the first indented
/// by `indent` so a choice's or an explanation's text lines up under its start.
pub fn fit(text: &str, width: Option<usize>, indent: usize) -> String {
    let Some(width) = width else {
        return text.to_string();
    };
    crate::wrap::wrap_line(ratatui::text::Line::from(text.to_string()), width, indent)
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads one answer line into `line` (cleared first); 0 at the end of input. A line that is
/// not UTF-8 (a terminal in another encoding, a stray byte) is no reason to end the session:
/// its bad bytes read as U+FFFD, which no answer accepts, so the question is asked again.
pub fn read_answer(input: &mut dyn std::io::BufRead, line: &mut String) -> std::io::Result<usize> {
    let mut bytes = Vec::new();
    let read = input.read_until(b'\n', &mut bytes)?;
    line.clear();
    line.push_str(&String::from_utf8_lossy(&bytes));
    Ok(read)
}

/// Whether an answer line held bytes that are not UTF-8 (see [`read_answer`]).
pub fn was_not_text(line: &str) -> bool {
    line.contains(char::REPLACEMENT_CHARACTER)
}

#[cfg(test)]
mod wrap_tests {
    use super::fit;

    #[test]
    fn long_prompts_wrap_at_the_terminal_and_stay_whole_in_a_pipe() {
        let choice = "  a) Liveness decides whether to restart the container; readiness decides traffic";
        assert_eq!(
            fit(choice, Some(40), 5),
            "  a) Liveness decides whether to restart\n     the container; readiness decides\n     traffic"
        );
        assert_eq!(fit(choice, None, 5), choice);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_read_not_an_error() {
        let mut input: &[u8] = b"\xff\xfe\nb\n";
        let mut line = String::new();
        assert_eq!(super::read_answer(&mut input, &mut line).expect("read"), 3);
        assert!(super::was_not_text(&line));
        super::read_answer(&mut input, &mut line).expect("read");
        assert_eq!(line, "b\n");
        assert_eq!(super::read_answer(&mut input, &mut line).expect("end"), 0);
    }
}
