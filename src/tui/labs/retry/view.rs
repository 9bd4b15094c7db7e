//! Lab 2 live: the chain with its per-hop request rates, the counters, and the charts over
//! time; or, in the metastable view, the goodput chart with the trigger windows marked.
//!
//! ```text
//! ┌ Live: counting run on 127.0.0.1 ─────────────────────────────────────────────┐
//! │ running policy A · p 1.00 · 812/2000 actions · o policy · v metastable · s stop │
//! │ received: front end 3248 · back end 12992 · database 51968 · ok 0 · refused 0    │
//! │ measured 64.00 db attempts/action, success 0.000 · sim same run 64.00, 0.000     │
//! └──────────────────────────────────────────────────────────────────────────────┘
//!                        ┌ Chain ─────────────────────────────────────────┐
//!                        │ client ─120/s─▶ front end ─480/s─▶ back end ... │
//!                        ├ database requests/s ───────────────────────────┤
//!                        ├ success and retry ratios ──────────────────────┤
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Widget};

use super::live::{RatePoint, RetryLive, RetrySeries, RetryView, policy_name, sim_of};
use crate::learning::metrics::retry_metric;
use crate::live::retry::runner::LIVE_ACTIONS_MAX;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::slider::value_of;
use crate::tui::theme::Theme;
use crate::tui::view::footer::choice_hint;
use crate::tui::widgets::panel::panel;
use crate::wrap::{fit_or_wrap, wrap_line};

/// A rate as it fits on an arrow: `840/s`, `12k/s`.
pub fn short_rate(per_s: f64) -> String {
    if per_s >= 10_000.0 {
        format!("{:.0}k/s", per_s / 1000.0)
    } else if per_s >= 1_000.0 {
        format!("{:.1}k/s", per_s / 1000.0)
    } else {
        format!("{per_s:.0}/s")
    }
}

