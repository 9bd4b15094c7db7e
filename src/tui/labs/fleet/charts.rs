//! The fleet view of Lab 1: what every replica went through, what the Service had to
//! route to, what the database did, and what the clients got, on one time axis.
//!
//! ```text
//! ┌ fleet (sim) · liveness-checks-db · 3 replicas ────────────────────────┐
//! │ NAME      RST 0 s                                             600 s   │
//! │ fleet-0     4 ▒███████······▒▒▒···▒▒▒▒·····▒▒▒▒▒▒···▒███████████████   │
//! │ endpoints     0333333333000000000000000000000000000123333333333333333   │
//! │ database      ▁▁▁████████████████████████████████▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁   │
//! │ ▒ starting █ ready ░ unready ▄ stopping · back-off 0-3 endpoints ready  │
//! │ db: ▁ up ▄ slow █ down           (the legends wrap by whole items)     │
//! │ requests/s  o ok  d degraded  x failed  r refused                      │
//! │ 10/s ooooo      rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr     oooooooooooooo    │
//! │  0/s      ddd                                                          │
//! │ ok 2700 degraded 340 failed 0 refused 2860  (whole counts that fit)    │
//! └───────────────────────────────────────────────────────────────────────┘
//! ```
//!
//! Every state and series has its own glyph as well as its colour, so the view reads
//! under `NO_COLOR`. It draws from a [`FleetRun`] alone (a finished run, or a live run's
//! record so far) and owns no state.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, Widget};

use crate::engine::fleet::{Database, FleetRun, ReplicaState, RequestTotals};
use crate::learning::reveal::{Masked, placeholder};
use crate::tui::theme::Theme;
use crate::tui::view::legend::{self, Item};
use crate::tui::widgets::state_band::band_cells;

/// What the view shows: a run and the mode it came from.
#[derive(Clone, Copy, Debug)]
pub struct FleetView<'a> {
    pub run: &'a FleetRun,
    /// "sim" or "live".
    pub mode: &'a str,
    /// A live run still going: the bands stop at this model second (the future is blank).
    pub until_s: Option<f64>,
    /// The numbers an unanswered check asks for in this run: drawn as their placeholder
    /// (`?` in the narrow RST column). The bands' times are a column wide, coarser than
    /// any check's tolerance, and stay.
    pub masked: &'a Masked,
}

/// Width of the name column and of the RESTARTS column.
const NAME_W: u16 = 10;
const RESTARTS_W: u16 = 4;

/// Draws the fleet view into `area` of the frame.
pub fn draw(frame: &mut Frame, area: Rect, view: &FleetView, theme: &Theme) {
    render(view, *theme, area, frame.buffer_mut());
}

/// A replica state's glyph and style.
pub fn replica_look(state: ReplicaState, theme: Theme) -> (&'static str, Style) {
    match state {
        ReplicaState::Ready => ("█", theme.closed()),
        ReplicaState::Starting => ("▒", theme.half_open()),
        ReplicaState::Unready => ("░", theme.half_open()),
        // Every stop under way, a kill or a deletion, is one glyph: the endpoints row below
        // says whether the Service still counts the replica (the listing tells them apart).
        ReplicaState::Stopping | ReplicaState::Terminating => ("▄", theme.series(3)),
        ReplicaState::BackOff => ("·", theme.open()),
    }
}

/// Short stays matter most: back-off and termination win a cell over ready.
fn replica_rank(state: ReplicaState) -> u8 {
    match state {
        ReplicaState::Ready => 0,
        ReplicaState::Starting => 1,
        ReplicaState::Unready => 2,
        ReplicaState::Stopping | ReplicaState::Terminating => 3,
        ReplicaState::BackOff => 4,
    }
}

fn database_look(state: Database, theme: Theme) -> (&'static str, Style) {
    match state {
        Database::Up => ("▁", theme.closed()),
        Database::Slow { .. } => ("▄", theme.half_open()),
        Database::Down => ("█", theme.open()),
    }
}

