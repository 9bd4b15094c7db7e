//! Lab 5's page, its drawing: the results lines and the chart of the scenario the guided
//! step is about, simulated or live.
//!
//! ```text
//! ┌ Results ─────────────────────────────────────────────────────────────────┐
//! │ scenario 1/7 deadline · one deadline passed down the chain                │
//! │ received: edge 30000 ms · checkout 23000 ms · payments 19000 ms           │
//! │ wasted 0 ms · early rejections 0 · answered at 12000 ms                   │
//! └───────────────────────────────────────────────────────────────────────────┘
//! ┌ Parameters ─────────┐┌ Waterfall: each hop's budget ─────────────────────┐
//! │▸ Inbound ms  30000  ││ edge     ▓▓▓▓▓▓▓░░░░░░░░░░░░░░░░░░░░░░│          │
//! │  ...                ││ checkout        ▓▓▓▓░░░░░░░░░░░░░░░░░░│          │
//! │                     ││ payments            ▓░░░░░░░░░░░░░░░░░│          │
//! └─────────────────────┘└───────────────────────────────────────────────────┘
//! ```
//!
//! The deadline and the register draw bars on one time axis (what each hop received, spent
//! and passed on; each attempt from its start to its timeout), Retry-After and the herd
//! arrivals per time slot, and the other three their numbers side by side as bars. A chart
//! waits while a number it draws is one an unanswered check asks for.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};

use crate::engine::budget::{BudgetRun, BudgetScenario, MetricValue};
use crate::learning::reveal::Masked;
use crate::report::budget_rows;
use crate::report::cells::Mask;
use crate::tui::frame::view::{masked_chart, results_title_of};
use crate::tui::labs::budget::live::{BudgetLive, live_note};
use crate::tui::labs::budget::run::{ARRIVAL_SLOT_MS, BudgetResults, HERD_SLOT_MS, scenario_at_step};
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::theme::Theme;
use crate::tui::view::legend::{self, Item};
use crate::tui::widgets::panel::panel;
use crate::wrap::first_that_fits;

/// The endings of a number drawn beside its scenario's chosen one (`peak_per_10ms_fixed`
/// beside `peak_per_10ms`): where the chosen one is hidden, these are too, since at the
/// check's settings one of them is the same number.
const COMPANIONS: [&str; 9] = [
    "_ignoring",
    "_honouring",
    "_without_bucket",
    "_with_bucket",
    "_fixed",
    "_jitter25",
    "_full",
    "_note",
    "_one_probe",
];

/// The hiding rule with companions: a number is hidden if it, or the number it is a
/// companion of, is.
struct WithCompanions<'a>(&'a Masked);

impl WithCompanions<'_> {
    /// The number `metric` is a companion of, if it is one.
    fn base(metric: &str) -> Option<&str> {
        COMPANIONS.iter().find_map(|ending| metric.strip_suffix(ending))
    }
}

impl Mask for WithCompanions<'_> {
    fn hidden(&self, metric: &str) -> Option<String> {
        self.0.hidden(metric).or_else(|| self.0.hidden(Self::base(metric)?))
    }
}

/// One line on what scenario `scenario` shows.
pub fn scenario_line(scenario: BudgetScenario) -> String {
    let index = BudgetScenario::ALL.iter().position(|s| *s == scenario).unwrap_or(0) + 1;
    let what = match scenario {
        BudgetScenario::Deadline => "one deadline passed down the chain, hop by hop",
        BudgetScenario::Register => "every attempt times out: timeouts times attempts",
        BudgetScenario::RetryAfter => "Retry-After on 429s; a bucket under the limit",
        BudgetScenario::Duplicates => "commit, then drop: retried with or without a key",
        BudgetScenario::Status => "answers that will not change, retried or not",
        BudgetScenario::Herd => "clients failed together come back: fixed sleep or jitter",
        BudgetScenario::HalfOpen => "after the cooldown: every call, or one probe",
    };
    format!("scenario {index}/7 {} · {what}", scenario.name())
}

