//! The book screen: the chapter list on the left (the summary's order), the open chapter
//! on the right, rendered from Markdown and scrollable. Its layout is shared with the
//! mouse hit tests in `screens/book.rs` (through `tui/layout.rs`).
//!
//! ```text
//!  Book · Lab 2: Retry amplification                                        line 1 of 240
//! ┌ Chapters ──────────────┐┌ Lab 2: Retry amplification ──────────────────────────────┐
//! │  Introduction          ││ # Lab 2: Retry amplification                              │
//! │▸ Lab 2: Retry ...      ││ ## The idea                                               │
//! │  ...                   ││ A retry bets that the failure was a one-off. ...          │
//! └────────────────────────┘└───────────────────────────────────────────────────────────┘
//!  footer keys
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::content::book;
use crate::tui::app::App;
use crate::tui::layout;
use crate::tui::markdown::{LinkTarget, focus_link, render_with_links, wrapped_rows};
use crate::tui::view::footer;
use crate::wrap;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let Some(layout) = layout::book(area, app.book.wide) else {
        return;
    };
    let chapters = book::chapters();
    let state = &app.book;
    let Some(open) = chapters.get(state.open) else { return };

    let mut block = Block::bordered()
        .title(Span::styled(format!(" {} ", open.title), theme.accent()))
        .border_style(theme.border());
    let inner = block.inner(layout.text);
    let (mut text, links) = render_with_links(open.markdown, theme, inner.width);
    // The focused link shows reversed, and the border says where Enter goes.
    if let Some((at, link)) = state.link.and_then(|at| links.get(at).map(|link| (at, link))) {
        text = focus_link(text, link);
        let goes = match &link.target {
            LinkTarget::Chapter(index) => chapters.get(*index).map_or(link.shown.as_str(), |c| c.title),
            LinkTarget::External(_) => "",
        };
        let room = usize::from(layout.text.width.saturating_sub(2));
        block = block.title_bottom(Span::styled(link_title(at + 1, links.len(), goes, room), theme.key()));
    }
    let rows = wrapped_rows(&text, inner.width);
    let scroll = state.scroll.min(rows.saturating_sub(usize::from(inner.height)) as u16);

    let left = format!(" Book · {}", open.title);
    // The footer has room for six keys; the wide view's key is named up here, where the
    // line count is.
    let toggle = if state.wide { "w chapters" } else { "w wide" };
    let right = format!("line {} of {rows} · {toggle} ", usize::from(scroll) + 1);
    let gap = usize::from(layout.title.width).saturating_sub(left.chars().count() + right.chars().count());
    Line::from(vec![
        Span::styled(left, theme.accent()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.dim()),
    ])
    .render(layout.title, buf);

    // Hidden in the wide view (`w`), where the text takes its columns.
    if layout.list.width > 0 {
        let list_width = usize::from(Block::bordered().inner(layout.list).width);
        // Each name on up to two rows (layout::BOOK_ENTRY_HEIGHT), continued under its start.
        let room = list_width.saturating_sub(3);
        let mut entries: Vec<Line> = Vec::new();
        for (index, chapter) in chapters.iter().enumerate() {
            let pointer = if index == state.selected { "▸ " } else { "  " };
            let mark = if index == state.open { "•" } else { " " };
            let mut rows = wrap::wrap_line(Line::from(chapter.title), room, 0);
            rows.truncate(usize::from(layout::BOOK_ENTRY_HEIGHT));
            rows.resize(usize::from(layout::BOOK_ENTRY_HEIGHT), Line::from(""));
            let style = if index == state.selected {
                theme.selected()
            } else {
                theme.text()
            };
            for (row, line) in rows.iter().enumerate() {
                let lead = if row == 0 { pointer } else { "  " };
                let end = if row == 0 { mark } else { " " };
                let text = format!("{lead}{:<room$}{end}", line.to_string());
                entries.push(Line::from(Span::styled(text, style)));
            }
        }
        // Scrolled to keep the cursor on screen, in whole entries.
        let top = layout::book_list_top(&layout, state.selected) * usize::from(layout::BOOK_ENTRY_HEIGHT);
        Paragraph::new(entries)
            .scroll((top as u16, 0))
            .block(
                Block::bordered()
                    .title(Span::styled(" Chapters ", theme.accent()))
                    .border_style(theme.border()),
            )
            .render(layout.list, buf);
    }
    Paragraph::new(text)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .block(block)
        .render(layout.text, buf);
    // A web address in full on the status row, for the learner to copy; else the keys.
    match &state.status {
        Some(status) => Line::from(Span::styled(format!(" {status}"), theme.accent())).render(layout.footer, buf),
        None => footer::render_keys(app.context(), app.theme, layout.footer, buf),
    }
}

/// The text box's bottom title for link `number` of `count`, which opens chapter `goes`
/// (empty: a web address), in at most `room` columns: the count shortens first, then the
/// chapter's title loses its end to an ellipsis.
fn link_title(number: usize, count: usize, goes: &str, room: usize) -> String {
    let ways = if goes.is_empty() {
        vec![
            format!(" link {number} of {count} · Enter shows the address "),
            format!(" {number}/{count} · Enter shows the address "),
            format!(" {number}/{count} · Enter shows it "),
        ]
    } else {
        vec![
            format!(" link {number} of {count} · Enter opens “{goes}” "),
            format!(" {number}/{count} · Enter opens “{goes}” "),
        ]
    };
    if let Some(way) = ways.iter().find(|way| way.chars().count() <= room) {
        return way.clone();
    }
    if goes.is_empty() {
        return ways.last().cloned().unwrap_or_default();
    }
    let frame = format!(" {number}/{count} · Enter opens “…” ").chars().count();
    let kept: String = goes.chars().take(room.saturating_sub(frame)).collect();
    format!(" {number}/{count} · Enter opens “{}…” ", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::link_title;

    #[test]
    fn the_link_title_fits_its_box() {
        let long = "Self-check: four questions";
        assert_eq!(
            link_title(3, 4, long, 80),
            " link 3 of 4 · Enter opens “Self-check: four questions” "
        );
        assert_eq!(
            link_title(3, 4, long, 48),
            " 3/4 · Enter opens “Self-check: four questions” "
        );
        let short = link_title(3, 4, long, 40);
        assert_eq!(short, " 3/4 · Enter opens “Self-check: four…” ");
        assert!(short.chars().count() <= 40);
        assert_eq!(link_title(1, 2, "", 40), " link 1 of 2 · Enter shows the address ");
        assert_eq!(link_title(1, 2, "", 30), " 1/2 · Enter shows it ");
    }
}
