//! The book screen's state: the chapter list's choice, the open chapter, its scroll and its
//! focused link.
//!
//! Links can be followed: Tab and Shift+Tab focus the chapter's links in turn, Enter opens
//! a link to another chapter here and shows a web address in full on the status line, for
//! the learner to copy (the app never starts a browser). The chapters are
//! `content::book`'s; drawing them is `tui::markdown`'s.

use ratatui::layout::{Position, Rect};
use ratatui::text::Text;

use crate::content::book::chapters;
use crate::tui::layout;

use crate::tui::markdown::{BookLink, LinkTarget, render_with_links, wrapped_rows};
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;

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
    /// The text across the whole width, the chapter list hidden (`w`): at 80x24 the text
    /// panel is 48 columns and a four-column table cuts its alert and lever names mid-word.
    pub wide: bool,
}

impl BookState {
    /// Applies `msg` on a screen of size `area`; `None` means back to the home screen,
    /// `Some(changed)` whether to redraw.
    pub fn update(&mut self, msg: Msg, area: Rect) -> Option<bool> {
        let chapters = chapters().len();
        let layout = layout::book(area, self.wide);
        let page = layout.map_or(10, |l| l.text.height.saturating_sub(3).max(1));
        let before = self.clone();
        match msg {
            Msg::Back => return None,
            Msg::ToggleWide => {
                self.wide = !self.wide;
                self.scroll = self.scroll_at(layout, layout::book(area, self.wide));
            }
            // Choosing a chapter leaves the open chapter's link: Enter opens the choice. The
            // list shows again, since the choice is made in it.
            Msg::NextItem | Msg::PrevItem => {
                self.wide = false;
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
                if let Some(entry) =
                    layout.and_then(|l| layout::book_entry_at(&l, chapters, self.selected, Position::new(x, y)))
                {
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

    /// The scroll that keeps the first text on screen in `from` first on screen in `to`
    /// (`w` changes the text's width, so the same row number is another paragraph: a trial
    /// read line 39 of 343, pressed w, and was at line 39 of 242, a later paragraph). The
    /// chapter is wrapped at both widths; the top row is found again by how much of the
    /// chapter's text comes before it (its letters, not the spaces and table rules that
    /// wrapping adds).
    fn scroll_at(&self, from: Option<layout::BookLayout>, to: Option<layout::BookLayout>) -> u16 {
        let (Some(from), Some(to), Some(chapter)) = (from, to, chapters().get(self.open).copied()) else {
            return self.scroll;
        };
        let theme = Theme::new(crate::tui::theme::ThemeName::Dark, false);
        // Per line as drawn: the letters before it, and the rows it takes.
        let lines = |layout: layout::BookLayout| -> Vec<(usize, usize)> {
            let width = layout.text.width.saturating_sub(2);
            let mut before = 0;
            render_with_links(chapter.markdown, theme, width)
                .0
                .lines
                .into_iter()
                .map(|line| {
                    let rows = wrapped_rows(&Text::from(line.clone()), width).max(1);
                    let at = before;
                    before += line
                        .to_string()
                        .chars()
                        .filter(|c| !c.is_whitespace() && !('\u{2500}'..='\u{257f}').contains(c))
                        .count();
                    (at, rows)
                })
                .collect()
        };
        let (old, new) = (lines(from), lines(to));
        // The row the view shows first: it clamps the scroll to the chapter's end.
        let total: usize = old.iter().map(|(_, rows)| rows).sum();
        let visible = usize::from(from.text.height.saturating_sub(2));
        let top = usize::from(self.scroll).min(total.saturating_sub(visible));
        let (mut line, mut start) = (0, 0);
        while line + 1 < old.len() && start + old[line].1 <= top {
            start += old[line].1;
            line += 1;
        }
        let Some(&(letters, _)) = old.get(line) else {
            return self.scroll;
        };
        let same = new.iter().rposition(|(before, _)| *before <= letters).unwrap_or(0);
        let rows: usize = new[..same].iter().map(|(_, rows)| rows).sum();
        u16::try_from(rows).unwrap_or(u16::MAX)
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
        let first = &book.links(layout::book(area, false))[0];
        let rows = usize::from(layout::book(area, false).expect("fits").text.height - 2);
        assert!((usize::from(book.scroll)..usize::from(book.scroll) + rows).contains(&first.row));
        book.update(Msg::PrevLink, area);
        let last = book.links(layout::book(area, false)).len() - 1;
        assert_eq!(book.link, Some(last), "Shift+Tab from the first wraps to the last");
        book.update(Msg::Open, area);
        assert_eq!(chapters()[book.open].file, "self-check.md");
        assert_eq!((book.selected, book.scroll, book.link), (book.open, 0, None));
        // A chapter without links says so; a web address is shown, nothing is started.
        book.update(Msg::NextLink, area);
        assert!(book.status.as_deref().unwrap_or_default().contains("no links"));
        assert_eq!(book.link, None);
    }
}
