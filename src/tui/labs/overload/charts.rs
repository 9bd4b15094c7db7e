//! Lab 4's drawings, as standalone functions of the engine's results (not of the App):
//! the goodput curves, the queue over time, the outcomes per second, the bulkhead, the
//! throttle and the paper's metastable model. The lab screen lays them out; tests draw
//! them into a buffer directly.
//!
//! Every series has its own glyph as well as its own colour, so the charts read under
//! `NO_COLOR`; every chart names its glyphs in a legend and its axes' units.
//!
//! ```text
//! ┌ goodput/s vs offered/s ──────────┐┌ queue length ───┐┌ wait in queue ──┐
//! │2000┤   CCCCCCCCCCCC              ││q queued requests││w wait s - timeou│
//! │    │ ◆                           ││5000│        q q  ││5│         w  w  │
//! │   0└───2k───4k───6k───8k──10k/s  ││0   └──5────10 s││ └────5─────10 s│
//! │F fifo ... A, L, M: same as C     │└─────────────────┘└─────────────────┘
//! └──────────────────────────────────┘┌ per second ──────────────────────────┐
//!                                     │ g goodput  w wasted  r refused       │
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::engine::overload::metastable::MetastableRun;
use crate::engine::overload::{CurvePoint, OverloadRun, Recompute, Second, SheddingPolicy};
use crate::tui::theme::Theme;
use crate::tui::view::legend::{self, Item};

/// The current settings' point on the curve.
pub const CURRENT_GLYPH: char = '◆';
/// A point measured live.
pub const LIVE_GLYPH: char = '●';

/// A policy's glyph on the curve chart.
pub fn policy_glyph(policy: SheddingPolicy) -> char {
    match policy {
        SheddingPolicy::Fifo => 'F',
        SheddingPolicy::AgeCap => 'A',
        SheddingPolicy::Lifo => 'L',
        SheddingPolicy::Admission => 'M',
        SheddingPolicy::Criticality => 'C',
        SheddingPolicy::Throttle => 'T',
    }
}

/// A policy's name in the curve chart's legend (short, so six fit in two lines of 38).
pub fn short_name(policy: SheddingPolicy) -> &'static str {
    match policy {
        SheddingPolicy::Fifo => "fifo",
        SheddingPolicy::AgeCap => "age-cap",
        SheddingPolicy::Lifo => "lifo",
        SheddingPolicy::Admission => "admit",
        SheddingPolicy::Criticality => "crit",
        SheddingPolicy::Throttle => "throttle",
    }
}

/// One series of a glyph plot.
pub struct Series<'a> {
    pub name: &'a str,
    pub glyph: char,
    pub style: Style,
    pub points: Vec<(f64, f64)>,
}

fn panel(title: &str, theme: Theme) -> Block<'_> {
    Block::bordered()
        .title(Span::styled(title, theme.accent()))
        .border_style(theme.border())
}

/// The legend: each series' glyph and name in its style, on as many lines of `width` as
/// it needs, a glyph never parted from its name.
fn legend<'a>(series: &'a [Series<'a>], extra: &[(char, &'a str, Style)], width: u16) -> Vec<Line<'a>> {
    legend_noted(series, extra, &[], width)
}

/// [`legend`], with `notes` (each kept whole) flowing after the glyphs' names.
fn legend_noted<'a>(
    series: &'a [Series<'a>],
    extra: &[(char, &'a str, Style)],
    notes: &[Span<'a>],
    width: u16,
) -> Vec<Line<'a>> {
    let mut items = Vec::new();
    for s in series {
        items.push(Item::new(vec![Span::styled(
            format!("{} {}", s.glyph, s.name),
            s.style,
        )]));
    }
    for (glyph, name, style) in extra {
        items.push(Item::new(vec![Span::styled(format!("{glyph} {name}"), *style)]));
    }
    items.extend(notes.iter().map(|note| Item::new(vec![note.clone()])));
    legend::flow(&items, usize::from(width), 1)
}

/// A short axis number: 2000, 2.5k, 12k.
fn axis_number(value: f64) -> String {
    if value >= 10_000.0 {
        format!("{:.0}k", value / 1_000.0)
    } else if value >= 1_000.0 && value % 1_000.0 != 0.0 {
        format!("{:.1}k", value / 1_000.0)
    } else if value < 10.0 && value.fract() != 0.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.0}")
    }
}

/// A tick's value in the end label's style: thousands as `2k`, `2.5k` where the end is `10k`.
fn tick_number(value: f64, x_max: f64) -> String {
    if x_max >= 10_000.0 {
        let thousands = format!("{:.1}", value / 1_000.0);
        format!("{}k", thousands.trim_end_matches(".0"))
    } else {
        let number = axis_number(value);
        // 2.5, not 2.50: a tick is a round value.
        match number.contains('.') && !number.ends_with('k') {
            true => number.trim_end_matches('0').trim_end_matches('.').to_string(),
            false => number,
        }
    }
}

/// The ranges of a glyph plot (both start at 0) and the x axis's unit.
#[derive(Clone, Copy, Debug)]
pub struct Axes<'a> {
    pub x_max: f64,
    pub y_max: f64,
    pub x_unit: &'a str,
}

/// Where a glyph plot of `axes` inside an area puts its points: the plot right of the y
/// axis's labels and above the x axis.
#[derive(Clone, Copy, Debug)]
pub struct PlotGrid {
    plot: Rect,
    x_max: f64,
    y_max: f64,
}