pub fn render_results<S: LabSim<Live = RetryLive>>(
    page: &SimPage<S>,
    frame: &dyn PageFrame,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = frame.theme();
    let live = &page.live;
    let view = live.view;
    let title = match view {
        RetryView::Counting => " Live: counting run on 127.0.0.1 (v: metastable) ",
        RetryView::Metastable => " Live: metastable load on 127.0.0.1 (v: counting) ",
    };
    let block = panel(title, theme);
    // A series is "running" until its run reports or is stopped.
    let running = live.series.as_ref().is_some_and(|s| !s.finished);
    let policy = policy_name(live.policy);
    // Each line in the longest wording that fits the panel, else wrapped: at 80 columns a
    // cut line lost its last number or unit.
    let width = usize::from(block.inner(area).width);
    let fit = |candidates: Vec<Line<'static>>| fit_or_wrap(candidates, width);
    let mut lines: Vec<Line> = Vec::new();
    // What the figures mean: it gives way to a key's note when the panel has no row for both.
    let mut explain: Vec<Line> = Vec::new();
    match (view, &live.series) {
        (RetryView::Counting, None) => {
            lines.push(Line::from(Span::styled(
                format!(
                    "s start a counting run (at most {LIVE_ACTIONS_MAX} actions) · {}",
                    choice_hint("o", "policy", policy)
                ),
                theme.accent(),
            )));
            explain.extend(fit([
                "p, attempts, budget, actions and seed come from the sliders; they apply at each start",
                "p, attempts, budget, actions and seed: from the sliders, at each start",
            ]
            .map(|text| Line::from(Span::styled(text, theme.dim())))
            .to_vec()));
        }
        (RetryView::Metastable, None) => {
            lines.push(Line::from(Span::styled(
                format!(
                    "s start the steady load ({:.0} actions/s) · {}",
                    live.load_per_s,
                    choice_hint("o", "policy", policy)
                ),
                theme.accent(),
            )));
            // The database fails only while `g`'s trigger lasts: the p slider, which shows its
            // own value on screen, is not this view's (a "p = 0" here stood beside it at 1.00).
            explain.extend(fit([
                // The slider's name, never "p": p is the predict key (a trial read "p unused").
                "database: 8 slots x 20 ms = 400 req/s; the Failure probability slider is not used: g fails it 10 s; +/- load, c cut",
                "db: 8 slots x 20 ms = 400 req/s; failure probability not used: g fails it 10 s; +/- load, c cut",
                // Plain words at the narrowest too: "g fails db 10 s; c cut" read as code (a trial).
                "db 400 req/s; failure probability unused; g: db down 10 s; +/-: more or less load; c: no load",
            ]
            .map(|text| Line::from(Span::styled(text, theme.dim())))
            .to_vec()));
        }
        (RetryView::Counting, Some(series)) => {
            // An ended run says how long it took: a counting run at 127.0.0.1 often ends
            // in under a second, and its charts' time axis fits it.
            let took = format!(" in {}", seconds_label(series.latest_s));
            let state = match (running, series.result.is_some()) {
                (true, _) => "running".to_string(),
                (false, true) => format!("finished{took}"),
                (false, false) => format!("stopped{took}"),
            };
            let rest = format!(
                "{} · p {:.2} · {}/{} actions · o policy · s {}",
                series.policy_label,
                series.p,
                series.latest.actions_done,
                series.actions,
                if running { "stop" } else { "again" }
            );
            let sep = if running { " " } else { " · " };
            lines.extend(fit([format!("{state}{sep}{rest}"), format!("{state} {rest}")]
                .map(|text| Line::from(Span::styled(text, theme.accent())))
                .to_vec()));
            for candidates in counters_lines(series) {
                lines.extend(fit(candidates));
            }
            let sim = series.result.as_ref().map(|result| sim_of(&result.params));
            // The run's numbers are its policy's row's, named as the sim screen's: a check that
            // asks for them, unanswered, gets their placeholder (the sim of this run too).
            let masked = frame.masked();
            let metric = |field: &str| {
                series
                    .policy
                    .map(|policy| retry_metric(policy, field))
                    .unwrap_or_default()
            };
            let (per_action, success) = (metric("db_attempts_per_action"), metric("success_ratio"));
            let cost = |value: f64| masked.number(&per_action, || format!("{value:.2}"));
            let so_far = cost(series.db_per_action());
            // Success as a percentage, as the sim screen prints it.
            lines.extend(fit(match (&series.result, sim) {
                (Some(result), Some(sim)) => {
                    let share = |ratio: f64| masked.number(&success, || format!("{:.1}", ratio * 100.0));
                    let measured = (cost(result.db_attempts_per_action), share(result.success_ratio));
                    let simulated = (cost(sim.db_attempts_per_action), share(sim.success_ratio));
                    vec![
                        Line::from(format!(
                            "measured {} db attempts/action, success {}% · sim of this run {}, {}%",
                            measured.0, measured.1, simulated.0, simulated.1
                        )),
                        Line::from(format!(
                            "measured {} db attempts/action, {}% ok · sim of this run {}, {}%",
                            measured.0, measured.1, simulated.0, simulated.1
                        )),
                        Line::from(format!(
                            "measured {} db/action, {}% ok · sim of this run {}, {}%",
                            measured.0, measured.1, simulated.0, simulated.1
                        )),
                    ]
                }
                _ => vec![
                    Line::from(format!(
                        "so far {so_far} db attempts per finished action · {} more for actions in flight",
                        series.db_attempts_unfinished()
                    )),
                    Line::from(format!(
                        "so far {so_far} db attempts/finished action · {} in flight",
                        series.db_attempts_unfinished()
                    )),
                ],
            }));
            // Why these figures can differ from the sim screen's in the last digit.
            let sim_actions = value_of(frame.sliders(), "actions").unwrap_or(10_000.0);
            explain.extend(fit(
                [
                    format!(
                        "a live run stops at {LIVE_ACTIONS_MAX} actions, the sim screen runs {sim_actions:.0}: digits may differ"
                    ),
                    format!("live stops at {LIVE_ACTIONS_MAX} actions, the sim screen runs {sim_actions:.0}: digits may differ"),
                ]
                .map(|text| Line::from(Span::styled(text, theme.dim())))
                .to_vec(),
            ));
        }
        (RetryView::Metastable, Some(series)) => {
            lines.push(Line::from(Span::styled(
                format!(
                    "{} {policy} · {:.0} actions/s · t {:.0} s · g trigger · +/- c load · s {}",
                    if running { "running" } else { "stopped" },
                    live.load_per_s,
                    series.latest_s,
                    if running { "stop" } else { "again" }
                ),
                theme.accent(),
            )));
            let last = series.points.last().cloned().unwrap_or_default();
            lines.push(Line::from(format!(
                "goodput {:.0} actions/s · database {:.0} req/s of 400 · in flight {}",
                last.ok_per_s, last.db_per_s, series.latest.db_in_flight,
            )));
            lines.push(Line::from(Span::styled(
                format!(
                    "database calls timed out {} · actions past their 1 s deadline {}",
                    series.latest.db_timeouts, series.latest.actions_expired
                ),
                theme.dim(),
            )));
        }
    }
    // A note says what a key just did; rather than fall off the panel's last row it takes
    // the explanation's place.
    let note = live.status.as_ref().map_or_else(Vec::new, |note| {
        wrap_line(Line::from(Span::styled(note.clone(), theme.dim())), width, 0)
    });
    if lines.len() + explain.len() + note.len() > usize::from(block.inner(area).height) {
        explain.clear();
    }
    lines.extend(explain);
    lines.extend(note);
    Paragraph::new(lines).block(block).render(area, buf);
}

