//! The book inside the app: the chapters of `book/src/` embedded at build time, listed in
//! `SUMMARY.md`'s order, and rendered from Markdown with `tui-markdown`.
//!
//! The same files build the mdBook, so the app and the web book never disagree. The
//! renderer's styles come from the app's theme, so `NO_COLOR` and `--theme light` apply.
//!
//! Links can be followed: Tab and Shift+Tab focus the chapter's links in turn, Enter opens
//! a link to another chapter here and shows a web address in full on the status line, for
//! the learner to copy (the app never starts a browser).

use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};
use tui_markdown::{Options, StyleSheet};

use crate::tui::layout;
use crate::tui::msg::Msg;
use crate::tui::screens::table_links::{TableCell, TableRows, is_table_line};
use crate::tui::theme::Theme;
use crate::wrap;

// Every file of `book/src/` the summary may name, listed by build.rs from the folder.
include!(concat!(env!("OUT_DIR"), "/book_files.rs"));
const FILES: &[(&str, &str)] = BOOK_FILES;

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
/// names but the build did not embed is left out (tests/it/book/summary.rs keeps the two in step;
/// build.rs embeds every file of the folder).
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

/// Where a link of a chapter goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkTarget {
    /// Another chapter, by its index in [`chapters`].
    Chapter(usize),
    /// A web address: shown in full for the learner to copy.
    External(String),
}

/// A link of a rendered chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLink {
    /// The row of the rendered chapter it is on.
    pub row: usize,
    /// Its target as the text shows it: `chapter “Self-check”` (a file name in a table), or
    /// the address.
    pub shown: String,
    pub target: LinkTarget,
    /// The rows it is drawn on, each with the piece of its target there: one row, or more
    /// where a table cell wraps it (the focus marks every piece).
    pub pieces: Vec<(usize, String)>,
}

/// The link targets a rendered line writes as the renderer does, `label (target)`: a
/// chapter's file (an `#anchor` after it is ignored) or an http(s) address, in order.
fn link_targets(plain: &str, chapters: &[Chapter]) -> Vec<(String, LinkTarget)> {
    plain
        .match_indices('(')
        .filter_map(|(at, _)| {
            let rest = &plain[at + 1..];
            let target = &rest[..rest.find(')')?];
            let file = target.split('#').next().unwrap_or(target);
            if let Some(index) = chapters.iter().position(|c| c.file == file) {
                return Some((target.to_string(), LinkTarget::Chapter(index)));
            }
            let web = (target.starts_with("https://") || target.starts_with("http://")) && !target.contains(' ');
            web.then(|| (target.to_string(), LinkTarget::External(target.to_string())))
        })
        .collect()
}

