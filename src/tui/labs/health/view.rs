//! Lab 1's live screen: the real server child, its probe timeline, what to do next and its log.
//!
//! ```text
//!  Lab 1 · Truthful health and ordered shutdown                                      live · 127.0.0.1
//! ┌ Server ──────────────────────────── started with warm-up 2 s, dereg. 1 s, grace 10 s, work 1.5 s ┐
//! │● not listening · pid 4242 · port 18080                                                           │
//! │database up · /work: 1 in flight, 1 sent · try: curl 127.0.0.1:18080/readyz                       │
//! │                                                                                                  │
//! └ next start: 1 livez checks db: no · 2 readyz checks db: no ──────────────────────────────────────┘
//! ┌ Parameters ──────────────────────────┐┌ Probes every 0.5 s ──────────────────────────── newest → ┐
//! │▸ Warm-up                       2.0 s ││ /livez  200 ██████████████                               │
//! │  ━━━━━━━●──────────────────────────  ││ /readyz 503 ▒▒▒▒████████▒▒                               │
//! │  Deregistration delay          1.0 s ││ in flight           ██████                               │
//! │  Grace period                 10.0 s ││             0s        5s                                 │
//! │  Work duration                 1.5 s │└ █ 200  ▒ 503  · refused  × error ────────────────────────┘
//! │  Probe period                  0.5 s │┌ Next ────────────────────────────────────────────────────┐
//! │                                      ││watch the listener close and the work finish              │
//! │How long after start /readyz keeps    ││                                                          │
//! │answering 503 (caches loading, pools  │└──────────────────────────────────────────────────────────┘
//! │opening).                             │┌ Server output ──────────────────────────────── PgUp/PgDn ┐
//! │                                      ││   0.00s listening on 127.0.0.1:18080                     │
//! │                                      ││   4.00s GET /work                                        │
//! │                                      ││   7.00s stopped listening                                │
//! └ period now · others next start ──────┘└──────────────────────────────────────────────────────────┘
//!  s start/stop  w work  t SIGTERM  d db  m sim  Esc back  ? help
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Sparkline, Widget, Wrap};

use crate::engine::health::Phase;
use crate::engine::health::ProbeMoment;
use crate::learning::reveal::step_check;
use crate::live::health::child::Stream;
use crate::tui::frame::predict::sliders_at_settings;
use crate::tui::frame::view::hidden;
use crate::tui::keys::Context;
use crate::tui::labs::health::live::{LiveHealth, LivePhase, ProbeCell, Round, ServerLife};
use crate::tui::labs::page::PageFrame;
use crate::tui::layout::LabLayout;
use crate::tui::theme::Theme;
use crate::tui::view::footer;
use crate::tui::widgets::panel::panel;
use crate::wrap::wrap_line;

/// Width of the row labels left of the timeline (` /readyz 503 `).
const LABEL_WIDTH: u16 = 13;
/// Columns between two time labels on the axis.
const AXIS_STEP: usize = 10;

/// The live screen whole, its sliders the frame's (`frame.sliders()`), its lesson, prompt
/// and verdict the frame's too.
pub fn render(live: &LiveHealth, frame: &dyn PageFrame, layout: &LabLayout, buf: &mut Buffer) {
    let (theme, lab, sliders) = (frame.theme(), frame.lab(), frame.sliders());
    title(
        theme,
        &format!(" Lab {} · {}", frame.number(), lab.title),
        layout.title,
        buf,
    );
    // The port the next start asks for: the slider's, as `serve health --port` takes it.
    let port = crate::content::params::live_port(sliders);
    server_panel(live, port, theme, layout.results, buf);
    frame.render_params(layout.params, buf);
    // Said where the sliders are: which of them a running server sees.
    let note = Line::from(Span::styled(" period now · others next start ", theme.dim()));
    let bottom = Rect::new(
        layout.params.x + 1,
        layout.params.bottom().saturating_sub(1),
        layout.params.width.saturating_sub(2),
        1,
    );
    note.render(bottom, buf);

    if frame.show_lesson() {
        frame.render_lesson(layout.right, buf);
        frame.render_predict(layout.right, buf);
        return footer(frame, layout.footer, buf);
    }
    let [probes, next, log] =
        Layout::vertical([Constraint::Length(6), Constraint::Length(4), Constraint::Min(3)]).areas(layout.right);
    let period_s = crate::tui::slider::value_of(sliders, "probe_period_s").unwrap_or(0.5);
    // Live, only an open prompt hides the probes (nothing shows before the learner starts a server).
    if let Some(why) = frame.hidden_why() {
        hidden(" Probes ", &why, theme, probes, buf);
    } else {
        probe_panel(live, period_s, theme, probes, buf);
    }
    // A probe decides the step's check only with the sliders at its settings (the server
    // starts at the sliders); else the simulation does, as the prompt says.
    let moment = step_check(lab, frame.step())
        .filter(|check| sliders_at_settings(check, sliders))
        .and_then(|check| {
            check
                .metric
                .as_deref()
                .and_then(crate::learning::metrics::readyz_moment)
        });
    let deregister_s = crate::tui::slider::value_of(sliders, "deregister_s");
    next_panel(live, &step_note(frame), moment, deregister_s, theme, next, buf);
    log_panel(live, theme, log, buf);
    // A guided step's prompt and verdict, over the right panel as on every lab screen.
    frame.render_predict(layout.right, buf);
    footer(frame, layout.footer, buf);
}