impl PlotGrid {
    /// The grid of a plot of `axes` inside `area`, if there is room for one.
    pub fn new(axes: Axes<'_>, area: Rect) -> Option<Self> {
        let label_width = axis_number(axes.y_max).chars().count().max(1) as u16 + 1;
        if area.width <= label_width + 2 || area.height < 3 {
            return None;
        }
        let plot = Rect {
            x: area.x + label_width,
            y: area.y,
            width: area.width - label_width,
            height: area.height - 1,
        };
        Some(PlotGrid {
            plot,
            x_max: axes.x_max,
            y_max: axes.y_max,
        })
    }

    /// The cell (column, row) the point (`x`, `y`) is drawn in.
    pub fn cell(&self, x: f64, y: f64) -> Option<(u16, u16)> {
        let PlotGrid { plot, x_max, y_max } = *self;
        if !(x.is_finite() && y.is_finite()) || x_max <= 0.0 || y_max <= 0.0 {
            return None;
        }
        let col = ((x / x_max).clamp(0.0, 1.0) * f64::from(plot.width - 1)).round() as u16;
        let row = ((y / y_max).clamp(0.0, 1.0) * f64::from(plot.height - 1)).round() as u16;
        Some((plot.x + col, plot.y + plot.height - 1 - row))
    }
}

