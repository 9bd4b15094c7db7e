//! Lab 2's simulated Results panel: the A, B and C rows at the current p, laid out as the
//! Atlas prints them, and the Full Jitter sleeps.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::run::RetryResults;
use crate::engine::retry::RetryPolicy;
use crate::learning::reveal::{Masked, placeholder};
use crate::report;
use crate::tui::theme::Theme;

/// The rows of `retry` under `title`, their numbers masked as `masked` says.
pub fn retry_results(retry: &RetryResults, masked: &Masked, title: &str, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered()
        .title(Span::styled(title, theme.accent()))
        .border_style(theme.border());
    let mut lines: Vec<Line> = retry
        .rows
        .iter()
        .enumerate()
        .map(|(index, (name, result))| {
            // The rows are in `RetryPolicy::ALL` order (A, B, C), as `compare_policies` returns them.
            let row = report::retry_cells(RetryPolicy::ALL.get(index).copied(), name, result)
                .fit(usize::from(area.width - 2), masked);
            Line::from(Span::styled(row, theme.series(index)))
        })
        .collect();
    // The sleeps are drawn under the ceilings, so they bound them: the row waits for
    // the first step asking for a ceiling, as the jitter chart does.
    let ceilings = super::charts::jitter_metrics(retry);
    let sleeps = match masked.first_step(ceilings.iter().map(String::as_str)) {
        Some(step) => report::jitter_line_with(&placeholder(step)),
        None => report::jitter_line(&retry.sleeps_s),
    };
    lines.push(Line::from(Span::styled(sleeps, theme.dim())));
    Paragraph::new(lines).block(block).render(area, buf);
}