/// The scenario the page draws: that of an open verdict's check, else the current step's.
fn shown_scenario(frame: &dyn PageFrame) -> BudgetScenario {
    scenario_at_step(frame.lab(), frame.shown_step())
}

/// The results lines of `run`, masked, each cut to `width`.
fn run_lines(run: &BudgetRun, masked: &Masked, width: usize) -> Vec<String> {
    budget_rows(run)
        .iter()
        .map(|row| row.fit(width, &WithCompanions(masked)))
        .collect()
}

/// The simulated page's results panel.
pub fn render_results<S: LabSim<Results = BudgetResults, Live = BudgetLive>>(
    page: &SimPage<S>,
    frame: &dyn PageFrame,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = frame.theme();
    let verdict = frame.verdict();
    let results = page.shown_results(verdict);
    let scenario = shown_scenario(frame);
    let width = usize::from(area.width.saturating_sub(2));
    let masked = frame.masked();
    let mut lines = vec![Line::from(Span::styled(
        crate::report::cells::fit_width(scenario_line(scenario), width),
        theme.accent(),
    ))];
    lines.extend(
        run_lines(results.run(scenario), &masked, width)
            .into_iter()
            .map(Line::from),
    );
    Paragraph::new(lines)
        .block(panel(results_title_of(page.shows_verdict_run(frame)), theme))
        .render(area, buf);
}

/// The live page's results panel: what runs, how it is made, and the measured lines beside
/// the simulation's at the run's own settings.
pub fn render_live_results<S: LabSim<Results = BudgetResults, Live = BudgetLive>>(
    page: &SimPage<S>,
    frame: &dyn PageFrame,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = frame.theme();
    let width = usize::from(area.width.saturating_sub(2));
    // A row too long for the panel ends after its last whole word, marked "…": clipped at
    // the border it ended mid-word ("the simulation count"), which read as another word.
    let fit = |text: String| whole_words_within(&crate::report::cells::fit_width(text, width), width);
    let live = &page.live;
    let scenario = live.scenario.unwrap_or_else(|| shown_scenario(frame));
    let status = live.status.clone().unwrap_or_else(|| {
        format!(
            "s runs scenario {} on 127.0.0.1 · {}",
            scenario.name(),
            live_note(scenario)
        )
    });
    // The status wraps onto a second row where the panel has one to spare (its notes on how
    // the scenario runs live were cut at 80 columns), else it is fitted to one.
    let masked = Masked::default();
    let measured_rows = match (&live.measured, &live.params) {
        (Some(measured), Some(_)) => run_lines(measured, &masked, width.saturating_sub(6)).len(),
        _ => 0,
    };
    // Each measured row shows above the simulation's.
    let spare = usize::from(area.height.saturating_sub(2)).saturating_sub(1 + live.notes.len() + 2 * measured_rows);
    let wrapped = crate::wrap::wrap_words(&status, width);
    let status_rows = if wrapped.len() > 1 && wrapped.len() - 1 <= spare {
        wrapped
    } else {
        vec![fit(status)]
    };
    let mut lines: Vec<Line> = status_rows
        .into_iter()
        .map(|row| Line::from(Span::styled(row, theme.accent())))
        .collect();
    for note in &live.notes {
        lines.push(Line::from(Span::styled(fit(note.clone()), theme.dim())));
    }
    if let (Some(measured), Some(params)) = (&live.measured, &live.params) {
        let sim = crate::engine::budget::run(scenario, params);
        let measured_lines = run_lines(measured, &masked, width.saturating_sub(6));
        let sim_lines = run_lines(&sim, &masked, width.saturating_sub(6));
        for (live_line, sim_line) in measured_lines.into_iter().zip(sim_lines) {
            lines.push(Line::from(format!("live  {live_line}")));
            lines.push(Line::from(Span::styled(format!("sim   {sim_line}"), theme.dim())));
        }
    }
    Paragraph::new(lines).block(panel(" Live ", theme)).render(area, buf);
}

