//! Pure layouts: where each screen's regions go for a terminal size.
//!
//! The views draw into these rectangles and the mouse hit tests in the screens ask the
//! same functions, so a click lands on what is drawn under it. Nothing here draws.

use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::widgets::Block;

/// The smallest terminal the layouts are designed for.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// A `width` x `height` box in the middle of `area` (cut to `area`): where an overlay goes.
pub fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let (width, height) = (width.min(area.width), height.min(area.height));
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// The message shown instead of a broken layout.
pub fn too_small_message(area: Rect) -> String {
    format!(
        "terminal too small: needs {MIN_WIDTH}x{MIN_HEIGHT}, have {}x{}",
        area.width, area.height
    )
}

pub fn is_too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

// ---------------------------------------------------------------- home

/// Rows each entry takes: its title, then its description on up to two lines.
pub const ENTRY_HEIGHT: u16 = 3;

/// The title, the list, the status and the footer. The status has four rows: a notice
/// naming two paths (a progress file moved aside) takes that many at 80 columns; the
/// entries fit above it at 24 rows with the tighter layout of [`home_entry_rects`].
pub fn home_regions(area: Rect) -> [Rect; 4] {
    let [title, list, status, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(4),
        Constraint::Length(1),
    ])
    .areas(area);
    [title, list, status, foot]
}

/// Where each entry is drawn, inside the list's border. When three rows each do not fit
/// (six entries at 24 rows), the last entries take two, their description on one line: the
/// quiz and the book, whose descriptions are one line, so every entry shows without scrolling.
pub fn home_entry_rects(area: Rect, entries: usize) -> Vec<Rect> {
    let list = home_regions(area)[1];
    let inner = Block::bordered().inner(list);
    let rows_short = (entries as u16 * ENTRY_HEIGHT).saturating_sub(inner.height);
    let compact_from = (entries as u16).saturating_sub(rows_short);
    let mut y = inner.y;
    (0..entries as u16)
        .map(|i| {
            let height = if i >= compact_from {
                ENTRY_HEIGHT - 1
            } else {
                ENTRY_HEIGHT
            };
            let rect = Rect::new(inner.x, y, inner.width, height);
            y += height;
            rect
        })
        .filter(|rect| rect.bottom() <= inner.bottom())
        .collect()
}

/// The entry under a cell, for mouse clicks.
pub fn home_entry_at(area: Rect, entries: usize, at: Position) -> Option<usize> {
    home_entry_rects(area, entries)
        .iter()
        .position(|rect| rect.contains(at))
}

// ---------------------------------------------------------------- book

/// Where the book screen's regions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookLayout {
    pub title: Rect,
    /// The chapter list, border included.
    pub list: Rect,
    /// The chapter text, border included.
    pub text: Rect,
    pub footer: Rect,
}

/// The layout in `area`, or `None` when the terminal is too small. `wide`: the chapter text
/// takes the whole width and the list is hidden (a zero-width `list`), for tables that a
/// 48-column text panel at 80x24 would cut mid-word.
pub fn book(area: Rect, wide: bool) -> Option<BookLayout> {
    if is_too_small(area) {
        return None;
    }
    let [title, body, footer] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    // Room for the longest chapter name on two rows (`Lab 3: A circuit breaker during a brownout`).
    let list_width = if wide { 0 } else { (area.width / 3).clamp(30, 34) };
    let [list, text] = Layout::horizontal([Constraint::Length(list_width), Constraint::Fill(1)]).areas(body);
    Some(BookLayout {
        title,
        list,
        text,
        footer,
    })
}

/// Rows each chapter entry takes: a long name wraps onto a second row rather than being cut.
pub const BOOK_ENTRY_HEIGHT: u16 = 2;

/// The first chapter entry the list shows with `selected` under the cursor: the list scrolls
/// as little as keeps the cursor on screen (at 80x24 ten of the 19 entries fit, and moving past
/// the tenth hid the `▸`). The cursor alone decides it, so drawing and clicks agree.
pub fn book_list_top(layout: &BookLayout, selected: usize) -> usize {
    let shown = usize::from(Block::bordered().inner(layout.list).height / BOOK_ENTRY_HEIGHT).max(1);
    (selected + 1).saturating_sub(shown)
}

