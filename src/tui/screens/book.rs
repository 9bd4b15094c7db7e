//! The book inside the app: the chapters of `book/src/` embedded at build time, listed in
//! `SUMMARY.md`'s order, and rendered from Markdown with `tui-markdown`.
//!
//! The same files build the mdBook, so the app and the web book never disagree. The
//! renderer's styles come from the app's theme, so `NO_COLOR` and `--theme light` apply.

use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};
use tui_markdown::{Options, StyleSheet};

use crate::tui::layout;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::wrap;

/// Every file of `book/src/` the summary may name.
const FILES: [(&str, &str); 10] = [
    ("introduction.md", include_str!("../../../book/src/introduction.md")),
    ("lab1-health.md", include_str!("../../../book/src/lab1-health.md")),
    ("lab2-retry.md", include_str!("../../../book/src/lab2-retry.md")),
    ("lab3-breaker.md", include_str!("../../../book/src/lab3-breaker.md")),
    ("lab4-overload.md", include_str!("../../../book/src/lab4-overload.md")),
    ("operating.md", include_str!("../../../book/src/operating.md")),
    ("self-check.md", include_str!("../../../book/src/self-check.md")),
    (
        "facilitator-guide.md",
        include_str!("../../../book/src/facilitator-guide.md"),
    ),
    (
        "interview-sheet.md",
        include_str!("../../../book/src/interview-sheet.md"),
    ),
    ("glossary.md", include_str!("../../../book/src/glossary.md")),
];

const SUMMARY: &str = include_str!("../../../book/src/SUMMARY.md");

/// One chapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chapter {
    /// The title the summary gives it.
    pub title: &'static str,
    /// Its file name, as lab files name it in `chapter`.
    pub file: &'static str,
    pub markdown: &'static str,
}

/// The chapters in the summary's order (`[Title](file.md)` lines); a file the summary
/// names but the build did not embed is left out (tests/book.rs keeps the two in step).
pub fn chapters() -> Vec<Chapter> {
    SUMMARY
        .lines()
        .filter_map(|line| {
            let (_, rest) = line.split_once('[')?;
            let (title, rest) = rest.split_once("](")?;
            let (file, _) = rest.split_once(')')?;
            let (file, markdown) = FILES.iter().find(|(name, _)| *name == file)?;
            Some(Chapter { title, file, markdown })
        })
        .collect()
}

/// The chapter stored as `file`, e.g. `lab2-retry.md`.
pub fn chapter(file: &str) -> Option<Chapter> {
    chapters().into_iter().find(|chapter| chapter.file == file)
}

/// The renderer's styles by the app's roles.
#[derive(Clone, Copy, Debug)]
struct Styles(Theme);

impl StyleSheet for Styles {
    fn heading(&self, level: u8) -> Style {
        if level <= 2 { self.0.accent() } else { self.0.key() }
    }

    fn code(&self) -> Style {
        self.0.key()
    }

    fn link(&self) -> Style {
        self.0.accent()
    }

    fn blockquote(&self) -> Style {
        self.0.dim()
    }

    fn heading_meta(&self) -> Style {
        self.0.dim()
    }

    fn metadata_block(&self) -> Style {
        self.0.dim()
    }

    fn table_border(&self) -> Style {
        self.0.border()
    }

    fn list_marker(&self) -> Style {
        self.0.accent()
    }

    /// No `#` before headings: their style marks them.
    fn heading_marker(&self, _level: u8) -> &str {
        ""
    }
}

/// The gutter of a code block's lines: the fences are dropped, the code set off by it.
const CODE_GUTTER: &str = "  ▏ ";

/// A chapter as styled lines no wider than `width`: tables fitted, code blocks without
/// their fences behind a gutter, wrapped bullets indented under their text, and links to
/// other chapters named by the chapter's title.
pub fn render_markdown(markdown: &'static str, theme: Theme, width: u16) -> Text<'static> {
    let options = Options::new(Styles(theme)).table_width(width);
    let text = tui_markdown::from_str_with_options(markdown, &options);
    let width = usize::from(width);
    let chapters = chapters();
    let mut lines: Vec<Line<'static>> = Vec::with_capacity(text.lines.len());
    let mut in_code = false;
    for mut line in text.lines {
        let plain = line.to_string();
        if plain.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            line.spans.insert(0, Span::styled(CODE_GUTTER, theme.dim()));
            for span in &mut line.spans[1..] {
                span.style = theme.key();
            }
            // A wrapped code line keeps the gutter on its rows, so it still reads as code.
            let mut rows = wrap::wrap_line(line, width, CODE_GUTTER.chars().count());
            for row in rows.iter_mut().skip(1) {
                if let Some(first) = row.spans.first_mut() {
                    *first = Span::styled(CODE_GUTTER, theme.dim());
                }
            }
            lines.extend(rows);
            continue;
        }
        // The renderer writes a link as `text (target.md)`: a chapter's file says nothing
        // to a reader of this screen, its title does.
        for span in &mut line.spans {
            if let Some(chapter) = chapters.iter().find(|c| span.content == c.file) {
                span.content = format!("the chapter “{}”, in the list", chapter.title).into();
            }
        }
        let indent = wrap::hanging_indent(&plain);
        lines.extend(wrap::wrap_line(line, width, indent));
    }
    Text::from(lines)
}

