//! The chart panel of Lab 1's first page: the simulated driver's timeline. (Labs 2 to 5
//! draw their own, in their folders under `tui/labs/`.)

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::health::DriverRun;
use crate::learning::metrics;
use crate::learning::reveal::{Masked, placeholder};
use crate::tui::screens::lab::sim::LabResults;
use crate::tui::theme::Theme;
use crate::tui::view::lab::LabView;
use crate::tui::widgets::panel::panel;
use crate::wrap::wrap_line;

pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    let (theme, state) = (view.theme, view.screen);
    let masked = view.masked();
    let Some(LabResults::Health(run)) = state.shown_results() else {
        return;
    };
    health_timeline(run, &masked, state.log_scroll, theme, area, buf);
}

/// The metric of the probe a timeline line reports, if it is one (`/readyz 503` at 2.9 s is
/// `health.readyz_draining_code`).
fn probe_metric(run: &DriverRun, entry: &crate::engine::health::TimedLine) -> Option<String> {
    let probe = run
        .probes
        .iter()
        .position(|probe| probe.t_s == entry.t_s && probe.line() == entry.line)?;
    metrics::health_probe_metric(run, probe)
}

fn health_timeline(run: &DriverRun, masked: &Masked, scroll: u16, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = panel(" Simulated driver timeline (PgUp/PgDn) ", theme);
    let inner = block.inner(area);
    let visible = usize::from(inner.height);
    // A long line ("grace period over: abandoning 2 in-flight request(s)") wraps under its text,
    // not under its time: cut at the panel's edge it lost its end at 100x30. Scrolling is by row.
    let stamp_width = " t=  0.00 s  ".len();
    let rows: Vec<Line> = run
        .timeline
        .iter()
        .flat_map(|entry| {
            // A probe whose code a check asks for shows its path, not its code.
            let text = match probe_metric(run, entry).and_then(|metric| masked.step(&metric)) {
                Some(step) => {
                    let path = entry.line.split(' ').next().unwrap_or_default();
                    format!("{path} {}", placeholder(step))
                }
                None => entry.line.clone(),
            };
            let line = Line::from(vec![
                Span::styled(format!(" t={:6.2} s  ", entry.t_s), theme.dim()),
                Span::raw(text),
            ]);
            wrap_line(line, usize::from(inner.width), stamp_width)
        })
        .collect();
    let first = usize::from(scroll).min(rows.len().saturating_sub(visible));
    let lines: Vec<Line> = rows.into_iter().skip(first).collect();
    Paragraph::new(lines).block(block).render(area, buf);
}
