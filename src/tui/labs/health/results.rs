//! The Results panel of Lab 1's first page, laid out as the Atlas prints it: what the two
//! requests and the server's exit said in the simulated driver's run (its timeline is in
//! the right panel, [`super::charts`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::engine::health::DriverRun;
use crate::report;
use crate::tui::frame::view::results_title_of;
use crate::tui::labs::page::PageFrame;

/// `run` is the run shown: `check_run` when it is that at an open verdict's own settings.
pub fn render(run: &DriverRun, check_run: bool, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
    let theme = frame.theme();
    let block = Block::bordered()
        .title(Span::styled(results_title_of(check_run), theme.accent()))
        .border_style(theme.border());
    let masked = frame.masked();
    let rows = report::health_rows(run);
    let mut outcome: Vec<String> = rows.iter().rev().take(3).map(|row| row.join(&masked)).collect();
    outcome.reverse();
    // On one line where it fits; else one line each (80 columns), the note cut first.
    let joined = outcome.join("   ");
    let mut lines: Vec<Line> = if joined.chars().count() <= usize::from(area.width.saturating_sub(2)) {
        vec![Line::from(joined)]
    } else {
        outcome.into_iter().map(Line::from).collect()
    };
    if run.abandoned > 0 {
        lines.push(Line::from(crate::engine::health::abandon_line(run.abandoned)));
    }
    lines.push(Line::from(Span::styled(
        "This is the simulated driver; m switches to live: a real server on 127.0.0.1.",
        theme.dim(),
    )));
    Paragraph::new(lines).block(block).render(area, buf);
}