/// Draws `series` as glyphs on a grid inside `area`: a y axis with its top value, an x
/// axis with its range, later series on top of earlier ones, `marks` (glyph, x, y) last.
pub fn glyph_plot(
    series: &[Series<'_>],
    marks: &[(char, Style, f64, f64)],
    axes: Axes<'_>,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let Axes { x_max, y_max, x_unit } = axes;
    let Some(grid) = PlotGrid::new(axes, area) else {
        return;
    };
    let plot = grid.plot;
    let axis = theme.dim();
    buf.set_string(area.x, plot.y, axis_number(y_max), axis);
    buf.set_string(area.x, plot.y + plot.height - 1, "0", axis);
    for row in 0..plot.height {
        buf.set_string(plot.x - 1, plot.y + row, "│", axis);
    }
    let bottom = plot.y + plot.height;
    buf.set_string(plot.x - 1, bottom, "└", axis);
    for col in 0..plot.width {
        buf.set_string(plot.x + col, bottom, "─", axis);
    }
    let end_label = |label: String| {
        let x_at = (plot.x + plot.width).saturating_sub(label.chars().count() as u16);
        (x_at, x_ticks(x_max, plot.width, x_at.saturating_sub(plot.x)), label)
    };
    let (mut x_at, mut ticks, mut x_label) = end_label(format!("{} {x_unit}", axis_number(x_max)));
    // A unit such as `offered/s` gives way to its `/s` where it leaves room for fewer than
    // three ticks (the chart's title names what is offered).
    if let Some(per) = x_unit.find('/').filter(|&at| at > 0 && ticks.len() < 3) {
        (x_at, ticks, x_label) = end_label(format!("{}{}", axis_number(x_max), &x_unit[per..]));
    }
    // The ticks between 0 and the end, each value centred on its column of the axis.
    for (col, tick) in ticks {
        buf.set_string(plot.x + col, bottom, tick, axis);
    }
    buf.set_string(x_at, bottom, x_label, axis);
    let cell = |x: f64, y: f64| grid.cell(x, y);
    for s in series {
        for &(x, y) in &s.points {
            if let Some((col, row)) = cell(x, y) {
                buf.set_string(col, row, s.glyph.to_string(), s.style);
            }
        }
    }
    for &(glyph, style, x, y) in marks {
        if let Some((col, row)) = cell(x, y) {
            buf.set_string(col, row, glyph.to_string(), style);
        }
    }
}

/// The x axis's ticks inside a plot `width` columns wide whose end label starts at column
/// `end_at`: (column of the label's first character, label), evenly spaced at a step that
/// divides `x_max` into 5, 4 or 2 (the most that fit with two dashes between labels and
/// before the end label), none when not even the middle fits.
pub fn x_ticks(x_max: f64, width: u16, end_at: u16) -> Vec<(u16, String)> {
    if !(x_max.is_finite() && x_max > 0.0) || width < 2 {
        return Vec::new();
    }
    let column = |x: f64| ((x / x_max) * f64::from(width - 1)).round() as i32;
    for parts in [5u32, 4, 2] {
        let mut ticks = Vec::new();
        // The origin's corner is the left edge: the first label keeps a dash after it.
        let mut free_from = 2i32;
        let fits = (1..parts).all(|i| {
            let label = tick_number(x_max * f64::from(i) / f64::from(parts), x_max);
            let len = label.chars().count() as i32;
            let start = column(x_max * f64::from(i) / f64::from(parts)) - (len - 1) / 2;
            let fits = start >= free_from && start + len + 2 <= i32::from(end_at);
            free_from = start + len + 2;
            ticks.push((start.max(0) as u16, label));
            fits
        });
        if fits {
            return ticks;
        }
    }
    Vec::new()
}

/// A nice upper bound for an axis: the maximum rounded up to 1, 2 or 5 x a power of ten.
pub fn nice_max(value: f64) -> f64 {
    if !(value.is_finite() && value > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(value.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|v| *v >= value)
        .unwrap_or(10.0 * power)
}

/// The curves that lie under another everywhere (`curves` in drawing order, the last on
/// top): each curve drawn on top of others, with the policies hidden under it, so the
/// legend can say where a glyph stands for several (A, L and M under C at the lesson's
/// settings). Two curves coincide when every point's goodput is within `tolerance_per_s`.
pub fn hidden_under(
    curves: &[&crate::engine::overload::Curve],
    tolerance_per_s: f64,
) -> Vec<(SheddingPolicy, Vec<SheddingPolicy>)> {
    let same = |a: &crate::engine::overload::Curve, b: &crate::engine::overload::Curve| {
        a.points.len() == b.points.len()
            && a.points
                .iter()
                .zip(&b.points)
                .all(|(p, q)| (p.goodput_per_s - q.goodput_per_s).abs() <= tolerance_per_s)
    };
    let mut groups: Vec<(SheddingPolicy, Vec<SheddingPolicy>)> = Vec::new();
    for (index, curve) in curves.iter().enumerate() {
        // The last curve drawn that coincides with this one is the glyph that shows.
        let Some(top) = curves[index + 1..].iter().rev().find(|later| same(curve, later)) else {
            continue;
        };
        match groups.iter_mut().find(|(policy, _)| *policy == top.policy) {
            Some((_, hidden)) => hidden.push(curve.policy),
            None => groups.push((top.policy, vec![curve.policy])),
        }
    }
    groups
}

/// The curves whose glyph shows nowhere on `grid` (`curves` in drawing order, the last on
/// top), each with the curves drawn over its points at another goodput: two curves apart by
/// less than a row share it, and the one drawn later hides the other (at 80x24 the
/// throttle's T, a little under capacity, covered every C). Points covered by a curve at
/// the same goodput (within `tolerance_per_s`) are not counted as hidden by it: there the
/// glyph on top reads right for both.
pub fn drawn_under(
    curves: &[&crate::engine::overload::Curve],
    grid: &PlotGrid,
    tolerance_per_s: f64,
) -> Vec<(SheddingPolicy, Vec<SheddingPolicy>)> {
    let cell = |p: &CurvePoint| grid.cell(p.offered_per_s, p.goodput_per_s);
    let mut under = Vec::new();
    for (index, curve) in curves.iter().enumerate() {
        let mut over: Vec<SheddingPolicy> = Vec::new();
        let hidden = curve.points.iter().all(|point| {
            let Some(at) = cell(point) else {
                return true;
            };
            // The glyph that shows in this cell: the last curve drawn with a point in it.
            let top = curves[index + 1..].iter().rev().find_map(|later| {
                later
                    .points
                    .iter()
                    .find(|q| cell(q) == Some(at))
                    .map(|q| (later.policy, q))
            });
            let Some((policy, q)) = top else {
                // This curve's own glyph shows here.
                return false;
            };
            if (q.goodput_per_s - point.goodput_per_s).abs() > tolerance_per_s && !over.contains(&policy) {
                over.push(policy);
            }
            true
        });
        if hidden && !over.is_empty() {
            under.push((curve.policy, over));
        }
    }
    under
}

/// How the curve chart's legend says where curves coincide: `same` (the glyphs of the
/// curves under one, its glyph) as "A, L, M: same points as C"; `under` (a curve's glyph,
/// the glyphs drawn over it) as "C drawn under T".
struct Wording {
    same: fn(String, char) -> String,
    under: fn(char, String) -> String,
}

impl Wording {
    const LONG: Wording = Wording {
        same: |under, top| format!("{under}: same points as {top}"),
        under: |hidden, over| format!("{hidden} drawn under {over}"),
    };
    const SHORT: Wording = Wording {
        same: |under, top| format!("{under}: same as {top}"),
        under: |hidden, over| format!("{hidden} under {over}"),
    };
}

/// Goodput against offered load for each policy, the current point and the live points.
pub fn goodput_curves(result: &Recompute, live_points: &[CurvePoint], theme: Theme, area: Rect, buf: &mut Buffer) {
    let Some(inner) = plot_panel(" goodput/s against offered/s ", theme, area, buf) else {
        return;
    };
    // The policy on screen is drawn last, so where curves overlap its glyph shows.
    let mut curves: Vec<(usize, &crate::engine::overload::Curve)> = result.curves.iter().enumerate().collect();
    curves.sort_by_key(|(_, curve)| curve.policy == result.run.params.policy);
    // Half a percent of capacity is well under a row of any chart this size: such curves overlap.
    let drawn: Vec<&crate::engine::overload::Curve> = curves.iter().map(|(_, curve)| *curve).collect();
    let tolerance_per_s = result.run.capacity_per_s * 0.005;
    let groups = hidden_under(&drawn, tolerance_per_s);
    let series: Vec<Series<'_>> = curves
        .into_iter()
        .map(|(index, curve)| Series {
            name: short_name(curve.policy),
            glyph: policy_glyph(curve.policy),
            style: theme.series(index),
            points: curve
                .points
                .iter()
                .map(|p| (p.offered_per_s, p.goodput_per_s))
                .collect(),
        })
        .collect();
    let run = &result.run;
    let current = (run.params.offered_per_s, run.totals.goodput_per_s);
    let x_max = nice_max(
        series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .chain([current.0])
            .fold(0.0, f64::max),
    );
    let y_max = nice_max(run.capacity_per_s.max(current.1));
    // The live points go on top: where one lands on the simulated point, the measurement shows.
    let mut marks = vec![(CURRENT_GLYPH, theme.selected(), current.0, current.1)];
    marks.extend(
        live_points
            .iter()
            .map(|p| (LIVE_GLYPH, theme.accent(), p.offered_per_s, p.goodput_per_s)),
    );
    let extra = [
        (CURRENT_GLYPH, "now", theme.selected()),
        (LIVE_GLYPH, "live", theme.accent()),
    ];
    let axes = Axes {
        x_max,
        y_max,
        x_unit: "offered/s",
    };
    // The notes for a legend of `rows` rows (the plot above it has the rest): which glyphs
    // stand for several curves, and which curve shows nowhere because another shares its
    // cells (a curve a little under capacity covers those at it on a short plot).
    let notes = |rows: u16, wording: &Wording| -> Vec<Span<'static>> {
        let [plot_area, _] = Layout::vertical([Constraint::Fill(1), Constraint::Length(rows)]).areas(inner);
        let under =
            PlotGrid::new(axes, plot_area).map_or_else(Vec::new, |grid| drawn_under(&drawn, &grid, tolerance_per_s));
        let glyphs = |policies: &[SheddingPolicy]| -> String {
            let glyphs: Vec<String> = policies.iter().map(|p| policy_glyph(*p).to_string()).collect();
            glyphs.join(", ")
        };
        let under_note = |policy: SheddingPolicy| {
            under
                .iter()
                .find(|(hidden, _)| *hidden == policy)
                .map(|(hidden, over)| (wording.under)(policy_glyph(*hidden), glyphs(over)))
        };
        let mut notes: Vec<String> = groups
            .iter()
            .map(|(top, hidden)| {
                let same = (wording.same)(glyphs(hidden), policy_glyph(*top));
                match under_note(*top) {
                    Some(under) => format!("{same}; {under}"),
                    None => same,
                }
            })
            .collect();
        // A curve under others that stands for no group (a group's curves are said above).
        let in_group = |policy: SheddingPolicy| {
            groups
                .iter()
                .any(|(top, hidden)| *top == policy || hidden.contains(&policy))
        };
        notes.extend(
            under
                .iter()
                .filter(|(policy, _)| !in_group(*policy))
                .filter_map(|(policy, _)| under_note(*policy)),
        );
        notes.into_iter().map(|note| Span::styled(note, theme.dim())).collect()
    };
    // The long notes where the legend keeps its two rows, else the short; a third row only
    // when the short need it (the plot gives it up, and the notes are those of that plot).
    let (long, short) = (Wording::LONG, Wording::SHORT);
    let (rows, names) = [(2, &long), (2, &short)]
        .into_iter()
        .map(|(rows, wording)| (rows, legend_noted(&series, &extra, &notes(rows, wording), inner.width)))
        .find(|(rows, names)| names.len() <= usize::from(*rows))
        .unwrap_or_else(|| (3, legend_noted(&series, &extra, &notes(3, &short), inner.width)));
    // Two rows at least, as before the note; a third only when the note needs it.
    let rows = u16::try_from(names.len()).unwrap_or(rows).clamp(2, 3);
    let [plot_area, legend_area] = Layout::vertical([Constraint::Fill(1), Constraint::Length(rows)]).areas(inner);
    glyph_plot(&series, &marks, axes, theme, plot_area, buf);
    Paragraph::new(names).render(legend_area, buf);
}

/// Queue length and the wait of a new arrival over time, the client's timeout marked.
pub fn queue_over_time(run: &OverloadRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    queue_over_time_scaled(run, run, theme, area, buf);
}

/// [`queue_over_time`] on axes sized to `scale_from`'s whole run (a live run drawn second by
/// second keeps the axes of the simulation at its settings, so they do not jump between
/// frames), or to `run` where it goes higher: the queue's length on the left, the wait on
/// the right, each on its own axis (on one grid, the queue scaled to the wait's, a queue of
/// 5,000 and a wait of 5 s shared four rows at 80x24 and neither read).
pub fn queue_over_time_scaled(run: &OverloadRun, scale_from: &OverloadRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [length, wait] = queue_halves(area);
    queue_length_over_time(run, scale_from, theme, length, buf);
    queue_wait_over_time(run, scale_from, theme, wait, buf);
}

/// Where [`queue_over_time_scaled`] draws its two charts in `area`: the length, the wait.
pub fn queue_halves(area: Rect) -> [Rect; 2] {
    Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area)
}