fn title(theme: Theme, left: &str, area: Rect, buf: &mut Buffer) {
    let right = "live · 127.0.0.1 ";
    let gap = usize::from(area.width).saturating_sub(left.chars().count() + right.chars().count());
    Line::from(vec![
        Span::styled(left.to_string(), theme.accent()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.accent()),
    ])
    .render(area, buf);
}

/// The style of a phase: green when serving traffic, yellow while not ready, red once gone.
fn phase_style(phase: LivePhase, theme: Theme) -> Style {
    match phase {
        LivePhase::Running(Phase::Ready) => theme.closed(),
        LivePhase::Running(Phase::WarmingUp | Phase::Draining) | LivePhase::Starting => theme.half_open(),
        LivePhase::Running(_) | LivePhase::Exited(_) => theme.open(),
        LivePhase::NotStarted => theme.dim(),
    }
}

pub fn cell_style(cell: ProbeCell, theme: Theme) -> Style {
    match cell {
        ProbeCell::Ok => theme.closed(),
        ProbeCell::Unavailable => theme.half_open(),
        ProbeCell::Other(_) | ProbeCell::Failed => theme.open(),
        ProbeCell::Refused => theme.dim(),
    }
}

fn yes_no(on: bool) -> &'static str {
    if on { "yes" } else { "no" }
}

fn server_panel(live: &LiveHealth, port: u16, theme: Theme, area: Rect, buf: &mut Buffer) {
    let phase = live.phase();
    let dot = if live.running() { "● " } else { "○ " };
    let label = live.phase_label();
    // A label the probes corrected ("not ready: database down") is a warning, whatever the clock says.
    let style = if label == phase.label() {
        phase_style(phase, theme)
    } else {
        theme.half_open()
    };
    let mut first = vec![Span::styled(format!("{dot}{label}"), style)];
    let mut second = Vec::new();
    // The session's figures in fewer words, to share the phase's row when rows run short.
    let mut second_short = Vec::new();
    // How to reach the server by hand: the first part to give way when rows run short.
    let mut hint = None;
    match &live.session {
        Some(session) => {
            // Two spans: the port is the first to give way when a long phase shares its row.
            first.push(Span::raw(format!(" · pid {}", session.pid)));
            first.push(Span::raw(format!(" · port {}", session.port)));
            let database = if session.database_up { "up" } else { "down" };
            second.push(Span::raw(format!(
                "database {database} · /work: {}",
                session.work_summary(" · ")
            )));
            second_short.push(Span::raw(format!(
                "db {database} · /work {}",
                session.work_summary(", ")
            )));
            if session.running() {
                hint = Some(Span::styled(
                    format!(" · try: curl 127.0.0.1:{}/readyz", session.port),
                    theme.key(),
                ));
            }
        }
        None if !live.starting => {
            first.push(Span::raw(format!(
                " · s starts `resilience-lab serve health` on 127.0.0.1:{port}"
            )));
        }
        None => {}
    }
    let flags = format!(
        " next start: 1 livez checks db: {} · 2 readyz checks db: {} ",
        yes_no(live.next_liveness_checks_db),
        yes_no(live.next_readiness_checks_db)
    );
    let status = live.status.clone().unwrap_or_default();
    let mut block = panel(" Server ", theme).title_bottom(Line::from(Span::styled(flags, theme.dim())));
    if let Some(session) = &live.session {
        let c = &session.config;
        let started = format!(
            " started with warm-up {} s, dereg. {} s, grace {} s, work {} s ",
            c.warmup_s, c.deregister_s, c.grace_s, c.work_s
        );
        block = block.title_top(Line::from(Span::styled(started, theme.dim())).right_aligned());
    }
    let inner = block.inner(area);
    let lines = server_lines(
        first,
        [second, second_short],
        hint,
        Line::from(Span::styled(status, theme.text())),
        usize::from(inner.width),
        usize::from(inner.height),
    );
    Paragraph::new(lines).block(block).render(area, buf);
}

