//! Lab 4 live in the app, after a finished run, as whole-screen snapshots at 100x30 and
//! 80x24. The run is a recorded one (`tests/fixtures/overload_live_fifo_4s.json`, measured
//! on 127.0.0.1 at the screen's default live settings), handed to the live part through
//! the events a run sends (`OverloadLive::replay`), so the snapshot is deterministic.

use crate::common::render;
use resilience_lab::content::LabId;
use resilience_lab::engine::overload::{OverloadRun, Second, Totals};
use resilience_lab::tui::app::App;
use resilience_lab::tui::labs::overload::OverloadLab;
use resilience_lab::tui::labs::overload::live::{LiveRecord, OverloadLive, live_scaled};
use resilience_lab::tui::msg::Msg;
use serde_json::Value;

const RECORDED: &str = include_str!("../../fixtures/overload_live_fifo_4s.json");

fn recorded_seconds() -> Vec<Second> {
    let fixture: Value = serde_json::from_str(RECORDED).expect("the fixture is JSON");
    let count = |s: &Value, key: &str| s[key].as_u64().unwrap_or_else(|| panic!("{key} is a count"));
    fixture["seconds"]
        .as_array()
        .expect("seconds")
        .iter()
        .map(|s| Second {
            t_s: s["t_s"].as_f64().expect("t_s"),
            offered: count(s, "offered"),
            goodput: count(s, "goodput"),
            wasted: count(s, "wasted"),
            refused: count(s, "refused"),
            timed_out: count(s, "timed_out"),
            throttled: count(s, "throttled"),
            queue_len: count(s, "queue_len"),
            queue_wait_s: s["queue_wait_s"].as_f64().expect("queue_wait_s"),
            oldest_wait_s: 0.0,
            busy: count(s, "busy") as u32,
            x_busy: 0,
        })
        .collect()
}

/// Lab 4 in live mode at its defaults, after the recorded run ended.
fn lab4_live_finished(width: u16, height: u16) -> App {
    let (mut app, finished) = live_app_and_recorded_run(width, height);
    crate::common::show_live::<OverloadLab>(&mut app, 3, |live| live.replay(finished));
    app
}

/// Lab 4 in live mode at its defaults, and the recorded run at its live settings.
fn live_app_and_recorded_run(width: u16, height: u16) -> (App, LiveRecord) {
    // Not the first visit: the lesson would cover the run.
    let mut app = crate::common::visited_app(width, height);
    for msg in [Msg::Down, Msg::Down, Msg::Down, Msg::Open, Msg::ToggleMode] {
        app.update(msg);
    }
    let screen = app.lab_mut(LabId::Overload);
    assert!(screen.live_showing());
    let lesson = resilience_lab::content::params::overload_params(
        app.content.lab(LabId::Overload),
        app.lab(LabId::Overload).lab_sliders(),
    );
    let (live, scale) = live_scaled(&lesson);
    let fixture: Value = serde_json::from_str(RECORDED).expect("the fixture is JSON");
    assert_eq!(
        (
            live.workers,
            live.offered_per_s,
            live.client_timeout_ms,
            live.duration_s
        ),
        (
            fixture["params"]["workers"].as_u64().expect("workers") as u32,
            fixture["params"]["offered_per_s"].as_f64().expect("offered"),
            fixture["params"]["client_timeout_ms"].as_f64().expect("timeout"),
            fixture["params"]["duration_s"].as_f64().expect("duration"),
        ),
        "the recording is at the screen's live settings"
    );
    let seconds = recorded_seconds();
    let record = LiveRecord::new(live, scale);
    let goodput: u64 = seconds.iter().map(|s| s.goodput).sum();
    let measured = OverloadRun {
        totals: Totals {
            goodput,
            goodput_per_s: goodput as f64 / seconds.len() as f64,
            max_queue_len: seconds.iter().map(|s| s.queue_len).max().unwrap_or(0),
            ..Totals::default()
        },
        seconds: seconds.clone(),
        ..record.sim.clone()
    };
    let finished = LiveRecord {
        seconds,
        measured: Some(measured),
        ..record
    };
    (app, finished)
}

#[test]
fn lab4_live_finished_100x30() {
    insta::assert_snapshot!(render(&lab4_live_finished(100, 30)));
}

#[test]
fn lab4_live_finished_80x24() {
    insta::assert_snapshot!(render(&lab4_live_finished(80, 24)));
}

/// The finished run leaves its point on the curve at the lesson's scale: 500/s live is
/// 2,500/s, and 760 answered in time over 4 s is 190/s live, 950/s read back.
#[test]
fn the_finished_run_is_a_point_of_the_curve_at_the_lessons_scale() {
    // The live part the screen's page is handed in `lab4_live_finished`.
    let (app, finished) = live_app_and_recorded_run(100, 30);
    let mut part = OverloadLive::default();
    part.replay(finished);
    let screen = app.lab(LabId::Overload);
    let lesson =
        resilience_lab::content::params::overload_params(app.content.lab(LabId::Overload), screen.lab_sliders());
    let points = part.points_at(&lesson);
    assert_eq!(points.len(), 1, "{points:?}");
    assert_eq!(points[0].offered_per_s, 2_500.0);
    assert_eq!(points[0].goodput_per_s, 950.0);
}
