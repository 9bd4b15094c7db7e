//! Lab 3 live: the results panel (status, measured and simulated Atlas rows) and the two
//! caller columns that fill in second by second.
//!
//! ```text
//! ┌ Live ───────────────────────────────────────────────────────────────────────┐
//! │ running 12/60 s · fault hang, scheduled 10–40 s · b brown out/heal · f fault   │
//! │ live  timeout only  sent= ... (when the run has ended)                         │
//! │ sim   timeout only  sent= ...                                                   │
//! └─────────────────────────────────────────────────────────────────────────────┘
//! ┌ timeout only ───────────────┐┌ with breaker ────────────────┐
//! │ closed err 0% 100/s p99 40ms ││ open err 50% 12/s p99 200ms  │   Hystrix-style, last 10 s
//! │ calls sick degraded          ││ ...                          │
//! │ chart, brownout shaded       ││                              │
//! │ in flight (sparkline)        ││                              │
//! │ sick band ░ scheduled █ seen ││                              │
//! │ (no breaker)                 ││ breaker state band           │
//! └──────────────────────────────┘└──────────────────────────────┘
//!  axis ═ brownout · sick ░ scheduled █ measured · brk ▁ closed ▄ half-open █ open
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline, Widget, Wrap};

use crate::engine::breaker::BreakerState;
use crate::engine::brownout::BrownoutComparison;
use crate::engine::fault::{FaultKind, ManualOverride};
use crate::learning::metrics::BREAKER_CALLERS;
use crate::report::caller_row_as;
use crate::report::cells::fit_width;
use crate::tui::labs::breaker::charts::{calls_chart, resample};
use crate::tui::labs::breaker::live::{BreakerLive, BreakerSeries, ROLLING_WINDOW_S, Side};
use crate::tui::labs::breaker::results::SENT;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::theme::Theme;
use crate::tui::view::footer::choice_hint;
use crate::tui::widgets::panel::panel;
use crate::tui::widgets::state_band::StateBand;

/// The status line: what runs, what the dependency does, and the keys that act now.
fn status_line(live: &BreakerLive) -> String {
    let fault = live.fault;
    let Some(series) = &live.series else {
        // The fault is a choice `f` moves through: its value in brackets, apart from the
        // key's name (`f fault: hang` read as "f makes it hang").
        return format!(
            "s start a live run · {} · breaker sliders apply at once",
            choice_hint("f", "fault", &fault.to_string())
        );
    };
    let params = &series.params;
    let scheduled = format!("{fault} {:.0}–{:.0} s", params.brownout_start_s, params.brownout_end_s);
    let sick_now = series.samples.last().is_some_and(|s| s.sick);
    // A hand override replaces the schedule (engine::fault): say so, not the window.
    let (window, b_does) = match live.manual {
        Some(ManualOverride::Sick) => (format!("{fault} by hand"), "b heal"),
        Some(ManualOverride::Healthy) => ("healed by hand".to_string(), "b brown out"),
        None if sick_now => (scheduled.clone(), "b heal"),
        None => (scheduled.clone(), "b brown out"),
    };
    if series.running {
        format!(
            "running {}/{:.0} s · {window} · {b_does} · f fault · s stop",
            series.elapsed_s(),
            params.duration_s
        )
    } else if series.measured.is_some() && live.manual.is_some() {
        // `b` replaced the schedule for the rest of the run: the live rows followed the hand,
        // not the window the sim rows played (a trial read "hang 10–40 s" after one `b` at
        // 5 s, and 5,500 calls to sick live against the sim's 3,000).
        format!("finished · b overrode {scheduled}: live rows differ from sim · s again")
    } else if series.measured.is_some() {
        format!("finished · live rows measured, sim rows below · {scheduled} · s again")
    } else {
        format!(
            "stopped at {}/{:.0} s · {scheduled} · s again",
            series.elapsed_s(),
            params.duration_s
        )
    }
}