/// The two counter lines, each as its wordings from the longest.
fn counters_lines(series: &RetrySeries) -> [Vec<Line<'static>>; 2] {
    let received = &series.latest.received;
    let at = |index: usize| received.get(index).copied().unwrap_or(0);
    let latest = &series.latest;
    [
        vec![
            Line::from(format!(
                "requests received: front end {} · back end {} · database {}",
                at(0),
                at(1),
                at(2)
            )),
            Line::from(format!(
                "received: front end {} · back end {} · database {}",
                at(0),
                at(1),
                at(2)
            )),
        ],
        vec![
            Line::from(format!(
                "database failed {} · actions ok {} · retries refused by the budget {}",
                latest.db_failed, latest.actions_ok, latest.budget_refusals
            )),
            Line::from(format!(
                "database failed {} · actions ok {} · refused by the budget {}",
                latest.db_failed, latest.actions_ok, latest.budget_refusals
            )),
        ],
    ]
}

pub fn render_charts(live: &RetryLive, theme: Theme, area: Rect, buf: &mut Buffer) {
    let series = live.series.as_ref();
    let [chain_area, charts_area] = Layout::vertical([Constraint::Length(6), Constraint::Fill(1)]).areas(area);
    let rates = series.map_or_else(|| vec![0.0; 3], RetrySeries::hop_rates);
    chain(
        &rates,
        series.map_or(0, |s| s.latest.db_in_flight),
        theme,
        chain_area,
        buf,
    );
    let empty = RetrySeries::default();
    let series = series.unwrap_or(&empty);
    // Stacked, each chart gets half the height; on a short screen (80x24) that is two or
    // three rows of plot, so the two go side by side instead, at full height.
    let side_by_side = charts_area.height < 14;
    let [first_area, second_area] = if side_by_side {
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(charts_area)
    } else {
        match live.view {
            RetryView::Counting => {
                Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(charts_area)
            }
            // Goodput gets the larger share: it is the lesson of the view.
            RetryView::Metastable => {
                Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(charts_area)
            }
        }
    };
    // Names as short as a half-width chart's title needs.
    let short = first_area.width < 40;
    match live.view {
        RetryView::Counting => {
            let db: Vec<(f64, f64)> = series.points.iter().map(|p| (p.t_s, p.db_per_s)).collect();
            line_chart(
                " database requests/s ",
                &[("db req/s", &db)],
                None,
                0,
                series,
                theme,
                first_area,
                buf,
            );
            let success: Vec<(f64, f64)> = series.points.iter().map(|p| (p.t_s, p.success_ratio)).collect();
            let retry: Vec<(f64, f64)> = series.points.iter().map(|p| (p.t_s, p.retry_ratio)).collect();
            let (title, names) = if short {
                (" ratio ", ["ok", "retry/db"])
            } else {
                (" ratios: ", ["success", "retries/db req"])
            };
            line_chart(
                title,
                &[(names[0], &success), (names[1], &retry)],
                Some(1.0),
                0,
                series,
                theme,
                second_area,
                buf,
            );
        }
        RetryView::Metastable => metastable_charts(series, theme, [first_area, second_area], buf),
    }
}

