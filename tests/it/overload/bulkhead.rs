//! Lab 4's bulkhead view: its own run's last second, X's calls named in what was offered
//! (beside it only the policy's run said "offered 1000 = goodput 1000", without X), and the
//! run's mean reads the same at 80 and 100 columns ("10 s mean: goodput", not "10 s mean
//! goodput" at one).

use crate::common::{render, visited_app as app};
use resilience_lab::tui::msg::Msg;

/// Lab 4 at the bulkhead step, its check answered (160): the verdict shows the check's run
/// and the bulkhead view it is about.
fn bulkhead_view(width: u16, height: u16) -> String {
    let mut app = app(width, height);
    let open = [Msg::Down, Msg::Down, Msg::Down, Msg::Open];
    for msg in open.into_iter().chain([Msg::NextStep; 4]).chain([Msg::Predict]) {
        app.update(msg);
    }
    for c in "160".chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
    render(&app)
}

/// Lab 4 opened at 80x24, on step 5 revealed (before it the view waits for step 5): step
/// 5's run at its check's settings, in the bulkhead view, as its verdict shows it.
fn bulkhead_view_80x24() -> String {
    let mut app = app(80, 24);
    let open = [Msg::Down, Msg::Down, Msg::Down, Msg::Open];
    for msg in open.into_iter().chain([Msg::NextStep; 4]).chain([Msg::Reveal]) {
        app.update(msg);
    }
    render(&app)
}

#[test]
fn the_bulkhead_view_names_x_s_calls_in_its_run_s_last_second() {
    let screen = bulkhead_view(100, 30);
    assert!(screen.contains("bulkhead: the pool's slots"), "{screen}");
    assert!(
        screen.contains("this run at 10 s: offered 1100 (X's 100/s)"),
        "{screen}"
    );
    assert!(screen.contains("10 s mean: goodput"), "{screen}");
    let screen = bulkhead_view_80x24();
    assert!(screen.contains("this run at 10 s: offered 1100"), "{screen}");
    assert!(screen.contains("(X's 100/s)"), "{screen}");
    assert!(
        screen.contains("10 s mean: goodput"),
        "one wording at 80 columns too:\n{screen}"
    );
}
