//! Lab 1's fleet page drawn whole in the lab screen: the design and its totals on top, the fleet
//! sliders on the left, the fleet itself on the right ([`charts`](super::charts): a state band per
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
//!  F one server  d/w/u db  l/r probes  o roll  c scenario  m live  p predict  ? help
//! ```
//!
//! While a fleet check's verdict is open, the top box and the fleet show the run it was
//! scored on (the simulation at the check's own settings), titled so; the footer lists the
//! prompt's or the verdict's keys, which are the only ones that work then.
//!
//! Live (`m`): the top box's second line is the live run (its model second, the time
//! scale, what just happened), the third the simulation at the run's settings; the fleet
//! on the right is the live record, drawn up to the second reached; after the run the
//! second line says how the two compare.

use ratatui::buffer::Buffer;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::engine::fleet::{FleetComparison, FleetRun};
use crate::learning::reveal::Masked;
use crate::tui::frame::page_sliders::PageSliders;
use crate::tui::frame::view::{self as lab_view, params};
use crate::tui::keys::{self, Context};
use crate::tui::labs::fleet::charts::{self as fleet_view, FleetView};
use crate::tui::labs::fleet::live::{APP_TIME_SCALE, FleetLive};
use crate::tui::labs::fleet::state::{self, FleetPage};
use crate::tui::labs::page::PageFrame;
use crate::tui::layout::LabLayout;
use crate::tui::msg::{FleetMsg, Msg};
use crate::tui::view::footer;
use crate::wrap;

