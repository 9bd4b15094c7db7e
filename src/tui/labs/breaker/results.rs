//! Lab 3's simulated Results panel: the two summary rows and the breaker's transition log
//! in columns (PgUp/PgDn scrolls).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::engine::brownout::BrownoutComparison;
use crate::learning::reveal::{Masked, placeholder};
use crate::report;
use crate::report::cells::fit_width;
use crate::tui::theme::Theme;

/// The app's word for the calls a caller sent to the dependency ([`report::caller_row_as`]):
/// an open breaker's refusals are degraded pages, never sent calls.
pub const SENT: &str = "sent";

/// Both callers' rows of `run` as the app writes them, timeout only first.
pub fn app_rows(run: &BrownoutComparison) -> [report::cells::Row; 2] {
    let [timeout_only, with_breaker] = crate::learning::metrics::BREAKER_CALLERS;
    [
        report::caller_row_as(&run.timeout_only.summary, timeout_only, SENT),
        report::caller_row_as(&run.with_breaker.summary, with_breaker, SENT),
    ]
}

/// The numbers the transition log and its count give away: its times date the first opening.
const LOG_METRICS: [&str; 2] = ["breaker.with_breaker.first_open_s", "breaker.with_breaker.transitions"];

/// Width of one column of the transition log (`t=15.49s half_open -> open` and a gap).
const LOG_COLUMN_WIDTH: u16 = 30;

/// Lab 3's simulated Results panel titled `title`: the two rows and the transition log,
/// `masked` and scrolled `log_scroll` rows down.
pub fn breaker_results(
    run: &BrownoutComparison,
    (masked, log_scroll): (&Masked, u16),
    title: &str,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let block = Block::bordered()
        .title(Span::styled(title.to_string(), theme.accent()))
        .border_style(theme.border());
    let inner = block.inner(area);
    // The count waits with the log: 13 transitions at the defaults is the five half-open
    // rounds step 6's verdict works out.
    let count = masked
        .first_step(LOG_METRICS)
        .map_or_else(|| run.with_breaker.transitions.len().to_string(), placeholder);
    let block =
        block.title_top(Line::from(format!(" breaker transitions: {count} · PgUp/PgDn scroll ")).right_aligned());
    Paragraph::new(breaker_lines(theme, run, inner, log_scroll, masked))
        .block(block)
        .render(area, buf);
}

/// The two summary rows, then the transition log laid out in columns from `scroll` rows down
/// (one line instead while the first opening, which the log's times give away, is masked).
fn breaker_lines<'a>(
    theme: Theme,
    run: &BrownoutComparison,
    inner: Rect,
    scroll: u16,
    masked: &Masked,
) -> Vec<Line<'a>> {
    let fit = |line: String| fit_width(line, usize::from(inner.width));
    let [timeout_only, with_breaker] = app_rows(run).map(|row| row.fit(usize::from(inner.width), masked));
    let mut lines = vec![
        Line::from(timeout_only),
        Line::from(Span::styled(with_breaker, theme.accent())),
    ];
    if let Some(step) = masked.first_step(LOG_METRICS) {
        lines.push(Line::from(Span::styled(
            fit(format!("transition log {}", placeholder(step))),
            theme.dim(),
        )));
        return lines;
    }
    let columns = usize::from((inner.width / LOG_COLUMN_WIDTH).max(1));
    let log: Vec<String> = run.with_breaker.transitions.iter().map(ToString::to_string).collect();
    if log.is_empty() {
        let breaker = &run.params.breaker;
        // The command line refuses this combination with the same reason (commands/run.rs).
        let why = if breaker.min_calls > breaker.window {
            let (window, min_calls) = (breaker.window, breaker.min_calls);
            let whole = format!(
                "the breaker can never open: the {window}-call window never holds the {min_calls} outcomes min calls needs"
            );
            // At 80 columns the whole reason is cut; the short one keeps both numbers.
            if whole.chars().count() <= usize::from(inner.width) {
                whole
            } else {
                format!("the breaker can never open: min calls {min_calls} > the {window}-call window")
            }
        } else {
            "the breaker never opened".to_string()
        };
        lines.push(Line::from(Span::styled(fit(why), theme.dim())));
        return lines;
    }
    let visible_rows = usize::from(inner.height.saturating_sub(2)).max(1);
    let total_rows = log.len().div_ceil(columns);
    let first_row = usize::from(scroll).min(total_rows.saturating_sub(visible_rows));
    for row in log.chunks(columns).skip(first_row).take(visible_rows) {
        let text: String = row
            .iter()
            .map(|entry| format!("{entry:<width$}", width = usize::from(LOG_COLUMN_WIDTH)))
            .collect();
        lines.push(Line::from(Span::styled(text, theme.dim())));
    }
    lines
}