pub fn render_results<S: LabSim<Results = BrownoutComparison, Live = BreakerLive>>(
    page: &SimPage<S>,
    frame: &dyn PageFrame,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = frame.theme();
    let live = &page.live;
    let block = panel(" Live: both callers against one dependency on 127.0.0.1 ", theme);
    let width = usize::from(block.inner(area).width);
    let mut lines = vec![Line::from(Span::styled(
        fit_width(status_line(live), width),
        theme.accent(),
    ))];
    if let Some(note) = &live.status {
        lines.push(Line::from(Span::styled(note.clone(), theme.dim())));
    }
    // The rows' numbers are named (`breaker.with_breaker.sick_calls`, live and sim alike): a
    // check that asks for one, unanswered, gets its placeholder.
    let masked = frame.masked();
    if let Some(measured) = live.series.as_ref().and_then(|s| s.measured.as_ref()) {
        lines.push(Line::from(fit_width(
            format!(
                "live {}",
                caller_row_as(&measured.timeout_only.summary, BREAKER_CALLERS[0], SENT).join(&masked)
            ),
            width,
        )));
        lines.push(Line::from(fit_width(
            format!(
                "live {}",
                caller_row_as(&measured.with_breaker.summary, BREAKER_CALLERS[1], SENT).join(&masked)
            ),
            width,
        )));
    }
    let measured = live.series.as_ref().is_some_and(|s| s.measured.is_some());
    if live.fault != FaultKind::Hang {
        // The simulation models a hang only: its rows would describe another fault.
        lines.push(Line::from(Span::styled(
            fit_width(
                format!(
                    "sim rows model a hang; live is {} (f): compare live with live",
                    live.fault
                ),
                width,
            ),
            theme.dim(),
        )));
    } else {
        let sim = page.shown_results(frame.verdict());
        lines.push(Line::from(Span::styled(
            fit_width(
                format!(
                    "sim  {}",
                    caller_row_as(&sim.timeout_only.summary, BREAKER_CALLERS[0], SENT).join(&masked)
                ),
                width,
            ),
            theme.dim(),
        )));
        lines.push(Line::from(Span::styled(
            fit_width(
                format!(
                    "sim  {}",
                    caller_row_as(&sim.with_breaker.summary, BREAKER_CALLERS[1], SENT).join(&masked)
                ),
                width,
            ),
            theme.dim(),
        )));
    }
    if !measured {
        // Prose, so not through fit_width (which squeezes `= `): short enough for 80 columns.
        for note in [
            "per caller, last 10 s: calls/s · short = refused at once by the open breaker",
            "err = failed/made · p99 = wait · breaker sliders retune the live breaker now",
        ] {
            lines.push(Line::from(Span::styled(note, theme.dim())));
        }
    }
    Paragraph::new(lines).block(block).render(area, buf);
}

pub fn render_charts(live: &BreakerLive, theme: Theme, area: Rect, buf: &mut Buffer) {
    let Some(series) = live.series.as_ref() else {
        // Wrapped at the panel's width: broken by hand at 68 columns, it was cut at 100x30 and 80x24.
        let text = vec![
            Line::from("Press s to start both callers against one dependency on 127.0.0.1."),
            Line::from(""),
            Line::from(
                "The charts fill in second by second, like the simulation's; the breaker sliders \
                 retune the running breaker at once; b browns the dependency out now (or heals it); \
                 f picks how it fails.",
            ),
        ];
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(panel(" Live charts ", theme))
            .render(area, buf);
        return;
    };
    let [columns, legend] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let [left, right] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(columns);
    column(series, Side::TimeoutOnly, theme, left, buf);
    column(series, Side::WithBreaker, theme, right, buf);
    Span::styled(glyph_legend(legend.width), theme.dim()).render(legend, buf);
}

/// What the columns' glyphs mean, in one line of `width` cells: the time axis's brownout,
/// the sick band's and the breaker band's cells (a trial met `═════`, `sick ████░░░░` and
/// `brk ▁▁▁███` with nothing to say what they are).
fn glyph_legend(width: u16) -> &'static str {
    const LEGENDS: [&str; 3] = [
        "axis ═ brownout · sick ░ scheduled █ measured · brk ▁ closed ▄ half-open █ open",
        "═ brownout · sick ░ due █ seen · brk ▁ closed ▄ half-open █ open",
        "═brownout ░due █sick · brk ▁closed ▄half █open",
    ];
    LEGENDS
        .into_iter()
        .find(|legend| legend.chars().count() <= usize::from(width))
        .unwrap_or(LEGENDS[2])
}