fn database_rank(state: Database) -> u8 {
    match state {
        Database::Up => 0,
        Database::Slow { .. } => 1,
        Database::Down => 2,
    }
}

/// The series of the requests chart: name, glyph, theme series index, value.
const SERIES: [(&str, &str, usize); 4] = [
    ("ok", "o", 2),
    ("degraded", "d", 1),
    ("failed", "x", 0),
    ("refused", "r", 3),
];

fn series_value(totals: &RequestTotals, index: usize) -> u64 {
    [totals.ok, totals.degraded, totals.failed, totals.refused][index]
}

fn put(buf: &mut Buffer, x: u16, y: u16, text: &str, style: Style, right: u16) {
    if x < right {
        buf.set_stringn(x, y, text, usize::from(right - x), style);
    }
}

/// Renders the view into `buf`.
pub fn render(view: &FleetView, theme: Theme, area: Rect, buf: &mut Buffer) {
    let run = view.run;
    let params = &run.params;
    let mut title = format!(
        " fleet ({}) · {} · {} replicas ",
        view.mode,
        params.scenario.name(),
        params.replicas
    );
    // The box above names the scenario too: on a narrow screen the count stays whole instead.
    if title.chars().count() + 2 > usize::from(area.width) {
        title = format!(" fleet ({}) · {} replicas ", view.mode, params.replicas);
    }
    let block = Block::bordered()
        .title(Span::styled(title, theme.accent()))
        .border_style(theme.border());
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width < NAME_W + RESTARTS_W + 10 || inner.height < 6 {
        return;
    }
    let right = inner.right();
    let band_x = inner.x + NAME_W + RESTARTS_W + 1;
    let band_w = right - band_x;
    let duration_s = params.duration_s;
    // Cells past the model second a live run has reached stay blank.
    let reached = |offset: usize| {
        view.until_s
            .is_none_or(|until_s| offset as f64 * duration_s / f64::from(band_w.max(1)) <= until_s)
    };
    let mut y = inner.y;

    // Header: columns and the time axis's ends.
    put(buf, inner.x, y, "NAME", theme.dim(), right);
    put(buf, inner.x + NAME_W, y, "RST", theme.dim(), right);
    put(buf, band_x, y, "0 s", theme.dim(), right);
    let end = format!("{duration_s:.0} s");
    put(buf, right.saturating_sub(end.len() as u16), y, &end, theme.dim(), right);
    y += 1;

    let rows_left = |y: u16| inner.bottom().saturating_sub(y);
    // The states' legend wraps by whole items on a narrow panel (two lines at 80 columns).
    let most_endpoints = run
        .endpoints
        .iter()
        .map(|(_, count)| *count)
        .fold(params.replicas, u32::max);
    // Two spaces between items: "0-3 endpoints ready" and "db:" are words, not glyphs.
    let legend = legend::flow(&state_legend(most_endpoints, theme), usize::from(inner.width), 2);
    let legend_rows = legend.len() as u16;
    for replica in &run.replicas {
        // Below the replicas: endpoints, database, the legend, the chart's 2 rows, the totals.
        if rows_left(y) < 4 + legend_rows {
            break;
        }
        put(buf, inner.x, y, &replica.name, theme.text(), right);
        let restarts = match view.masked.contains("fleet.restarts") {
            true => format!("{:>3}", "?"),
            false => format!("{:>3}", replica.restarts),
        };
        put(buf, inner.x + NAME_W, y, &restarts, theme.accent(), right);
        let changes: Vec<(f64, ReplicaState)> = replica.timeline.iter().map(|c| (c.t_s, c.state)).collect();
        for (offset, cell) in band_cells(&changes, duration_s, band_w, replica_rank)
            .into_iter()
            .enumerate()
            .filter(|&(offset, _)| reached(offset))
        {
            if let Some(state) = cell {
                let (glyph, style) = replica_look(state, theme);
                put(buf, band_x + offset as u16, y, glyph, style, right);
            }
        }
        y += 1;
    }

    // The Service's endpoints: the fewest ready in each cell's span, as a digit.
    put(buf, inner.x, y, "endpoints", theme.text(), right);
    let counts: Vec<(f64, u32)> = run.endpoints.clone();
    let cells = band_cells(&counts, duration_s, band_w, |count| {
        10u8.saturating_sub(count.min(10) as u8)
    });
    // Counting the 0 cells times a cell's seconds comes near the seconds with no ready
    // endpoint (review 6): while a check asks for them, the row names that step instead.
    let endpoints_masked = view.masked.step("fleet.no_ready_endpoint_s");
    if let Some(step) = endpoints_masked {
        put(buf, band_x, y, &placeholder(step), theme.dim(), right);
    }
    for (offset, cell) in cells
        .into_iter()
        .enumerate()
        .filter(|&(offset, _)| reached(offset) && endpoints_masked.is_none())
    {
        if let Some(count) = cell {
            let style = if count == 0 { theme.open() } else { theme.text() };
            let digit = if count > 9 { "+".to_string() } else { count.to_string() };
            put(buf, band_x + offset as u16, y, &digit, style, right);
        }
    }
    y += 1;

    put(buf, inner.x, y, "database", theme.text(), right);
    for (offset, cell) in band_cells(&run.database, duration_s, band_w, database_rank)
        .into_iter()
        .enumerate()
        .filter(|&(offset, _)| reached(offset))
    {
        if let Some(state) = cell {
            let (glyph, style) = database_look(state, theme);
            put(buf, band_x + offset as u16, y, glyph, style, right);
        }
    }
    y += 1;

    for line in legend {
        if y >= inner.bottom() {
            break;
        }
        line.render(Rect::new(inner.x, y, inner.width, 1), buf);
        y += 1;
    }

    let chart = Rect::new(inner.x, y, inner.width, rows_left(y).saturating_sub(1));
    requests_chart(run, theme, chart, buf);

    let r = &run.requests;
    let masked = view.masked;
    let first = run.first_restart_s().map_or(String::new(), |t| {
        format!(
            " (first {})",
            masked.number("fleet.first_restart_s", || format!("{t:.1} s"))
        )
    });
    let count = |name: &str, n: u64| masked.number(&format!("fleet.requests.{name}"), || n.to_string());
    // Whole counts only: the box above has the restarts and the time without an endpoint
    // again, so on a narrow panel those give way first.
    let parts = [
        format!("ok {}", count("ok", r.ok)),
        format!("degraded {}", count("degraded", r.degraded)),
        format!("failed {}", count("failed", r.failed)),
        format!("refused {}", count("refused", r.refused)),
        format!(
            "no endpoint {}",
            masked.number("fleet.no_ready_endpoint_s", || format!(
                "{:.1} s",
                run.no_ready_endpoint_s
            ))
        ),
        format!(
            "restarts {}{first}",
            masked.number("fleet.restarts", || run.total_restarts().to_string())
        ),
    ];
    let totals = legend::fit_parts(&parts, usize::from(inner.width));
    put(buf, inner.x, inner.bottom() - 1, &totals, theme.text(), right);
}

