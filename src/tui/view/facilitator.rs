//! A facilitator's screen (`oncall --gm`): the hidden incident above what on-call sees.
//!
//! ```text
//!  Facilitator: on-call drill at 127.0.0.1:PORT   t=123 s of 420   500 ms/s   running
//! ┌ Hidden incident (on-call does not see this) ─────────────────────────────┐
//! │ recommendations-hang on recommendations, onset t=87 s                     │
//! │ title; the file's settings; second faults                                │
//! └──────────────────────────────────────────────────────────────────────────┘
//! ┌ What on-call sees ───────────────────────────────────────────────────────┐
//! │ goodput, attempts/request, p99, workers; one line a dependency; alerts    │
//! └──────────────────────────────────────────────────────────────────────────┘
//! ┌ Decision log and owners' hints ──────────────────────────────────────────┐
//!  the last command's fate
//!  f second fault  h call owner  E end  q quit
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use crate::engine::oncall::FacilitatorView;
use crate::engine::oncall::sim::WORKERS;
use crate::tui::screens::facilitator::{FacilitatorScreen, FacilitatorStage, FaultPick};
use crate::tui::theme::Theme;
use crate::tui::view::footer;
use crate::tui::view::oncall::{LOG_TEXT_COLUMN, bordered, title_line};

