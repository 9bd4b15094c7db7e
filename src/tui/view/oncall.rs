//! The on-call drill screen: what on-call sees, and after the end, the reveal.
//!
//! ```text
//!  On call: checkout-api   t=123 s of 420   500 ms a drill second   running
//! ┌ Signals, last drill second ──────────────────────────────────────────────┐
//! │ goodput 70/s, 10 s mean 70 (calm 70)  attempts/request 1.00  p99 ...      │
//! │ dependency      kind  rate/s errors  p99 ms satur. att/call breaker  ... │
//! │ payments        hard     100      0     150    37%     1.00 closed       │
//! │ ...                                                                      │
//! │ goodput, last 60 s ▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▃▂▁▁▁▂▃▅▇                          │
//! └──────────────────────────────────────────────────────────────────────────┘
//! ┌ Alerts (windows time-scaled x10) ────────────────────────────────────────┐
//! ┌ Decision log ────────────────────────────────────────────────────────────┐
//!  Space pause  +/- speed  l levers  E end  Esc home  ? help
//! ```
//!
//! Before the reveal everything drawn comes from [`OncallView`], which has no field for
//! the incident: the hiding rule holds by construction, and tests/it/oncall/hiding.rs
//! checks the drawn text too. The picker and the form are overlays on the same screen.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Sparkline, Widget, Wrap};

use crate::engine::oncall::incident::IncidentSpec;
use crate::engine::oncall::play::{ALERT_RULES, DepProbe};
use crate::engine::oncall::score::{ATTEMPTS_AFTER_S, ATTEMPTS_LIMIT};
use crate::engine::oncall::sim::{DRILL_S, WORKERS};
use crate::engine::oncall::{OncallReveal, OncallView, OwnerHint};
use crate::report::oncall::{expected_effect, or_never, restored_in_order_words, timeline};
use crate::tui::keys::Context;
use crate::tui::screens::oncall::{FormField, LeverForm, OncallScreen, OncallStage};
use crate::tui::theme::Theme;
use crate::tui::view::footer;

/// The Atlas's `for` window of each alert rule, in minutes, as its rule file says.
const ATLAS_WINDOW_MIN: [u32; 2] = [5, 15];

pub fn render(screen: &OncallScreen, context: Context, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [title, body, foot] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    if screen.end_asked {
        // In the footer's place, where the eye goes for keys: what the second E will do.
        Line::from(vec![
            Span::styled(" E", theme.key()),
            Span::styled(
                " again ends the drill and reveals the incident; any other key goes on",
                theme.accent(),
            ),
        ])
        .render(foot, buf);
    } else {
        footer::render_keys(context, theme, foot, buf);
    }
    if let (OncallStage::Reveal(scroll), Some(reveal)) = (&screen.stage, &screen.reveal) {
        Line::from(Span::styled(
            " On call: checkout-api, the drill has ended",
            theme.accent(),
        ))
        .render(title, buf);
        render_reveal(reveal, screen.saved.as_deref(), *scroll, theme, body, buf);
        return;
    }
    let mut view = screen.play.view();
    // The title says the clock waits, as the picker's border does (a trial read "running"
    // above "(the clock waits)").
    if screen.clock_waits() {
        view.paused = true;
    }
    render_title(&view, theme, title, buf);
    let alert_rows = alert_lines(&view).len().min(4) as u16;
    let [signals, alerts, log] = Layout::vertical([
        Constraint::Length(10),
        Constraint::Length(alert_rows + 2),
        Constraint::Fill(1),
    ])
    .areas(body);
    render_signals(&view, theme, signals, buf);
    render_alerts(&view, theme, alerts, buf);
    render_log(&view, theme, log, buf);
    match &screen.stage {
        OncallStage::Picker(selected) => render_picker(&view, *selected, theme, body, buf),
        OncallStage::Form(form) => render_form(form, theme, body, buf),
        _ => {}
    }
}

fn render_title(view: &OncallView, theme: Theme, area: Rect, buf: &mut Buffer) {
    title_line(" On call: checkout-api", clock_words(view), theme).render(area, buf);
}

/// The title's clock: the drill second, its scale, and on the sim whether it runs; live,
/// how far the signals trail the clock (a second shows once its requests have ended), in
/// words short enough for 80 columns (the help and the book say them in full).
pub fn clock_words(view: &OncallView) -> String {
    match view.live {
        None => {
            let state = if view.paused { "paused" } else { "running" };
            format!(
                "   t={} s of {}   {} ms a drill second   {state}",
                view.t_s, view.drill_s, view.speed_ms
            )
        }
        Some(live) => format!(
            "   t={} s of {}   live, 1 s = {} ms, signals {} s late",
            view.t_s, view.drill_s, live.ms_per_drill_s, live.behind_s
        ),
    }
}

