//! Lines that used to run past a panel's border at 80x24 or 100x30 (Lab 2, and Lab 1's
//! single-server live screen): each now fits in a shorter wording or wraps, and keeps every
//! number and unit. States are built by hand, no sockets or child.

use crate::common::{render, visited_app as app};
use resilience_lab::engine::retry::{ScenarioParams, ScenarioResult};
use resilience_lab::live::run::HealthEvent;
use resilience_lab::tui::app::App;
use resilience_lab::tui::labs::retry::RetryLab;
use resilience_lab::tui::labs::retry::live::{RetrySeries, RetryView};
use resilience_lab::tui::msg::{LiveMsg, Msg};

/// The screen's rows, without the quotes the test backend puts round them.
fn rows(app: &App) -> Vec<String> {
    render(app)
        .lines()
        .map(|row| row.trim_matches('"').to_string())
        .collect()
}

/// Lab 2, sim or `live`; in sim its run revealed (`x`: step 1's check is unanswered).
fn lab2(width: u16, height: u16, live: bool) -> App {
    let mut app = app(width, height);
    app.update(Msg::Down);
    app.update(Msg::Open);
    app.update(Msg::Reveal);
    if live {
        app.update(Msg::ToggleMode);
    }
    app
}

/// Lab 1 live with a check's answer typed in on step `step` (from 0), the server `running` or not.
fn lab1_waiting_for_the_action(width: u16, height: u16, step: usize, running: bool) -> App {
    let mut app = app(width, height);
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    if running {
        // A stand-in server of run `LAB1_RUN`, started: the test sends its events.
        crate::common::show_lab1_run(&mut app);
        crate::common::lab1_event(&mut app, crate::common::lab1_started(4242));
    }
    for _ in 0..step {
        app.update(Msg::NextStep);
    }
    app.update(Msg::Predict);
    for c in "503".chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
    app
}

#[test]
fn lab1_live_says_whole_which_probe_decides_the_answer() {
    for (width, height) in [(80, 24), (100, 30)] {
        for (step, running) in [(0, false), (0, true), (1, false), (1, true)] {
            let app = lab1_waiting_for_the_action(width, height, step, running);
            let text = rows(&app)[1..6].join("\n");
            assert!(text.contains("you said 503: "), "{width}x{height} step {step}: {text}");
            assert!(text.contains("decides"), "the instruction ends whole: {text}");
            if running {
                // The figures stay when the curl hint gives way.
                assert!(
                    text.contains("pid 4242") && text.contains(" 0 in flight") && text.contains(" 0 sent"),
                    "{text}"
                );
            }
        }
    }
}

#[test]
fn lab1_live_keeps_the_curl_hint_while_the_status_fits_one_row() {
    let mut app = lab1_waiting_for_the_action(100, 30, 0, true);
    crate::common::lab1_event(&mut app, HealthEvent::Note("database down".into()));
    let text = rows(&app)[1..6].join("\n");
    assert!(text.contains("try: curl 127.0.0.1:18080/readyz"), "{text}");
}

#[test]
fn lab2_live_explains_the_sliders_whole_before_a_run() {
    let app = lab2(80, 24, true);
    let text = render(&app);
    assert!(text.contains("from the sliders, at each start"), "{text}");
    // `o` steps through the policies: the one it stands at now is apart from the key's name.
    assert!(text.contains("o: policy (A layered)"), "{text}");
    let mut app = lab2(80, 24, true);
    app.update(Msg::Live(LiveMsg::ToggleView));
    let text = render(&app);
    // The keys in plain words, not "g fails db 10 s; +/- load, c cut" (a beginner's trial).
    assert!(
        text.contains("g: db down 10 s; +/-: more or less") && text.contains("c: no load"),
        "{text}"
    );
    // The p slider shows 1.00: the view names no other p, and says the slider is not its.
    assert!(text.contains("Failure probability      1.00"), "{text}");
    assert!(
        !text.contains("p = 0") && text.contains("failure probability unused"),
        "{text}"
    );
    // Named by the slider, never "p", which is also the predict key.
    assert!(!text.contains("p unused"), "{text}");
}