/// The legend of the replica bands, the endpoints row's digits (up to `most_endpoints`)
/// and the database's band, each glyph with its word; the database's states together after
/// a `db:` that says whose they are (a `│` before them read as one more glyph without a word).
fn state_legend(most_endpoints: u32, theme: Theme) -> Vec<Item<'static>> {
    // Terminating shares the stopping glyph, and its legend item.
    let mut items: Vec<Item> = ReplicaState::ALL
        .into_iter()
        .filter(|state| *state != ReplicaState::Terminating)
        .map(|state| {
            let (glyph, style) = replica_look(state, theme);
            Item::new(vec![
                Span::styled(glyph, style),
                Span::styled(format!(" {}", state.word()), theme.dim()),
            ])
        })
        .collect();
    let digits = match most_endpoints {
        0 => "0".to_string(),
        1..=9 => format!("0-{most_endpoints}"),
        _ => "0-9 +".to_string(),
    };
    items.push(Item::new(vec![
        Span::styled(digits, theme.text()),
        Span::styled(" endpoints ready", theme.dim()),
    ]));
    // The database's states as one item, kept together on a line.
    let mut database = vec![Span::styled("db:", theme.dim())];
    for state in [Database::Up, Database::Slow { latency_ms: 0 }, Database::Down] {
        let (glyph, style) = database_look(state, theme);
        database.push(Span::raw(" "));
        database.push(Span::styled(glyph, style));
        database.push(Span::styled(format!(" {}", state.word()), theme.dim()));
    }
    items.push(Item::new(database));
    items
}