/// The queue's length over time, on axes sized to `scale_from`'s run or `run`'s, the higher.
pub fn queue_length_over_time(run: &OverloadRun, scale_from: &OverloadRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    let Some(inner) = plot_panel(" queue length ", theme, area, buf) else {
        return;
    };
    let both = || run.seconds.iter().chain(&scale_from.seconds);
    let queue_max = nice_max(both().map(|s| s.queue_len as f64).fold(1.0, f64::max));
    let series = [Series {
        name: "queued requests",
        glyph: 'q',
        style: theme.series(3),
        points: run.seconds.iter().map(|s| (s.t_s, s.queue_len as f64)).collect(),
    }];
    let axes = Axes {
        x_max: nice_max(run.params.duration_s),
        y_max: queue_max,
        x_unit: "s",
    };
    legend_over_plot(&series, axes, theme, inner, buf);
}

/// The wait of a new arrival over time, the client's timeout marked, on axes sized to
/// `scale_from`'s run or `run`'s, the higher.
pub fn queue_wait_over_time(run: &OverloadRun, scale_from: &OverloadRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    let Some(inner) = plot_panel(" wait in queue ", theme, area, buf) else {
        return;
    };
    let timeout_s = run.params.client_timeout_ms / 1_000.0;
    let both = || run.seconds.iter().chain(&scale_from.seconds);
    let wait_max = nice_max(both().map(|s| s.queue_wait_s).fold(timeout_s, f64::max));
    let duration = nice_max(run.params.duration_s);
    let timeout_line: Vec<(f64, f64)> = (0..=40).map(|i| (f64::from(i) * duration / 40.0, timeout_s)).collect();
    let series = [
        Series {
            name: "timeout",
            glyph: '-',
            style: theme.series(0),
            points: timeout_line,
        },
        Series {
            name: "wait s",
            glyph: 'w',
            style: theme.series(1),
            points: run.seconds.iter().map(|s| (s.t_s, s.queue_wait_s)).collect(),
        },
    ];
    let axes = Axes {
        x_max: duration,
        y_max: wait_max,
        x_unit: "s",
    };
    legend_over_plot(&series, axes, theme, inner, buf);
}