/// `text` whole if it fits `width`, else its words that fit with "…" after them.
fn whole_words_within(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let first = crate::wrap::wrap_words(text, width.saturating_sub(1))
        .into_iter()
        .next()
        .unwrap_or_default();
    format!("{}…", first.trim_end())
}

/// The chart of the scenario on screen (sim or live: the live deadline draws its measured
/// hops).
pub fn render_charts<S: LabSim<Results = BudgetResults, Live = BudgetLive>>(
    page: &SimPage<S>,
    frame: &dyn PageFrame,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = frame.theme();
    let results = page.shown_results(frame.verdict());
    let live = page.live_showing.then_some(&page.live);
    let scenario = live.and_then(|l| l.scenario).unwrap_or_else(|| shown_scenario(frame));
    let title = chart_title(scenario);
    let masked = frame.masked();
    let run = results.run(scenario);
    let names: Vec<String> = run
        .metrics
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| draws(scenario, name))
        .map(crate::learning::metrics::budget_metric)
        .collect();
    let hides =
        |name: &String| masked.contains(name) || WithCompanions::base(name).is_some_and(|base| masked.contains(base));
    if let Some(step) = names.iter().find(|name| hides(name)).and_then(|name| {
        masked
            .step(name)
            .or_else(|| WithCompanions::base(name).and_then(|base| masked.step(base)))
    }) {
        return masked_chart(title, step, theme, area, buf);
    }
    let block = panel(title, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    match scenario {
        BudgetScenario::Deadline => {
            let measured = live
                .and_then(|l: &BudgetLive| l.measured.as_ref())
                .filter(|m| !m.hops.is_empty());
            waterfall(
                measured.unwrap_or(run),
                results.params.deadline.inbound_ms,
                theme,
                inner,
                buf,
            );
        }
        BudgetScenario::Register => attempts_timeline(run, results.params.register.deadline_ms, theme, inner, buf),
        BudgetScenario::RetryAfter => arrivals_chart(results, theme, inner, buf),
        BudgetScenario::Herd => herd_chart(results, theme, inner, buf),
        BudgetScenario::Duplicates => bars(
            run,
            &[
                ("dropped after commit", "dropped_after_commit"),
                ("duplicates", "duplicates"),
            ],
            "A reply lost after the charge commits, then a retry: with or without the order's key.",
            theme,
            inner,
            buf,
        ),
        BudgetScenario::Status => bars(
            run,
            &[("attempts per request", "attempts_per_request")],
            "429 and 5xx can change and are retried; 400, 401 and 403 will not change.",
            theme,
            inner,
            buf,
        ),
        BudgetScenario::HalfOpen => bars(
            run,
            &[
                ("no half-open limit", "half_open_calls_first_s_note"),
                ("one probe", "half_open_calls_first_s_one_probe"),
                ("this breaker", "half_open_calls_first_s"),
            ],
            "Calls that reach the still-sick dependency in the first second after the cooldown.",
            theme,
            inner,
            buf,
        ),
    }
}

/// Whether scenario `scenario`'s chart draws number `name` (or one it can be read from):
/// the chart waits while such a number is hidden, and only then.
fn draws(scenario: BudgetScenario, name: &str) -> bool {
    let drawn: &[&str] = match scenario {
        BudgetScenario::Deadline => &[
            "_budget_ms",
            "wasted_ms",
            "early_rejections",
            "end_ms",
            "answered_at_ms",
        ],
        BudgetScenario::Register => &["worst_case_ms", "within_deadline", "attempts_after_deadline"],
        BudgetScenario::RetryAfter => &["arrivals_in_window", "window_arrivals_cut"],
        BudgetScenario::Herd => &["peak_per_10ms", "peak_at_ms"],
        BudgetScenario::Duplicates => &["dropped_after_commit", "duplicates"],
        BudgetScenario::Status => &["attempts_per_request"],
        BudgetScenario::HalfOpen => &["half_open_calls_first_s"],
    };
    drawn.iter().any(|part| name.contains(part))
}