/// Lab 2 live with a finished counting run of `p`, and `status` as the note of the last key.
fn finished(app: &mut App, (p, attempts_per_action, success_ratio): (f64, f64, f64), status: Option<&str>) {
    let params = ScenarioParams {
        p,
        attempts: vec![4, 4, 4],
        budget: 0.0,
        actions: 2_000,
        seed: 42,
    };
    let series = RetrySeries {
        view: RetryView::Counting,
        policy_label: "A 4×4×4".into(),
        attempts: vec![4, 4, 4],
        p,
        actions: 2_000,
        finished: true,
        result: Some(ScenarioResult {
            params,
            db_attempts: (attempts_per_action * 2_000.0) as u64,
            db_attempts_per_action: attempts_per_action,
            successes: (success_ratio * 2_000.0) as u64,
            success_ratio,
            sends_per_layer: vec![2_000, 2_000, 2_000],
        }),
        ..RetrySeries::default()
    };
    crate::common::show_live::<RetryLab>(app, 1, |live| {
        live.series = Some(series);
        live.status = status.map(String::from);
    });
}

#[test]
fn lab2_live_result_keeps_both_percentages_at_80_columns() {
    let mut app = lab2(80, 24, true);
    finished(&mut app, (0.3, 1.41, 1.0), None);
    let rows = rows(&app);
    let measured = rows
        .iter()
        .find(|row| row.contains("measured"))
        .expect("the measured line");
    assert!(measured.contains("measured 1.41 "), "{measured}");
    assert!(measured.contains("100.0% ok · sim of this run "), "{measured}");
    assert!(measured.trim_end_matches('│').trim_end().ends_with('%'), "{measured}");
    // Where the long wording fits it is kept.
    let mut app = lab2(100, 30, true);
    finished(&mut app, (0.3, 1.41, 1.0), None);
    assert!(render(&app).contains("success 100.0% · sim of this run"));
}

#[test]
fn lab2_live_note_takes_the_explanations_row_at_80x24() {
    let mut app = lab2(80, 24, true);
    finished(
        &mut app,
        (1.0, 64.0, 0.0),
        Some("the policy applies on the next start (s)"),
    );
    let text = render(&app);
    assert!(text.contains("the policy applies on the next start (s)"), "{text}");
    assert!(text.contains("sim of this run 64.00, 0.0%"), "{text}");
}

#[test]
fn lab2_slider_labels_read_whole_at_80_columns() {
    let mut app = lab2(80, 24, false);
    for focus in 0..4 {
        let text = render(&app);
        for label in ["Failure probability", "Browser code", "Front end", "Back end"] {
            assert!(text.contains(label), "focus {focus}: {label}: {text}");
        }
        assert!(!text.contains('…'), "focus {focus}: {text}");
        app.update(Msg::NextSlider);
    }
    // The widest value, 10 attempts, still leaves the label whole.
    let mut app = lab2(80, 24, false);
    app.update(Msg::NextSlider);
    app.update(Msg::SliderMax);
    let text = render(&app);
    let row = text
        .lines()
        .find(|row| row.contains("Browser code"))
        .expect("the slider's row");
    assert!(row.contains(" 10 attempts "), "{row}");
}

#[test]
fn lab2_chart_titles_read_whole() {
    // Fresh progress: step 6 asks for the ceiling, so the jitter panel waits whole, its name whole.
    let text = render(&lab2(80, 24, false));
    assert!(text.contains("┌ Full Jitter (s) ─"), "{text}");
    assert!(text.contains("┌ db/action, log ┐"), "{text}");
    for (width, height, legend) in [
        (100, 30, "┌ Jitter (s): • sleep ⠒ ceiling ─"),
        // Not "Jitter s:", which read as a word cut short, nor a `─` sample that read as
        // the border (issue 26, a new user's trial).
        (80, 24, "┌ Jitter (s) • sleep ⠒ cap ┐"),
    ] {
        // Step 6 revealed: the chart draws, its legend the longest that fits, never a cut word.
        let mut app = lab2(width, height, false);
        for _ in 0..5 {
            app.update(Msg::NextStep);
        }
        app.update(Msg::Reveal);
        let text = render(&app);
        assert!(text.contains(legend), "{text}");
    }
}
