//! Lab 1 live: the port the server starts on is a slider of the single-server page, as
//! `serve health --port` is a flag, and the screen says which port `s` will ask for.

use crate::common::{render, visited_app as app};
use resilience_lab::tui::msg::Msg;

#[test]
fn the_port_slider_sets_the_port_the_live_screen_offers() {
    let mut app = app(80, 24);
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    let before = render(&app);
    assert!(
        before.contains("127.0.0.1:18080"),
        "serve health's default port:\n{before}"
    );
    // The sixth slider of the server page, after warm-up, deregistration, grace, work and the probe period.
    for _ in 0..5 {
        app.update(Msg::NextSlider);
    }
    app.update(Msg::Step(1));
    let after = render(&app);
    assert!(after.contains("Port"), "the slider is on screen:\n{after}");
    assert!(after.contains("18081"), "the slider shows its value:\n{after}");
    assert!(
        after.contains("s starts `resilience-lab serve health` on 127.0.0.1:18081"),
        "the next start asks for the slider's port:\n{after}"
    );
}

/// In sim the port slider says what it is for, and its help and range fit at 80x24.
#[test]
fn the_port_slider_says_in_sim_that_it_is_the_live_servers() {
    let mut app = app(80, 24);
    app.update(Msg::Open);
    for _ in 0..5 {
        app.update(Msg::NextSlider);
    }
    let text = render(&app);
    assert!(text.contains("In sim there is no server"), "{text}");
    assert!(text.contains("10000 to 19999, step 1"), "the range fits:\n{text}");
}
