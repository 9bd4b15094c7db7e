//! Lab 3's simulated charts: each caller's calls per second, what waits, and the breaker's
//! state band, side by side on shared scales; [`calls_chart`] and [`resample`] serve the
//! live columns too, so a learner compares like with like.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Sparkline, Widget};

use crate::engine::brownout::{BrownoutComparison, CallerRun};
use crate::learning::reveal::{Masked, placeholder};
use crate::tui::theme::Theme;
use crate::tui::widgets::panel::panel;
use crate::tui::widgets::state_band::StateBand;

pub fn breaker_charts(run: &BrownoutComparison, masked: &Masked, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [left, right] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
    let duration_s = run.params.duration_s;
    // Shared scales, so the two columns compare at a glance.
    let top_rate = f64::from(run.params.rate).max(1.0);
    let top_waiting = run
        .timeout_only
        .per_second
        .iter()
        .chain(&run.with_breaker.per_second)
        .map(|s| s.waiting)
        .fold(0.1, f64::max);
    caller_column(
        ("timeout only", "timeout_only"),
        &run.timeout_only,
        None,
        masked,
        duration_s,
        top_rate,
        top_waiting,
        theme,
        left,
        buf,
    );
    caller_column(
        ("with breaker", "with_breaker"),
        &run.with_breaker,
        Some(&run.with_breaker),
        masked,
        duration_s,
        top_rate,
        top_waiting,
        theme,
        right,
        buf,
    );
}

#[allow(clippy::too_many_arguments)]
fn caller_column(
    (name, metric_name): (&str, &str),
    caller: &CallerRun,
    breaker: Option<&CallerRun>,
    masked: &Masked,
    duration_s: f64,
    top_rate: f64,
    top_waiting: f64,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let block = panel("", theme).title(Span::styled(format!(" {name} "), theme.accent()));
    let inner = block.inner(area);
    block.render(area, buf);
    let [
        legend_area,
        chart_area,
        waiting_label,
        waiting_area,
        band_label,
        band_area,
    ] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let series = |pick: fn(&crate::engine::brownout::SecondStats) -> f64| -> Vec<(f64, f64)> {
        caller
            .per_second
            .iter()
            .enumerate()
            .map(|(second, s)| (second as f64, pick(s)))
            .collect()
    };
    // A series whose total is masked is left out: summed, it is the number.
    let unless = |field: &str, points: Vec<(f64, f64)>| match masked.contains(&format!("breaker.{metric_name}.{field}"))
    {
        true => Vec::new(),
        false => points,
    };
    // Except the calls: no check asks for them, and summed off a chart they read to a
    // hundred or so, never to the 20 answers step 5 is scored by; the row's printed total,
    // which works step 5 out exactly, is what waits for it (the lab file's given_away_by).
    let calls = series(|s| s.calls as f64);
    let sick = unless("sick_calls", series(|s| s.sick_calls as f64));
    let degraded = unless("degraded", series(|s| s.degraded as f64));
    calls_chart(
        theme,
        [&calls, &sick, &degraded],
        duration_s,
        top_rate,
        chart_area,
        legend_area,
        buf,
    );

    // The sparkline and the band start where the chart's plot does (after the y labels and
    // the axis line), so that one column is the same second in all three.
    let indent = (format!("{top_rate:.0}").len() as u16 + 1).min(waiting_area.width);
    let under_plot = |rect: Rect| Rect::new(rect.x + indent, rect.y, rect.width - indent, rect.height);
    let (waiting_area, band_area) = (under_plot(waiting_area), under_plot(band_area));
    // Waiting calls, in tenths so that 0.3 still shows.
    // The peak of a steady hang is the calls stuck at any moment that a check asks for.
    let peak = caller.per_second.iter().map(|s| s.waiting).fold(0.0, f64::max);
    let peak_text = masked.number(&format!("breaker.{metric_name}.stuck"), || format!("{peak:.1}"));
    Line::from(vec![
        Span::raw("waiting, "),
        Span::styled(format!("peak {peak_text}"), theme.dim()),
    ])
    .render(waiting_label, buf);
    let tenths: Vec<u64> = caller
        .per_second
        .iter()
        .map(|s| (s.waiting * 10.0).round() as u64)
        .collect();
    Sparkline::default()
        .data(resample(&tenths, usize::from(waiting_area.width)))
        .max((top_waiting * 10.0).round() as u64)
        .style(theme.series(3))
        .render(waiting_area, buf);

    let band_masked = masked.first_step(["breaker.with_breaker.first_open_s", "breaker.with_breaker.transitions"]);
    match breaker {
        // The band marks when the breaker opens: the first opening, to a second or so.
        Some(_) if let Some(step) = band_masked => {
            Line::from(Span::styled(format!("state band {}", placeholder(step)), theme.dim())).render(band_label, buf);
        }
        Some(run) => {
            let mut spans = vec![];
            for (state, word) in [
                (crate::engine::breaker::BreakerState::Closed, "closed "),
                (crate::engine::breaker::BreakerState::HalfOpen, "half "),
                (crate::engine::breaker::BreakerState::Open, "open"),
            ] {
                let (symbol, style) = StateBand::look(state, theme);
                spans.push(Span::styled(symbol, style));
                spans.push(Span::raw(word));
            }
            Line::from(spans).render(band_label, buf);
            StateBand::new(&run.transitions, duration_s, theme).render(band_area, buf);
        }
        None => {
            Line::from(Span::styled("no breaker", theme.dim())).render(band_label, buf);
        }
    }
}