/// The metastable view's two charts, goodput over the database, on one time axis: the
/// value labels take the same width in both, so a second (and the trigger) falls in the
/// same column of each.
fn metastable_charts(series: &RetrySeries, theme: Theme, [first_area, second_area]: [Rect; 2], buf: &mut Buffer) {
    let short = first_area.width < 40;
    // Goodput gets its own scale: beside a retry storm's database rate it would be flat.
    let goodput: Vec<(f64, f64)> = series.points.iter().map(|p| (p.t_s, p.ok_per_s)).collect();
    let db: Vec<(f64, f64)> = series.points.iter().map(|p| (p.t_s, p.db_per_s)).collect();
    let queued: Vec<(f64, f64)> = series.points.iter().map(|p| (p.t_s, p.db_in_flight as f64)).collect();
    let goodput_lines = [("goodput", &goodput)];
    let (db_title, names) = if short {
        (" db ", ["req/s", "queue"])
    } else {
        (" database: ", ["requests/s", "in flight"])
    };
    let db_lines = [(names[0], &db), (names[1], &queued)];
    let label_width = top_label(value_top(&goodput_lines, None))
        .len()
        .max(top_label(value_top(&db_lines, None)).len());
    let title = if short {
        " goodput, ok/s "
    } else {
        " goodput (actions ok/s) "
    };
    let chart = |title, lines: &[(&str, &Vec<(f64, f64)>)], area, buf: &mut Buffer| {
        line_chart(title, lines, None, label_width, series, theme, area, buf);
    };
    chart(title, &goodput_lines, first_area, buf);
    chart(db_title, &db_lines, second_area, buf);
}

/// The value axis's end for `lines`: `top` when given (a ratio's 1.0), else a round
/// number at or above the highest value.
fn value_top(lines: &[(&str, &Vec<(f64, f64)>)], top: Option<f64>) -> f64 {
    let peak = lines
        .iter()
        .flat_map(|(_, points)| points.iter().map(|(_, v)| *v))
        .fold(1.0, f64::max);
    top.unwrap_or_else(|| nice_ceiling(peak))
}

/// The label at the value axis's end.
fn top_label(top: f64) -> String {
    if top <= 1.0 {
        format!("{top:.1}")
    } else {
        format!("{top:.0}")
    }
}

/// The time axis's end: the last point, or the end of a trigger window still going, at
/// least 10 s while the run goes on, in whole seconds. An ended run's axis fits the run
/// (a counting run over in 0.8 s drew a sliver at the left of 10 s): its length rounded up
/// to a tenth of a second below 1 s, else to a whole second.
fn time_end_s(series: &RetrySeries) -> f64 {
    let last_s = series.points.last().map_or(10.0, |p: &RatePoint| p.t_s);
    let trigger_end_s = series.triggers.iter().map(|(_, end)| *end).fold(0.0, f64::max);
    let end_s = last_s.max(trigger_end_s);
    match series.finished && !series.points.is_empty() {
        true if end_s < 1.0 => ((end_s * 10.0).ceil() / 10.0).max(0.1),
        true => end_s.ceil(),
        false => end_s.max(10.0).ceil(),
    }
}

/// A time axis's end or a run's length: `0.8 s` below a second, `12 s` from one on.
fn seconds_label(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{seconds:.1} s")
    } else {
        format!("{seconds:.0} s")
    }
}

