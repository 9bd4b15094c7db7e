//! Content errors that point at a file, a line and a column, and where content came from.

use std::fmt;
use std::ops::Range;
use std::path::PathBuf;

/// One problem in a content file, located for the person who will fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    pub file: String,
    /// 1-based; 0 when the problem is the file as a whole.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl ContentError {
    /// A problem at a byte span of `text`.
    pub fn at(file: &str, text: &str, span: Option<Range<usize>>, message: impl Into<String>) -> Self {
        let (line, column) = span.map_or((1, 1), |span| line_column(text, span.start));
        Self {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
        }
    }

    /// A problem with a file as a whole (missing, unreadable).
    pub fn whole_file(file: String, message: &str) -> Self {
        Self {
            file,
            line: 0,
            column: 0,
            message: message.to_string(),
        }
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
        }
    }
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Where a piece of content came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Embedded(String),
    File(PathBuf),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Embedded(name) => write!(f, "{name} (built in)"),
            Origin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_and_columns_from_one() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        assert_eq!(line_column(text, 11), (2, 6));
    }
}
