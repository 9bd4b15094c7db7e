//! The projector view of a room: the code in big letters and the URL at the top, the open check's
//! question, the room's answers as a histogram with a count and a countdown, and after the
//! reveal the measured value and its tolerance band over the histogram with the share of
//! the room within it; the class board beside it. Only styles that survive NO_COLOR
//! (bold, reversed) are used: a projector's colours are often washed out anyway.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use tui_big_text::{BigText, PixelSize};

use crate::learning::quiz::trim_number;
use crate::room::spread::{BinMark, MEASURED_MARK, MeasuredBand, bar_columns, spread_bins};
use crate::tui::screens::room::Board;

/// Bins of the histogram at most: more than a room can tell apart from the back.
const BINS_MAX: usize = 12;
/// Columns of the longest bar: past this a wide projector's bars only get harder to compare.
const BAR_COLUMNS_MAX: usize = 80;
/// Columns the class board takes at most.
const BOARD_COLUMNS_MAX: u16 = 34;
/// Columns a class board row needs: a name, a step and right/answered.
const BOARD_COLUMNS_MIN: u16 = 27;

/// Rows of the header: the code in big letters (four rows: 8x8 glyphs drawn with quadrant
/// blocks), the address, and a rule under them.
const HEADER_ROWS: u16 = 6;

/// Draws `board` over `area`.
pub fn render(board: &Board, area: Rect, buf: &mut Buffer) {
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(HEADER_ROWS),
        Constraint::Min(4),
        Constraint::Length(1),
    ])
    .areas(area);
    render_header(board, header, buf);
    let board_width = (body.width / 3).clamp(BOARD_COLUMNS_MIN, BOARD_COLUMNS_MAX);
    let [main, side] = Layout::horizontal([Constraint::Min(20), Constraint::Length(board_width)]).areas(body);
    render_question(board, main, buf);
    render_class(board, side, buf);
    let footer_text = match (&board.check, &board.reveal) {
        (None, _) => "no check open   n open the first check   Esc back".to_string(),
        (Some(_), None) => format!(
            "{} answers   {} s left   r reveal   n next check   Esc back",
            board.values.len(),
            board.left_s
        ),
        (Some(_), Some(_)) => format!("{} answers   revealed   n next check   Esc back", board.values.len()),
    };
    Paragraph::new(footer_text).render(footer, buf);
}

/// The code large enough to read from the back of a room, and where to join. The code is
/// also written in plain letters beside it: a screen reader, a copy from the terminal and a
/// projector too blurry for block glyphs still get it.
fn render_header(board: &Board, area: Rect, buf: &mut Buffer) {
    let block = Block::new().borders(Borders::BOTTOM);
    let inner = block.inner(area);
    block.render(area, buf);
    let [big_rows, url_row] = Layout::vertical([Constraint::Length(4), Constraint::Length(1)]).areas(inner);
    let spaced: String = board.code.chars().flat_map(|c| [c, ' ']).collect();
    let label_columns = spaced.trim_end().chars().count().max("Room code".len()) as u16 + 2;
    let [label_area, big_area] =
        Layout::horizontal([Constraint::Length(label_columns), Constraint::Min(0)]).areas(big_rows);
    Paragraph::new(vec![
        Line::raw("Room code"),
        Line::from(Span::styled(
            spaced.trim_end().to_string(),
            Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        )),
    ])
    .render(label_area, buf);
    // Half-height pixels (a glyph 8 columns wide) read best; quadrants (4 wide) where the
    // code would not fit.
    let half_height_columns = board.code.chars().count() as u16 * 8;
    let pixels = if half_height_columns <= big_area.width {
        PixelSize::HalfHeight
    } else {
        PixelSize::Quadrant
    };
    BigText::builder()
        .pixel_size(pixels)
        .style(Style::new().add_modifier(Modifier::BOLD))
        .lines(vec![Line::raw(board.code.clone())])
        .build()
        .render(big_area, buf);
    Line::from(vec![
        Span::raw("Join at    "),
        Span::styled(board.url.clone(), Style::new().add_modifier(Modifier::BOLD)),
    ])
    .render(url_row, buf);
}

