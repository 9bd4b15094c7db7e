//! The results panel: the numbers, laid out as the Atlas prints them.
//!
//! Lab 1's first page: what the two requests and the server's exit said (the timeline is
//! in the right panel). (Labs 2 to 5 draw their own, in their folders under `tui/labs/`.)

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::learning::reveal::{Masked, placeholder};
use crate::report;
use crate::tui::screens::lab::sim::LabResults;
use crate::tui::view::lab::LabView;

/// A report row hides the numbers masked by the hiding rule, by their metric, before it is
/// text: the rule lives in `learning`, the cells in `report`, and the app is where both meet.
impl crate::report::cells::Mask for Masked {
    fn hidden(&self, metric: &str) -> Option<String> {
        self.step(metric).map(placeholder)
    }
}

pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    let (theme, state) = (view.theme, view.screen);
    let block = Block::bordered()
        .title(Span::styled(super::results_title(state), theme.accent()))
        .border_style(theme.border());
    let masked = view.masked();
    let Some(LabResults::Health(run)) = state.shown_results() else {
        return;
    };
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
