//! The lab screen's frame, the same for every lab, and its layout (shared with mouse hit tests).
//!
//! ```text
//!  Lab 3 · A breaker during a brownout                          simulated clock
//! ┌ Results ─────────────────────────────────────────────────────────────────┐
//! │ timeout only  calls= 6000 to sick= 3000 degraded= 3000 p99 wait=200 ms ... │
//! │ with breaker  calls= 2911 to sick=   44 degraded= 3133 p99 wait= 40 ms ... │
//! │ t=10.29s closed -> open    t=15.29s open -> half_open    ... (log, PgUp/Dn)│
//! └──────────────────────────────────────────────────────────────────────────┘
//! ┌ Parameters ──────────────┐┌ Charts (or the Lesson, with L) ───────────────┐
//! │▸ Timeout          200 ms ││ timeout only          │ with breaker           │
//! │  ├━━━━━━●──────────────┤ ││ calls, to sick, deg.  │ calls, to sick, deg.   │
//! │  Healthy latency   40 ms ││ waiting (sparkline)   │ waiting (sparkline)    │
//! │  ...                     ││                       │ breaker state band     │
//! │ help of the focused one  ││                                                │
//! └──────────────────────────┘└────────────────────────────────────────────────┘
//!  footer keys
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use crate::tui::app::App;
use crate::tui::view::{
    breaker_live, charts, footer, health_live, is_too_small, lesson, params, predict, results, retry_live,
};

/// Where each region of a lab screen goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabLayout {
    pub title: Rect,
    pub results: Rect,
    pub params: Rect,
    /// Charts, or the lesson when it is shown.
    pub right: Rect,
    pub footer: Rect,
}

/// The layout of lab `lab_id` in `area`, or `None` when the terminal is too small.
pub fn layout(area: Rect, lab_id: &str, _show_lesson: bool) -> Option<LabLayout> {
    if is_too_small(area) {
        return None;
    }
    let results_height = match lab_id {
        // A, B and C, and the jitter line.
        "retry" => 6,
        // Two summary rows, then as much of the transition log as the height allows.
        "breaker" => 4 + area.height.saturating_sub(26).clamp(1, 4),
        _ => 5,
    };
    let [title, results, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(results_height),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let params_width = (area.width * 2 / 5).clamp(34, 46);
    let [params, right] = Layout::horizontal([Constraint::Length(params_width), Constraint::Fill(1)]).areas(body);
    Some(LabLayout {
        title,
        results,
        params,
        right,
        footer,
    })
}

/// What a click in the parameter panel hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SliderHit {
    /// A slider's row: focus it.
    Row(usize),
    /// The focused slider's bar, at this fraction from min (0) to max (1).
    Bar(f64),
}

/// Where column `x` falls on the focused slider's bar, 0 to 1, clamped: a drag that leaves
/// the bar keeps moving the knob to the nearest end.
pub fn bar_fraction(layout: &LabLayout, count: usize, focus: usize, x: u16) -> Option<f64> {
    let bar = params::rows(Block::bordered().inner(layout.params), count, focus).bar?;
    let span = bar.width.saturating_sub(1).max(1);
    let offset = x.clamp(bar.x, bar.right().saturating_sub(1).max(bar.x)) - bar.x;
    Some(f64::from(offset) / f64::from(span))
}

/// Hit test of the parameter panel.
pub fn slider_hit(layout: &LabLayout, count: usize, focus: usize, at: Position) -> Option<SliderHit> {
    let rows = params::rows(Block::bordered().inner(layout.params), count, focus);
    if let Some(bar) = rows.bar
        && at.y == bar.y
        && (bar.x.saturating_sub(1)..=bar.right()).contains(&at.x)
    {
        return bar_fraction(layout, count, focus, at.x).map(SliderHit::Bar);
    }
    rows.labels.iter().position(|row| row.contains(at)).map(SliderHit::Row)
}

pub fn render(app: &App, index: usize, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let lab = &app.content.labs[index];
    let state = &app.labs[index];
    let Some(layout) = layout(area, &lab.id, state.show_lesson) else {
        return;
    };
    if lab.id == "health" && app.health_live.shown {
        return health_live::render(app, index, &layout, buf);
    }
    let left = format!(" Lab {} · {}", index + 1, lab.title);
    let live = state.mode == crate::tui::app::Mode::Live && crate::tui::live::has_live_mode(&lab.id);
    let right = match (live, crate::tui::live::has_live_mode(&lab.id)) {
        (true, _) => "live · 127.0.0.1 · m sim ",
        (false, true) => "simulated clock · m live ",
        (false, false) => "simulated clock ",
    };
    let gap = (layout.title.width as usize).saturating_sub(left.chars().count() + right.len());
    Line::from(vec![
        Span::styled(left, theme.accent()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.dim()),
    ])
    .render(layout.title, buf);
    match (live, lab.id.as_str()) {
        (true, "breaker") => breaker_live::render_results(app, state, layout.results, buf),
        (true, _) => retry_live::render_results(app, state, layout.results, buf),
        _ => results::render(app, lab, state, layout.results, buf),
    }
    params::render(app, state, layout.params, buf);
    match (state.show_lesson, live, lab.id.as_str()) {
        (true, _, _) => lesson::render(app, lab, state, layout.right, buf),
        (false, true, "breaker") => breaker_live::render_charts(app, layout.right, buf),
        (false, true, _) => retry_live::render_charts(app, layout.right, buf),
        _ => charts::render(app, state, layout.right, buf),
    }
    predict::render(app, index, layout.right, buf);
    footer::render(app, layout.footer, buf);
}