/// A chapter as styled lines no wider than `width`: tables fitted, code blocks without
/// their fences behind a gutter, wrapped bullets indented under their text, and links to
/// other chapters named by the chapter's title.
pub fn render_markdown(markdown: &'static str, theme: Theme, width: u16) -> Text<'static> {
    render_with_links(markdown, theme, width).0
}

/// [`render_markdown`], with the chapter's links and the rows they are on.
pub fn render_with_links(markdown: &'static str, theme: Theme, width: u16) -> (Text<'static>, Vec<BookLink>) {
    let options = Options::new(Styles(theme)).table_width(width);
    let text = tui_markdown::from_str_with_options(markdown, &options);
    let width = usize::from(width);
    let chapters = chapters();
    let mut links = Vec::new();
    let mut lines: Vec<Line<'static>> = Vec::with_capacity(text.lines.len());
    let mut in_code = false;
    // A table's links are found per cell once its row is read whole (table_links.rs).
    let mut table = TableRows::default();
    for mut line in text.lines {
        let plain = line.to_string();
        let fence = plain.trim_start().starts_with("```");
        let cells = if !in_code && !fence && is_table_line(&plain) {
            table.push(lines.len(), &plain)
        } else {
            table.finish()
        };
        links.extend(cell_links(&cells, &chapters));
        if fence {
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
        // A table's rows are fitted to the width already: a link in a cell keeps its file.
        let in_table = is_table_line(&plain);
        let targets = if in_table {
            Vec::new()
        } else {
            link_targets(&plain, &chapters)
        };
        let mut shown_targets = Vec::with_capacity(targets.len());
        for (written, target) in targets {
            let shown = match &target {
                LinkTarget::Chapter(index) if !in_table => format!("chapter “{}”", chapters[*index].title),
                LinkTarget::Chapter(_) | LinkTarget::External(_) => written.clone(),
            };
            for span in &mut line.spans {
                if span.content == written {
                    span.content = shown.clone().into();
                } else if span.content.contains(&format!("({written})")) {
                    span.content = span
                        .content
                        .replace(&format!("({written})"), &format!("({shown})"))
                        .into();
                }
            }
            shown_targets.push((shown, target));
        }
        let indent = wrap::hanging_indent(&plain);
        let rows = wrap::wrap_line(line, width, indent);
        // Each link on the first row, from the previous link's on, where its target starts.
        let mut from = 0;
        for (shown, target) in shown_targets {
            let start: String = shown.chars().take(12).collect();
            let row = (from..rows.len())
                .find(|&r| rows[r].to_string().contains(&start))
                .unwrap_or(from);
            from = row;
            links.push(BookLink {
                row: lines.len() + row,
                pieces: vec![(lines.len() + row, start)],
                shown,
                target,
            });
        }
        lines.extend(rows);
    }
    links.extend(cell_links(&table.finish(), &chapters));
    (Text::from(lines), links)
}

/// The links of one table row's cells, in the order they are drawn (row, then column); a
/// cell shows a link's target as written (its file), the row being fitted to the width.
fn cell_links(cells: &[TableCell], chapters: &[Chapter]) -> Vec<BookLink> {
    let mut links: Vec<BookLink> = Vec::new();
    for cell in cells {
        let mut from = 0;
        for (written, target) in link_targets(&cell.text, chapters) {
            let needle = format!("({written})");
            let Some(at) = cell.text[from..].find(&needle).map(|at| from + at) else {
                continue;
            };
            from = at + needle.len();
            let start = cell.text[..at].chars().count() + 1;
            let pieces = cell.pieces(start, written.chars().count());
            let Some(&(row, _)) = pieces.first() else { continue };
            links.push(BookLink {
                row,
                shown: written,
                target,
                pieces,
            });
        }
    }
    links.sort_by_key(|link| link.row);
    links
}

/// `text` with link `link` shown as focused (reversed): each of its pieces, on its row (a
/// span that is the piece, else the first that holds it).
pub fn focus_link(mut text: Text<'static>, link: &BookLink) -> Text<'static> {
    for (row, piece) in &link.pieces {
        let Some(line) = text.lines.get_mut(*row) else { continue };
        let found = line
            .spans
            .iter()
            .position(|span| span.content.trim() == piece.as_str())
            .or_else(|| line.spans.iter().position(|span| span.content.contains(piece.as_str())));
        if let Some(span) = found.and_then(|index| line.spans.get_mut(index)) {
            span.style = span.style.add_modifier(Modifier::REVERSED);
        }
    }
    text
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
    /// The focused link of the open chapter (Tab), which Enter follows.
    pub link: Option<usize>,
    /// One line for the status row: a web address in full, or why a key did nothing.
    pub status: Option<String>,
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
            // Choosing a chapter leaves the open chapter's link: Enter opens the choice.
            Msg::NextItem | Msg::PrevItem => {
                self.selected = if msg == Msg::NextItem {
                    (self.selected + 1) % chapters
                } else {
                    (self.selected + chapters - 1) % chapters
                };
                self.link = None;
                self.status = None;
            }
            Msg::NextLink | Msg::PrevLink => self.focus_link(msg == Msg::NextLink, layout),
            Msg::Open if self.link.is_some() => self.follow_link(layout),
            Msg::Open => {
                self.open = self.selected;
                self.scroll = 0;
                self.status = None;
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
                    self.link = None;
                    self.status = None;
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

    /// The open chapter's links, at the width the view draws it.
    pub fn links(&self, layout: Option<layout::BookLayout>) -> Vec<BookLink> {
        let Some(chapter) = chapters().get(self.open).copied() else {
            return Vec::new();
        };
        let width = layout.map_or(60, |l| l.text.width.saturating_sub(2));
        // The rows do not depend on colours: any theme gives the same links.
        render_with_links(
            chapter.markdown,
            Theme::new(crate::tui::theme::ThemeName::Dark, false),
            width,
        )
        .1
    }

    /// Tab (or Shift+Tab): the next (or previous) link, scrolled into view.
    fn focus_link(&mut self, forward: bool, layout: Option<layout::BookLayout>) {
        let links = self.links(layout);
        if links.is_empty() {
            self.link = None;
            self.status = Some("this chapter has no links: ↑↓ choose another chapter".to_string());
            return;
        }
        let count = links.len();
        let next = match (self.link, forward) {
            (None, true) => 0,
            (None, false) => count - 1,
            (Some(at), true) => (at + 1) % count,
            (Some(at), false) => (at + count - 1) % count,
        };
        self.link = Some(next);
        self.status = None;
        let rows = layout.map_or(10, |l| usize::from(l.text.height.saturating_sub(2)).max(1));
        let row = links[next].row;
        let top = usize::from(self.scroll);
        if row < top || row >= top + rows {
            self.scroll = row.saturating_sub(2) as u16;
        }
    }

    /// Enter on a focused link: another chapter opens here; a web address shows in full.
    fn follow_link(&mut self, layout: Option<layout::BookLayout>) {
        let links = self.links(layout);
        let Some(link) = self.link.and_then(|at| links.get(at)) else {
            self.link = None;
            return;
        };
        match &link.target {
            LinkTarget::Chapter(index) => {
                self.open = *index;
                self.selected = *index;
                self.scroll = 0;
                self.link = None;
                self.status = None;
            }
            LinkTarget::External(url) => {
                self.status = Some(format!("{url}  (copy it from here: the app opens no browser)"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

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
                "lab5-budget.md",
                "operating.md",
                "oncall.md",
                "self-check.md",
                "facilitator-guide.md",
                "room.md",
                "interview-sheet.md",
                "glossary.md",
                "reference/app.md",
                "reference/command-line.md",
                "reference/lab-files.md",
                "reference/accuracy.md",
                "reference/performance.md",
                "reference/layout.md"
            ]
        );
        assert_eq!(chapters()[2].title, "Lab 2: Retry amplification");
    }

    #[test]
    fn links_to_chapters_and_web_addresses_are_found_on_their_rows() {
        let theme = Theme::new(ThemeName::Dark, false);
        let guide = chapter("facilitator-guide.md").expect("chapter").markdown;
        let (text, links) = render_with_links(guide, theme, 60);
        assert_eq!(links.len(), 5, "{links:?}");
        let self_check = chapters().iter().position(|c| c.file == "self-check.md");
        assert_eq!(links[1].target, LinkTarget::Chapter(self_check.expect("listed")));
        for link in &links {
            let pieces: String = link.pieces.iter().map(|(_, piece)| piece.as_str()).collect();
            assert!(link.shown.starts_with(&pieces), "{link:?}");
            for (row, piece) in &link.pieces {
                assert!(text.lines[*row].to_string().contains(piece), "{link:?}");
            }
        }
        assert_eq!(links[0].shown, "chapter “Interview sheet”");
        assert_eq!(
            links[2].shown, "self-check.md",
            "a table cell keeps its file: the row is fitted"
        );
        let plain = "see the docs (https://kubernetes.io/docs/concepts/) and (not a link)";
        assert_eq!(
            link_targets(plain, &chapters()),
            [(
                "https://kubernetes.io/docs/concepts/".to_string(),
                LinkTarget::External("https://kubernetes.io/docs/concepts/".to_string())
            )]
        );
    }

    #[test]
    fn tab_focuses_a_link_and_enter_follows_it() {
        let area = Rect::new(0, 0, 100, 30);
        let guide = chapters()
            .iter()
            .position(|c| c.file == "facilitator-guide.md")
            .expect("listed");
        let mut book = BookState {
            selected: guide,
            ..BookState::default()
        };
        book.update(Msg::Open, area);
        assert_eq!(book.update(Msg::NextLink, area), Some(true));
        assert_eq!(book.link, Some(0));
        let first = &book.links(layout::book(area))[0];
        let rows = usize::from(layout::book(area).expect("fits").text.height - 2);
        assert!((usize::from(book.scroll)..usize::from(book.scroll) + rows).contains(&first.row));
        book.update(Msg::PrevLink, area);
        assert_eq!(book.link, Some(4), "Shift+Tab from the first wraps to the last");
        book.update(Msg::Open, area);
        assert_eq!(chapters()[book.open].file, "self-check.md");
        assert_eq!((book.selected, book.scroll, book.link), (book.open, 0, None));
        // A chapter without links says so; a web address is shown, nothing is started.
        book.update(Msg::NextLink, area);
        assert!(book.status.as_deref().unwrap_or_default().contains("no links"));
        assert_eq!(book.link, None);
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