/// The fleet view's whole screen: `panel` at `page`'s sliders, in what `frame` lends.
pub fn render(panel: &FleetPage, frame: &dyn PageFrame, page: &PageSliders, layout: &LabLayout, buf: &mut Buffer) {
    let theme = frame.theme();
    let left = format!(" Lab {} · {} · fleet", frame.number(), frame.lab().title);
    let (mut right, short) = if panel.live_showing {
        ("live · 127.0.0.1 · F one server ", "live · F one server ")
    } else {
        ("simulated clock · F one server ", "sim · F one server ")
    };
    if left.chars().count() + right.chars().count() > layout.title.width as usize {
        right = short;
    }
    let gap = (layout.title.width as usize).saturating_sub(left.chars().count() + right.chars().count());
    Line::from(vec![
        Span::styled(left, theme.accent()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.dim()),
    ])
    .render(layout.title, buf);

    // While a fleet check's verdict is open the view shows the run it was scored on, at the
    // check's own settings, and says so (the sliders stay where the learner left them).
    let check = frame
        .verdict()
        .and_then(|verdict| panel.verdict_check(verdict.check_id, verdict.scored_live));
    let check_run = check.map(|kept| &kept.run);
    let sliders = &page.sliders[..];
    let title_width = usize::from(layout.results.width.saturating_sub(2));
    let block_title = match check {
        Some(kept) => scenario_title(
            "Fleet at the check's settings",
            kept.run.params.scenario.name(),
            &kept.changed,
            title_width,
        ),
        None => scenario_title(
            "Fleet",
            state::scenario(sliders).name(),
            &state::changed_labels(frame.lab(), sliders),
            title_width,
        ),
    };
    let block = Block::bordered()
        .title(Span::styled(block_title, theme.accent()))
        .border_style(theme.border());
    // While a prompt is open, or the step's check waits for one, the totals and the fleet it
    // asks about wait, as on Labs 2-4's screens (the lesson holds no run's numbers).
    let hidden_why = frame.hidden_why();
    let masked = frame.masked();
    let width = usize::from(block.inner(layout.results).width);
    if let Some(why) = &hidden_why {
        lab_view::hidden(" Results ", why, theme, layout.results, buf);
    } else {
        let lines = if panel.live_showing {
            live_summary(&panel.run, &panel.live, width)
        } else {
            summary(check_run.unwrap_or(&panel.run), &masked, width)
        };
        Paragraph::new(lines)
            .block(block)
            .style(theme.text())
            .render(layout.results, buf);
    }

    // The sliders that fit, the focused one always among them.
    let (first, count) = page.shown(layout.params);
    let shown = &page.sliders[first..first + count];
    let title = format!(" Fleet parameters {}/{} ", page.focus + 1, page.sliders.len());
    params::render_sliders(&title, shown, page.focus - first, None, theme, layout.params, buf);

    if frame.show_lesson() {
        frame.render_lesson(layout.right, buf);
    } else if let Some(why) = &hidden_why {
        lab_view::hidden(" Fleet ", why, theme, layout.right, buf);
    } else {
        let live = &panel.live;
        let fleet = match live.record.as_ref().filter(|_| panel.live_showing) {
            Some(record) => FleetView {
                run: record,
                mode: "live",
                until_s: live.until_s(),
                masked: &masked,
            },
            None => FleetView {
                run: check_run.unwrap_or(&panel.run),
                mode: if check_run.is_some() { "check's run" } else { "sim" },
                until_s: None,
                masked: &masked,
            },
        };
        fleet_view::render(&fleet, theme, layout.right, buf);
    }
    frame.render_predict(layout.right, buf);
    // A prompt or a verdict takes the keys (the fleet's own wait): the footer lists its keys,
    // as on the other labs' screens.
    let context = frame.context();
    if matches!(context, Context::Predict | Context::Observed | Context::Note) {
        return footer::render_keys(context, theme, layout.footer, buf);
    }
    let mut entries = footer_entries(panel.live_showing, frame.reveal_offered());
    // At 80 columns the keys first close up to one space apart, then take shorter labels
    // (with `x reveal` too, "F one server" did not fit and `o roll` was dropped): every key
    // that applies stays. Only a footer narrower than the app allows still drops one.
    // Keys are found by what they do, not by their words.
    let fits = |entries: &[(Msg, &str)], gap: usize| {
        let words: Vec<&str> = entries.iter().map(|(_, entry)| *entry).collect();
        footer::entries_width(&words, gap) <= usize::from(layout.footer.width) + 2
    };
    let mut gap = if fits(&entries, 2) { 2 } else { 1 };
    for (msg, short) in [(Msg::NextPage, "F server"), (Msg::Fleet(FleetMsg::Scenario), "c next")] {
        if !fits(&entries, gap) {
            entries
                .iter_mut()
                .filter(|(entry_msg, _)| *entry_msg == msg)
                .for_each(|(_, entry)| *entry = short);
            gap = if fits(&entries, 2) { 2 } else { 1 };
        }
    }
    for gives_way in [Msg::Fleet(FleetMsg::Roll), Msg::NextPage] {
        if !fits(&entries, gap) {
            entries.retain(|(msg, _)| *msg != gives_way);
            gap = if fits(&entries, 2) { 2 } else { 1 };
        }
    }
    let entries = entries.into_iter().map(|(_, entry)| entry);
    footer::render_entries_gap(entries, gap, theme, layout.footer, buf);
}

/// The top box's title: the scenario the run is, or the one it started from and what was
/// changed (every label that fits, else how many), else "custom": it never names a scenario
/// the run is not.
fn scenario_title(lead: &str, scenario: &str, changed: &[String], width: usize) -> String {
    if changed.is_empty() {
        return format!(" {lead}: {scenario} ");
    }
    let count = changed.len();
    let settings = if count == 1 { "setting" } else { "settings" };
    let candidates = [
        format!(" {lead}: {scenario}, changed: {} ", changed.join(", ")),
        format!(" {lead}: {scenario}, {count} {settings} changed "),
        format!(" {lead}: custom "),
    ];
    wrap::first_that_fits(candidates.map(Line::from).to_vec(), width).map_or_else(String::new, |line| line.to_string())
}