fn render_question(board: &Board, area: Rect, buf: &mut Buffer) {
    let block = Block::new().borders(Borders::RIGHT);
    let inner = block.inner(area);
    block.render(area, buf);
    let Some((_, prompt, unit)) = &board.check else {
        Paragraph::new("Waiting: open a check (n) and its question appears on every phone.")
            .wrap(Wrap { trim: true })
            .render(inner, buf);
        return;
    };
    let prompt_rows = Paragraph::new(prompt.as_str())
        .wrap(Wrap { trim: true })
        .line_count(inner.width)
        .min(4) as u16;
    let [question, chart, verdict] = Layout::vertical([
        Constraint::Length(prompt_rows + 1),
        Constraint::Min(2),
        Constraint::Length(if board.reveal.is_some() { 2 } else { 0 }),
    ])
    .areas(inner);
    Paragraph::new(prompt.as_str())
        .style(Style::new().add_modifier(Modifier::BOLD))
        .wrap(Wrap { trim: true })
        .render(question, buf);
    let lines = histogram_lines(board, chart.width as usize, chart.height as usize, unit);
    Paragraph::new(lines).render(chart, buf);
    if let Some(reveal) = &board.reveal {
        let share = (100 * reveal.within).checked_div(reveal.answers).unwrap_or(0);
        let measured = reveal.value.map_or_else(
            || "no value".to_string(),
            |value| crate::words::with_unit(&trim_number(value), unit.trim()),
        );
        Paragraph::new(vec![
            Line::styled(
                format!(
                    "The run measured {measured} (right within {}).",
                    trim_number(reveal.tolerance)
                ),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Line::from(format!(
                "{} of {} within tolerance: {share}% of the room.",
                reveal.within, reveal.answers
            )),
        ])
        .render(verdict, buf);
    }
}

/// The histogram as text rows: `  60 to 64  ████████ 12`, the bins the tolerance band
/// reaches reversed after the reveal and the measured one marked (`room::spread` bins them).
fn histogram_lines(board: &Board, width: usize, height: usize, unit: &str) -> Vec<Line<'static>> {
    let measured = board.reveal.as_ref().and_then(MeasuredBand::of);
    // A row for the header, and one for the off-chart line should there be one.
    let bins_most = |rows_kept: usize| height.saturating_sub(rows_kept).clamp(1, BINS_MAX);
    let (mut spread, mut lo, mut hi) = spread_bins(&board.values, measured, bins_most(1));
    if spread.below + spread.above > 0 {
        (spread, lo, hi) = spread_bins(&board.values, measured, bins_most(2));
    }
    if spread.bins.is_empty() {
        return vec![Line::from("No answers yet: they appear here as they arrive.")];
    }
    let label_width = spread.bins.iter().map(|b| b.label.chars().count()).max().unwrap_or(0);
    let most = spread.bins.iter().map(|b| b.count).max().unwrap_or(1);
    // Room for the longest mark drawn (the measured one's at least, so a reveal moves no bar).
    let mark_room = spread
        .bins
        .iter()
        .map(|b| b.mark.words().len())
        .fold(MEASURED_MARK.len(), usize::max);
    let bar_room = width
        .saturating_sub(label_width + 4 + 5 + mark_room)
        .clamp(1, BAR_COLUMNS_MAX);
    let mut lines = vec![Line::from(format!(
        "{:>label_width$}  answers ({unit})",
        "",
        unit = unit.trim()
    ))];
    for bin in &spread.bins {
        let bar = "█".repeat(bar_columns(bin.count, most, bar_room));
        let in_band = bin.mark != BinMark::None;
        let mut spans = vec![
            Span::raw(format!("{:>label_width$}  ", bin.label)),
            Span::styled(
                bar,
                if in_band {
                    Style::new().add_modifier(Modifier::REVERSED)
                } else {
                    Style::new()
                },
            ),
            Span::raw(format!(" {}", bin.count)),
        ];
        if in_band {
            spans.push(Span::styled(
                bin.mark.words(),
                Style::new().add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(spans));
    }
    lines.extend(spread.off_chart_line(lo, hi).map(Line::from));
    lines
}

fn render_class(board: &Board, area: Rect, buf: &mut Buffer) {
    let mut lines = vec![Line::styled(
        format!("Class ({})", board.rows.len()),
        Style::new().add_modifier(Modifier::BOLD),
    )];
    let room = area.height.saturating_sub(1) as usize;
    let shown = if board.rows.len() > room {
        room.saturating_sub(1)
    } else {
        board.rows.len()
    };
    for row in board.rows.iter().take(shown) {
        let step = row.step.clone().unwrap_or_else(|| "-".to_string());
        let name: String = row.name.chars().take(10).collect();
        lines.push(Line::from(format!(
            " {name:<10} {step:<8} {}/{}",
            row.right, row.answered
        )));
    }
    if board.rows.len() > shown {
        lines.push(Line::from(format!(" and {} more", board.rows.len() - shown)));
    }
    if let Some(error) = &board.write_error {
        lines.push(Line::from(error.clone()));
    }
    Paragraph::new(lines).render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::room::state::Room;

    const CHECK: &str = "retry-predict-layered";

    /// A room of five with a hostile name, the check open 30 s, answers in.
    fn room() -> Room {
        let content = Content::load(None).expect("the built-in labs load");
        let mut room = Room::new(&content, None).expect("a room");
        room.code = "K7QX2M".to_string();
        room.open(CHECK, 0).expect("open");
        for (i, (name, value)) in [
            ("ada", "64"),
            ("bob", "8"),
            ("cy", "60"),
            ("dee\u{1b}[2J", "12"),
            ("eve", "64"),
        ]
        .into_iter()
        .enumerate()
        {
            room.answer("K7QX2M", name, CHECK, value, i as u64).expect("taken");
        }
        room.step("K7QX2M", "ada", "retry", 2, 9).expect("a step");
        room
    }

    fn text(board: &Board, width: u16, height: u16) -> String {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        render(board, area, &mut buf);
        let mut out = String::new();
        for y in 0..height {
            let row: String = (0..width).map(|x| buf[(x, y)].symbol().to_string()).collect();
            out.push_str(row.trim_end());
            out.push('\n');
        }
        out
    }

    fn both(width: u16, height: u16) -> (String, String) {
        let mut room = room();
        let url = "http://127.0.0.1:8080/";
        let before = text(&Board::of(&room, url, 30_000), width, height);
        room.reveal(31_000).expect("open");
        let after = text(&Board::of(&room, url, 31_000), width, height);
        (before, after)
    }

    #[test]
    fn projector_100x30() {
        let (before, after) = both(100, 30);
        assert!(
            before.contains("5 answers   60 s left") && !before.contains("measured"),
            "{before}"
        );
        assert!(
            !before.contains("\u{1b}"),
            "names are shown without their control characters"
        );
        insta::assert_snapshot!("projector_before_100x30", before);
        assert!(
            after.contains("The run measured 64 attempts") && after.contains("2 of 5 within"),
            "{after}"
        );
        insta::assert_snapshot!("projector_after_100x30", after);
    }

    #[test]
    fn projector_80x24() {
        let (before, after) = both(80, 24);
        insta::assert_snapshot!("projector_before_80x24", before);
        insta::assert_snapshot!("projector_after_80x24", after);
    }

    #[test]
    fn projector_200x60() {
        let (before, after) = both(200, 60);
        insta::assert_snapshot!("projector_before_200x60", before);
        insta::assert_snapshot!("projector_after_200x60", after);
    }
}