/// The chain as boxes joined by arrows, each arrow labelled with the requests per second
/// that crossed it in the last second.
fn chain(rates: &[f64], db_in_flight: u64, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = panel(" Chain: requests/s on each hop ", theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let labels: Vec<String> = (0..3)
        .map(|hop| short_rate(rates.get(hop).copied().unwrap_or(0.0)))
        .collect();
    // The longest names that leave each arrow room for a rate like `12.3k/s`.
    const NAMES: [[&str; 4]; 3] = [
        ["client", "front end", "back end", "database"],
        ["client", "front end", "back end", "db"],
        ["client", "front", "back", "db"],
    ];
    let room_for = |names: &[&str; 4]| {
        let boxes: usize = names.iter().map(|n| n.chars().count() + 2).sum();
        usize::from(inner.width).saturating_sub(boxes) / 3
    };
    let names = NAMES.iter().find(|names| room_for(names) >= 8).unwrap_or(&NAMES[2]);
    // Narrow panels drop the "/s" (the title says it) before the arrows outgrow the row.
    let widest = |labels: &[String]| labels.iter().map(|l| l.len() + 2).max().unwrap_or(4);
    let labels: Vec<String> = if room_for(names) < widest(&labels) {
        labels.iter().map(|l| l.trim_end_matches("/s").to_string()).collect()
    } else {
        labels
    };
    let arrow = room_for(names).max(widest(&labels));
    let mut top = String::new();
    let mut middle = String::new();
    let mut bottom = String::new();
    let mut rate_row = String::new();
    for (index, name) in names.iter().enumerate() {
        let width = name.chars().count();
        top.push_str(&format!("┌{}┐", "─".repeat(width)));
        middle.push_str(&format!("│{name}│"));
        bottom.push_str(&format!("└{}┘", "─".repeat(width)));
        rate_row.push_str(&" ".repeat(width + 2));
        if index < 3 {
            let label = &labels[index];
            top.push_str(&" ".repeat(arrow));
            middle.push_str(&format!("{}▶", "─".repeat(arrow - 1)));
            bottom.push_str(&" ".repeat(arrow));
            rate_row.push_str(&format!("{label:^arrow$}"));
        }
    }
    let in_flight = if db_in_flight > 0 {
        format!("  {db_in_flight} in flight at the database")
    } else {
        String::new()
    };
    let lines = vec![
        Line::from(Span::styled(rate_row, theme.series(0))),
        Line::from(top),
        Line::from(middle),
        Line::from(vec![Span::raw(bottom), Span::styled(in_flight, theme.dim())]),
    ];
    // The rates on the row above the boxes, over their arrows.
    Paragraph::new(lines).render(inner, buf);
}

/// One chart over the run's time axis; `label_width` pads the value labels so that charts
/// drawn one above the other start their plots in the same column.
#[allow(clippy::too_many_arguments)]
fn line_chart(
    title: &str,
    lines: &[(&str, &Vec<(f64, f64)>)],
    top: Option<f64>,
    label_width: usize,
    series: &RetrySeries,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    // Wide enough for the whole trigger window, even while it is still going.
    let end_s = time_end_s(series);
    let top = value_top(lines, top);
    let mut datasets: Vec<Dataset> = lines
        .iter()
        .enumerate()
        .map(|(index, (name, points))| {
            Dataset::default()
                .name(*name)
                .marker(theme.marker(index))
                .graph_type(GraphType::Line)
                .style(theme.series(index + 2))
                .data(points)
        })
        .collect();
    // Trigger windows as two vertical lines each, drawn after the series: goodput falls
    // (and the database rate climbs) in the very column where a trigger starts, and a
    // series drawn over the mark there would leave only the window's end showing, 10 s late.
    let marks: Vec<[(f64, f64); 2]> = series
        .triggers
        .iter()
        .flat_map(|(start, end)| [[(*start, 0.0), (*start, top)], [(*end, 0.0), (*end, top)]])
        .collect();
    datasets.extend(marks.iter().map(|mark| {
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.series(0))
            .data(mark)
    }));
    let mut title_spans = vec![Span::styled(title.to_string(), theme.accent())];
    // One series is named by the title already; two need a legend.
    if lines.len() > 1 {
        for (index, (name, _)) in lines.iter().enumerate() {
            title_spans.push(Span::styled(
                format!("{}{name} ", theme.legend_mark(index)),
                theme.series(index + 2),
            ));
        }
    }
    if !series.triggers.is_empty() {
        // The trigger's legend in full where the title leaves room, else as its key `g`.
        let used: usize = title_spans.iter().map(Span::width).sum();
        let mark = if used + 10 <= usize::from(area.width.saturating_sub(2)) {
            "│ trigger "
        } else {
            "│g "
        };
        title_spans.push(Span::styled(mark, theme.series(0)));
    }
    let top_label = format!("{:>label_width$}", top_label(top));
    Chart::new(datasets)
        .block(
            Block::bordered()
                .border_style(theme.border())
                .title(Line::from(title_spans)),
        )
        // No axis title: ratatui draws it over the plot; the unit is in the label.
        .x_axis(
            Axis::default()
                .bounds([0.0, end_s])
                .labels(["0".to_string(), seconds_label(end_s)])
                .style(theme.dim()),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels(["0".to_string(), top_label])
                .style(theme.dim()),
        )
        .legend_position(None)
        .render(area, buf);
}

