//! Lab 2's simulated charts: the A, B and C bars, the p-curve and the Full Jitter sleeps.
//!
//! Every axis names its unit; log scales, so that 64 and 1.1 attempts both read.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Bar, BarChart, BarGroup, Block, Chart, Dataset, GraphType, Widget};

use super::run::RetryResults;
use crate::learning::metrics;
use crate::learning::reveal::Masked;
use crate::tui::frame::view::masked_chart;
use crate::tui::theme::Theme;
use crate::tui::widgets::panel::panel;

/// A legend as one line: `prefix` then each name with its series' mark, in its series
/// colour, from series `first`.
fn legend_title<'a>(prefix: &'a str, names: &[&'a str], first: usize, theme: Theme) -> Line<'a> {
    let mut spans = vec![Span::styled(prefix, theme.accent())];
    for (index, name) in names.iter().enumerate() {
        spans.push(Span::styled(
            format!("{} {name} ", theme.legend_mark(index)),
            theme.series(first + index),
        ));
    }
    Line::from(spans)
}

/// Log-scale bar height for an attempts-per-action value (1 attempt is a short bar, not none).
fn log_bar(value: f64) -> u64 {
    (value.max(1.0).log10() * 100.0) as u64 + 10
}

/// Lab 2's metric of the per-action attempts of row (or curve) `index`.
fn per_action_metric(index: usize) -> String {
    format!("retry.{}.db_attempts_per_action", ["a", "b", "c"][index % 3])
}

/// Lab 2's charts; `masked` for the bars (the rows' run), `masked_curve` for the p-curve. A
/// masked bar is drawn flat with `?` (a bar has no room for the placeholder), a masked curve
/// is left out: either would give the number away.
pub fn retry_charts(
    retry: &RetryResults,
    [masked, masked_curve]: [&Masked; 2],
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let [top, bottom] = Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
    let [bars_area, jitter_area] =
        Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(top);

    // A, B, C database attempts per action, labelled with their values.
    let values: Vec<f64> = retry.rows.iter().map(|(_, r)| r.db_attempts_per_action).collect();
    let inner_width = panel("", theme).inner(bars_area).width;
    let bar_width = (inner_width.saturating_sub(4) / 3).clamp(1, 9);
    // As many decimals as the bar has room for: 64.00 on wide bars, 64 on narrow ones.
    let label = |value: f64| match bar_width {
        5.. => format!("{value:.2}"),
        _ if value >= 10.0 => format!("{value:.0}"),
        _ => format!("{value:.1}"),
    };
    let bars: Vec<Bar> = values
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let hide = masked.contains(&per_action_metric(index));
            Bar::default()
                .value(if hide { log_bar(1.0) } else { log_bar(*value) })
                .text_value(if hide { "?".to_string() } else { label(*value) })
                .label(Line::from(["A", "B", "C"][index % 3]))
                .style(theme.series(index))
                .value_style(theme.selected())
        })
        .collect();
    let top_value = values
        .iter()
        .enumerate()
        .filter(|(index, _)| !masked.contains(&per_action_metric(*index)))
        .map(|(_, value)| *value)
        .fold(10.0, f64::max);
    // The title the panel holds whole: "attempts" gives way to "db" (the Results rows say
    // db attempts/action) before the log scale goes unnamed.
    let bars_title = if " attempts/action, log ".len() <= usize::from(inner_width) {
        " attempts/action, log "
    } else {
        " db/action, log "
    };
    BarChart::default()
        .block(panel(bars_title, theme))
        .data(BarGroup::default().bars(&bars))
        .bar_width(bar_width)
        .bar_gap(1)
        .max(log_bar(top_value))
        .render(bars_area, buf);

    // Full Jitter: each sleep under its ceiling. While a check asks for a ceiling the panel
    // waits whole: the value axis ends at the cap, and the sleeps bound the ceilings from below.
    match masked.first_step(jitter_metrics(retry).iter().map(String::as_str)) {
        Some(step) => masked_chart(" Full Jitter (s) ", step, theme, jitter_area, buf),
        None => jitter_chart(retry, theme, jitter_area, buf),
    }

    // Amplification against p, log10 of attempts per action.
    let curves: Vec<Vec<(f64, f64)>> = retry
        .curve
        .iter()
        .enumerate()
        .map(
            |(index, points)| match masked_curve.contains(&per_action_metric(index)) {
                true => Vec::new(),
                false => points.iter().map(|(p, v)| (*p, v.max(1.0).log10())).collect(),
            },
        )
        .collect();
    let top_log = curves.iter().flatten().map(|(_, v)| *v).fold(1.0, f64::max).ceil();
    // A vertical line at the p the rows above are computed at.
    let p_now = retry.rows.first().map_or(0.0, |(_, result)| result.params.p);
    let p_line = [(p_now, 0.0), (p_now, top_log)];
    let mut datasets: Vec<Dataset> = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.dim())
            .data(&p_line),
    ];
    datasets.extend(curves.iter().enumerate().map(|(index, points)| {
        Dataset::default()
            .name(["A", "B", "C"][index % 3])
            .marker(theme.marker(index))
            .graph_type(GraphType::Line)
            .style(theme.series(index))
            .data(points)
    }));
    // The ends only: a label between them lands on the nearest row, so on a short plot B's 4
    // attempts sat on the row labelled 10 (a trial's finding). 1 and the top decade are exact.
    let y_labels: Vec<String> = vec!["1".to_string(), format!("{}", 10u64.pow(top_log as u32))];
    let mut title = legend_title(" attempts/action vs p: ", &["A", "B", "C"], 0, theme);
    title.push_span(Span::styled("│ p now ", theme.dim()));
    Chart::new(datasets)
        .block(
            Block::bordered()
                .border_style(theme.border())
                .title(title)
                // Axis titles would be drawn over the curves: the x unit goes on the border.
                .title_bottom(
                    Line::from(Span::styled(
                        // The rows are drawn before the curve of new settings is computed.
                        match retry.curve_wanted {
                            Some(_) => " p → · updating the curve… ".to_string(),
                            None => format!(" p → · {} actions/point ", retry.curve_actions),
                        },
                        theme.dim(),
                    ))
                    .right_aligned(),
                ),
        )
        .x_axis(
            Axis::default()
                .bounds([0.0, 1.0])
                .labels(["0", "0.5", "1"])
                .style(theme.dim()),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top_log])
                .labels(y_labels)
                .style(theme.dim()),
        )
        .legend_position(None)
        .render(bottom, buf);
}

