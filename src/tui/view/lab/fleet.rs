//! Lab 1's fleet view inside the lab screen: the design and its totals on top, the fleet
//! sliders on the left, the fleet itself on the right (`tui/view/fleet.rs`: a state band per
//! replica with its RESTARTS, the Service's endpoints, requests per second, the database).
//!
//! ```text
//!  Lab 1 · Truthful health and ordered shutdown · fleet          simulated clock · F one server
//! ┌ Fleet: liveness-checks-db ─────────────────────────────────────────────────────────────┐
//! │ /livez checks the database · /readyz process-local · database down 30-330 s              │
//! │ restarts 12 (first 61.0 s) · no ready endpoint 286.0 s · ok 410 degraded 340 ...         │
//! └──────────────────────────────────────────────────────────────────────────────────────────┘
//! ┌ Fleet parameters ──────┐┌ fleet (sim) · liveness-checks-db · 3 replicas ─────────────────┐
//! │▸ Scenario            0 ││ NAME      RST 0 s                                      600 s │
//! │  ...                   ││ fleet-0     4 ████▒▒▒░░░░...                                  │
//! └────────────────────────┘└────────────────────────────────────────────────────────────────┘
//!  F one server  d/w/u db  l/r probes  o roll  c scenario  p predict  ? help
//! ```

use ratatui::buffer::Buffer;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::engine::fleet::FleetRun;
use crate::tui::keys::{self, Context};
use crate::tui::layout::LabLayout;
use crate::tui::screens::lab::fleet::FleetPanel;
use crate::tui::view::fleet::{self as fleet_view, FleetView};
use crate::tui::view::footer;
use crate::tui::view::lab::{LabView, lesson, params, predict};

pub fn render(view: &LabView, panel: &FleetPanel, layout: &LabLayout, buf: &mut Buffer) {
    let theme = view.theme;
    let left = format!(" Lab {} · {} · fleet", view.number, view.lab.title);
    let mut right = "simulated clock · F one server ";
    if left.chars().count() + right.chars().count() > layout.title.width as usize {
        right = "sim · F one server ";
    }
    let gap = (layout.title.width as usize).saturating_sub(left.chars().count() + right.chars().count());
    Line::from(vec![
        Span::styled(left, theme.accent()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.dim()),
    ])
    .render(layout.title, buf);

    let block = Block::bordered()
        .title(Span::styled(
            format!(" Fleet: {} ", panel.scenario().name()),
            theme.accent(),
        ))
        .border_style(theme.border());
    Paragraph::new(summary(&panel.run))
        .block(block)
        .style(theme.text())
        .render(layout.results, buf);

    // The sliders that fit, the focused one always among them.
    let rows = usize::from(layout.params.height.saturating_sub(6));
    let first = panel.first_shown(rows);
    let shown = &panel.sliders[first..(first + rows.max(1)).min(panel.sliders.len())];
    let title = format!(" Fleet parameters {}/{} ", panel.focus + 1, panel.sliders.len());
    params::render_sliders(&title, shown, panel.focus - first, None, theme, layout.params, buf);

    if view.screen.show_lesson {
        lesson::render(view, layout.right, buf);
    } else {
        let fleet = FleetView {
            run: &panel.run,
            mode: "sim",
        };
        fleet_view::render(&fleet, theme, layout.right, buf);
    }
    predict::render(view, layout.right, buf);
    let mut entries = keys::footer_keys(Context::Fleet);
    entries.extend(["p predict", "L lesson", "? help"]);
    footer::render_entries(entries, theme, layout.footer, buf);
}

/// Three lines: the design, the totals, and the clock the run is on.
fn summary(run: &FleetRun) -> Vec<Line<'static>> {
    let p = &run.params;
    let checks = |yes: bool| if yes { "checks the database" } else { "process-local" };
    let database = match p.database.first() {
        Some(w) => format!("database {} {:.0}-{:.0} s", w.state.word(), w.start_s, w.end_s),
        None => "database up".to_string(),
    };
    let roll = p.roll_at_s.map(|t| format!(" · roll at {t:.0} s")).unwrap_or_default();
    let design = format!(
        "/livez {} · /readyz {} · {database}{roll}",
        checks(p.server.liveness_checks_db),
        checks(p.server.readiness_checks_db)
    );
    let first = run
        .first_restart_s()
        .map(|t| format!(" (first {t:.1} s)"))
        .unwrap_or_default();
    let r = &run.requests;
    let totals = format!(
        "restarts {}{first} · no ready endpoint {:.1} s · ok {} degraded {} failed {} refused {}",
        run.total_restarts(),
        run.no_ready_endpoint_s,
        r.ok,
        r.degraded,
        r.failed,
        r.refused
    );
    let clock = format!(
        "{:.0} model seconds, simulated at once (live: run fleet --live --time-scale 0.1)",
        p.duration_s
    );
    vec![Line::from(design), Line::from(totals), Line::from(clock)]
}
