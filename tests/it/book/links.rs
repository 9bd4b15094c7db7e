//! The book's links can be followed: Tab focuses one (reversed, the border says where Enter
//! goes), Enter opens the chapter it names, inside the book.

use crate::common::render;
use resilience_lab::content::book;
use resilience_lab::tui::app::{App, Screen};
use resilience_lab::tui::msg::Msg;

/// The book open on the facilitator guide, its first link focused.
fn guide_link_focused(width: u16, height: u16) -> App {
    let mut app = crate::common::app(width, height);
    // Home: the labs, the quiz, the book, then the on-call drill.
    for _ in 0..app.home_entries() - 2 {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Book);
    let guide = book::chapters()
        .iter()
        .position(|c| c.file == "facilitator-guide.md")
        .expect("listed");
    for _ in 0..guide {
        app.update(Msg::NextItem);
    }
    app.update(Msg::Open);
    app.update(Msg::NextLink);
    app
}

#[test]
fn book_link_focused_100x30() {
    let app = guide_link_focused(100, 30);
    let text = render(&app);
    assert!(text.contains("link 1 of 5 · Enter opens “Interview sheet”"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn book_link_focused_80x24() {
    insta::assert_snapshot!(render(&guide_link_focused(80, 24)));
}

#[test]
fn enter_follows_the_focused_link_and_the_arrows_still_choose() {
    let mut app = guide_link_focused(100, 30);
    app.update(Msg::Open);
    let open = &book::chapters()[app.book.open];
    assert_eq!(open.file, "interview-sheet.md");
    assert!(render(&app).contains(&format!(" Book · {}", open.title)));
    // Without a focused link, Enter opens the chapter chosen with the arrows, as on home.
    app.update(Msg::PrevItem);
    app.update(Msg::Open);
    assert_eq!(app.book.open, app.book.selected);
    assert_eq!(book::chapters()[app.book.open].file, "room.md");
}