/// The server panel's rows: the phase, the session's figures, then the status, which wraps
/// rather than losing its end (a check's instruction ends with the probe that decides it).
/// When the status needs a second row, the figures (in fewer words if need be) join the
/// phase's row and the curl hint gives way; with no session the status takes the empty
/// figures row. A long phase ("not ready: database down") joins them without the port,
/// then without the pid (the spans after `first`'s first); failing that, the figures give
/// way: the status is never cut.
fn server_lines(
    first: Vec<Span<'static>>,
    [second, second_short]: [Vec<Span<'static>>; 2],
    hint: Option<Span<'static>>,
    status: Line<'static>,
    width: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    let status = wrap_line(status, width, 0);
    let mut figures = second.clone();
    // The curl hint only where it fits whole beside the figures.
    if let Some(hint) = hint
        .clone()
        .filter(|hint| Line::from(second.clone()).width() + hint.width() <= width)
    {
        figures.push(hint);
    }
    if 2 + status.len() <= rows {
        return [Line::from(first), Line::from(figures)]
            .into_iter()
            .chain(status)
            .collect();
    }
    if second.is_empty() {
        return std::iter::once(Line::from(first)).chain(status).collect();
    }
    let join = |head: usize, figures: &[Span<'static>]| {
        let mut joined: Vec<Span<'static>> = first.iter().take(head).cloned().collect();
        joined.push(Span::raw(" · "));
        joined.extend(figures.iter().cloned());
        Line::from(joined)
    };
    let all = first.len();
    let joined = [join(all, &second), join(all, &second_short)]
        .into_iter()
        .chain((1..all).rev().map(|head| join(head, &second_short)))
        .find(|joined| joined.width() <= width);
    match joined {
        Some(joined) => std::iter::once(joined).chain(status).collect(),
        // No room to join them: the figures give way, so the status keeps its rows.
        None if status.len() < rows => std::iter::once(Line::from(first)).chain(status).collect(),
        None => [Line::from(first), Line::from(figures)]
            .into_iter()
            .chain(status)
            .collect(),
    }
}

/// The time labels under the timeline: the send time of every `AXIS_STEP`th round, where it fits.
pub fn axis_line(rounds: &[Round], width: usize) -> String {
    let mut line = vec![' '; width];
    let mut free_from = 0;
    for (column, round) in rounds.iter().enumerate().step_by(AXIS_STEP) {
        let seconds = if (round.at_s - round.at_s.round()).abs() < 0.05 {
            format!("{:.0}s", round.at_s)
        } else {
            format!("{:.1}s", round.at_s)
        };
        if column < free_from || column + seconds.len() > width {
            continue;
        }
        for (offset, ch) in seconds.chars().enumerate() {
            line[column + offset] = ch;
        }
        free_from = column + seconds.len() + 1;
    }
    line.into_iter().collect::<String>().trim_end().to_string()
}

fn probe_panel(live: &LiveHealth, period_s: f64, theme: Theme, area: Rect, buf: &mut Buffer) {
    let title = format!(" Probes every {period_s} s ");
    let mut block = panel(&title, theme);
    let probing = live.session.as_ref().is_some_and(|s| s.probing);
    let right = match &live.session {
        Some(_) if probing => " newest → ",
        Some(_) => " probes stopped ",
        None => " none yet ",
    };
    block = block
        .title_top(Line::from(Span::styled(right, theme.dim())).right_aligned())
        .title_bottom(Line::from(vec![
            Span::raw(" "),
            Span::styled("█ 200", cell_style(ProbeCell::Ok, theme)),
            Span::styled("  ▒ 503", cell_style(ProbeCell::Unavailable, theme)),
            Span::styled("  · refused", cell_style(ProbeCell::Refused, theme)),
            Span::styled("  × error ", cell_style(ProbeCell::Failed, theme)),
        ]));
    let inner = block.inner(area);
    block.render(area, buf);
    let cells_width = usize::from(inner.width.saturating_sub(LABEL_WIDTH));
    let empty: &[Round] = &[];
    let rounds = live.session.as_ref().map_or(empty, |s: &ServerLife| &s.rounds[..]);
    let visible = &rounds[rounds.len().saturating_sub(cells_width)..];
    // Each row's label ends with its latest code, so the codes read without the colours.
    let row = |label: &str, pick: fn(&Round) -> Option<ProbeCell>| {
        let latest = visible.iter().rev().find_map(pick);
        let code = latest.map_or(String::new(), ProbeCell::code);
        let mut spans = vec![
            Span::styled(format!(" {label:<8}"), theme.dim()),
            Span::styled(
                format!("{code:>3} "),
                latest.map_or(theme.dim(), |cell| cell_style(cell, theme)),
            ),
        ];
        spans.extend(visible.iter().map(|round| match pick(round) {
            Some(cell) => Span::styled(cell.glyph().to_string(), cell_style(cell, theme)),
            None => Span::raw(" "),
        }));
        Line::from(spans)
    };
    let lines = [
        row("/livez", |r| r.livez),
        row("/readyz", |r| r.readyz),
        // Requests to /work sent from here and not finished: the sparkline drawn over this row.
        Line::from(Span::styled(" in flight", theme.dim())),
        Line::from(vec![
            Span::raw(" ".repeat(usize::from(LABEL_WIDTH))),
            Span::styled(axis_line(visible, cells_width), theme.dim()),
        ]),
    ];
    for (offset, line) in lines.into_iter().enumerate() {
        let y = inner.y + offset as u16;
        if y < inner.bottom() {
            line.render(Rect::new(inner.x, y, inner.width, 1), buf);
        }
    }
    // In-flight /work under the cells, column for column.
    let spark_y = inner.y + 2;
    if spark_y < inner.bottom() && !visible.is_empty() {
        let data: Vec<u64> = visible.iter().map(|r| u64::from(r.in_flight)).collect();
        let top = data.iter().copied().max().unwrap_or(0).max(1);
        Sparkline::default().data(data).max(top).style(theme.series(3)).render(
            Rect::new(
                inner.x + LABEL_WIDTH,
                spark_y,
                inner.width.saturating_sub(LABEL_WIDTH),
                1,
            ),
            buf,
        );
    }
}

/// What to do next in the server's phase; a guided step's check is asked with `p` first.
/// On a step without a check, `step_note` says so instead (and where the lab goes on).
/// `moment` is the probe that decides the current step's check live, if one does.
fn next_panel(
    live: &LiveHealth,
    step_note: &Option<String>,
    moment: Option<ProbeMoment>,
    deregister_s: Option<f64>,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let next = match step_note {
        Some(note) if matches!(live.phase(), LivePhase::NotStarted | LivePhase::Exited(_)) => note.clone(),
        // The running server's keys, without the `p` of a check this step does not have.
        Some(_) if matches!(live.phase(), LivePhase::Running(Phase::WarmingUp | Phase::Ready)) => {
            "w sends /work, then t sends SIGTERM".to_string()
        }
        _ => next_step(live, moment, deregister_s),
    };
    Paragraph::new(Line::from(Span::styled(next, theme.dim())))
        .wrap(Wrap { trim: true })
        .block(panel(" Next ", theme))
        .render(area, buf);
}

/// For the current guided step when it has no check: nothing to predict, `]` marks it done,
/// and, at the view's last step, where the lab goes on (Lab 1's fleet view, key F).
fn step_note(frame: &dyn PageFrame) -> Option<String> {
    let step = frame.step();
    if frame.lab().steps.get(step)?.check.is_some() {
        return None;
    }
    // A step already done is not asked for again.
    let elsewhere = frame.steps_elsewhere(step);
    let done = match (frame.step_done(step), &elsewhere) {
        (true, Some(_)) => format!("step {} ✓ done.", step + 1),
        (true, None) => format!("step {} ✓ done: ] goes on.", step + 1),
        (false, _) => format!("step {}: nothing to predict, ] marks it done.", step + 1),
    };
    Some(match elsewhere {
        Some(elsewhere) => format!("{done} {elsewhere}"),
        None => done,
    })
}

/// The guided step for the phase: predict (p) before the action that decides the current
/// step's check (`moment`: the start or SIGTERM; `None` for a check no live probe decides).
/// After an exit, what to try next suits the sliders as they stand (`deregister_s`): a
/// deregistration delay already at 0 is not suggested again.
fn next_step(live: &LiveHealth, moment: Option<ProbeMoment>, deregister_s: Option<f64>) -> String {
    let livez = if live.next_liveness_checks_db {
        "d (livez checks db)"
    } else {
        "d with 1 (livez checks db)"
    };
    match (live.phase(), deregister_s) {
        (LivePhase::Exited(_), Some(0.0)) => {
            return "s starts again: at deregistration 0 s, w, t, w: the second /work is refused".to_string();
        }
        (LivePhase::Exited(_), _) => return format!("s starts again: try deregistration 0 s, or {livez}"),
        _ => {}
    }
    next_step_keys(live, moment).to_string()
}

/// The guided step's keys in the server's phase, before any exit.
fn next_step_keys(live: &LiveHealth, moment: Option<ProbeMoment>) -> &'static str {
    match (live.phase(), moment) {
        (LivePhase::NotStarted, Some(ProbeMoment::AfterStart(_))) => {
            "p predicts what /readyz answers after the start, then s starts the server"
        }
        (LivePhase::NotStarted, Some(ProbeMoment::AfterSigterm(_))) => {
            "p predicts /readyz after SIGTERM; then s starts the server and t sends SIGTERM"
        }
        (LivePhase::NotStarted, None) => "s starts the server; p predicts this step's check (the simulation scores it)",
        (LivePhase::Starting, _) => "starting ...",
        (LivePhase::Running(Phase::WarmingUp | Phase::Ready), Some(ProbeMoment::AfterStart(_))) => {
            "w sends /work, t sends SIGTERM; s stops it, p predicts the next start"
        }
        (LivePhase::Running(Phase::WarmingUp | Phase::Ready), Some(ProbeMoment::AfterSigterm(_))) => {
            "w sends /work; p predicts /readyz after SIGTERM, then t sends it"
        }
        (LivePhase::Running(Phase::WarmingUp | Phase::Ready), None) => {
            "w sends /work, t SIGTERM; p predicts this step's check (the sim scores it)"
        }
        (LivePhase::Running(_) | LivePhase::Exited(_), _) => "watch the listener close and the work finish",
    }
}