fn chart_title(scenario: BudgetScenario) -> &'static str {
    match scenario {
        BudgetScenario::Deadline => " Waterfall: received, spent, passed on ",
        BudgetScenario::Register => " Attempts against the deadline ",
        BudgetScenario::RetryAfter => " Arrivals at the API per 100 ms ",
        BudgetScenario::Herd => " Returns per 10 ms after the outage ",
        BudgetScenario::Duplicates => " Second charges ",
        BudgetScenario::Status => " Attempts on this status ",
        BudgetScenario::HalfOpen => " Half-open: calls in the first second ",
    }
}

/// The column of `at_ms` on an axis `span_ms` long drawn `width` columns wide.
fn column(at_ms: f64, span_ms: f64, width: u16) -> u16 {
    if span_ms <= 0.0 {
        return 0;
    }
    ((at_ms / span_ms) * f64::from(width.saturating_sub(1)))
        .round()
        .clamp(0.0, f64::from(width.saturating_sub(1))) as u16
}

/// Fills columns `from..to` of row `y` with `symbol` in `style`.
fn fill(buf: &mut Buffer, (x0, y): (u16, u16), (from, to): (u16, u16), symbol: &str, style: Style) {
    for x in from..to {
        if let Some(cell) = buf.cell_mut((x0 + x, y)) {
            cell.set_symbol(symbol).set_style(style);
        }
    }
}

/// Marks the deadline at `x` in rows `y0..y1`.
fn deadline_mark(buf: &mut Buffer, x: u16, (y0, y1): (u16, u16), theme: Theme) {
    for y in y0..y1 {
        if let Some(cell) = buf.cell_mut((x, y)) {
            cell.set_symbol("│").set_style(theme.accent());
        }
    }
}

const NAME_WIDTH: u16 = 10;

