//! Render and recompute costs of the terminal app.
//!
//! - rendering a lab screen at 200x60 into a TestBackend (target: p99 < 4 ms per frame);
//! - recomputing Lab 2 (A/B/C rows at 10,000 actions plus the 21-point p-curve) on a slider
//!   change (target: < 16 ms), the curve at CURVE_ACTIONS_MAX (5,000) actions per point as the app runs it
//!   (its points shared out over the cores);
//! - recomputing Lab 2 on a step of p, which reuses the p-curve (only the rows run);
//! - key to frame on Lab 2 at 100x30: one step and its frame, and ten queued steps and their
//!   one frame (one recompute before the frame, as the event loop does);
//! - key to frame on Lab 2 at 100x30 for the focus key (Tab), with the lesson panel closed
//!   and open (the open panel draws its book chapter);
//! - key to frame on Lab 2 at 100x30 for a burst of ten queued steps of the attempts slider
//!   (the p-curve must be recomputed), to the burst's last frame; and the same burst as the
//!   event loop plays it, the rows' frame first and the curve's frame once input is quiet;
//! - recomputing Lab 3 (both callers, 6,000 calls each).
//!
//! Before criterion's means, a percentile pass prints p50, p90 and p99 of single frames;
//! `cargo bench --bench render -- --percentiles` stops after it (for interleaved runs of two
//! builds side by side).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use resilience_lab::content::{Content, LabId};
use resilience_lab::tui::app::App;
use resilience_lab::tui::labs::retry::run::{self as runs, CURVE_ACTIONS_MAX};
use resilience_lab::tui::msg::Msg;
use resilience_lab::tui::slider::Slider;
use resilience_lab::tui::theme::Theme;
use resilience_lab::tui::theme::ThemeName;

const WIDTH: u16 = 200;
const HEIGHT: u16 = 60;

/// The app on Lab `lab` (1-based), at 200x60, in colour.
fn app_on_lab(lab: usize) -> App {
    app_on_lab_at(lab, WIDTH, HEIGHT)
}

/// The app on Lab `lab` (1-based), at `width`x`height`, in colour.
fn app_on_lab_at(lab: usize, width: u16, height: u16) -> App {
    let content = Content::load(None).expect("built-in labs");
    let mut app = App::new(
        content,
        Theme::new(ThemeName::Dark, true),
        Rect::new(0, 0, width, height),
    );
    app.mark_all_visited();
    for _ in 1..lab {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    app
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(WIDTH, HEIGHT)).expect("test terminal")
}

fn retry_sliders() -> Vec<Slider> {
    let content = Content::load(None).expect("built-in labs");
    content
        .lab(LabId::Retry)
        .parameters
        .iter()
        .cloned()
        .map(Slider::new)
        .collect()
}

/// Times `runs` calls of `f` one by one and prints p50, p90 and p99.
fn percentiles(name: &str, runs: usize, mut f: impl FnMut()) {
    let times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    print_percentiles(name, times);
}

/// Prints p50, p90 and p99 of `times`.
fn print_percentiles(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{name}: p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms ({} runs)",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        times.len()
    );
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn percentile_pass() {
    for lab in [2, 3] {
        let app = app_on_lab(lab);
        let mut terminal = terminal();
        percentiles(&format!("render lab {lab} at {WIDTH}x{HEIGHT}"), 500, || {
            // A full frame each time: clear, so the diff does not skip unchanged cells.
            terminal.clear().expect("clear");
            terminal
                .draw(|frame| frame.render_widget(&app, frame.area()))
                .expect("draw");
        });
    }
    let content = Content::load(None).expect("built-in labs");
    let lab = content.lab(LabId::Retry);
    let sliders = retry_sliders();
    percentiles("recompute lab 2 (rows + curve, 5,000 actions/point)", 50, || {
        black_box(runs::compute_retry(lab, &sliders, CURVE_ACTIONS_MAX));
    });
    let mut p_sliders = retry_sliders();
    let mut previous = runs::compute_retry(lab, &p_sliders, CURVE_ACTIONS_MAX);
    let mut down = true;
    percentiles("recompute lab 2 on a step of p (the curve reused)", 50, || {
        p_sliders[0].step_by(if down { -1 } else { 1 });
        down = !down;
        previous = runs::compute_retry_after(lab, &p_sliders, CURVE_ACTIONS_MAX, Some(&previous));
    });
    key_to_frame();
    burst_rows_then_curve();
}

