//! Lab 3's simulated Results panel at 80x24, step by step: what its rows and its transition
//! log show, and what the steps' texts say about them.

use crate::common::{predict, render, visited_app};
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::Msg;

/// Lab 3 at 80x24 for a learner back for a later visit, at its first step.
fn lab3() -> App {
    let mut app = visited_app(80, 24);
    for msg in [Msg::Down, Msg::Down, Msg::Open] {
        app.update(msg);
    }
    app
}

/// The step after which `text` says the transition log opens: `until step N is predicted` (or
/// `after step N`) names N (from 1); `opens with it` names its own step, `own`.
fn log_opens_after(text: &str, own: usize) -> Option<usize> {
    if !text.contains("transition log") {
        return None;
    }
    if text.contains("transition log opens with it") {
        return Some(own);
    }
    let after = text
        .split("until step ")
        .nth(1)
        .or_else(|| text.split("after step ").nth(1))?;
    after.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// A step that says when the transition log opens says what the Results show once it is
/// answered: step 5 said "after step 7" while the log read `?s6` (issue 26, a new user's trial).
#[test]
fn a_step_that_says_when_the_transition_log_opens_agrees_with_the_results() {
    let mut app = lab3();
    let steps = app.content.labs[2].steps.clone();
    let mut compared = 0;
    for (index, step) in steps.iter().enumerate() {
        while app.labs[2].predict.step < index {
            app.update(Msg::NextStep);
        }
        if step.check.is_some() {
            predict(&mut app, "1");
            app.update(Msg::Back);
        }
        let Some(opens) = log_opens_after(&step.text, index + 1) else {
            continue;
        };
        compared += 1;
        let screen = render(&app);
        if opens == index + 1 {
            assert!(screen.contains("closed -> open"), "step {}:\n{screen}", index + 1);
        } else {
            assert!(
                screen.contains(&format!("transition log ?s{opens}")),
                "step {} says the log opens after step {opens}:\n{screen}",
                index + 1
            );
        }
    }
    assert!(compared >= 2, "no step says when the transition log opens");
}

/// The title's count of transitions waits with the log it counts: `breaker transitions: 13`
/// showed on first entry beside `transition log ?s6` (issue 26, a new user's trial).
#[test]
fn the_transition_count_is_hidden_while_the_log_is() {
    let mut app = lab3();
    let screen = render(&app);
    assert!(screen.contains("transition log ?s6"), "{screen}");
    assert!(screen.contains("breaker transitions: ?s6"), "{screen}");
    while app.labs[2].predict.step < 5 {
        app.update(Msg::NextStep);
    }
    predict(&mut app, "10.29");
    app.update(Msg::Back);
    let screen = render(&app);
    assert!(screen.contains("breaker transitions: 13"), "{screen}");
}