pub fn render(screen: &FacilitatorScreen, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [title, body, status, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    footer::render_keys(screen.context(), theme, foot, buf);
    if let Some(said) = &screen.status {
        Line::styled(format!(" {said}"), theme.dim()).render(status, buf);
    }
    let Some(view) = &screen.view else {
        Line::styled(
            format!(" Facilitator: waiting for the drill at {}", screen.reached_at),
            theme.accent(),
        )
        .render(title, buf);
        return;
    };
    render_title(view, &screen.reached_at, theme, title, buf);
    let hidden_rows = 3 + view.extra_faults.len().max(1) as u16;
    let [hidden, seen, log] = Layout::vertical([
        Constraint::Length(hidden_rows + 2),
        // The headline, a row a dependency, the alerts and the levers pulled.
        Constraint::Length(9),
        Constraint::Fill(1),
    ])
    .areas(body);
    render_hidden(view, theme, hidden, buf);
    render_seen(view, theme, seen, buf);
    render_log(view, theme, log, buf);
    match &screen.stage {
        FacilitatorStage::Faults(pick) => render_faults(screen, pick, theme, body, buf),
        FacilitatorStage::Hints(selected) => render_hints(screen, *selected, theme, body, buf),
        FacilitatorStage::ConfirmEnd => render_confirm(theme, body, buf),
        FacilitatorStage::Watch => {}
    }
}

fn render_title(view: &FacilitatorView, at: &str, theme: Theme, area: Rect, buf: &mut Buffer) {
    let state = match (view.ended, view.paused) {
        (true, _) => match view.score {
            Some(score) => format!("ended: score {score}"),
            None => "ended".to_string(),
        },
        (false, _) if view.live => "live on 127.0.0.1".to_string(),
        (false, true) => "paused".to_string(),
        (false, false) => "running".to_string(),
    };
    let clock = format!(
        " at {at}   t={} s of {}   {} ms/s   {state}",
        view.t_s, view.drill_s, view.speed_ms
    );
    title_line(" Facilitator", clock, theme).render(area, buf);
}

fn render_hidden(view: &FacilitatorView, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = bordered(" Hidden incident (on-call does not see this) ".to_string(), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = vec![
        Line::from(vec![
            Span::styled(format!(" {}", view.incident), theme.accent()),
            Span::raw(format!(" on {}, onset t={} s", view.dependency, view.onset_s)),
        ]),
        Line::from(format!(" {}", view.title)),
        Line::styled(format!(" {}", view.settings.join(", ")), theme.dim()),
    ];
    if view.extra_faults.is_empty() {
        lines.push(Line::styled(" second faults: none (f adds one)", theme.dim()));
    }
    for fault in &view.extra_faults {
        lines.push(Line::from(vec![
            Span::styled(" second fault ", theme.dim()),
            Span::styled(fault.incident.clone(), theme.accent()),
            Span::raw(format!(" on {} from t={} s", fault.dependency, fault.from_s)),
        ]));
    }
    Paragraph::new(lines).render(inner, buf);
}

fn render_seen(view: &FacilitatorView, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = bordered(" What on-call sees ".to_string(), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = Vec::new();
    match &view.signals {
        None => lines.push(Line::styled(" the first drill second is under way", theme.dim())),
        Some(s) => lines.push(Line::from(format!(
            " goodput {:>2}/s of {}  att/req {:.2}  p99 {:>4.0} ms  workers {:>2}/{WORKERS}  failed {}/s",
            s.goodput, view.baseline_goodput, s.attempts_per_request, s.p99_ms, s.workers_busy, s.failed
        ))),
    }
    for dep in &view.deps {
        lines.push(Line::from(format!(
            " {:<15} {:>5} att {:>5} err  p99 {:>5.0} ms  {}",
            dep.name, dep.attempts, dep.errors, dep.p99_ms, dep.breaker
        )));
    }
    let alerts = if view.alerts.is_empty() {
        "none".to_string()
    } else {
        view.alerts.join("; ")
    };
    lines.push(Line::styled(format!(" alerts: {alerts}"), theme.dim()));
    let pulled = if view.pulled.is_empty() {
        "none".to_string()
    } else {
        view.pulled.join(", ")
    };
    lines.push(Line::styled(format!(" pulled now: {pulled}"), theme.dim()));
    Paragraph::new(lines).render(inner, buf);
}

fn render_log(view: &FacilitatorView, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = bordered(" On-call's decision log and the owners' hints ".to_string(), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    // (drill second, line): decisions and hints in the order they happened.
    let mut entries: Vec<(f64, Line)> = Vec::new();
    for d in &view.decisions {
        entries.push((
            d.t_s,
            Line::from(vec![
                Span::styled(format!(" t={:>3} s ", d.t_s), theme.dim()),
                Span::styled(d.lever.clone(), theme.accent()),
                Span::raw(format!("  why: {}  expected: {}", d.why, d.expected)),
            ]),
        ));
    }
    for h in &view.hints {
        entries.push((
            h.t_s as f64,
            Line::from(vec![
                Span::styled(format!(" t={:>3} s ", h.t_s), theme.dim()),
                Span::styled("hint sent", theme.accent()),
                Span::raw(format!("  {}", h.text)),
            ]),
        ));
    }
    entries.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut lines: Vec<Line> = entries.into_iter().map(|(_, line)| line).collect();
    if view.ended {
        let who = if view.ended_by_facilitator {
            "you ended the drill"
        } else {
            "on-call or the clock ended the drill"
        };
        lines.push(Line::styled(
            format!(" {who}: on-call's screen shows the reveal"),
            theme.accent(),
        ));
    }
    if lines.is_empty() {
        lines.push(Line::styled(" no lever pulled, no hint sent yet", theme.dim()));
    }
    // A long entry wraps under its text, past its `t=... s`, as on-call's own log does.
    let wrapped: Vec<Line> = lines
        .into_iter()
        .flat_map(|line| crate::wrap::wrap_line(line, usize::from(inner.width), LOG_TEXT_COLUMN))
        .collect();
    let paragraph = Paragraph::new(wrapped);
    let rows = paragraph.line_count(inner.width) as u16;
    paragraph
        .scroll((rows.saturating_sub(inner.height), 0))
        .render(inner, buf);
}

fn overlay(area: Rect, width: u16, height: u16, title: &str, theme: Theme, buf: &mut Buffer) -> Rect {
    let rect = crate::tui::layout::centred(area, width, height);
    Clear.render(rect, buf);
    let block = bordered(title.to_string(), theme);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

fn pointer_line(text: String, selected: bool, theme: Theme) -> Line<'static> {
    let (pointer, style) = if selected {
        ("▸", theme.selected())
    } else {
        (" ", theme.text())
    };
    Line::styled(format!("{pointer} {text}"), style)
}

fn render_faults(screen: &FacilitatorScreen, pick: &FaultPick, theme: Theme, area: Rect, buf: &mut Buffer) {
    let offer = screen.fault_offer();
    let mut lines: Vec<Line> = offer
        .iter()
        .enumerate()
        .map(|(i, incident)| pointer_line(incident.name.clone(), i == pick.selected, theme))
        .collect();
    // The highlighted fault's settings, whole, under the list.
    if let Some(incident) = offer.get(pick.selected) {
        lines.push(Line::from(""));
        lines.push(Line::styled(
            format!(" {}", incident.settings_lines().join(", ")),
            theme.dim(),
        ));
    }
    let dep = screen.pick_dependency(pick).map_or("-", |d| d.name());
    let whose = if pick.dependency.is_none() { " (its file's)" } else { "" };
    lines.push(Line::from(format!(" on: {dep}{whose}   Tab: another dependency")));
    lines.push(Line::styled(
        " on-call sees only its effect on the signals",
        theme.dim(),
    ));
    let inner = overlay(
        area,
        72,
        lines.len() as u16 + 2,
        " A second fault, from now on ",
        theme,
        buf,
    );
    Paragraph::new(lines).wrap(Wrap { trim: false }).render(inner, buf);
}

fn render_hints(screen: &FacilitatorScreen, selected: usize, theme: Theme, area: Rect, buf: &mut Buffer) {
    let offer = screen.hint_offer();
    let width = 76.min(area.width);
    let mut lines = Vec::new();
    for (row, (_, who, text)) in offer.into_iter().enumerate() {
        lines.push(pointer_line(who, row == selected, theme));
        lines.push(Line::styled(format!("   {text}"), theme.dim()));
    }
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
    // As tall as the wrapped hints, so that none is cut (the screen is the limit).
    let rows = paragraph.line_count(width.saturating_sub(2)) as u16;
    let title = " Call the owner: their hint goes into on-call's log ";
    let inner = overlay(area, width, rows + 2, title, theme, buf);
    paragraph.render(inner, buf);
}

fn render_confirm(theme: Theme, area: Rect, buf: &mut Buffer) {
    let inner = overlay(area, 60, 5, " End the drill? ", theme, buf);
    Paragraph::new(vec![
        Line::from(" Enter ends it: on-call's screen reveals the incident,"),
        Line::from(" the score counts, the debrief says you ended it."),
        Line::styled(" Esc: let it run", theme.dim()),
    ])
    .render(inner, buf);
}