/// A drill screen's top line: whose screen it is, then the drill's clock (the learner's
/// and the facilitator's screens both open with one).
pub fn title_line(whose: &'static str, clock: String, theme: Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(whose, theme.accent()),
        Span::styled(clock, theme.text()),
    ])
}

/// A drill screen's panel: a border with its title in the accent colour.
pub fn bordered(title: String, theme: Theme) -> Block<'static> {
    Block::bordered()
        .title(Span::styled(title, theme.accent()))
        .border_style(theme.border())
}

fn render_signals(view: &OncallView, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = bordered(" Signals, last drill second ".to_string(), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines: Vec<Line> = Vec::new();
    match &view.second {
        None => lines.push(Line::styled(" the first drill second is under way", theme.dim())),
        Some(second) => {
            // The 10 s mean beside the second: a storm's goodput flickers between 0 and calm
            // from one second to the next (a trial read 0/s over a bar of full columns), and
            // the score reads goodput back from the 10 s mean.
            let last_ten = &view.goodput_trend[view.goodput_trend.len().saturating_sub(10)..];
            let mean_10s = last_ten.iter().map(|g| f64::from(*g)).sum::<f64>() / last_ten.len().max(1) as f64;
            lines.push(Line::from(format!(
                " goodput {:>2}/s, 10 s mean {:>2.0} (calm {})  attempts/request {:.2}  p99 {:>4.0} ms",
                second.goodput,
                mean_10s,
                view.baseline_goodput,
                second.attempts_per_request(),
                second.p99_ms,
            )));
            lines.push(Line::from(format!(
                " workers busy {:>2}/{WORKERS}   shed {:>2}/s   turned away {:>3}/s   failed {:>3}/s",
                second.workers_busy, second.shed, second.rejected, second.failed,
            )));
        }
    }
    if view.second.is_none() {
        lines.push(Line::from(""));
    }
    lines.push(Line::styled(
        " dependency      kind rate/s errors p99 ms satur. att/call breaker     refused",
        theme.dim(),
    ));
    for dep in crate::engine::oncall::register::OncallDep::ALL {
        let kind = if dep.row().hard { "hard" } else { "soft" };
        let row = view.second.as_ref().and_then(|s| s.deps.iter().find(|d| d.dep == dep));
        let probe = view.probes.iter().find(|p| p.dep == dep);
        let text = match (row, probe) {
            // Cut off, its row reads zero: the probe says when it is well again.
            (Some(d), Some(probe)) => format!(
                " {:<15} {kind} {:<29} probe: {}",
                dep.name(),
                cut_off_words(d.breaker),
                probe_words(probe)
            ),
            (None, _) => format!(" {:<15} {kind}      -      -      -      -        - -", dep.name()),
            (Some(d), None) => format!(
                " {:<15} {kind} {:>6} {:>6} {:>6.0} {:>5.0}% {:>8.2} {:<11} {:>7}",
                dep.name(),
                d.attempts,
                d.errors,
                d.p99_ms,
                d.saturation * 100.0,
                d.attempts_per_call(),
                d.breaker,
                d.not_permitted,
            ),
        };
        lines.push(Line::from(text));
    }
    Paragraph::new(lines).render(inner, buf);
    let label = format!(" goodput, last {} s ", view.goodput_trend.len());
    let trend_row = Rect::new(inner.x, inner.y + 7, inner.width, 1.min(inner.height.saturating_sub(7)));
    Line::styled(label.clone(), theme.dim()).render(trend_row, buf);
    let offset = label.chars().count() as u16;
    let spark = Rect::new(
        trend_row.x + offset.min(trend_row.width),
        trend_row.y,
        trend_row.width.saturating_sub(offset + 1),
        trend_row.height,
    );
    let data: Vec<u64> = view.goodput_trend.iter().map(|g| u64::from(*g)).collect();
    Sparkline::default()
        .data(data)
        .max(u64::from(view.baseline_goodput))
        .style(theme.text())
        .render(spark, buf);
}

/// How on-call cut a dependency off, from its breaker's word.
fn cut_off_words(breaker: &str) -> &'static str {
    if breaker == "forced_open" {
        "breaker forced open, no calls"
    } else {
        "switched off, no calls"
    }
}