/// 1, 2, 2.5 or 5 times a power of ten, at or above `value`: an axis end that reads well.
pub fn nice_ceiling(value: f64) -> f64 {
    let power = 10f64.powf(value.max(1.0).log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|candidate| *candidate >= value)
        .unwrap_or(10.0 * power)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns of `area`'s plot rows where the trigger's colour is drawn.
    fn trigger_columns(buf: &Buffer, area: Rect, theme: Theme) -> Vec<u16> {
        let colour = theme.series(0).fg;
        let mut columns: Vec<u16> = (area.top() + 1..area.bottom() - 1)
            .flat_map(|y| (area.left()..area.right()).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[(x, y)].fg == colour.unwrap_or_default() && buf[(x, y)].symbol() != " ")
            .map(|(x, _)| x)
            .collect();
        columns.sort_unstable();
        columns.dedup();
        columns
    }

    #[test]
    fn both_metastable_charts_mark_the_trigger_in_the_same_columns() {
        let theme = Theme::new(crate::tui::theme::ThemeName::Dark, true);
        // Goodput falls to nothing the second the trigger starts while the database rate
        // climbs past 5,000/s: two value labels of different widths ("250", "10000").
        let points = (1..=25)
            .map(|second| {
                let healthy = second <= 5;
                RatePoint {
                    t_s: f64::from(second),
                    ok_per_s: if healthy { 240.0 } else { 0.0 },
                    db_per_s: if healthy { 720.0 } else { 9_000.0 },
                    db_in_flight: if healthy { 10 } else { 512 },
                    ..RatePoint::default()
                }
            })
            .collect();
        let series = RetrySeries {
            view: RetryView::Metastable,
            points,
            triggers: vec![(5.0, 15.0)],
            ..RetrySeries::default()
        };
        let (goodput, database) = (Rect::new(0, 0, 60, 10), Rect::new(0, 10, 60, 8));
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 18));
        metastable_charts(&series, theme, [goodput, database], &mut buf);
        let on_goodput = trigger_columns(&buf, goodput, theme);
        let on_database = trigger_columns(&buf, database, theme);
        assert_eq!(on_goodput, on_database, "one trigger, one column in each chart");
        // Its start at 5 s shows as well as its end at 15 s: goodput's fall does not hide it.
        assert_eq!(on_goodput.len(), 2, "{on_goodput:?}");
    }

    #[test]
    fn rates_and_axis_ends_read_well() {
        assert_eq!(short_rate(840.4), "840/s");
        assert_eq!(short_rate(1_960.0), "2.0k/s");
        assert_eq!(short_rate(19_500.0), "20k/s");
        assert_eq!(nice_ceiling(640.0), 1000.0);
        assert_eq!(nice_ceiling(180.0), 200.0);
        assert_eq!(nice_ceiling(240.0), 250.0);
        assert_eq!(nice_ceiling(0.3), 1.0);
    }
}
