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

/// Steps 1 and 2 revealed: the waterfall itself.
fn waterfall(width: u16, height: u16) -> App {
    let mut app = lab5(width, height, 0, true);
    app.update(Msg::NextStep);
    app.update(Msg::Reveal);
    app
}

#[test]
fn lab5_waterfall_80x24() {
    insta::assert_snapshot!(render(&waterfall(80, 24)));
}

#[test]
fn the_waterfalls_labels_are_whole_and_spent_is_the_work_sliders_at_80x24() {
    let screen = render(&waterfall(80, 24));
    // Payments' work slider is 1000 ms; the run counts its 18000 ms on the processor in its
    // time too, said on a line of its own.
    assert!(screen.contains("got 19000 spent 1000 passed 18000"), "{screen}");
    assert!(screen.contains("then waited 18000 on the processor"), "{screen}");
    assert!(!screen.contains("spent 19000"), "{screen}");
    assert!(
        screen.contains("│ the inbound deadline (ms)"),
        "the legend whole: {screen}"
    );
    for label in ["got 30000 spent 7000 passed 23000", "got 23000 spent 4000 passed 19000"] {
        assert!(screen.contains(label), "{label}: {screen}");
    }
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

/// Step 1 predicted right: the verdict, and the run it scored.
#[test]
fn lab5_prediction_observed_80x24() {
    let mut app = lab5(80, 24, 0, false);
    for msg in [
        Msg::Predict,
        Msg::Type('2'),
        Msg::Type('3'),
        Msg::Type('0'),
        Msg::Type('0'),
        Msg::Type('0'),
        Msg::Open,
    ] {
        app.update(msg);
    }
    let text = render(&app);
    assert!(text.contains("✓ Right"), "{text}");
    // Its own number shows now; step 2's, the next check's, still waits.
    assert!(text.contains("checkout 23000 ms · payments ?s2"), "{text}");
    insta::assert_snapshot!(text);
}

/// Lab 5 has 40 sliders: focusing the 31st scrolls the panel so it, its bar and its help show.
#[test]
fn the_slider_panel_scrolls_to_the_focused_slider_80x24() {
    let mut app = lab5(80, 24, 0, true);
    for _ in 0..30 {
        app.update(Msg::NextSlider);
    }
    let text = render(&app);
    assert!(text.contains("▸ Retry client errors"), "{text}");
    assert!(text.contains("included (scenario status)."), "its help: {text}");
    assert!(!text.contains("Inbound ms"), "the list scrolled: {text}");
}

/// Without colour the two series of the Retry-After chart keep their own glyphs.
#[test]
fn without_colour_the_retry_after_series_differ_by_glyph() {
    let text = render(&lab5(100, 30, 6, true));
    assert!(text.contains('•'), "honouring is dotted: {text}");
    // Braille past the legend's own sample.
    assert!(
        text.chars().filter(|c| ('\u{2801}'..='\u{28ff}').contains(c)).count() > 1,
        "ignoring is braille: {text}"
    );
    assert!(text.contains("⠒ignoring") && text.contains("•honouring"), "{text}");
}

/// The app's live mode keeps the command line's live limits: the herd slider reaches
/// 100,000 clients, and a live start past 5,000 is refused on screen, naming the slider,
/// before any server starts (it had started, the limits living only in `run budget --live`).
#[test]
fn a_live_start_past_the_live_limits_is_refused_with_the_sliders_name() {
    let mut app = lab5(100, 30, 11, true);
    let index = app.content.labs.iter().position(|l| l.id == "budget").expect("Lab 5");
    let lab = app.content.labs[index].clone();
    let screen = &mut app.labs[index];
    for slider in screen.pages.iter_mut().flat_map(|page| page.sliders.iter_mut()) {
        if slider.spec.name == "herd_clients" {
            slider.set_value(6_000.0);
        }
    }
    screen.sliders_set(&lab);
    app.settle();
    app.update(Msg::ToggleMode);
    app.update(Msg::StartStop);
    let text = render(&app);
    assert!(text.contains("not started: Herd clients 6000 live; allowed:"), "{text}");
    assert!(!app.labs[index].live_running(), "no run started");
}

/// Live mode's first line says how the scenario runs live; at 80 columns it was cut
/// mid-sentence ("... time shifted to the cooldown's end, t"): it wraps onto a spare row.
#[test]
fn the_live_status_reads_whole_at_80x24() {
    for (step, ends_with) in [(0, "20 times fewer"), (12, "then real time")] {
        let mut app = lab5(80, 24, step, true);
        app.update(Msg::ToggleMode);
        let text = render(&app);
        assert!(text.contains("s runs scenario"), "step {step}: {text}");
        assert!(text.contains(ends_with), "step {step}: {text}");
    }
}