/// The footer: the simulation's keys, or the live run's (the probe and rollout keys set the
/// next start there, so they give way to `s`).
fn footer_entries(live: bool, reveal_offered: bool) -> Vec<(Msg, &'static str)> {
    let next_start = |msg: Msg| {
        matches!(
            msg,
            Msg::Fleet(FleetMsg::Liveness | FleetMsg::Readiness | FleetMsg::Roll | FleetMsg::Scenario)
        )
    };
    let mut entries: Vec<(Msg, &'static str)> = keys::footer_entries_if(Context::Fleet, |msg| match live {
        false => msg != Msg::StartStop,
        true => !next_start(msg),
    })
    .into_iter()
    .map(|(msg, entry)| match msg {
        Msg::ToggleMode if live => (msg, "m sim"),
        _ => (msg, entry),
    })
    .collect();
    entries.push((Msg::Predict, "p predict"));
    if reveal_offered {
        entries.extend(keys::footer_entries_if(Context::Lab, |msg| msg == Msg::Reveal));
    }
    entries.push((Msg::ToggleHelp, "? help"));
    entries
}

/// The live view's three lines: the design, the live run, the simulation at its settings.
fn live_summary(sliders_run: &FleetRun, live: &FleetLive, width: usize) -> Vec<Line<'static>> {
    let mut lines = summary(live.sim.as_ref().unwrap_or(sliders_run), &Masked::default(), width);
    lines.truncate(1);
    let speed = format!("{:.0}x", 1.0 / APP_TIME_SCALE);
    let (Some(record), Some(sim)) = (&live.record, &live.sim) else {
        let p = &sliders_run.params;
        let (replicas, load, model_s, real_s) = (p.replicas, p.load_per_s, p.duration_s, p.duration_s * APP_TIME_SCALE);
        // Longest wording first; the last one wraps rather than lose a number at 80 columns.
        let what = [
            format!(
                "live: s starts {replicas} replicas, a database, a Service and {load} requests/s on 127.0.0.1, at {speed}"
            ),
            format!("live: s starts {replicas} replicas, a database, a Service, {load} req/s on 127.0.0.1, {speed}"),
            format!("live: s starts {replicas} replicas, db, Service, {load} req/s, {speed}"),
        ];
        let when = [
            format!(
                "{model_s:.0} model seconds in {real_s:.0} real seconds; the sim at the same settings shows beside it"
            ),
            format!("{model_s:.0} model s in {real_s:.0} real s; the sim at these settings beside it"),
            format!("{model_s:.0} model s in {real_s:.0} real s; sim beside"),
        ];
        for candidates in [what, when] {
            lines.extend(wrap::fit_or_wrap(candidates.map(Line::from).to_vec(), width));
        }
        return lines;
    };
    let duration_s = record.params.duration_s;
    let first = |run: &FleetRun| {
        run.first_restart_s()
            .map(|t| format!(" (first {t:.1} s)"))
            .unwrap_or_default()
    };
    let live_line = if let (true, Some(stopped_s)) = (live.finished, live.stopped_at_s) {
        // Longest wording first (the cut one read `by then; the sim's whole │` at 80 columns).
        let (restarts, first) = (record.total_restarts(), first(record));
        let candidates = [
            format!(
                "live stopped at {stopped_s:.0}/{duration_s:.0} s: restarts {restarts}{first} by then; the sim's whole run below"
            ),
            format!(
                "live stopped at {stopped_s:.0}/{duration_s:.0} s: restarts {restarts}{first}; the sim's whole run below"
            ),
            format!(
                "live stopped at {stopped_s:.0}/{duration_s:.0} s: restarts {restarts}{first}; sim's whole run below"
            ),
            format!("live stopped {stopped_s:.0}/{duration_s:.0} s: restarts {restarts}{first}; sim below"),
        ];
        candidates.to_vec()
    } else if live.finished && live.status.is_none() {
        let c = FleetComparison::new(record, sim);
        let yes_no = |close: bool| if close { "yes" } else { "no" };
        let at = |t: Option<f64>, unit: &str| t.map_or("none".to_string(), |t| format!("{t:.1}{unit}"));
        // Short enough for 80 columns: the live line's clock said the speed.
        vec![format!(
            "live done: restarts {} (sim {}) · first {} (sim {}) · requests ±5%: {}",
            c.restarts_live,
            c.restarts_sim,
            at(c.first_restart_live_s, " s"),
            at(c.first_restart_sim_s, ""),
            yes_no(c.requests_close)
        )]
    } else {
        let what = live.fresh_status().map(str::to_string).unwrap_or_else(|| {
            format!(
                "restarts {}{} · no endpoint {:.1} s",
                record.total_restarts(),
                first(record),
                record.no_ready_endpoint_s
            )
        });
        vec![format!("live {:.0}/{duration_s:.0} s at {speed} · {what}", live.now_s)]
    };
    let r = &sim.requests;
    let sim_head = format!(
        "sim  restarts {}{} · no endpoint {:.1} s",
        sim.total_restarts(),
        first(sim),
        sim.no_ready_endpoint_s
    );
    // The requests the sim counts, as many of them as the width holds (the refusals and
    // failures first: they are what the live run is compared on).
    let sim_line = wrap::first_that_fits(
        [
            format!(
                "{sim_head} · ok {} degraded {} failed {} refused {}",
                r.ok, r.degraded, r.failed, r.refused
            ),
            format!("{sim_head} · failed {} refused {}", r.failed, r.refused),
            sim_head.clone(),
        ]
        .map(Line::from)
        .to_vec(),
        width,
    );
    // The live line in the longest wording that fits, else the last one wrapped: never cut.
    lines.extend(wrap::fit_or_wrap(
        live_line.into_iter().map(Line::from).collect(),
        width,
    ));
    lines.extend(sim_line);
    lines
}