/// The names of Lab 2's Full Jitter ceilings: the jitter chart and the sleeps row both wait
/// for the first step asking for one ([`super::results`]'s row too).
pub fn jitter_metrics(retry: &RetryResults) -> Vec<String> {
    metrics::retry_jitter_metrics(&retry.ceilings_s)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// The jitter chart: each drawn sleep as a dot under the line of its ceiling.
fn jitter_chart(retry: &RetryResults, theme: Theme, area: Rect, buf: &mut Buffer) {
    let sleeps: Vec<(f64, f64)> = retry.sleeps_s.iter().enumerate().map(|(i, s)| (i as f64, *s)).collect();
    let ceilings: Vec<(f64, f64)> = retry
        .ceilings_s
        .iter()
        .enumerate()
        .map(|(i, c)| (i as f64, *c))
        .collect();
    let last_attempt = (retry.sleeps_s.len().max(2) - 1) as f64;
    let top_s = retry.ceilings_s.iter().copied().fold(0.1, f64::max);
    Chart::new(vec![
        Dataset::default()
            .name("ceiling")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.dim())
            .data(&ceilings),
        Dataset::default()
            .name("sleep")
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(theme.series(3))
            .data(&sleeps),
    ])
    .block(
        Block::bordered()
            .border_style(theme.border())
            .title(jitter_title(area.width.saturating_sub(2), theme))
            // Axis titles would be drawn over the plot: the units go on the border instead.
            .title_bottom(Line::from(Span::styled(" attempt → ", theme.dim())).right_aligned()),
    )
    .x_axis(
        Axis::default()
            .bounds([0.0, last_attempt])
            .labels(["0".to_string(), format!("{last_attempt:.0}")])
            .style(theme.dim()),
    )
    .y_axis(
        Axis::default()
            .bounds([0.0, top_s])
            .labels(["0".to_string(), format!("{top_s:.1}")])
            .style(theme.dim()),
    )
    .legend_position(None)
    .render(area, buf);
}

/// The jitter chart's title, the longest that `room` columns hold whole.
fn jitter_title(room: u16, theme: Theme) -> Line<'static> {
    let title = |name: &'static str, ceiling: &'static str| {
        Line::from(vec![
            Span::styled(name, theme.accent()),
            Span::styled("• sleep", theme.series(3)),
            Span::styled(ceiling, theme.dim()),
        ])
    };
    // The ceiling is drawn in braille: a `─` sample read as the border, and `Jitter s:` as
    // a word cut short (a trial's finding at 80x24, where the room is 26).
    let candidates = [
        title(" Full Jitter (s): ", " ⠒ ceiling "),
        title(" Jitter (s): ", " ⠒ ceiling "),
        title(" Jitter (s) ", " ⠒ cap "),
    ];
    let shortest = candidates[2].clone();
    candidates
        .into_iter()
        .find(|line| line.width() <= usize::from(room))
        .unwrap_or(shortest)
}