/// Each hop on one time axis, from when it was called: `▓` its own work, `░` the budget it
/// passed on (from when it called the next hop), `│` the inbound deadline. Without
/// propagation a hop knows no budget and only its time shows, past the deadline where it
/// kept working for nobody.
///
/// Under each bar: what the hop got, spent on its own work (the work slider's value, or
/// less where the budget cut it) and passed on; the hop that calls the processor has a line
/// of its own for that wait, since the run counts it in the hop's time (payments: work 1000
/// ms, then 18000 ms waiting, 19000 in all), and a "spent" with it would not be the slider's.
fn waterfall(run: &BudgetRun, inbound_ms: u64, theme: Theme, area: Rect, buf: &mut Buffer) {
    if area.width <= NAME_WIDTH + 4 || area.height < 2 {
        return;
    }
    let bar_width = area.width - NAME_WIDTH;
    let end_ms = run
        .hops
        .iter()
        .map(|hop| hop.at_ms + hop.spent_ms)
        .chain(std::iter::once(inbound_ms))
        .max()
        .unwrap_or(inbound_ms) as f64;
    let span_ms = end_ms * 1.05;
    let x0 = area.x + NAME_WIDTH;
    let deadline_x = x0 + column(inbound_ms as f64, span_ms, bar_width);
    // The labels start under the names, indented, so that they are not cut at 80x24.
    let label_x = area.x + 2;
    let label_width = area.width.saturating_sub(2);
    let processor_wait_ms = run.number("processor_wait_ms").unwrap_or(0.0) as u64;
    let legend = legend::flow(
        &[
            Item::new(vec![Span::styled("▓ own work", theme.dim())]),
            Item::new(vec![Span::styled("░ passed on", theme.dim())]),
            Item::new(vec![Span::styled("│ the inbound deadline (ms)", theme.dim())]),
        ],
        usize::from(area.width),
        2,
    );
    let mut y = area.y;
    for (index, hop) in run.hops.iter().enumerate() {
        if y + 1 >= area.bottom() {
            break;
        }
        Line::from(Span::styled(format!("{:<9}", hop.name), theme.text()))
            .render(Rect::new(area.x, y, NAME_WIDTH, 1), buf);
        // The wait on the processor, in this hop's time if it is the one that called it.
        let waited_ms = match index + 1 == run.hops.len() && !hop.rejected {
            true => processor_wait_ms.min(hop.spent_ms),
            false => 0,
        };
        let own_ms = hop.spent_ms - waited_ms;
        // Its own work: what it received less what it passed on (a hop that passes nothing
        // on, or knows no budget, spends its whole time).
        let work_ms = match (hop.received_ms, hop.passed_ms) {
            (Some(received), Some(passed)) => received.saturating_sub(passed),
            _ => hop.spent_ms,
        };
        let start = column(hop.at_ms as f64, span_ms, bar_width);
        let work_end = column((hop.at_ms + work_ms) as f64, span_ms, bar_width).max(start + 1);
        let style = if hop.rejected { theme.open() } else { theme.series(1) };
        fill(buf, (x0, y), (start, work_end), "▓", style);
        if let Some(passed) = hop.passed_ms {
            let passed_end = column((hop.at_ms + work_ms + passed) as f64, span_ms, bar_width);
            fill(buf, (x0, y), (work_end, passed_end), "░", theme.series(2));
        }
        deadline_mark(buf, deadline_x, (y, y + 1), theme);
        let received = hop
            .received_ms
            .map_or_else(|| "no budget".to_string(), |ms| format!("got {ms}"));
        let passed = hop.passed_ms.map_or_else(String::new, |ms| format!(" passed {ms}"));
        let rejected = if hop.rejected { " refused at once" } else { "" };
        let wordings = [
            format!("{received} spent {own_ms} on its work{passed}{rejected}"),
            format!("{received} spent {own_ms}{passed}{rejected}"),
        ];
        let line = first_that_fits(wordings.map(Line::from).to_vec(), usize::from(label_width)).unwrap_or_default();
        line.style(theme.dim())
            .render(Rect::new(label_x, y + 1, label_width, 1), buf);
        y += 2;
        // The processor's wait, where a row is left for it above the legend.
        if waited_ms > 0 && usize::from(area.bottom().saturating_sub(y)) > legend.len() {
            let wordings = [
                format!("then waited {waited_ms} on the processor: {} in all", hop.spent_ms),
                format!("then waited {waited_ms} on the processor"),
                format!("+ {waited_ms} waiting"),
            ];
            let line = first_that_fits(wordings.map(Line::from).to_vec(), usize::from(label_width)).unwrap_or_default();
            line.style(theme.dim())
                .render(Rect::new(label_x, y, label_width, 1), buf);
            y += 1;
        }
    }
    for line in legend {
        if y >= area.bottom() {
            break;
        }
        line.render(Rect::new(area.x, y, area.width, 1), buf);
        y += 1;
    }
}

fn fit_legend(text: &str, width: u16) -> String {
    text.chars().take(usize::from(width)).collect()
}

