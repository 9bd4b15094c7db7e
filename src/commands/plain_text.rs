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
    crate::tui::wrap::wrap_line(ratatui::text::Line::from(text.to_string()), width, indent)
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
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
}