/// One caller's calls per second over the run (calls made, calls to the sick dependency,
/// degraded responses) with its legend on the line above: the simulated Lab 3 view and the
/// live one draw the same chart, so a learner compares like with like.
pub fn calls_chart(
    theme: Theme,
    [calls, sick, degraded]: [&[(f64, f64)]; 3],
    duration_s: f64,
    top_rate: f64,
    chart_area: Rect,
    legend_area: Rect,
    buf: &mut Buffer,
) {
    let lines = [("calls", calls), ("to sick", sick), ("degraded", degraded)];
    let datasets = lines
        .iter()
        .enumerate()
        .map(|(index, (label, points))| {
            Dataset::default()
                .name(*label)
                .marker(theme.marker(index))
                .graph_type(GraphType::Line)
                .style(theme.series(index + 1))
                .data(points)
        })
        .collect();
    // No axis titles: ratatui draws them over the plot. The units are in the labels and
    // the legend line.
    Chart::new(datasets)
        .x_axis(
            Axis::default()
                .bounds([0.0, duration_s])
                .labels(["0".to_string(), format!("{duration_s:.0} s")])
                .style(theme.dim()),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top_rate * 1.15])
                .labels(["0".to_string(), format!("{top_rate:.0}")])
                .style(theme.dim()),
        )
        .legend_position(None)
        .render(chart_area, buf);
    // Per second; each name after the mark its series is drawn with.
    let names: [&str; 3] = if legend_area.width >= 30 {
        ["calls/s", "to sick", "degraded"]
    } else if legend_area.width >= 22 {
        ["calls", "sick", "degraded"]
    } else {
        ["calls", "sick", "degr."]
    };
    let legend: Vec<Span> = names
        .iter()
        .enumerate()
        .map(|(index, name)| Span::styled(format!("{}{name} ", theme.legend_mark(index)), theme.series(index + 1)))
        .collect();
    Line::from(legend).render(legend_area, buf);
}

/// Stretches or squeezes a per-second series to `width` columns, so the sparkline spans the
/// same time axis as the chart above it (a sparkline draws one column per value and cuts the
/// rest). A squeezed column shows the largest value of its seconds: peaks must not vanish.
pub fn resample(values: &[u64], width: usize) -> Vec<u64> {
    if values.is_empty() || width == 0 {
        return Vec::new();
    }
    (0..width)
        .map(|column| {
            let start = column * values.len() / width;
            let end = ((column + 1) * values.len() / width).max(start + 1);
            values[start..end.min(values.len())].iter().copied().max().unwrap_or(0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::resample;

    #[test]
    fn resample_keeps_peaks_and_spans_the_width() {
        assert_eq!(resample(&[1, 9, 2, 3], 2), vec![9, 3]);
        assert_eq!(resample(&[1, 2], 4), vec![1, 1, 2, 2]);
        assert_eq!(resample(&[5; 60], 28).len(), 28);
        assert!(resample(&[], 10).is_empty());
    }
}