fn log_panel(live: &LiveHealth, theme: Theme, area: Rect, buf: &mut Buffer) {
    // Probe request lines are counted, not shown: the timeline has them.
    let hidden = if live.log_hidden > 0 {
        " probes hidden · PgUp/PgDn "
    } else {
        " PgUp/PgDn "
    };
    let block =
        panel(" Server output ", theme).title_top(Line::from(Span::styled(hidden, theme.dim())).right_aligned());
    let rows = usize::from(block.inner(area).height);
    let end = live.log.len().saturating_sub(usize::from(live.log_scroll));
    let start = end.saturating_sub(rows);
    let lines: Vec<Line> = live.log[start..end.max(start)]
        .iter()
        .map(|line| {
            let style = match line.stream {
                Stream::Stdout => theme.text(),
                Stream::Stderr => theme.dim(),
            };
            Line::from(vec![
                Span::styled(format!("{:7.2}s ", line.at_s), theme.dim()),
                Span::styled(line.text.clone(), style),
            ])
        })
        .collect();
    Paragraph::new(lines).block(block).render(area, buf);
}

/// The live keys from the key table, then back and help; a prompt's or verdict's own keys
/// while one is open (the live keys wait for it).
fn footer(frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
    let theme = frame.theme();
    let context = frame.context();
    if matches!(context, Context::Predict | Context::Observed | Context::Note) {
        return footer::render_keys(context, theme, area, buf);
    }
    // The frame's rule, as every live page's: its live keys, then the lab's (predict, lesson).
    footer::render_entries(crate::tui::frame::view::footer_keys(frame), theme, area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(id: u64, at_s: f64) -> Round {
        Round {
            id,
            at_s,
            livez: None,
            readyz: None,
            in_flight: 0,
        }
    }

    #[test]
    fn axis_labels_every_tenth_round_where_they_fit() {
        let rounds: Vec<Round> = (0..25).map(|i| round(i, i as f64 * 0.5)).collect();
        assert_eq!(axis_line(&rounds, 25), "0s        5s        10s");
        assert_eq!(axis_line(&rounds, 22), "0s        5s");
        let offset: Vec<Round> = (0..11).map(|i| round(i, 0.25 + i as f64 * 0.5)).collect();
        assert_eq!(axis_line(&offset, 20), "0.2s      5.2s");
    }
}