/// Each attempt from its start to its timeout on one time axis, `│` the deadline.
fn attempts_timeline(run: &BudgetRun, deadline_ms: u64, theme: Theme, area: Rect, buf: &mut Buffer) {
    // Each dependency's name whole, then its attempt's number ("invento 1" was cut at 7).
    let longest = run
        .attempts
        .iter()
        .map(|a| a.dependency.chars().count())
        .max()
        .unwrap_or(0);
    let name_width = (longest as u16 + 4).clamp(NAME_WIDTH, 14);
    if area.width <= name_width + 4 || area.height < 2 {
        return;
    }
    let bar_width = area.width - name_width;
    let end_ms = run
        .attempts
        .iter()
        .map(|a| a.end_ms)
        .chain([deadline_ms])
        .max()
        .unwrap_or(deadline_ms) as f64;
    let span_ms = end_ms * 1.05;
    let x0 = area.x + name_width;
    let rows = usize::from(area.height.saturating_sub(1));
    let name_room = usize::from(name_width) - 3;
    for (index, attempt) in run.attempts.iter().take(rows).enumerate() {
        let y = area.y + index as u16;
        let name = format!(
            "{:<name_room$}{:>2}",
            attempt.dependency.chars().take(name_room).collect::<String>(),
            attempt.number
        );
        Line::from(Span::styled(name, theme.text())).render(Rect::new(area.x, y, name_width, 1), buf);
        let start = column(attempt.start_ms as f64, span_ms, bar_width);
        let end = column(attempt.end_ms as f64, span_ms, bar_width).max(start + 1);
        let style = if attempt.end_ms > deadline_ms {
            theme.open()
        } else {
            theme.series(1)
        };
        fill(buf, (x0, y), (start, end), "▓", style);
    }
    let shown = run.attempts.len().min(rows) as u16;
    deadline_mark(
        buf,
        x0 + column(deadline_ms as f64, span_ms, bar_width),
        (area.y, area.y + shown),
        theme,
    );
    let y = area.y + shown;
    if y < area.bottom() {
        // The longest legend that fits whole: cut at 80x24 it read "│ the deadli".
        let legends = [
            format!("▓ an attempt until its timeout  │ the deadline, {deadline_ms} ms"),
            format!("▓ attempt to its timeout  │ deadline {deadline_ms} ms"),
            format!("▓ attempt  │ deadline {deadline_ms} ms"),
        ];
        let legend = legends
            .iter()
            .find(|legend| legend.chars().count() <= usize::from(area.width))
            .unwrap_or(&legends[2]);
        Line::from(Span::styled(fit_legend(legend, area.width), theme.dim()))
            .render(Rect::new(area.x, y, area.width, 1), buf);
    }
}

/// A line chart of `series` (per slot counts, `slot_ms` each, from `from_ms`), the legend
/// on the last row.
fn slot_chart(
    series: &[(&str, &[u64])],
    (from_ms, slot_ms): (f64, f64),
    note: &str,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    if area.height < 3 {
        return;
    }
    let [chart_area, legend_area] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let points: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|(_, counts)| {
            counts
                .iter()
                .enumerate()
                .map(|(slot, count)| ((from_ms + slot as f64 * slot_ms) / 1_000.0, *count as f64))
                .collect()
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|(_, c)| c.iter())
        .copied()
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let end_s = (from_ms + series.iter().map(|(_, c)| c.len()).max().unwrap_or(0) as f64 * slot_ms) / 1_000.0;
    let datasets = series
        .iter()
        .zip(&points)
        .enumerate()
        .map(|(index, ((name, _), data))| {
            Dataset::default()
                .name(*name)
                .marker(if series.len() == 1 {
                    Marker::Braille
                } else {
                    theme.marker(index)
                })
                .graph_type(GraphType::Line)
                .style(theme.series(index + 1))
                .data(data)
        })
        .collect();
    Chart::new(datasets)
        .x_axis(
            Axis::default()
                .bounds([from_ms / 1_000.0, end_s])
                .labels([format!("{:.1}", from_ms / 1_000.0), format!("{end_s:.1} s")])
                .style(theme.dim()),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top * 1.1])
                .labels(["0".to_string(), format!("{top:.0}")])
                .style(theme.dim()),
        )
        .legend_position(None)
        .render(chart_area, buf);
    let mut legend: Vec<Span> = series
        .iter()
        .enumerate()
        .map(|(index, (name, _))| Span::styled(format!("{}{name} ", theme.legend_mark(index)), theme.series(index + 1)))
        .collect();
    legend.push(Span::styled(note.to_string(), theme.dim()));
    Paragraph::new(Line::from(legend)).render(legend_area, buf);
}

