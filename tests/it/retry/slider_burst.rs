//! A burst of slider steps costs one recompute, and Lab 2's p-curve is reused while only p
//! moves: what the screen shows is what a fresh computation at the final values gives.

use ratatui::layout::Rect;
use resilience_lab::content::{Content, LabId};
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::Msg;
use resilience_lab::tui::screens::lab::sim::{self, CURVE_ACTIONS_MAX, LabResults};
use resilience_lab::tui::theme::Theme;
use resilience_lab::tui::theme::ThemeName;

fn lab2() -> App {
    let content = Content::load(None).expect("the built-in labs load");
    let mut app = App::new(content, Theme::new(ThemeName::Dark, false), Rect::new(0, 0, 100, 30));
    app.mark_all_visited();
    app.update(Msg::Down);
    app.update(Msg::Open);
    app
}

fn retry(app: &App) -> &sim::RetryResults {
    match &app.lab(LabId::Retry).results {
        Some(LabResults::Retry(retry)) => retry,
        other => panic!("Lab 2 shows retry results, not {other:?}"),
    }
}

#[test]
fn ten_queued_steps_recompute_once_before_the_frame() {
    let mut app = lab2();
    let before = retry(&app).clone();
    for _ in 0..10 {
        app.update_deferred(Msg::Step(-1));
    }
    let screen = app.lab(LabId::Retry);
    assert!(screen.results_stale, "the steps leave the recompute to the frame");
    assert_eq!(retry(&app), &before, "nothing recomputed per step");
    app.settle();
    assert!(!app.lab(LabId::Retry).results_stale);
    let lab = app.content.lab(LabId::Retry);
    let fresh = sim::compute_retry(lab, app.lab(LabId::Retry).lab_sliders(), CURVE_ACTIONS_MAX);
    assert_eq!(retry(&app), &fresh, "one recompute at the final values, curve reused");
    assert!(
        (retry(&app).rows[0].1.params.p - 0.5).abs() < 1e-9,
        "ten steps of 0.05 from 1.0"
    );
}

#[test]
fn the_curve_is_recomputed_when_a_setting_other_than_p_moves() {
    let mut app = lab2();
    let before = retry(&app).curve.clone();
    // The second slider: the browser's attempts.
    app.update(Msg::NextSlider);
    app.update(Msg::Step(-1));
    let lab = app.content.lab(LabId::Retry);
    let fresh = sim::compute_retry(lab, app.lab(LabId::Retry).lab_sliders(), CURVE_ACTIONS_MAX);
    assert_ne!(retry(&app).curve, before, "fewer browser attempts change the curve");
    assert_eq!(retry(&app), &fresh);
}

#[test]
fn a_prediction_right_after_queued_steps_reads_the_new_values() {
    let mut app = lab2();
    app.update_deferred(Msg::Step(-1));
    // Opening a prompt settles first, so a verdict never reads results of older sliders.
    app.update_deferred(Msg::Predict);
    assert!(!app.lab(LabId::Retry).results_stale);
}

#[test]
fn a_burst_of_attempts_steps_shows_its_rows_first_and_the_curve_a_frame_later() {
    let mut app = lab2();
    // The charts show (the first step's check would hide them until a prediction).
    app.update(Msg::Reveal);
    let before = retry(&app).clone();
    // The second slider, the browser's attempts: the curve's settings move with it.
    app.update(Msg::NextSlider);
    for _ in 0..10 {
        app.update_deferred(Msg::Step(-1));
    }
    app.settle_for_frame();
    let lab = app.content.lab(LabId::Retry);
    let fresh = sim::compute_retry(lab, app.lab(LabId::Retry).lab_sliders(), CURVE_ACTIONS_MAX);
    assert_eq!(retry(&app).rows, fresh.rows, "the rows are those of the final values");
    assert_eq!(retry(&app).curve, before.curve, "the curve waits for the next frame");
    assert!(app.slow_work_pending());
    let screen = crate::common::render(&app);
    assert!(screen.contains("updating the curve"), "{screen}");
    assert!(app.finish_slow_work());
    assert_eq!(retry(&app), &fresh, "then the curve of the final values");
    assert!(!app.slow_work_pending());
    assert!(!crate::common::render(&app).contains("updating the curve"));
}