/// Requests per second over the run, one glyph per series (`o` ok, `d` degraded, `x`
/// failed, `r` refused), the scale on the left and the legend on the top row.
fn requests_chart(run: &FleetRun, theme: Theme, area: Rect, buf: &mut Buffer) {
    if area.height < 3 || area.width < 20 {
        return;
    }
    let right = area.right();
    let width = usize::from(area.width);
    let series: Vec<Item> = SERIES
        .iter()
        .map(|(name, glyph, series)| {
            Item::new(vec![
                Span::styled(*glyph, theme.series(*series)),
                Span::styled(format!(" {name}"), theme.dim()),
            ])
        })
        .collect();
    // One line, giving way in order: two spaces between items, one, then the title without
    // its "/s" (the axis says per second); past that the items wrap onto a second line.
    let with_title = |title: &'static str| {
        let mut items = vec![Item::new(vec![Span::styled(title, theme.accent())])];
        items.extend(series.iter().cloned());
        items
    };
    let legend = [("requests/s", 2), ("requests/s", 1), ("requests", 1)]
        .into_iter()
        .map(|(title, gap)| legend::flow(&with_title(title), width, gap))
        .find(|lines| lines.len() == 1)
        .unwrap_or_else(|| legend::flow(&with_title("requests"), width, 1));
    let legend_rows = legend.len() as u16;
    if area.height < legend_rows + 2 {
        return;
    }
    for (row, line) in legend.into_iter().enumerate() {
        line.render(Rect::new(area.x, area.y + row as u16, area.width, 1), buf);
    }

    let axis_w = 6u16;
    let plot = Rect::new(
        area.x + axis_w,
        area.y + legend_rows,
        area.width - axis_w,
        area.height - legend_rows,
    );
    let seconds = run.params.duration_s.max(1.0);
    let per_cell_s = seconds / f64::from(plot.width);
    // Each column's mean rate per series over its seconds.
    let columns: Vec<[f64; 4]> = (0..plot.width)
        .map(|column| {
            let from = (f64::from(column) * per_cell_s) as usize;
            let to = ((f64::from(column + 1) * per_cell_s) as usize).max(from + 1);
            let mut sums = [0.0; 4];
            for bucket in run.per_second.iter().skip(from).take(to - from) {
                for (index, sum) in sums.iter_mut().enumerate() {
                    *sum += series_value(bucket, index) as f64;
                }
            }
            sums.map(|sum| sum / (to - from) as f64)
        })
        .collect();
    let top = columns
        .iter()
        .flat_map(|c| c.iter().copied())
        .fold(run.params.load_per_s, f64::max)
        .max(1.0);
    let rows = f64::from(plot.height - 1);
    put(buf, area.x, plot.y, &format!("{top:>4.0}/s"), theme.dim(), right);
    put(buf, area.x, plot.bottom() - 1, "   0/s", theme.dim(), right);
    for (offset, column) in columns.iter().enumerate() {
        for (index, (_, glyph, series)) in SERIES.iter().enumerate() {
            let value = column[index];
            if value <= 0.0 {
                continue;
            }
            let row = plot.bottom() - 1 - (value / top * rows).round() as u16;
            put(buf, plot.x + offset as u16, row, glyph, theme.series(*series), right);
        }
    }
}
