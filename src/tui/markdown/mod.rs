//! The book's Markdown renderer: a chapter as styled lines (with `tui-markdown`), its
//! links found on their rows, the focused one marked, and the rows a text wraps to.
//!
//! The renderer's styles come from the app's theme, so `NO_COLOR` and `--theme light`
//! apply. The book screen and the lesson panel draw chapters with it, and the quiz and the
//! prediction panel size their boxes with [`wrapped_rows`]; [`table_links`] reads links
//! back out of tables, whose cells wrap.

pub mod table_links;

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Paragraph, Wrap};
use tui_markdown::{Options, StyleSheet};

use crate::content::book::{Chapter, chapters};
use crate::tui::markdown::table_links::{TableCell, TableRows, is_table_line};
use crate::tui::theme::Theme;
use crate::wrap;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::book::chapter;
    use crate::tui::theme::ThemeName;

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
