//! Lab 4's results and charts, sim and live, drawn with the chart functions of
//! `tui/view/overload.rs`.
//!
//! ```text
//! ┌ Results ──────────────────────────────────────────────────────────────┐
//! │ 100 workers x 50 ms = 2,000/s · offered 2,500/s · FIFO · timeout 1000 ms │
//! │ per s: goodput 1,160 · wasted 840 · refused 0 · queue max 5,000 · ...  │
//! │ v view: curves · m live: 8 slots x 20 ms = 400/s on 127.0.0.1          │
//! └───────────────────────────────────────────────────────────────────────┘
//!  right: curves + queue | outcomes + throttle | bulkhead     (v cycles)
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::overload::OverloadRun;
use crate::tui::screens::lab::Mode;
use crate::tui::screens::lab::overload::{LIVE_SERVICE_MS, LIVE_WORKERS, OverloadLive, OverloadView};
use crate::tui::screens::lab::sim::{LabResults, OverloadResults};
use crate::tui::view::lab::LabView;
use crate::tui::view::lab::results::fit_width;
use crate::tui::view::overload::{
    bulkhead_view, goodput_curves, outcomes_per_second, queue_over_time, short_name, throttle_view,
};
use crate::tui::widgets::panel::panel;

fn parts<'a>(view: &'a LabView) -> Option<(&'a OverloadResults, Option<&'a OverloadLive>)> {
    let LabResults::Overload(results) = &view.screen.results else {
        return None;
    };
    let live = (view.screen.mode == Mode::Live)
        .then(|| view.screen.live.overload())
        .flatten();
    Some((results, live))
}

/// The view `v` chose (kept in the live part, so it is the same in both modes).
fn chosen_view(view: &LabView) -> OverloadView {
    view.screen
        .live
        .overload()
        .map_or_else(OverloadView::default, |part| part.view)
}

/// Per-second rates of `run` at the lesson's scale (`factor` reads a live run back).
fn rates_line(label: &str, run: &OverloadRun, factor: f64) -> String {
    let t = &run.totals;
    let seconds = run.params.duration_s.max(1e-9);
    let per_s = |n: u64| n as f64 * factor / seconds;
    format!(
        "{label} per s: goodput {:.0} · wasted {:.0} · refused {:.0} · timed out {:.0} · queue max {}",
        per_s(t.goodput),
        per_s(t.wasted),
        per_s(t.refused),
        per_s(t.timed_out),
        (t.max_queue_len as f64 * factor).round()
    )
}

/// The three lines of the run's numbers.
pub fn render_results(view: &LabView, area: Rect, buf: &mut Buffer) {
    let theme = view.theme;
    let block = panel(" Results ", theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let Some((results, live)) = parts(view) else { return };
    let run = &results.recompute.run;
    let p = &run.params;
    let width = usize::from(inner.width);
    let mut lines = vec![Line::from(fit_width(
        format!(
            "{} workers x {} ms = {:.0}/s · offered {:.0}/s · {} · timeout {} ms",
            p.workers,
            p.service_ms,
            run.capacity_per_s,
            p.offered_per_s,
            short_name(p.policy),
            p.client_timeout_ms
        ),
        width,
    ))];
    let view_name = chosen_view(view);
    match live {
        None => {
            let wait = run
                .seconds
                .iter()
                .find(|s| s.t_s == 2.0)
                .map_or(String::new(), |s| format!(" · wait at 2 s {:.2} s", s.queue_wait_s));
            lines.push(Line::from(fit_width(
                format!("{}{wait}", rates_line("sim", run, 1.0)),
                width,
            )));
            lines.push(Line::styled(
                fit_width(
                    format!(
                        "v view: {} · m live: {LIVE_WORKERS} slots x {LIVE_SERVICE_MS} ms = 400/s on 127.0.0.1",
                        view_name.name()
                    ),
                    width,
                ),
                theme.dim(),
            ));
        }
        Some(live) => {
            let line = match (&live.measured, live.seconds.last(), &live.started) {
                (Some(measured), _, Some(started)) => rates_line("live", measured, started.1),
                (None, Some(last), Some(started)) => format!(
                    "live t={:.0} s · this second, lesson scale: goodput {:.0} · wasted {:.0} · refused {:.0} · queue {:.0}",
                    last.t_s,
                    last.goodput as f64 * started.1,
                    last.wasted as f64 * started.1,
                    last.refused as f64 * started.1,
                    last.queue_len as f64 * started.1
                ),
                _ => "live: s starts a 10 s run (server and client on 127.0.0.1)".to_string(),
            };
            lines.push(Line::from(fit_width(line, width)));
            let status = live.status.clone().unwrap_or_else(|| {
                format!(
                    "live scale {LIVE_WORKERS} slots x {LIVE_SERVICE_MS} ms = 400/s, same ratios · v view: {} · s start/stop",
                    view_name.name()
                )
            });
            lines.push(Line::styled(fit_width(status, width), theme.dim()));
        }
    }
    Paragraph::new(lines).render(inner, buf);
}

/// The view `v` chose: the curves and queue, the outcomes and throttle, or the bulkhead.
pub fn render_charts(view: &LabView, area: Rect, buf: &mut Buffer) {
    let theme = view.theme;
    let Some((results, live)) = parts(view) else { return };
    let chosen = chosen_view(view);
    let sim = &results.recompute;
    let live_points = live.map_or(&[][..], |l| &l.points[..]);
    // A finished live run's queue and outcomes replace the simulated ones (at the live scale).
    let shown_run = live.and_then(|l| l.measured.as_deref()).unwrap_or(&sim.run);
    let [top, bottom] = Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(area);
    match chosen {
        OverloadView::Curves => {
            goodput_curves(sim, live_points, theme, top, buf);
            queue_over_time(shown_run, theme, bottom, buf);
        }
        OverloadView::Outcomes => {
            match live {
                Some(l) if !l.seconds.is_empty() => {
                    let duration = l.started.as_ref().map_or(10.0, |started| started.0.duration_s);
                    outcomes_per_second(&l.seconds, duration, theme, top, buf);
                }
                _ => outcomes_per_second(&sim.run.seconds, sim.run.params.duration_s, theme, top, buf),
            }
            throttle_view(&sim.run, theme, bottom, buf);
        }
        OverloadView::Bulkhead => bulkhead_view(&results.bulkhead, theme, area, buf),
    }
}
