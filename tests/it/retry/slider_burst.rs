//! A burst of slider steps costs one recompute, and Lab 2's p-curve is reused while only p
//! moves: what the screen shows is what a fresh computation at the final values gives.
//!
//! The page is the screen's: these read what it reports (its named numbers, whether it waits
//! for a recompute or the curve) and what it draws, beside a page of the test's making
//! computed afresh at the same sliders.

use ratatui::layout::Rect;
use resilience_lab::content::{Content, LabId};
use resilience_lab::learning::metrics::Metric;
use resilience_lab::tui::app::App;
use resilience_lab::tui::labs::retry::RetryLab;
use resilience_lab::tui::labs::sim_page::{LabSim, SimPage};
use resilience_lab::tui::msg::Msg;
use resilience_lab::tui::slider::value_of;
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

/// The named numbers of the run Lab 2's page shows.
fn shown(app: &App) -> Vec<Metric> {
    app.lab(LabId::Retry).shown_metrics()
}

/// Those of a run computed afresh at Lab 2's sliders as they stand.
fn fresh(app: &App) -> Vec<Metric> {
    let lab = app.content.lab(LabId::Retry);
    RetryLab::metrics(&RetryLab::compute(lab, app.lab(LabId::Retry).lab_sliders()))
}

/// The screen drawn with a page computed afresh at the sliders in place of the screen's own
/// (the run's charts show: `x`), which then goes back.
fn fresh_screen(app: &mut App) -> String {
    let lab = app.content.lab(LabId::Retry);
    let page = SimPage::<RetryLab>::new(lab, app.lab(LabId::Retry).lab_sliders());
    let own = std::mem::replace(&mut app.labs[1].page_states[0], Box::new(page));
    let screen = crate::common::render(app);
    app.labs[1].page_states[0] = own;
    screen
}

#[test]
fn ten_queued_steps_recompute_once_before_the_frame() {
    let mut app = lab2();
    app.update(Msg::Reveal);
    let before = (shown(&app), crate::common::render(&app));
    for _ in 0..10 {
        app.update_deferred(Msg::Step(-1));
    }
    let screen = app.lab(LabId::Retry);
    assert!(screen.settle_pending(), "the steps leave the recompute to the frame");
    assert_eq!(shown(&app), before.0, "nothing recomputed per step");
    app.settle();
    assert!(!app.lab(LabId::Retry).settle_pending());
    assert_eq!(shown(&app), fresh(&app), "one recompute at the final values");
    assert!(!app.slow_work_pending(), "only p moved: the curve is reused");
    let screen = crate::common::render(&app);
    assert_ne!(screen, before.1);
    assert_eq!(
        screen,
        fresh_screen(&mut app),
        "the rows and the curve of the final values"
    );
    let p = value_of(app.lab(LabId::Retry).lab_sliders(), "p").expect("a p slider");
    assert!((p - 0.5).abs() < 1e-9, "ten steps of 0.05 from 1.0");
}

#[test]
fn the_curve_is_recomputed_when_a_setting_other_than_p_moves() {
    let mut app = lab2();
    app.update(Msg::Reveal);
    // The second slider: the browser's attempts.
    app.update(Msg::NextSlider);
    let before = crate::common::render(&app);
    app.update(Msg::Step(-1));
    let screen = crate::common::render(&app);
    assert_ne!(screen, before, "fewer browser attempts change the screen");
    assert_eq!(shown(&app), fresh(&app));
    assert!(!app.slow_work_pending());
    assert_eq!(
        screen,
        fresh_screen(&mut app),
        "the rows and the curve of the new values"
    );
}

#[test]
fn a_prediction_right_after_queued_steps_reads_the_new_values() {
    let mut app = lab2();
    app.update_deferred(Msg::Step(-1));
    // Opening a prompt settles first, so a verdict never reads results of older sliders.
    app.update_deferred(Msg::Predict);
    assert!(!app.lab(LabId::Retry).settle_pending());
}

#[test]
fn a_burst_of_attempts_steps_shows_its_rows_first_and_the_curve_a_frame_later() {
    let mut app = lab2();
    // The charts show (the first step's check would hide them until a prediction).
    app.update(Msg::Reveal);
    // The second slider, the browser's attempts: the curve's settings move with it.
    app.update(Msg::NextSlider);
    for _ in 0..10 {
        app.update_deferred(Msg::Step(-1));
    }
    app.settle_for_frame();
    assert_eq!(shown(&app), fresh(&app), "the rows are those of the final values");
    assert!(app.slow_work_pending(), "the curve waits for the next frame");
    let screen = crate::common::render(&app);
    assert!(screen.contains("updating the curve"), "{screen}");
    assert_ne!(screen, fresh_screen(&mut app), "the curve on screen is the old values'");
    assert!(app.finish_slow_work());
    let screen = crate::common::render(&app);
    assert_eq!(screen, fresh_screen(&mut app), "then the curve of the final values");
    assert!(!app.slow_work_pending());
    assert!(!screen.contains("updating the curve"));
}