/// A cut-off dependency's probe: failing, or healthy since a drill second (when to undo).
fn probe_words(probe: &DepProbe) -> String {
    match probe.healthy_since_s {
        Some(since) => format!("healthy since t={since}"),
        None => "failing".to_string(),
    }
}

/// Each rule's line: quiet with its window, or one line per dependency it fires for.
fn alert_lines(view: &OncallView) -> Vec<(bool, String)> {
    let scale = view.alert_time_scale;
    let mut lines = Vec::new();
    for (rule, window_min) in ALERT_RULES.iter().zip(ATLAS_WINDOW_MIN) {
        let firing: Vec<_> = view.alerts.iter().filter(|a| a.alert == *rule).collect();
        if firing.is_empty() {
            lines.push((
                false,
                // Both rules read breakers only: a dependency without one never fires them,
                // which a trial waited 200 s to learn during a receipt-store storm.
                format!(
                    " {rule}: quiet · breakers only · window {:.0} s here ({window_min} min)",
                    f64::from(window_min) * 60.0 / scale
                ),
            ));
        }
        for a in firing {
            lines.push((
                true,
                format!(
                    " ! {rule}{{name={}}} for {} s (Atlas time {:.0} min)",
                    a.dep.name(),
                    a.firing_s,
                    a.firing_s as f64 * scale / 60.0
                ),
            ));
        }
    }
    lines
}

fn render_alerts(view: &OncallView, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = bordered(
        format!(" Alerts (time-scaled x{}: 5 min here is 30 s) ", view.alert_time_scale),
        theme,
    );
    let inner = block.inner(area);
    block.render(area, buf);
    let lines: Vec<Line> = alert_lines(view)
        .into_iter()
        .map(|(firing, text)| {
            let style = if firing { theme.accent() } else { theme.dim() };
            Line::styled(truncate(&text, inner.width as usize), style)
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
}

/// Where a decision log entry's text starts, after ` t=123 s `: its wrapped rows start here
/// (on-call's log and the facilitator's).
pub const LOG_TEXT_COLUMN: usize = 9;

fn render_log(view: &OncallView, theme: Theme, area: Rect, buf: &mut Buffer) {
    let pulled = if view.pulled.is_empty() {
        "none".to_string()
    } else {
        view.pulled
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let block = bordered(format!(" Decision log (pulled now: {pulled}) "), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines: Vec<Line> = Vec::new();
    if view.decisions.is_empty() && view.hints.is_empty() {
        // The drill's goal, on the screen the clock starts on (a trial played without one).
        lines.push(Line::styled(
            " Goal: keep goodput near calm; undo each lever once its dependency is well",
            theme.text(),
        ));
        lines.push(Line::styled(
            " no lever pulled yet: l opens the levers (each asks why, and what you expect)",
            theme.dim(),
        ));
    }
    // The owners' hints a facilitator sent sit among the decisions, in drill-time order.
    let mut hints = view.hints.iter().peekable();
    for entry in &view.decisions {
        while let Some(hint) = hints.next_if(|h| (h.t_s as f64) <= entry.pull.t_s) {
            lines.push(hint_line(hint, theme));
        }
        lines.push(Line::from(vec![
            Span::styled(format!(" t={:>3} s ", entry.pull.t_s), theme.dim()),
            Span::styled(entry.pull.lever.to_string(), theme.accent()),
            Span::raw(format!("  why: {}", entry.why)),
        ]));
        lines.push(Line::styled(
            format!("         expected: {}", entry.expected),
            theme.dim(),
        ));
    }
    lines.extend(hints.map(|hint| hint_line(hint, theme)));
    // Long reasons wrap under the entry's text, past its `t=... s` column (Paragraph's own
    // wrap sent them to column 0, under the times), and the newest entries stay in sight.
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

/// An owner's hint as a log line: who spoke, and when.
fn hint_line(hint: &OwnerHint, theme: Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!(" t={:>3} s ", hint.t_s), theme.dim()),
        Span::styled("owner on the phone", theme.accent()),
        Span::raw(format!("  {}", hint.text)),
    ])
}

/// An overlay of `width` x `height` cells centred in `area`, cleared.
fn overlay(area: Rect, width: u16, height: u16, buf: &mut Buffer) -> Rect {
    let rect = crate::tui::layout::centred(area, width, height);
    Clear.render(rect, buf);
    rect
}

fn render_picker(view: &OncallView, selected: usize, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rect = overlay(area, 64, view.offer.len() as u16 + 7, buf);
    let block = bordered(" Levers: pull or restore (the clock waits) ".to_string(), theme);
    let inner = block.inner(rect);
    block.render(rect, buf);
    let mut lines: Vec<Line> = view
        .offer
        .iter()
        .enumerate()
        .map(|(i, lever)| {
            let pointer = if i == selected { "▸" } else { " " };
            let style = if i == selected { theme.selected() } else { theme.text() };
            Line::styled(format!("{pointer} {lever}"), style)
        })
        .collect();
    // The highlighted lever's documented effect, whole, under the list.
    if let Some(lever) = view.offer.get(selected) {
        lines.push(Line::from(""));
        lines.push(Line::from(format!(" effect: {}", expected_effect(*lever))));
    }
    lines.push(Line::styled(
        " who may pull: on-call of team-checkout (shed=on: tell the incident lead)",
        theme.dim(),
    ));
    Paragraph::new(lines).wrap(Wrap { trim: false }).render(inner, buf);
}

fn render_form(form: &LeverForm, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rect = overlay(area, 78, 10, buf);
    let block = bordered(" Decision log entry: what, why, expected effect ".to_string(), theme);
    let inner = block.inner(rect);
    block.render(rect, buf);
    let field = |label: &str, value: &str, focused: bool| {
        let cursor = if focused { "▏" } else { "" };
        let style = if focused { theme.selected() } else { theme.text() };
        Line::from(vec![
            Span::styled(format!(" {label:<10}"), theme.dim()),
            Span::styled(format!("{value}{cursor}"), style),
        ])
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled(format!(" {:<10}", "what"), theme.dim()),
            Span::styled(form.lever.to_string(), theme.accent()),
        ]),
        field("why", &form.why, form.field == FormField::Why),
        field("expected", &form.expected, form.field == FormField::Expected),
        Line::from(""),
        Line::styled(
            format!(
                " left empty, expected is the documented: {}",
                expected_effect(form.lever)
            ),
            theme.dim(),
        ),
    ];
    if let Some(problem) = &form.problem {
        lines.push(Line::styled(format!(" {problem}"), theme.accent()));
    }
    Paragraph::new(lines).wrap(Wrap { trim: false }).render(inner, buf);
}

fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        text.chars().take(width.saturating_sub(1)).collect::<String>() + "…"
    }
}

/// The incident file's hidden settings, written as the file writes them (`capacity_per_s = 85`).
pub fn hidden_settings(incident: &IncidentSpec) -> Vec<String> {
    incident.settings_lines()
}

/// Where a debrief line's text starts, so its wrapped rows start there too: after its
/// leading spaces, and after a `t=130 s  ` time (a decision, a hint, the timeline).
fn reveal_text_column(text: &str) -> usize {
    let spaces = text.chars().take_while(|c| *c == ' ').count();
    let rest = &text[spaces..];
    let time = match rest.strip_prefix("t=").and_then(|after| after.find(" s  ")) {
        Some(at) => "t=".len() + at + " s  ".len(),
        None => 0,
    };
    spaces + time
}

fn render_reveal(reveal: &OncallReveal, saved: Option<&str>, scroll: u16, theme: Theme, area: Rect, buf: &mut Buffer) {
    let setup = &reveal.run.setup;
    let score = &reveal.score;
    let mut lines = vec![
        Line::from(vec![
            Span::styled(" The incident: ", theme.dim()),
            Span::styled(setup.incident.name.clone(), theme.accent()),
        ]),
        Line::from(format!(" {}", setup.incident.title)),
        Line::from(format!(
            " It hit {} at t={} s. Its file's hidden settings:",
            setup.dependency.name(),
            setup.onset_s
        )),
    ];
    if let Some(seconds) = reveal.live_cut_at_s {
        lines.insert(
            1,
            Line::styled(
                format!(" Live, ended before {DRILL_S} s: the score counts the {seconds} drill seconds measured."),
                theme.dim(),
            ),
        );
    }
    if let Some(why) = &reveal.live_stopped {
        // Above everything: the drill did not end as the learner asked or the clock said.
        lines.insert(
            0,
            Line::styled(format!(" The live service stopped: {why}."), theme.accent()),
        );
    }
    lines.extend(
        hidden_settings(&setup.incident)
            .into_iter()
            .map(|s| Line::from(format!("   {s}"))),
    );
    let runbook: Vec<String> = setup.runbook().iter().map(ToString::to_string).collect();
    let wrong: Vec<String> = score.wrong_levers.iter().map(ToString::to_string).collect();
    lines.extend([
        Line::from(""),
        Line::styled(format!(" Score: {} / 100", score.score), theme.accent()),
        Line::from(format!(
            "   goodput back to 95% of calm at: {}",
            or_never(score.goodput_restored_s)
        )),
        Line::from(format!(
            "   attempts/request {ATTEMPTS_AFTER_S} s after the right lever: {:.3} (limit {ATTEMPTS_LIMIT})",
            score.attempts_per_request_after
        )),
        Line::from(format!(
            "   levers restored in the runbook's order, retries last: {}",
            restored_in_order_words(&reveal.run, score)
        )),
        Line::from(format!(
            "   wrong levers: {}",
            if wrong.is_empty() {
                "none".to_string()
            } else {
                wrong.join(", ")
            }
        )),
    ]);
    // The fault's own end is not a recovery on-call made (engine::oncall::score).
    lines.extend(score.unearned_reason().map(|why| Line::from(format!("   {why}"))));
    lines.extend([Line::from("   the runbook, in drill seconds:")]);
    lines.extend(runbook.iter().map(|pull| Line::from(format!("     {pull}"))));
    lines.push(Line::from(""));
    lines.push(Line::styled(" Your decision log", theme.accent()));
    if reveal.decisions.is_empty() {
        lines.push(Line::from("   no lever pulled"));
    }
    for entry in &reveal.decisions {
        lines.push(Line::from(format!(
            "   t={:>3} s  {}  why: {}  expected: {}",
            entry.pull.t_s, entry.pull.lever, entry.why, entry.expected
        )));
    }
    // What a facilitator did, when one did (a drill without one shows as it always did).
    if !setup.extra_faults.is_empty() || !reveal.hints.is_empty() || reveal.ended_by_facilitator {
        lines.push(Line::from(""));
        lines.push(Line::styled(" What the facilitator did", theme.accent()));
    }
    for extra in &setup.extra_faults {
        lines.push(Line::from(format!(
            "   a facilitator added {} at {} from t={} s: {}",
            extra.incident.name,
            extra.dependency.name(),
            extra.from_s,
            extra.incident.settings_lines().join(", ")
        )));
    }
    for hint in &reveal.hints {
        lines.push(Line::from(format!(
            "   t={:>3} s  owner on the phone: {}",
            hint.t_s, hint.text
        )));
    }
    if reveal.ended_by_facilitator {
        lines.push(Line::from("   the facilitator ended the drill"));
    }
    lines.extend([
        Line::from(""),
        Line::styled(format!(" {}", saved.unwrap_or("debrief not saved")), theme.dim()),
        Line::from(""),
        Line::styled(" Timeline (drill seconds)", theme.accent()),
    ]);
    for (t_s, kind, text, _) in timeline(&reveal.run, score) {
        lines.push(Line::from(format!("   t={t_s:>3} s  {kind}: {text}")));
    }
    let block = bordered(" Reveal and debrief ".to_string(), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    // A long line wraps under its own text, past its indent and its `t=... s` (Paragraph's
    // own wrap sent it to column 0), as the decision log's does.
    let wrapped: Vec<Line> = lines
        .into_iter()
        .flat_map(|line| {
            let indent = reveal_text_column(&line.to_string());
            crate::wrap::wrap_line(line, usize::from(inner.width), indent)
        })
        .collect();
    let paragraph = Paragraph::new(wrapped);
    // The scroll stops where the last row is at the bottom.
    let rows = paragraph.line_count(inner.width) as u16;
    let scroll = scroll.min(rows.saturating_sub(inner.height));
    paragraph.scroll((scroll, 0)).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::reveal_text_column;

    #[test]
    fn a_debrief_line_wraps_under_its_text_past_its_time() {
        assert_eq!(
            reveal_text_column("   t=130 s  recommendations.enabled=off  why: ..."),
            12
        );
        assert_eq!(reveal_text_column("   t=  5 s  fault: hang"), 12);
        assert_eq!(reveal_text_column("   goodput back to 95% of calm at: 131 s"), 3);
        assert_eq!(reveal_text_column(" The incident: recommendations-hang"), 1);
        assert_eq!(reveal_text_column("   t=unfinished"), 3, "no time without its ' s  '");
    }
}