/// Draws a chart's panel titled `title` over `area` and gives its inside, or None when the
/// inside has too few rows for a plot and its axis (four): the four line charts' one frame.
fn plot_panel(title: &str, theme: Theme, area: Rect, buf: &mut Buffer) -> Option<Rect> {
    let block = panel(title, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    (inner.height >= 4).then_some(inner)
}

/// `series`' names and glyphs for a legend, the one drawn last (on top) first.
fn top_first<'a>(series: &[Series<'a>]) -> Vec<Series<'a>> {
    series
        .iter()
        .rev()
        .map(|s| Series {
            name: s.name,
            glyph: s.glyph,
            style: s.style,
            points: Vec::new(),
        })
        .collect()
}

/// A chart's inside: the legend on its first rows (as many as it needs, the plot keeps
/// three and its axis), the plot under it.
fn legend_over_plot(series: &[Series<'_>], axes: Axes<'_>, theme: Theme, inner: Rect, buf: &mut Buffer) {
    // The series drawn last (on top) named first: the wait before the timeout, the line it
    // crosses.
    let named = top_first(series);
    let names = legend(&named, &[], inner.width);
    let rows = u16::try_from(names.len())
        .unwrap_or(1)
        .min(inner.height.saturating_sub(4))
        .max(1);
    let [header, plot_area] = Layout::vertical([Constraint::Length(rows), Constraint::Fill(1)]).areas(inner);
    Paragraph::new(names).render(header, buf);
    glyph_plot(series, &[], axes, theme, plot_area, buf);
}

/// Goodput, wasted and refused (and throttled) per second.
pub fn outcomes_per_second(seconds: &[Second], duration_s: f64, theme: Theme, area: Rect, buf: &mut Buffer) {
    let Some(inner) = plot_panel(" per second ", theme, area, buf) else {
        return;
    };
    let pick = |f: fn(&Second) -> u64| seconds.iter().map(|s| (s.t_s, f(s) as f64)).collect::<Vec<_>>();
    let series = [
        Series {
            name: "refused",
            glyph: 'r',
            style: theme.series(1),
            points: pick(|s| s.refused),
        },
        Series {
            name: "throttled",
            glyph: 't',
            style: theme.series(3),
            points: pick(|s| s.throttled),
        },
        Series {
            name: "wasted",
            glyph: 'x',
            style: theme.series(0),
            points: pick(|s| s.wasted),
        },
        Series {
            name: "goodput",
            glyph: 'g',
            style: theme.series(2),
            points: pick(|s| s.goodput),
        },
    ];
    let y_max = nice_max(
        series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .fold(1.0, f64::max),
    );
    let [header, plot_area] = Layout::vertical([Constraint::Length(2), Constraint::Fill(1)]).areas(inner);
    // Goodput first in the legend, although it is drawn last (on top).
    let named = top_first(&series);
    Paragraph::new(legend(&named, &[], header.width)).render(header, buf);
    glyph_plot(
        &series,
        &[],
        Axes {
            x_max: nice_max(duration_s),
            y_max,
            x_unit: "s",
        },
        theme,
        plot_area,
        buf,
    );
}

/// How many of `width` cells each of `counts` (slots that add up to the pool) takes: the
/// boundaries between them are rounded, not each share floored, so the cells fill the width
/// exactly and a count of 0 draws none; a count above 0 keeps at least one cell where the
/// width allows, so the bar never says "free 0" with a free cell, or hides the last free slot.
pub fn slot_cells<const N: usize>(counts: [u32; N], width: usize) -> [usize; N] {
    let total: u64 = counts.iter().map(|&n| u64::from(n)).sum();
    let mut cells = [0usize; N];
    if total == 0 {
        return cells;
    }
    let width_u64 = width as u64;
    let (mut sum, mut drawn) = (0u64, 0usize);
    for (cell, &count) in cells.iter_mut().zip(&counts) {
        sum += u64::from(count);
        // Round half up: (2 * sum * width + total) / (2 * total).
        let boundary = ((2 * sum * width_u64 + total) / (2 * total)) as usize;
        *cell = boundary - drawn;
        drawn = boundary;
    }
    for index in 0..N {
        if counts[index] > 0 && cells[index] == 0 {
            let widest = (0..N).max_by_key(|&i| cells[i]).unwrap_or(index);
            if cells[widest] > 1 {
                cells[widest] -= 1;
                cells[index] = 1;
            }
        }
    }
    cells
}

/// The pool as a row of slots: held by X, busy with the rest, idle; with the counts.
pub fn bulkhead_view(run: &OverloadRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = panel(" bulkhead: the pool's slots ", theme);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height < 3 || inner.width < 10 {
        return;
    }
    let workers = run.params.workers.max(1);
    let last = run.seconds.last().cloned().unwrap_or_default();
    let x = last.x_busy.min(workers);
    let rest = last.busy.saturating_sub(last.x_busy).min(workers - x);
    let idle = workers - x - rest;
    let [x_cells, rest_cells, free_cells] = slot_cells([x, rest, idle], usize::from(inner.width));
    let bar = Line::from(vec![
        Span::styled("X".repeat(x_cells), theme.series(0)),
        Span::styled("#".repeat(rest_cells), theme.series(2)),
        Span::styled(".".repeat(free_cells), theme.dim()),
    ]);
    let pool = run
        .params
        .dependency
        .as_ref()
        .and_then(|d| d.pool)
        .map_or("shared".to_string(), |n| n.to_string());
    let lines = vec![
        bar,
        Line::from(vec![
            Span::styled("X held by X ", theme.series(0)),
            Span::styled("# busy with the rest ", theme.series(2)),
            Span::styled(". idle", theme.dim()),
        ]),
        Line::styled(format!("pool {workers}: X holds {x} (X's pool {pool})"), theme.text()),
        // One word for one count: the check asks for the threads left to the rest, busy or
        // idle ("the rest 50, free 110" beside a question on the threads free for the rest
        // read as two answers).
        Line::styled(
            format!("left for the rest: {} (busy {rest}, idle {idle})", workers - x),
            theme.text(),
        ),
        // This run's own last second, X's calls named in what was offered: the Results
        // panel above is the policy's run, which has no X.
        Line::styled(
            format!(
                "this run at {:.0} s: {}",
                last.t_s,
                crate::report::last_second_outcomes(&last, run.params.dependency.as_ref().map(|d| d.calls_per_s))
            ),
            theme.text(),
        ),
        Line::styled(
            format!(
                "over the run: X refused at once {}; requests that never touch X answered in time {}",
                run.totals.dependency.refused, run.totals.other_goodput
            ),
            theme.text(),
        ),
    ];
    Paragraph::new(lines)
        .wrap(ratatui::widgets::Wrap { trim: true })
        .render(inner, buf);
}

/// The throttle's arithmetic with this run's counts, and what it refused per second; with
/// another policy, that the throttle is off and what choosing it would do (a formula of
/// zeros would read as a run of the throttle). `counts_from` names whose counts these are
/// when the screen shows another run beside them (the live screen: the simulation's).
///
/// Every line is sized to the panel, so none is cut: where the panel is narrow the formula
/// names its terms shortly and the counts take two lines; where it is short, the counts'
/// second half and the formula give way, in that order. The substituted formula (the
/// probability a check asks about) always shows.
pub fn throttle_view(run: &OverloadRun, counts_from: Option<&str>, theme: Theme, area: Rect, buf: &mut Buffer) {
    let t = &run.totals;
    let off = t.throttle_probability.is_none();
    if off {
        return throttle_off(run, theme, area, buf);
    }
    let inner = Block::bordered().inner(area);
    let (width, height) = (usize::from(inner.width), usize::from(inner.height));
    let k = run.params.throttle_k;
    let (requests, accepts) = (t.throttle_requests, t.throttle_accepts);
    let probability = t.throttle_probability.unwrap_or(0.0);
    let fits = |line: &str| line.chars().count() <= width;
    let pick = |ways: Vec<String>| first_fitting(ways, width);
    let formula = pick(vec![
        "p = max(0, (requests - K x accepts) / (requests + 1))".to_string(),
        "p = max(0, (req - K x acc) / (req + 1))".to_string(),
    ]);
    let worked = pick(vec![
        format!("  = ({requests} - {k} x {accepts}) / ({requests} + 1) = {probability:.3}"),
        format!("= ({requests} - {k} x {accepts}) / ({requests} + 1) = {probability:.3}"),
        format!("= ({requests} - {k} x {accepts}) / {} = {probability:.3}", requests + 1),
    ]);
    let sent = format!("sent {}, accepted {}", t.offered - t.throttled, t.goodput);
    let offered = format!("offered {}, refused locally {}", t.offered, t.throttled);
    let counts = format!("{offered}, {sent}");
    // Highest priority first; what does not fit the height goes from the end of this list.
    let mut lines: Vec<(u8, Line)> = vec![(2, Line::styled(formula, theme.accent()))];
    lines.push((4, Line::styled(worked, theme.text())));
    if fits(&counts) {
        lines.push((3, Line::styled(counts, theme.text())));
    } else {
        lines.push((3, Line::styled(offered, theme.text())));
        lines.push((1, Line::styled(sent, theme.text())));
    }
    // Lowest priority leaves first while the lines outnumber the rows.
    while lines.len() > height.max(1) {
        let Some(lowest) = lines
            .iter()
            .enumerate()
            .min_by_key(|(_, (rank, _))| *rank)
            .map(|(at, _)| at)
        else {
            break;
        };
        lines.remove(lowest);
    }
    let title = match counts_from {
        Some(from) => format!(" client-side throttle · {from} "),
        None => " client-side throttle ".to_string(),
    };
    let block = panel(&title, theme);
    block.render(area, buf);
    if inner.height < 1 {
        return;
    }
    // Each line fits the width except a number too long for the panel: wrapping then is
    // better than cutting it, and the rows were counted for the common case.
    Paragraph::new(lines.into_iter().map(|(_, line)| line).collect::<Vec<_>>())
        .wrap(ratatui::widgets::Wrap { trim: true })
        .render(inner, buf);
}

/// The first of the ways of saying a line that fits `width` columns, else the shortest (the last).
fn first_fitting(ways: Vec<String>, width: usize) -> String {
    let last = ways.len().saturating_sub(1);
    ways.into_iter()
        .enumerate()
        .find(|(at, way)| way.chars().count() <= width || *at == last)
        .map(|(_, way)| way)
        .unwrap_or_default()
}

/// The throttle panel under another policy: off, and what policy throttle would do, with
/// the K it would use. Lines sized to the panel; the last ones give way on a short panel.
fn throttle_off(run: &OverloadRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    let inner = Block::bordered().inner(area);
    let width = usize::from(inner.width);
    let k = run.params.throttle_k;
    let policy = run.params.policy.name();
    let pick = |ways: Vec<String>| first_fitting(ways, width);
    let lines = [
        Line::styled(
            pick(vec![
                format!("Off: the policy is {policy}, not throttle."),
                format!("Off: policy {policy}."),
            ]),
            theme.accent(),
        ),
        Line::styled(
            pick(vec![
                "Policy throttle: the client refuses requests itself".to_string(),
                "Policy throttle: the client refuses locally".to_string(),
                "Throttle: the client refuses locally".to_string(),
            ]),
            theme.text(),
        ),
        Line::styled(
            pick(vec![
                "with p = max(0, (requests - K x accepts) / (requests + 1))".to_string(),
                "p = max(0, (req - K x acc) / (req + 1))".to_string(),
            ]),
            theme.text(),
        ),
        Line::styled(
            pick(vec![
                format!("K = {k:.1}: it sends about K times what the server accepts"),
                format!("K = {k:.1}: it sends about K x what is accepted"),
                format!("K = {k:.1}"),
            ]),
            theme.text(),
        ),
    ];
    panel(" client-side throttle · off ", theme).render(area, buf);
    let rows = usize::from(inner.height);
    Paragraph::new(lines.into_iter().take(rows).collect::<Vec<_>>())
        .wrap(ratatui::widgets::Wrap { trim: true })
        .render(inner, buf);
}

/// The whole Lab 4 results area: curves and queue on top, outcomes and the bulkhead or
/// throttle view below. Fits 80x24 (each panel at least 40 x 12 there).
pub fn render_results(result: &Recompute, live_points: &[CurvePoint], theme: Theme, area: Rect, buf: &mut Buffer) {
    let [top, bottom] = Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(area);
    let [curves, queue] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
    let [outcomes, side] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(bottom);
    goodput_curves(result, live_points, theme, curves, buf);
    queue_over_time(&result.run, theme, queue, buf);
    outcomes_per_second(&result.run.seconds, result.run.params.duration_s, theme, outcomes, buf);
    if result.run.params.dependency.is_some() {
        bulkhead_view(&result.run, theme, side, buf);
    } else {
        throttle_view(&result.run, None, theme, side, buf);
    }
}

/// The metastable model second by second (Bronson et al.'s own numbers, which no slider
/// moves): above, the database's load against its capacity and the offered load, the
/// outage marked; below, goodput, and the two ways out the model gives.
pub fn metastable_view(run: &MetastableRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [top, bottom] = Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(area);
    let p = &run.params;
    let end_s = run.seconds.last().map_or(1.0, |s| s.t_s);
    let trigger = (f64::from(p.before_s), f64::from(p.before_s + p.trigger_s));
    let title = format!(
        " metastable: database load, outage {:.0}-{:.0} s ",
        trigger.0, trigger.1
    );
    let block = panel(&title, theme);
    let inner = block.inner(top);
    block.render(top, buf);
    if inner.height >= 4 {
        // The backlog released when the outage ends is one tall second: the axis is sized
        // to what follows it, and that second stands at the top.
        let steady = run.db_load_end_per_s.max(p.capacity_per_s).max(p.load_per_s);
        let y_max = nice_max(steady * 1.1);
        // A point per column at most, so the line has no gaps on a wide panel.
        let columns = inner.width.max(1);
        let flat = |value: f64| -> Vec<(f64, f64)> {
            (0..=columns)
                .map(|i| (f64::from(i) * end_s / f64::from(columns), value))
                .collect()
        };
        let capacity_name = format!("capacity {:.0}", p.capacity_per_s);
        // The offered load is named, not drawn: 280 beside a capacity of 300 would share
        // their row on any panel this short, and before the outage the database's load is it.
        let database_name = format!("database (offered {:.0})", p.load_per_s);
        let series = [
            Series {
                name: &capacity_name,
                glyph: '-',
                style: theme.series(0),
                points: flat(p.capacity_per_s),
            },
            Series {
                name: &database_name,
                glyph: 'd',
                style: theme.series(3),
                points: run.seconds.iter().map(|s| (s.t_s, s.db_load_per_s)).collect(),
            },
        ];
        let outage: Vec<(char, Style, f64, f64)> = run
            .seconds
            .iter()
            .filter(|s| s.t_s > trigger.0 && s.t_s <= trigger.1)
            .map(|s| ('x', theme.open(), s.t_s, 0.0))
            .collect();
        let extra = [('x', "outage", theme.open())];
        let names = legend(&series, &extra, inner.width);
        let rows = u16::try_from(names.len()).unwrap_or(1);
        let [header, plot_area] = Layout::vertical([Constraint::Length(rows), Constraint::Fill(1)]).areas(inner);
        Paragraph::new(names).render(header, buf);
        glyph_plot(
            &series,
            &outage,
            Axes {
                x_max: end_s,
                y_max,
                x_unit: "s",
            },
            theme,
            plot_area,
            buf,
        );
    }
    let block = panel(" goodput/s ", theme);
    let inner = block.inner(bottom);
    block.render(bottom, buf);
    if inner.height < 3 {
        return;
    }
    let recovered = run
        .recovered_after_s
        .map_or("never".to_string(), |s| format!("{s:.0} s after"));
    let ways = vec![
        format!(
            "stable below {:.0}/s; or retries under {:.0}/s · recovered: {recovered}",
            run.stable_below_per_s, run.retry_room_per_s
        ),
        format!(
            "stable below {:.0}/s · retry room {:.0}/s · back: {recovered}",
            run.stable_below_per_s, run.retry_room_per_s
        ),
        format!(
            "stable below {:.0}/s · room {:.0}/s · back: {recovered}",
            run.stable_below_per_s, run.retry_room_per_s
        ),
    ];
    let [note, plot_area] = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    Paragraph::new(Line::styled(first_fitting(ways, usize::from(note.width)), theme.text())).render(note, buf);
    let goodput = [Series {
        name: "goodput",
        glyph: 'g',
        style: theme.series(2),
        points: run.seconds.iter().map(|s| (s.t_s, s.goodput_per_s)).collect(),
    }];
    glyph_plot(
        &goodput,
        &[],
        Axes {
            x_max: end_s,
            y_max: nice_max(p.load_per_s.max(1.0)),
            x_unit: "s",
        },
        theme,
        plot_area,
        buf,
    );
}

#[cfg(test)]
mod tests {
    use super::{hidden_under, slot_cells};
    use crate::engine::overload::{OverloadParams, SheddingPolicy, recompute};

    #[test]
    fn the_lessons_curves_say_that_a_l_and_m_lie_under_c() {
        let result = recompute(&OverloadParams::default());
        let drawn: Vec<_> = result.curves.iter().collect();
        assert_eq!(
            hidden_under(&drawn, 10.0),
            [(
                SheddingPolicy::Criticality,
                vec![SheddingPolicy::AgeCap, SheddingPolicy::Lifo, SheddingPolicy::Admission]
            )],
            "FIFO collapses and the throttle stays below: only A, L, M and C coincide"
        );
    }

    #[test]
    fn the_x_axis_ticks_divide_it_evenly_and_leave_room_for_its_end() {
        let labels = |x_max, width, end_at| -> Vec<String> {
            super::x_ticks(x_max, width, end_at)
                .into_iter()
                .map(|(_, label)| label)
                .collect()
        };
        assert_eq!(labels(10.0, 44, 39), ["2", "4", "6", "8"]);
        assert_eq!(
            labels(10_000.0, 41, 35),
            ["2.5k", "5k", "7.5k"],
            "five parts crowd the end label"
        );
        assert_eq!(labels(10_000.0, 39, 26), ["5k"]);
        assert_eq!(labels(5.0, 40, 36), ["1", "2", "3", "4"]);
        assert_eq!(labels(1.0, 40, 36), ["0.2", "0.4", "0.6", "0.8"]);
        assert!(labels(10.0, 8, 4).is_empty(), "none where not even the middle fits");
        let ticks = super::x_ticks(10.0, 41, 37);
        assert_eq!(ticks[1], (16, "4".to_string()), "4 of 10 on column 16 of 0 to 40");
    }

    #[test]
    fn the_bulkhead_bar_draws_a_free_cell_only_for_a_free_slot() {
        // Lab 4's bulkhead at 80x24: 40 held by X, 60 by the rest, none free, on 44 cells.
        // Flooring each share gave 17 + 26 and one '.' left over.
        assert_eq!(slot_cells([40, 60, 0], 44), [18, 26, 0]);
        assert_eq!(slot_cells([40, 60, 0], 43), [17, 26, 0]);
        assert_eq!(slot_cells([1, 0, 99], 43), [1, 0, 42], "one slot of 100 still shows");
        assert_eq!(slot_cells([99, 0, 1], 43), [42, 0, 1], "so does the last free one");
        assert_eq!(slot_cells([0, 0, 100], 10), [0, 0, 10]);
        assert_eq!(slot_cells([0, 0, 0], 10), [0, 0, 0]);
        for (x, rest) in [(33, 33), (25, 50), (7, 93), (50, 49)] {
            let cells = slot_cells([x, rest, 100 - x - rest], 43);
            assert_eq!(cells.iter().sum::<usize>(), 43, "{x} {rest}: {cells:?}");
        }
    }
}
