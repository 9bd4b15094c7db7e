//! Lab 5's page as whole screens at 100x30 and 80x24, without colour (what a learner reads
//! with NO_COLOR): one scenario per guided step, its run hidden until predicted or revealed,
//! and a chart per scenario.

use crate::common::{render, visited_app as app};
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::Msg;

/// From home: Lab 5 opened.
const LAB5: &[Msg] = &[Msg::Down, Msg::Down, Msg::Down, Msg::Down, Msg::Open];

/// Lab 5 at `width`x`height`, at guided step `step` (from 0), revealed with `x` if `reveal`.
fn lab5(width: u16, height: u16, step: usize, reveal: bool) -> App {
    let mut app = app(width, height);
    for msg in LAB5 {
        app.update(*msg);
    }
    for _ in 0..step {
        app.update(Msg::NextStep);
        // A step without a check would say it is done; these all have one.
    }
    if reveal {
        app.update(Msg::Reveal);
    }
    app
}

#[test]
fn lab5_deadline_100x30() {
    insta::assert_snapshot!(render(&lab5(100, 30, 0, true)));
}

#[test]
fn lab5_deadline_80x24() {
    insta::assert_snapshot!(render(&lab5(80, 24, 0, true)));
}

/// As opened: step 1's check is unanswered, so the run waits for a prediction.
#[test]
fn lab5_as_opened_80x24() {
    insta::assert_snapshot!(render(&lab5(80, 24, 0, false)));
}

#[test]
fn lab5_register_80x24() {
    insta::assert_snapshot!(render(&lab5(80, 24, 4, true)));
}

#[test]
fn lab5_retry_after_100x30() {
    insta::assert_snapshot!(render(&lab5(100, 30, 6, true)));
}

#[test]
fn lab5_retry_after_80x24() {
    insta::assert_snapshot!(render(&lab5(80, 24, 6, true)));
}

#[test]
fn lab5_duplicates_80x24() {
    insta::assert_snapshot!(render(&lab5(80, 24, 8, true)));
}

#[test]
fn lab5_herd_100x30() {
    insta::assert_snapshot!(render(&lab5(100, 30, 11, true)));
}

#[test]
fn lab5_half_open_80x24() {
    insta::assert_snapshot!(render(&lab5(80, 24, 12, true)));
}