/// Rows `text` takes when word-wrapped at `width`, as a `Paragraph` draws it: for sizing
/// boxes and for clamping scrolls so the last line cannot scroll off the top.
pub fn wrapped_rows(text: &Text, width: u16) -> usize {
    Paragraph::new(text.clone())
        .wrap(Wrap { trim: false })
        .line_count(width.max(1))
}

/// The book screen's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookState {
    /// The highlighted entry of the chapter list.
    pub selected: usize,
    /// The chapter showing on the right.
    pub open: usize,
    /// First line shown of the open chapter.
    pub scroll: u16,
}

impl BookState {
    /// Applies `msg` on a screen of size `area`; `None` means back to the home screen,
    /// `Some(changed)` whether to redraw.
    pub fn update(&mut self, msg: Msg, area: Rect) -> Option<bool> {
        let chapters = chapters().len();
        let layout = layout::book(area);
        let page = layout.map_or(10, |l| l.text.height.saturating_sub(3).max(1));
        let before = self.clone();
        match msg {
            Msg::Back => return None,
            Msg::NextItem => self.selected = (self.selected + 1) % chapters,
            Msg::PrevItem => self.selected = (self.selected + chapters - 1) % chapters,
            Msg::Open => {
                self.open = self.selected;
                self.scroll = 0;
            }
            Msg::Up => self.scroll = self.scroll.saturating_sub(1),
            Msg::Down => self.scroll = self.scroll.saturating_add(1),
            Msg::ScrollUp => self.scroll = self.scroll.saturating_sub(page),
            Msg::ScrollDown => self.scroll = self.scroll.saturating_add(page),
            Msg::Click(x, y) => {
                if let Some(entry) = layout.and_then(|l| layout::book_entry_at(&l, chapters, Position::new(x, y))) {
                    self.selected = entry;
                    self.open = entry;
                    self.scroll = 0;
                }
            }
            Msg::Wheel(x, y, down) => {
                let over_list = layout.is_some_and(|l| l.list.contains(Position::new(x, y)));
                match (over_list, down) {
                    (true, true) => self.selected = (self.selected + 1).min(chapters - 1),
                    (true, false) => self.selected = self.selected.saturating_sub(1),
                    (false, true) => self.scroll = self.scroll.saturating_add(3),
                    (false, false) => self.scroll = self.scroll.saturating_sub(3),
                }
            }
            _ => {}
        }
        // The view clamps to the chapter's end; this only bounds a held key.
        self.scroll = self.scroll.min(5_000);
        Some(before != *self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::ThemeName;

    #[test]
    fn chapters_follow_the_summary() {
        let titles: Vec<&str> = chapters().iter().map(|c| c.file).collect();
        assert_eq!(
            titles,
            [
                "introduction.md",
                "lab1-health.md",
                "lab2-retry.md",
                "lab3-breaker.md",
                "lab4-overload.md",
                "operating.md",
                "self-check.md",
                "facilitator-guide.md",
                "interview-sheet.md",
                "glossary.md"
            ]
        );
        assert_eq!(chapters()[2].title, "Lab 2: Retry amplification");
    }

    #[test]
    fn markdown_renders_headings_and_tables() {
        let theme = Theme::new(ThemeName::Dark, false);
        let text = render_markdown(chapter("lab2-retry.md").expect("chapter").markdown, theme, 60);
        let plain: Vec<String> = text.lines.iter().map(ToString::to_string).collect();
        assert!(plain[0].contains("Lab 2: Retry amplification"), "{:?}", plain[0]);
        assert!(plain.iter().any(|line| line.contains('│')), "tables have borders");
        assert!(
            plain.iter().all(|line| !line.contains("|------")),
            "no raw table syntax"
        );
    }
}