/// The Hystrix-style line: state, rolling error %, calls/s and p99 of the last 10 s.
fn hystrix_lines(series: &BreakerSeries, caller: Side, theme: Theme, width: u16) -> [Line<'static>; 2] {
    let rolling = series.rolling(caller);
    let state = match rolling.state {
        Some(state) => {
            let style = match state {
                BreakerState::Closed => theme.closed(),
                BreakerState::Open => theme.open(),
                BreakerState::HalfOpen => theme.half_open(),
            };
            let name = if state == BreakerState::HalfOpen {
                "half"
            } else {
                state.name()
            };
            Span::styled(format!("{name:<6} "), style)
        }
        None => Span::styled("—      ", theme.dim()),
    };
    // A half-width column at 80x24 has 21 cells: the compact form keeps the short count.
    let first = if width >= 26 {
        vec![
            state,
            Span::raw(format!("{:.0} calls/s ", rolling.calls_per_s)),
            Span::styled(format!("short {:.0}/s", rolling.short_circuited_per_s), theme.dim()),
        ]
    } else {
        let state = Span::styled(state.content.trim_end().to_string() + " ", state.style);
        vec![
            state,
            Span::raw(format!("{:.0}/s, ", rolling.calls_per_s)),
            Span::styled(format!("{:.0} short", rolling.short_circuited_per_s), theme.dim()),
        ]
    };
    [
        Line::from(first),
        Line::from(format!("err {:.0}% p99 {:.0} ms", rolling.error_pct, rolling.p99_ms)),
    ]
}

/// Marks columns `window` of the time axis in row `axis_y` as the brownout's: its `─` become
/// `═`, the plot above left as drawn.
fn mark_axis(buf: &mut Buffer, window: std::ops::Range<u16>, axis_y: u16) {
    for x in window {
        let cell = &mut buf[(x, axis_y)];
        if cell.symbol() == "─" {
            cell.set_symbol("═");
        }
    }
}

