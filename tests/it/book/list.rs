//! The book's chapter list: the cursor stays in view however far down it goes.

use crate::common::{app, render};
use resilience_lab::content::book;
use resilience_lab::tui::msg::Msg;

/// At 80x24 ten of the chapters fit: moving past "Facilitator guide" hid the `▸` (a beginner's
/// trial). The list scrolls to keep it, down to the last chapter and back, and a click lands
/// on the chapter drawn under it.
#[test]
fn the_chapter_list_scrolls_to_keep_the_cursor_in_view_at_80x24() {
    let mut app = app(80, 24);
    for msg in [Msg::Down; 6] {
        app.update(msg);
    }
    app.update(Msg::Open);
    let chapters = book::chapters();
    for (index, chapter) in chapters.iter().enumerate().skip(1) {
        app.update(Msg::NextItem);
        assert_eq!(app.book.selected, index);
        let screen = render(&app);
        let first_word = chapter.title.split_whitespace().next().unwrap_or_default();
        assert!(
            screen.lines().any(|row| row.contains(&format!("▸ {first_word}"))),
            "chapter {index} ({}) under a visible cursor:\n{screen}",
            chapter.title
        );
    }
    // The list's first drawn row (under its border, row 2) is a click's first entry.
    let screen = render(&app);
    // The list's cells only: the chapter text beside it may name a chapter too.
    let top_row: &str = screen
        .lines()
        .nth(2)
        .and_then(|row| row.split("││").next())
        .unwrap_or_default();
    let clicked = chapters
        .iter()
        .position(|chapter| top_row.contains(chapter.title.split(':').next().unwrap_or_default()))
        .expect("a chapter on the list's first row");
    app.update(Msg::Click(3, 2));
    assert_eq!(app.book.open, clicked, "{top_row}");
}
