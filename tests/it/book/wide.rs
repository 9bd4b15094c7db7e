//! The book's wide view (`w`): the text keeps its place when its width changes.

use crate::common::{app, render};
use resilience_lab::tui::msg::Msg;

/// The text box's first `count` rows as one line of words (borders left out).
fn top_words(screen: &str, count: usize) -> String {
    screen
        .lines()
        .skip(2)
        .take(count)
        .map(|row| {
            let row = row.trim_matches('"');
            // The text box is the last bordered panel on the row.
            let inner = row.rsplit('│').nth(1).unwrap_or_default();
            inner.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `w` keeps the first text in view: it kept the row number, and the row at that number of
/// the wider text was a later paragraph (issue 26, a new user's trial: line 39 of 343, then
/// line 39 of 242). Both ways, at 80x24.
#[test]
fn w_keeps_the_first_visible_text_in_view() {
    let chapter = resilience_lab::content::book::chapters()
        .iter()
        .position(|chapter| chapter.file == "lab3-breaker.md")
        .expect("Lab 3's chapter is listed");
    let mut app = app(80, 24);
    for msg in [Msg::Down; 6].into_iter().chain([Msg::Open]) {
        app.update(msg);
    }
    // Read down to line 39, where the trial's learner pressed w.
    (app.book.selected, app.book.open, app.book.scroll) = (chapter, chapter, 38);
    for _ in 0..2 {
        let before = render(&app);
        let first: String = top_words(&before, 1).split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert!(!first.is_empty(), "{before}");
        app.update(Msg::ToggleWide);
        let after = render(&app);
        assert!(
            top_words(&after, 3).contains(&first),
            "{first:?} left the top of the text:\n{before}\n{after}"
        );
    }
}
