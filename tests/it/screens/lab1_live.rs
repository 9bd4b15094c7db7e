//! Lab 1 live, through the screen's event path (a stand-in server's events, no child): what
//! the server panel and the Next box say as a guided step plays out.

use crate::common::{lab1_event, lab1_started, render, show_lab1_run, visited_app as app};
use resilience_lab::live::http::GetOutcome;
use resilience_lab::live::run::HealthEvent;
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::Msg;

/// Lab 1's live screen at 80x24 for a returning learner, taking the stand-in run's events.
fn lab1_live() -> App {
    let mut app = app(80, 24);
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    show_lab1_run(&mut app);
    app
}

/// A `/work` request answered 200.
fn work_answered() -> HealthEvent {
    HealthEvent::WorkDone(GetOutcome::Answered {
        code: 200,
        body: "done\n".into(),
    })
}

/// Step 3 (deregistration 0): /work, SIGTERM, /work. The second finds the listener closed;
/// the summary counts it and the exit line (code 0) does not say every request finished.
#[test]
fn a_work_refused_at_the_closed_listener_is_counted_through_the_exit() {
    let mut app = lab1_live();
    lab1_event(&mut app, lab1_started(4242));
    lab1_event(&mut app, HealthEvent::WorkSent);
    lab1_event(&mut app, HealthEvent::SigtermSent);
    lab1_event(&mut app, HealthEvent::WorkSent);
    lab1_event(&mut app, HealthEvent::WorkDone(GetOutcome::Refused));
    let refused = render(&app);
    assert!(refused.contains("/work refused: the listener was closed"), "{refused}");
    assert!(
        refused.contains("1 in flight · 2 sent · 0 answered · 1 refused"),
        "{refused}"
    );
    lab1_event(&mut app, work_answered());
    lab1_event(&mut app, HealthEvent::Exited(0));
    let exited = render(&app);
    assert!(
        exited.contains("0 in flight · 2 sent · 1 answered · 1 refused"),
        "{exited}"
    );
    assert!(
        exited.contains("exit code 0: every request it accepted finished; 1 refused (listener closed)"),
        "{exited}"
    );
    assert!(!exited.contains("every request finished"), "{exited}");
}

/// With nothing refused, exit code 0 keeps its one line with the pid.
#[test]
fn an_exit_with_every_request_answered_says_so() {
    let mut app = lab1_live();
    lab1_event(&mut app, lab1_started(4242));
    lab1_event(&mut app, HealthEvent::WorkSent);
    lab1_event(&mut app, work_answered());
    lab1_event(&mut app, HealthEvent::Exited(0));
    let exited = render(&app);
    assert!(exited.contains("0 in flight · 1 sent · 1 answered"), "{exited}");
    assert!(
        exited.contains("pid 4242 exited with code 0: every request it accepted finished"),
        "{exited}"
    );
}

/// The Next box's text, joined across its rows.
fn next_box(text: &str) -> String {
    let rows: Vec<&str> = text.lines().collect();
    let top = rows.iter().position(|row| row.contains("┌ Next ")).expect("a Next box");
    let column = rows[top].chars().position(|c| c == '┌').unwrap_or(0) + 1;
    rows[top + 1..]
        .iter()
        .take_while(|row| row.chars().nth(column - 1) != Some('└'))
        .map(|row| {
            let inner: String = row.chars().skip(column).collect();
            inner.trim_end_matches(['│', '"', ' ']).trim().to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Step 3 has no check: once `]` marked it done, the Next box no longer asks for it.
#[test]
fn the_next_box_does_not_ask_for_a_step_already_done() {
    let mut app = lab1_live();
    app.update(Msg::NextStep);
    app.update(Msg::NextStep);
    let before = next_box(&render(&app));
    assert!(
        before.contains("step 3: nothing to predict, ] marks it done."),
        "{before}"
    );
    app.update(Msg::NextStep);
    app.update(Msg::Back);
    let text = render(&app);
    let after = next_box(&text);
    assert!(!after.contains("] marks it done"), "{after}\n{text}");
    assert!(after.contains("step 3 ✓ done."), "{after}\n{text}");
}

/// After an exit, the Next box does not suggest the deregistration delay the slider already has.
#[test]
fn the_next_box_after_an_exit_follows_the_sliders() {
    let mut app = lab1_live();
    app.update(Msg::NextStep);
    lab1_event(&mut app, lab1_started(4242));
    lab1_event(&mut app, HealthEvent::Exited(0));
    let at_one = next_box(&render(&app));
    assert!(at_one.contains("try deregistration 0 s"), "{at_one}");
    // The deregistration delay, the second slider, from 1 s down to 0 s by 0.1 s.
    app.update(Msg::NextSlider);
    for _ in 0..10 {
        app.update(Msg::Step(-1));
    }
    let text = render(&app);
    let at_zero = next_box(&text);
    assert!(text.contains("Deregistration delay    0.0 s"), "{text}");
    assert!(!at_zero.contains("try deregistration 0 s"), "{at_zero}\n{text}");
    assert!(at_zero.contains("the second /work is refused"), "{at_zero}\n{text}");
}