fn column(series: &BreakerSeries, caller: Side, theme: Theme, area: Rect, buf: &mut Buffer) {
    let name = match caller {
        Side::TimeoutOnly => " timeout only ",
        Side::WithBreaker => " with breaker ",
    };
    // Hystrix's dashboard rolls over 10 s; say so where there is room.
    let title = if area.width >= 34 {
        format!("{name}· last {ROLLING_WINDOW_S} s ")
    } else {
        name.to_string()
    };
    let block = panel(title, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let [
        summary_area,
        legend_area,
        chart_area,
        waiting_label,
        waiting_area,
        sick_area,
        band_area,
    ] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let [first, second] = hystrix_lines(series, caller, theme, inner.width);
    first.render(
        Rect {
            height: 1,
            ..summary_area
        },
        buf,
    );
    if summary_area.height > 1 {
        second.render(
            Rect::new(summary_area.x, summary_area.y + 1, summary_area.width, 1),
            buf,
        );
    }

    let params = &series.params;
    let duration_s = params.duration_s.max(1.0);
    let top_rate = f64::from(params.rate).max(1.0);
    let calls = series.points(caller, |s| s.stats.calls as f64);
    let sick = series.points(caller, |s| s.stats.sick_calls as f64);
    let degraded = series.points(caller, |s| s.stats.degraded as f64);
    calls_chart(
        theme,
        [&calls, &sick, &degraded],
        duration_s,
        top_rate,
        chart_area,
        legend_area,
        buf,
    );

    // Rows under the chart start where its plot does, so one column is one second in all.
    let indent = (format!("{top_rate:.0}").len() as u16 + 1).min(inner.width);
    let under_plot = |rect: Rect| Rect::new(rect.x + indent, rect.y, rect.width - indent, rect.height);
    let plot = under_plot(Rect::new(
        chart_area.x,
        chart_area.y,
        chart_area.width,
        chart_area.height.saturating_sub(2),
    ));
    let column_of = |t_s: f64| plot.x + ((t_s / duration_s).clamp(0.0, 1.0) * f64::from(plot.width)) as u16;
    // The scheduled brownout: shaded behind the plot in colour; without colour, marked on the
    // time axis (`═` for its seconds), since dots in the plot's empty cells buried the calls/s
    // and to-sick lines among them.
    let window = column_of(params.brownout_start_s)..column_of(params.brownout_end_s).min(plot.right());
    if theme.colour {
        for x in window {
            for y in plot.top()..plot.bottom() {
                buf[(x, y)].set_bg(theme.brownout_bg());
            }
        }
    } else if chart_area.height >= 2 {
        mark_axis(buf, window, plot.bottom());
    }

    // Calls in flight (measured average per second), in tenths so that 0.3 still shows.
    let in_flight: Vec<u64> = series
        .points(caller, |s| s.stats.waiting)
        .iter()
        .map(|(_, waiting)| (waiting * 10.0).round() as u64)
        .collect();
    let peak = in_flight.iter().copied().max().unwrap_or(0) as f64 / 10.0;
    Line::from(vec![
        Span::raw("in flight, "),
        Span::styled(format!("peak {peak:.1}"), theme.dim()),
    ])
    .render(waiting_label, buf);
    let waiting_area = under_plot(waiting_area);
    // One value per second of the whole run (zeros ahead), so the sparkline's time axis is the chart's.
    let mut per_second = vec![0u64; duration_s.ceil() as usize];
    for (sample, value) in series.samples.iter().zip(&in_flight) {
        if let Some(slot) = per_second.get_mut(sample.second) {
            *slot = *value;
        }
    }
    let top = series
        .samples
        .iter()
        .map(|s| (s.timeout_only.stats.waiting.max(s.with_breaker.stats.waiting) * 10.0).round() as u64)
        .max()
        .unwrap_or(1)
        .max(1);
    Sparkline::default()
        .data(resample(&per_second, usize::from(waiting_area.width)))
        .max(top)
        .style(theme.series(3))
        .render(waiting_area, buf);

    // The dependency: ░ the scheduled window, █ seconds it was measured sick.
    Span::styled("sick", theme.dim()).render(sick_area, buf);
    let sick_band = under_plot(sick_area);
    let sick_seconds = series.sick_seconds();
    for offset in 0..sick_band.width {
        let start_s = f64::from(offset) * duration_s / f64::from(sick_band.width.max(1));
        let end_s = start_s + duration_s / f64::from(sick_band.width.max(1));
        let seen = sick_seconds
            .iter()
            .any(|second| (*second as f64) < end_s && (*second + 1) as f64 > start_s);
        let scheduled = params.brownout_start_s < end_s && params.brownout_end_s > start_s;
        let (symbol, style) = match (seen, scheduled) {
            (true, _) => ("█", theme.open()),
            (false, true) => ("░", theme.dim()),
            (false, false) => (" ", Style::new()),
        };
        buf[(sick_band.x + offset, sick_band.y)]
            .set_symbol(symbol)
            .set_style(style);
    }

    match caller {
        Side::WithBreaker => {
            Span::styled("brk", theme.dim()).render(band_area, buf);
            // Only the measured seconds: the band must not claim a state for the future.
            let transitions = series.transitions();
            let band = under_plot(band_area);
            let seen_s = if series.measured.is_some() {
                duration_s
            } else {
                series.elapsed_s() as f64
            };
            let seen_width = ((seen_s / duration_s).clamp(0.0, 1.0) * f64::from(band.width)).round() as u16;
            StateBand::new(&transitions, seen_s.max(1e-3), theme)
                .render(Rect::new(band.x, band.y, seen_width, band.height), buf);
        }
        Side::TimeoutOnly => {
            Span::styled("no breaker", theme.dim()).render(band_area, buf);
        }
    }
}

#[cfg(test)]
mod hint_tests {
    use super::*;

    #[test]
    fn the_glyph_legend_fits_the_charts_at_80_columns_and_names_every_glyph() {
        // Lab 3's live charts are 46 cells wide at 80x24.
        let legend = glyph_legend(46);
        assert!(legend.chars().count() <= 46, "{legend}");
        for glyph in ["═", "░", "█", "▁", "▄"] {
            assert!(legend.contains(glyph), "{legend}");
        }
        assert!(glyph_legend(100).contains("half-open"));
    }

    #[test]
    fn the_fault_key_reads_as_a_choice_with_its_value_apart() {
        let line = status_line(&BreakerLive::default());
        assert!(line.contains("f: fault (hang)"), "{line}");
        assert!(!line.contains("f fault: "), "{line}");
    }
}