/// Arrivals at the API per 100 ms, ignoring and honouring `Retry-After`.
fn arrivals_chart(results: &BudgetResults, theme: Theme, area: Rect, buf: &mut Buffer) {
    let ra = &results.params.retry_after;
    let note = format!(
        "429s {:.1}–{:.1} s",
        ra.window_start_ms as f64 / 1_000.0,
        ra.window_end_ms as f64 / 1_000.0
    );
    slot_chart(
        &[("ignoring", &results.arrivals[0]), ("honouring", &results.arrivals[1])],
        (0.0, ARRIVAL_SLOT_MS),
        &note,
        theme,
        area,
        buf,
    );
}

/// The herd's returns per 10 ms after the outage, with the sleep the slider picks.
fn herd_chart(results: &BudgetResults, theme: Theme, area: Rect, buf: &mut Buffer) {
    let sleep = results.params.herd_sleep.0.name();
    slot_chart(
        &[(sleep, &results.herd_slots)],
        (results.params.herd.outage_ms as f64, HERD_SLOT_MS),
        "(herd sleep slider)",
        theme,
        area,
        buf,
    );
}

/// Numbers of `run` side by side as bars, scaled to the largest, and a line on what they say.
fn bars(run: &BudgetRun, items: &[(&str, &str)], note: &str, theme: Theme, area: Rect, buf: &mut Buffer) {
    let value = |name: &str| {
        run.metrics.iter().find_map(|(n, v)| match v {
            MetricValue::Number(x) if *n == name => Some(*x),
            _ => None,
        })
    };
    let top = items
        .iter()
        .filter_map(|(_, name)| value(name))
        .fold(0.0, f64::max)
        .max(1.0);
    let label_width = items.iter().map(|(label, _)| label.chars().count()).max().unwrap_or(0) + 1;
    let bar_room = usize::from(area.width).saturating_sub(label_width + 10);
    let mut lines: Vec<Line> = items
        .iter()
        .enumerate()
        .map(|(index, (label, name))| {
            let v = value(name).unwrap_or(0.0);
            let length = ((v / top) * bar_room as f64).round() as usize;
            let shown = if v.fract() == 0.0 {
                format!("{v:.0}")
            } else {
                format!("{v:.2}")
            };
            Line::from(vec![
                Span::styled(format!("{label:<label_width$}"), theme.text()),
                Span::styled("█".repeat(length), theme.series(index + 1)),
                Span::styled(format!(" {shown}"), theme.text()),
            ])
        })
        .collect();
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(note.to_string(), theme.dim())));
    Paragraph::new(lines).wrap(Wrap { trim: true }).render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::{self, BudgetParams};

    /// At 80 columns the Results panel has 78: every scenario's lines fit whole at the
    /// defaults, so `fit_width` never has to cut one.
    #[test]
    fn every_scenarios_lines_fit_80_columns() {
        let runs = budget::run_all(&BudgetParams::default());
        for (scenario, run) in BudgetScenario::ALL.iter().zip(&runs) {
            let line = scenario_line(*scenario);
            assert!(line.chars().count() <= 78, "{line}");
            for row in budget_rows(run) {
                let text = row.line();
                assert!(text.chars().count() <= 78, "{}: {text}", scenario.name());
            }
        }
    }

    /// The live panel's status for each scenario at 80 columns (78 inside the border): whole,
    /// or cut after a whole word of it with "…", never inside a word.
    #[test]
    fn a_live_status_too_long_for_its_row_ends_on_a_whole_word() {
        for scenario in BudgetScenario::ALL {
            let status = format!(
                "s runs scenario {} on 127.0.0.1 · {}",
                scenario.name(),
                live_note(scenario)
            );
            let row = whole_words_within(&status, 78);
            assert!(row.chars().count() <= 78, "{row}");
            let kept = row.trim_end_matches('…');
            assert!(status.starts_with(kept), "{row}");
            let next = status[kept.len()..].chars().next();
            assert!(next.is_none_or(char::is_whitespace), "cut inside a word: {row}");
        }
        assert_eq!(whole_words_within("the seeded plan decides", 19), "the seeded plan…");
    }
}