/// The chapter entry under a cell, for clicks, with `selected` under the cursor.
pub fn book_entry_at(layout: &BookLayout, chapters: usize, selected: usize, at: Position) -> Option<usize> {
    let inner = Block::bordered().inner(layout.list);
    if !inner.contains(at) {
        return None;
    }
    let entry = book_list_top(layout, selected) + usize::from((at.y - inner.y) / BOOK_ENTRY_HEIGHT);
    (entry < chapters).then_some(entry)
}

// ---------------------------------------------------------------- lab screens

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

/// How many rows a lab's Results panel takes (its registry row says, sim and live).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultsRows {
    Fixed(u16),
    /// Two summary rows, then as much of a log as the height allows (Lab 3's transitions),
    /// and at least this many.
    Log {
        at_least: u16,
    },
}

impl ResultsRows {
    /// The rows in a terminal `height` rows tall.
    pub fn at(self, height: u16) -> u16 {
        match self {
            ResultsRows::Fixed(rows) => rows,
            ResultsRows::Log { at_least } => (4 + height.saturating_sub(26).clamp(1, 4)).max(at_least),
        }
    }
}

/// The lab screen's regions at `area` with a Results panel of `rows`, or `None` when the
/// terminal is too small.
pub fn lab_rows(area: Rect, rows: ResultsRows) -> Option<LabLayout> {
    if is_too_small(area) {
        return None;
    }
    let results_height = rows.at(area.height);
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
    let bar = rows(Block::bordered().inner(layout.params), count, focus).bar?;
    let span = bar.width.saturating_sub(1).max(1);
    let offset = x.clamp(bar.x, bar.right().saturating_sub(1).max(bar.x)) - bar.x;
    Some(f64::from(offset) / f64::from(span))
}

/// Hit test of the parameter panel.
pub fn slider_hit(layout: &LabLayout, count: usize, focus: usize, at: Position) -> Option<SliderHit> {
    let rows = rows(Block::bordered().inner(layout.params), count, focus);
    if let Some(bar) = rows.bar
        && at.y == bar.y
        && (bar.x.saturating_sub(1)..=bar.right()).contains(&at.x)
    {
        return bar_fraction(layout, count, focus, at.x).map(SliderHit::Bar);
    }
    rows.labels
        .iter()
        .position(|row| row.contains(at))
        .map(|index| SliderHit::Row(rows.first + index))
}

/// Rows a scrolled slider list leaves below itself for the focused slider's help.
const SCROLLED_HELP_ROWS: usize = 4;

/// Where the rows and the focused slider's bar go inside the panel.
pub struct Rows {
    /// The slider `labels[0]` is the row of: 0 unless the focused one would be below the panel.
    pub first: usize,
    pub labels: Vec<Rect>,
    pub bar: Option<Rect>,
    /// What is left below, for the help text.
    pub help: Rect,
}

/// The panel's geometry for `count` sliders with `focus` focused.
///
/// A lab with more sliders than the panel has rows (Lab 5 has 40) keeps
/// [`SCROLLED_HELP_ROWS`] below its list for the focused slider's help, and scrolls the list
/// so the focused one's row and bar stay above them: at the list's top too, where the 40 rows
/// once filled the panel and the help never showed. Every lab whose sliders and bar fit draws
/// as before.
pub fn rows(inner: Rect, count: usize, focus: usize) -> Rows {
    let height = usize::from(inner.height);
    let (first, bottom) = if count < height {
        (0, inner.bottom())
    } else {
        let help = if height > 2 * SCROLLED_HELP_ROWS {
            SCROLLED_HELP_ROWS
        } else {
            0
        };
        let first = (focus + 2 + help).saturating_sub(height).min(focus);
        (first, inner.bottom().saturating_sub(help as u16))
    };
    let mut y = inner.y;
    let mut labels = Vec::with_capacity(count);
    let mut bar = None;
    for index in first..count {
        if y >= bottom {
            break;
        }
        labels.push(Rect::new(inner.x, y, inner.width, 1));
        y += 1;
        if index == focus && y < inner.bottom() {
            bar = Some(Rect::new(inner.x + 2, y, inner.width.saturating_sub(4), 1));
            y += 1;
        }
    }
    // One blank line, then the help.
    let help_y = (y + 1).min(inner.bottom());
    Rows {
        first,
        labels,
        bar,
        help: Rect::new(inner.x, help_y, inner.width, inner.bottom() - help_y),
    }
}
