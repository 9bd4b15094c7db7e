//! Whole-screen snapshots of the terminal app (TestBackend + insta) at 100x30 and 80x24.
//!
//! Colour is off so that a snapshot is the text a learner reads; the theme's roles are
//! covered by the views using them.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use resilience_lab::cli::ThemeName;
use resilience_lab::content::Content;
use resilience_lab::tui::app::{App, Msg};
use resilience_lab::tui::theme::Theme;

fn app(width: u16, height: u16) -> App {
    let content = Content::load(None).expect("the built-in labs load");
    App::new(
        content,
        Theme::new(ThemeName::Dark, false),
        Rect::new(0, 0, width, height),
    )
}

fn render(app: &App) -> String {
    let area = app.area;
    let mut terminal = Terminal::new(TestBackend::new(area.width, area.height)).expect("test terminal");
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .expect("draw");
    terminal.backend().to_string()
}

/// The app at `width`x`height` after `msgs`.
fn screen(width: u16, height: u16, msgs: &[Msg]) -> String {
    let mut app = app(width, height);
    for msg in msgs {
        app.update(*msg);
    }
    render(&app)
}

const LAB2: &[Msg] = &[Msg::Down, Msg::Open];
const LAB3: &[Msg] = &[Msg::Down, Msg::Down, Msg::Open];

#[test]
fn home_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[]));
}

#[test]
fn home_80x24() {
    insta::assert_snapshot!(screen(80, 24, &[]));
}

#[test]
fn lab2_100x30() {
    insta::assert_snapshot!(screen(100, 30, LAB2));
}

#[test]
fn lab2_80x24() {
    insta::assert_snapshot!(screen(80, 24, LAB2));
}

#[test]
fn lab3_100x30() {
    insta::assert_snapshot!(screen(100, 30, LAB3));
}

#[test]
fn lab3_80x24() {
    insta::assert_snapshot!(screen(80, 24, LAB3));
}

#[test]
fn lab1_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[Msg::Open]));
}

#[test]
fn help_overlay_on_lab3_100x30() {
    let mut msgs = LAB3.to_vec();
    msgs.push(Msg::ToggleHelp);
    insta::assert_snapshot!(screen(100, 30, &msgs));
}

#[test]
fn too_small() {
    let text = screen(79, 24, LAB3);
    assert!(text.contains("terminal too small: needs 80x24, have 79x24"), "{text}");
    insta::assert_snapshot!(screen(60, 10, &[]));
}

#[test]
fn resizing_to_too_small_and_back_redraws_the_lab() {
    let mut app = app(100, 30);
    for msg in LAB3 {
        app.update(*msg);
    }
    app.update(Msg::Resize(50, 12));
    assert!(render(&app).contains("terminal too small: needs 80x24, have 50x12"));
    app.update(Msg::Resize(100, 30));
    assert!(render(&app).contains("with breaker  calls= 2911 to sick=   44"));
}

// ---- Live views, in states built by hand (no sockets) ----

use resilience_lab::engine::brownout::{self, BrownoutParams};
use resilience_lab::engine::fault::FaultKind;
use resilience_lab::live::brownout::{CallerSample, LiveSample};
use resilience_lab::live::retry_chain::ChainSnapshot;
use resilience_lab::tui::app::Mode;
use resilience_lab::tui::live_breaker::BreakerSeries;
use resilience_lab::tui::live_retry::{RetrySeries, RetryView, rate_point};

