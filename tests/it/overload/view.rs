//! Lab 4's drawing functions, drawn directly into a buffer (not through the App).

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use resilience_lab::engine::overload::{self, CurvePoint, OverloadParams, OverloadScenario};
use resilience_lab::tui::labs::overload::charts::{
    Axes, CURRENT_GLYPH, bulkhead_view, glyph_plot, goodput_curves, nice_max, queue_over_time, queue_over_time_scaled,
    render_results, throttle_view,
};
use resilience_lab::tui::theme::Theme;
use resilience_lab::tui::theme::ThemeName;

fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut lines = Vec::new();
    for y in 0..area.height {
        let line: String = (0..area.width).map(|x| buffer[(x, y)].symbol().to_string()).collect();
        lines.push(line);
    }
    lines.join("\n")
}

fn draw(width: u16, height: u16, f: impl FnOnce(Rect, &mut Buffer)) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| {
            let area = frame.area();
            f(area, frame.buffer_mut());
        })
        .expect("draw");
    text(terminal.backend().buffer())
}

const NO_COLOUR: Theme = Theme {
    colour: false,
    name: ThemeName::Dark,
};

#[test]
fn the_whole_results_area_fits_80x24_with_every_legend() {
    let result = overload::recompute(&OverloadScenario::Fifo.params());
    let screen = draw(80, 24, |area, buf| render_results(&result, &[], NO_COLOUR, area, buf));
    // The legend may wrap between a glyph and its name at this width.
    for word in [
        "F fifo",
        "A age-cap",
        "L lifo",
        "M admit",
        "C crit",
        "throttle",
        "◆ now",
        "live",
    ] {
        assert!(screen.contains(word), "missing {word:?} in\n{screen}");
    }
    for word in [
        "q queued",
        "w wait s",
        "- timeout",
        "g goodput",
        "x wasted",
        "refused",
        "client-side throttle",
    ] {
        assert!(screen.contains(word), "missing {word:?} in\n{screen}");
    }
}

#[test]
fn the_current_point_sits_where_the_run_is() {
    // Offered 2,500/s with the age cap: goodput ~2,000/s. On a 21-column plot from 0 to
    // 5,000 (x) and 0 to 2,000 (y) the point is at half the width, on the top row.
    let result = overload::recompute(&OverloadScenario::AgeCap.params());
    let screen = draw(40, 16, |area, buf| goodput_curves(&result, &[], NO_COLOUR, area, buf));
    let top_row = screen.lines().nth(1).expect("a row under the border");
    assert!(top_row.contains(CURRENT_GLYPH), "{screen}");
    assert!(top_row.starts_with("│2000"), "{screen}");
}

#[test]
fn live_points_are_marked_apart_from_the_simulated_curve() {
    let result = overload::recompute(&OverloadScenario::AgeCap.params());
    let live = [CurvePoint {
        offered_per_s: 1_000.0,
        goodput_per_s: 1_000.0,
    }];
    let screen = draw(60, 16, |area, buf| goodput_curves(&result, &live, NO_COLOUR, area, buf));
    assert_eq!(
        screen.matches('●').count(),
        2,
        "the point and its legend entry: {screen}"
    );
    assert!(screen.contains("live"), "{screen}");
}

#[test]
fn glyph_plot_puts_each_point_in_its_cell_and_labels_the_axes() {
    let series = [resilience_lab::tui::labs::overload::charts::Series {
        name: "s",
        glyph: 'g',
        style: ratatui::style::Style::new(),
        points: vec![(0.0, 0.0), (10.0, 10.0)],
    }];
    let screen = draw(13, 4, |area, buf| {
        glyph_plot(
            &series,
            &[],
            Axes {
                x_max: 10.0,
                y_max: 10.0,
                x_unit: "s",
            },
            NO_COLOUR,
            area,
            buf,
        )
    });
    assert_eq!(
        screen, "10│         g\n  │          \n0 │g         \n  └──────10 s",
        "{screen}"
    );
}

#[test]
fn the_queue_and_its_wait_have_an_axis_each_and_the_wait_its_timeout_line() {
    let run = overload::run(&OverloadScenario::Fifo.params());
    let screen = draw(40, 12, |area, buf| queue_over_time(&run, NO_COLOUR, area, buf));
    assert!(screen.contains("---"), "{screen}");
    assert!(screen.contains("q queued requests"), "{screen}");
    assert!(screen.contains("w wait s"), "{screen}");
    // The queue of 5,000 on its own axis, the wait of 5 s on its own: not one on the other's.
    let top = screen.lines().nth(2).expect("the plots' top row");
    assert!(top.starts_with("│5000│"), "{screen}");
    assert!(top.contains("││5│"), "{screen}");
    assert!(!screen.contains("(top"), "{screen}");
}