/// Key to frame on Lab 2 at 100x30, as the event loop does it: a step of p (the focused
/// slider) and one frame; then a burst of ten queued steps (key repeat, a drag) and one frame.
fn key_to_frame() {
    let mut app = app_on_lab_at(2, 100, 30);
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
    let mut down = true;
    percentiles("key to frame: lab 2, one step of p, 100x30", 100, || {
        app.update_deferred(Msg::Step(if down { -1 } else { 1 }));
        down = !down;
        app.settle();
        terminal
            .draw(|frame| frame.render_widget(&app, frame.area()))
            .expect("draw");
    });
    percentiles("key to frame: lab 2, a burst of 10 steps of p, 100x30", 30, || {
        for _ in 0..10 {
            app.update_deferred(Msg::Step(if down { -1 } else { 1 }));
        }
        down = !down;
        app.settle();
        terminal
            .draw(|frame| frame.render_widget(&app, frame.area()))
            .expect("draw");
    });
    for lesson in ["closed", "open"] {
        let mut app = app_on_lab_at(2, 100, 30);
        if lesson == "open" {
            app.update(Msg::ToggleLesson);
            // Every check seen, so the chapter is in the panel, as the figures before its
            // fold measured (a check waiting folds it to a note, which costs less).
            for step in 0..app.content.labs[1].steps.len() {
                app.labs[1].revealed.insert(step);
            }
        }
        percentiles(
            &format!("key to frame: lab 2, focus key, lesson {lesson}, 100x30"),
            300,
            || {
                app.update_deferred(Msg::NextSlider);
                app.settle();
                terminal
                    .draw(|frame| frame.render_widget(&app, frame.area()))
                    .expect("draw");
            },
        );
    }
    // Focus on the first attempts slider: each burst moves it (4 -> 10 -> 1 -> 10 ...), so the
    // p-curve must be computed again.
    let mut app = app_on_lab_at(2, 100, 30);
    app.update(Msg::NextSlider);
    let mut up = true;
    percentiles(
        "key to last frame: lab 2, a burst of 10 attempts steps, 100x30",
        60,
        || {
            for _ in 0..10 {
                app.update_deferred(Msg::Step(if up { 1 } else { -1 }));
            }
            up = !up;
            app.settle();
            terminal
                .draw(|frame| frame.render_widget(&app, frame.area()))
                .expect("draw");
        },
    );
}

/// A burst of ten attempts steps as the event loop plays it since the curve waits for quiet
/// input: the frame with the rows (the p-curve left for later), then the curve's own frame.
fn burst_rows_then_curve() {
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
    let mut app = app_on_lab_at(2, 100, 30);
    app.update(Msg::NextSlider);
    let mut up = true;
    let (mut rows_frame, mut curve_frame) = (Vec::new(), Vec::new());
    for _ in 0..60 {
        let start = Instant::now();
        for _ in 0..10 {
            app.update_deferred(Msg::Step(if up { 1 } else { -1 }));
        }
        up = !up;
        app.settle_for_frame();
        terminal
            .draw(|frame| frame.render_widget(&app, frame.area()))
            .expect("draw");
        rows_frame.push(start.elapsed());
        let start = Instant::now();
        app.finish_slow_work();
        terminal
            .draw(|frame| frame.render_widget(&app, frame.area()))
            .expect("draw");
        curve_frame.push(start.elapsed());
    }
    print_percentiles("burst of 10 attempts steps, the rows' frame, 100x30", rows_frame);
    print_percentiles(
        "burst of 10 attempts steps, the curve's later frame, 100x30",
        curve_frame,
    );
}

fn render(c: &mut Criterion) {
    for lab in [2, 3] {
        let app = app_on_lab(lab);
        let mut terminal = terminal();
        c.bench_function(&format!("render lab {lab} {WIDTH}x{HEIGHT}"), |b| {
            b.iter(|| {
                terminal.clear().expect("clear");
                terminal
                    .draw(|frame| frame.render_widget(&app, frame.area()))
                    .expect("draw");
            })
        });
    }
}

fn recompute(c: &mut Criterion) {
    let content = Content::load(None).expect("built-in labs");
    let lab = content.lab(LabId::Retry);
    let sliders = retry_sliders();
    c.bench_function("recompute lab 2 rows + curve (5,000/point)", |b| {
        b.iter(|| black_box(runs::compute_retry(lab, &sliders, CURVE_ACTIONS_MAX)))
    });
    let mut app = app_on_lab(3);
    c.bench_function("recompute lab 3 on a slider step", |b| {
        b.iter(|| {
            app.update(Msg::Step(1));
            app.update(Msg::Step(-1));
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = render, recompute
}

fn main() {
    percentile_pass();
    if std::env::args().any(|arg| arg == "--percentiles") {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
