//! The Charts panel of Lab 1's first page: the simulated driver's timeline.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::health::DriverRun;
use crate::learning::metrics;
use crate::learning::reveal::{Masked, placeholder};
use crate::tui::labs::page::PageFrame;
use crate::tui::theme::Theme;
use crate::tui::widgets::panel::panel;
use crate::wrap::wrap_line;

/// `run` is the run shown (an open verdict's, else the sliders').
pub fn render(run: &DriverRun, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
    health_timeline(run, &frame.masked(), frame.log_scroll(), frame.theme(), area, buf);
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
    // With the driver's own sends (`/work`, SIGTERM): the step's text asks to read them here.
    let rows: Vec<Line> = run
        .timeline_with_driver()
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