/// Lab 3 in live mode with the first `seconds` of the Atlas's run as if measured: the sim's
/// per-second numbers stand in for the samples, so the snapshot is deterministic.
fn lab3_live(width: u16, height: u16, seconds: usize, finished: bool) -> App {
    let mut app = app(width, height);
    for msg in LAB3 {
        app.update(*msg);
    }
    app.update(Msg::ToggleMode);
    let params = BrownoutParams::default();
    let sim = brownout::compare(&params);
    let mut series = BreakerSeries::new(params.clone(), FaultKind::Hang);
    for second in 0..seconds {
        let caller = |run: &brownout::CallerRun, breaker: bool| {
            let stats = run.per_second[second].clone();
            let waits_s = (0..stats.calls)
                .map(|i| {
                    if i < stats.degraded - stats.failed_fast {
                        0.2
                    } else {
                        0.04
                    }
                })
                .collect();
            CallerSample {
                in_flight: stats.waiting.round() as u64,
                breaker: breaker.then(|| brownout::state_at(&run.transitions, second as f64 + 1.0)),
                stats,
                waits_s,
            }
        };
        series.push(LiveSample {
            second,
            sick: params.is_sick(second as f64 + 0.5),
            timeout_only: caller(&sim.timeout_only, false),
            with_breaker: caller(&sim.with_breaker, true),
        });
    }
    if finished {
        series.measured = Some(sim);
        series.running = false;
    }
    app.live.breaker_series = Some(series);
    app
}

#[test]
fn lab3_live_running_100x30() {
    insta::assert_snapshot!(render(&lab3_live(100, 30, 25, false)));
}

#[test]
fn lab3_live_finished_80x24() {
    insta::assert_snapshot!(render(&lab3_live(80, 24, 60, true)));
}

fn counters(received: [u64; 3], started: u64, ok: u64) -> ChainSnapshot {
    ChainSnapshot {
        received: received.to_vec(),
        actions_started: started,
        actions_done: started,
        actions_ok: ok,
        db_failed: received[2] - ok,
        ..ChainSnapshot::default()
    }
}

/// Lab 2 in live mode: a counting run at p = 1, 4 x 4 x 4, 12 s in, 10 actions a second.
fn lab2_live_counting(width: u16, height: u16) -> App {
    let mut app = app(width, height);
    for msg in LAB2 {
        app.update(*msg);
    }
    app.update(Msg::ToggleMode);
    let mut series = RetrySeries {
        view: RetryView::Counting,
        policy_label: "A 4×4×4".into(),
        attempts: vec![4, 4, 4],
        p: 1.0,
        actions: 2_000,
        ..RetrySeries::default()
    };
    let mut before = counters([0, 0, 0], 0, 0);
    for second in 1..=12u64 {
        // 100 actions/s: wide enough rates to need the short labels at 80 columns.
        let now = counters([400 * second, 1_600 * second, 6_400 * second], 100 * second, 0);
        series.points.push(rate_point(&before, &now, second as f64, 1.0));
        before = now;
    }
    series.latest = before;
    series.latest_s = 12.0;
    app.live.retry_series = Some(series);
    app
}

#[test]
fn lab2_live_counting_100x30() {
    insta::assert_snapshot!(render(&lab2_live_counting(100, 30)));
}

#[test]
fn lab2_live_counting_80x24() {
    insta::assert_snapshot!(render(&lab2_live_counting(80, 24)));
}

/// The metastable view: healthy 240 actions/s, a trigger at 5 s, and goodput that stays down.
#[test]
fn lab2_live_metastable_100x30() {
    let mut app = app(100, 30);
    for msg in LAB2 {
        app.update(*msg);
    }
    app.update(Msg::ToggleMode);
    app.update(Msg::Live(resilience_lab::tui::live::LiveMsg::ToggleView));
    let mut series = RetrySeries {
        view: RetryView::Metastable,
        policy_label: "A".into(),
        attempts: vec![4, 4, 4],
        triggers: vec![(5.0, 15.0)],
        ..RetrySeries::default()
    };
    let mut before = counters([0, 0, 0], 0, 0);
    for second in 1..=25u64 {
        let (db, ok) = if second <= 5 { (240, 240) } else { (400, 3) };
        let now = ChainSnapshot {
            db_in_flight: if second <= 5 { 4 } else { 350 },
            ..counters(
                [
                    before.received[0] + 240,
                    before.received[1] + db / 2,
                    before.received[2] + db,
                ],
                before.actions_started + 240,
                before.actions_ok + ok,
            )
        };
        series.points.push(rate_point(&before, &now, second as f64, 1.0));
        before = now;
    }
    series.latest = before;
    series.latest_s = 25.0;
    app.live.retry_series = Some(series);
    assert_eq!(app.labs[1].mode, Mode::Live);
    insta::assert_snapshot!(render(&app));
}