/// Three lines: the design, the totals, and the clock the run is on. When the totals do
/// not fit one line (80 columns), the requests take the clock's line: the footer names `m`.
/// A number `masked` names shows its placeholder.
fn summary(run: &FleetRun, masked: &Masked, width: usize) -> Vec<Line<'static>> {
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
    // Too wide (80 columns with a roll): the same facts in shorter words, every number kept.
    let short = |yes: bool| if yes { "checks db" } else { "local" };
    let short_database = database.replacen("database", "db", 1);
    let short_design = format!(
        "/livez {} · /readyz {} · {short_database}{roll}",
        short(p.server.liveness_checks_db),
        short(p.server.readiness_checks_db)
    );
    let design = wrap::first_that_fits(vec![Line::from(design), Line::from(short_design)], width).unwrap_or_default();
    let first = run
        .first_restart_s()
        .map(|t| {
            let first_s = masked.number("fleet.first_restart_s", || format!("{t:.1} s"));
            format!(" (first {first_s})")
        })
        .unwrap_or_default();
    let r = &run.requests;
    let restarts = format!(
        "restarts {}{first} · no ready endpoint {}",
        masked.number("fleet.restarts", || run.total_restarts().to_string()),
        masked.number("fleet.no_ready_endpoint_s", || format!(
            "{:.1} s",
            run.no_ready_endpoint_s
        ))
    );
    let count = |name: &str, n: u64| masked.number(&format!("fleet.requests.{name}"), || n.to_string());
    let requests = format!(
        "ok {} degraded {} failed {} refused {}",
        count("ok", r.ok),
        count("degraded", r.degraded),
        count("failed", r.failed),
        count("refused", r.refused)
    );
    let totals = format!("{restarts} · {requests}");
    if totals.chars().count() > width {
        return vec![
            design,
            Line::from(format!("{restarts} of {:.0} model seconds", p.duration_s)),
            Line::from(format!("requests: {requests}")),
        ];
    }
    let clock = format!(
        "{:.0} model seconds, simulated at once (m: live, real processes at {:.0}x)",
        p.duration_s,
        1.0 / APP_TIME_SCALE
    );
    vec![design, Line::from(totals), Line::from(clock)]
}