#[test]
fn a_live_queue_keeps_the_axes_of_the_whole_simulated_run() {
    // Two seconds in, the queue has not grown to the whole run's 5,000: the axes do not
    // follow it second by second, they stay the simulation's.
    let sim = overload::run(&OverloadScenario::Fifo.params());
    let early = overload::OverloadRun {
        seconds: sim.seconds[..2].to_vec(),
        ..sim.clone()
    };
    let whole = draw(40, 12, |area, buf| queue_over_time(&sim, NO_COLOUR, area, buf));
    let scaled = draw(40, 12, |area, buf| {
        queue_over_time_scaled(&early, &sim, NO_COLOUR, area, buf)
    });
    let alone = draw(40, 12, |area, buf| queue_over_time(&early, NO_COLOUR, area, buf));
    let axes = |screen: &str| {
        screen.lines().nth(2).map(|l| {
            (
                l.chars().take(5).collect::<String>(),
                l.chars().skip(20).take(3).collect::<String>(),
            )
        })
    };
    assert_eq!(axes(&scaled), axes(&whole), "{scaled}\n{whole}");
    assert_ne!(axes(&alone), axes(&whole), "alone, its own axes: {alone}");
}

#[test]
fn the_curves_at_80x24_say_in_words_which_policies_coincide_and_tick_the_x_axis() {
    let result = overload::recompute(&OverloadScenario::Fifo.params());
    // The curve panel's size on Lab 4's screen at 80x24.
    let screen = draw(46, 10, |area, buf| goodput_curves(&result, &[], NO_COLOUR, area, buf));
    assert!(screen.contains("A, L, M: same as C"), "{screen}");
    assert!(!screen.contains("under C"), "{screen}");
    let axis = screen.lines().find(|l| l.contains('└')).expect("an x axis");
    assert!(
        axis.contains("─2k─") && axis.contains("─8k─"),
        "ticks between 0 and 10k: {screen}"
    );
}

/// The screen's curves (the sweep on its shrunk pool): the throttle's T, a little under
/// capacity, shares its row with C's at 80x24 and, drawn later, covers every C; the legend
/// says so. On a tall panel C has a row of its own and shows, and the legend says nothing.
#[test]
fn a_curve_every_glyph_of_which_another_covers_is_named_in_the_legend() {
    let result = overload::screen_recompute_after(None, &OverloadScenario::Fifo.params());
    // The curve panel's size on Lab 4's screen at 80x24.
    let small = draw(46, 9, |area, buf| goodput_curves(&result, &[], NO_COLOUR, area, buf));
    let plot = |screen: &str| -> String {
        screen
            .lines()
            .filter(|l| l.contains('│') && !l.contains("age-cap"))
            .map(|l| l.split('│').nth(2).unwrap_or("").to_string())
            .collect()
    };
    assert!(!plot(&small).contains('C'), "no C shows at this size: {small}");
    assert!(small.contains("A, L, M: same as C; C under T"), "{small}");
    let tall = draw(46, 40, |area, buf| goodput_curves(&result, &[], NO_COLOUR, area, buf));
    assert!(plot(&tall).contains('C'), "{tall}");
    assert!(!tall.contains("under"), "{tall}");
    assert!(tall.contains("A, L, M: same as C"), "{tall}");
}

#[test]
fn bulkhead_view_counts_the_160_slots_left_for_the_rest() {
    let run = overload::run(&OverloadScenario::Bulkhead.params());
    let screen = draw(80, 8, |area, buf| bulkhead_view(&run, NO_COLOUR, area, buf));
    assert!(screen.contains("X holds 40"), "{screen}");
    // One word for the check's count: "left for the rest", busy or idle, never "free" for
    // two numbers (issue 26, a new user's trial read "the rest 50, free 110" beside it).
    assert!(
        screen.contains("left for the rest: 160 (busy 50, idle 110)"),
        "{screen}"
    );
    assert!(!screen.contains("free"), "{screen}");
    let bar = screen.lines().nth(1).expect("the slot bar");
    // 40 of 200 slots on 78 cells is 15.6: the bar rounds its boundaries, to 16 cells.
    assert_eq!(bar.matches('X').count(), 16, "{screen}");
    assert_eq!(
        bar.matches('.').count(),
        78 - 35,
        "free from the rounded 90 busy: {screen}"
    );
}

#[test]
fn throttle_view_works_the_formula_with_the_runs_counts() {
    let run = overload::run(&OverloadScenario::Throttle.params());
    let screen = draw(80, 8, |area, buf| throttle_view(&run, None, NO_COLOUR, area, buf));
    assert!(
        screen.contains("p = max(0, (requests - K x accepts) / (requests + 1))"),
        "{screen}"
    );
    assert!(screen.contains("= 0.33"), "{screen}");
}

#[test]
fn tiny_areas_draw_nothing_broken() {
    let result = overload::recompute(&OverloadParams {
        duration_s: 2.0,
        ..OverloadScenario::Bulkhead.params()
    });
    for (w, h) in [(1, 1), (5, 3), (12, 5), (20, 6)] {
        let _ = draw(w, h, |area, buf| render_results(&result, &[], NO_COLOUR, area, buf));
    }
    assert_eq!(nice_max(1_990.0), 2_000.0);
    assert_eq!(nice_max(0.0), 1.0);
}
