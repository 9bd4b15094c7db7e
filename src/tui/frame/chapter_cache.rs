//! The lesson panel's book chapter, rendered from Markdown once per (chapter, theme, width)
//! and kept by the lab screen.
//!
//! Parsing and wrapping a whole chapter took most of a frame's CPU whenever the lesson was
//! open, for any key (issue 27 item 11): the chapter only changes with its file, the theme
//! and the panel's width, so the view asks this cache and draws only the rows in sight.
//!
//! Each line's wrapped height is kept beside it: a `Paragraph` wraps every line on its own,
//! so the rows of a window of lines are the rows of the whole text, and the view can hand
//! the `Paragraph` only the lines that reach the screen.

use std::cell::{Cell, Ref, RefCell};

use ratatui::text::{Line, Text};

use crate::content::book;
use crate::tui::markdown::{render_markdown, wrapped_rows};
use crate::tui::theme::Theme;

/// A chapter rendered at one width: its lines and the rows each one wraps to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RenderedChapter {
    /// The chapter's file, theme and width it was rendered for.
    key: (String, Option<Theme>, u16),
    pub lines: Vec<Line<'static>>,
    /// Rows each of `lines` takes when wrapped at the width (one or more).
    pub line_rows: Vec<usize>,
}

impl RenderedChapter {
    /// Rows the whole chapter takes.
    pub fn rows(&self) -> usize {
        self.line_rows.iter().sum()
    }
}

/// Rows `line` takes when word-wrapped at `width`, as a `Paragraph` draws it.
pub fn line_rows(line: &Line<'static>, width: u16) -> usize {
    wrapped_rows(&Text::from(line.clone()), width)
}

/// The last chapter the lesson panel drew, and how many times one was rendered.
#[derive(Debug, Default)]
pub struct ChapterCache {
    /// Interior: the views draw from a shared `&LabScreen`.
    rendered: RefCell<RenderedChapter>,
    /// Renders so far: the tests and the bench check that a frame at the same key renders
    /// nothing.
    renders: Cell<usize>,
}

impl ChapterCache {
    /// The chapter stored as `file`, rendered for `theme` at `width`: from the cache when the
    /// last call asked for the same, else rendered now (an unknown file renders as no lines).
    pub fn get(&self, file: &str, theme: Theme, width: u16) -> Ref<'_, RenderedChapter> {
        let fresh = {
            let rendered = self.rendered.borrow();
            let (cached_file, cached_theme, cached_width) = &rendered.key;
            cached_file == file && *cached_theme == Some(theme) && *cached_width == width
        };
        if !fresh {
            let lines = book::chapter(file).map_or_else(Vec::new, |chapter| {
                render_markdown(chapter.markdown, theme, width).lines
            });
            let line_rows = lines.iter().map(|line| line_rows(line, width)).collect();
            *self.rendered.borrow_mut() = RenderedChapter {
                key: (file.to_string(), Some(theme), width),
                lines,
                line_rows,
            };
            self.renders.set(self.renders.get() + 1);
        }
        self.rendered.borrow()
    }

    /// How many times a chapter was rendered since the screen was made.
    pub fn renders(&self) -> usize {
        self.renders.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    #[test]
    fn the_same_key_renders_once_and_a_new_width_or_theme_renders_again() {
        let cache = ChapterCache::default();
        let dark = Theme::new(ThemeName::Dark, true);
        let rows = cache.get("lab2-retry.md", dark, 60).rows();
        assert!(rows > 50, "the chapter has {rows} rows");
        assert_eq!(cache.get("lab2-retry.md", dark, 60).rows(), rows);
        assert_eq!(cache.renders(), 1, "a second frame at the same key renders nothing");
        let narrower = cache.get("lab2-retry.md", dark, 40).rows();
        assert_eq!(cache.renders(), 2, "a width change renders again");
        assert!(narrower > rows, "narrower wraps to more rows: {narrower} vs {rows}");
        cache.get("lab2-retry.md", Theme::new(ThemeName::Light, true), 40);
        cache.get("lab3-breaker.md", Theme::new(ThemeName::Light, true), 40);
        assert_eq!(cache.renders(), 4, "a theme or chapter change renders again");
        assert!(cache.get("no-such-chapter.md", dark, 40).lines.is_empty());
    }

    #[test]
    fn line_rows_add_up_to_the_rows_of_the_whole_chapter() {
        // What lets the lesson view draw a window of lines: wrapping is per line.
        let theme = Theme::new(ThemeName::Dark, true);
        for chapter in book::chapters() {
            for width in [20, 37, 60, 98] {
                let text = render_markdown(chapter.markdown, theme, width);
                let per_line: usize = text.lines.iter().map(|line| line_rows(line, width)).sum();
                assert_eq!(per_line, wrapped_rows(&text, width), "{} at {width}", chapter.file);
            }
        }
    }
}
