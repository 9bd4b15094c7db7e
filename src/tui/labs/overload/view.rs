//! Lab 4's results, charts and footer, sim and live, drawn with the chart functions of
//! [`charts`](super::charts).
//!
//! ```text
//! ┌ Results ───────────────────────────────────────────────────────────────┐
//! │100 workers x 50 ms = 2000/s · offered 2500/s · fifo · timeout 1000 ms   │
//! │last second (10 s): offered 2500 = goodput 0 + timed out 2500 · wasted 2000│
//! │10 s mean: goodput 960/s · queue max 5000 · wait at 2 s 0.50 s · v: curves│
//! └────────────────────────────────────────────────────────────────────────┘
//!  live: the live scale, then per s at the lesson's scale, live over the seconds measured
//!  and the sim at the live settings over the same seconds:
//! │per s, lesson scale    goodput    wasted   refused timed out queue max   │
//! │live 4 of 4 s              950      1041         0      1300      4988   │
//! │sim, same seconds          960      1030         0      1290      5000   │
//!  right: curves + queue | outcomes + throttle | bulkhead | metastable     (v cycles)
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::overload::{CurvePoint, OverloadParams, OverloadRun, Second};
use crate::learning::reveal::{Masked, placeholder};
use crate::report::cells::fit_width;
use crate::tui::frame::view::{footer_entries, masked_chart, results_title_of};
use crate::tui::labs::overload::charts::{
    bulkhead_view, goodput_curves, metastable_view, outcomes_per_second, queue_halves, queue_length_over_time,
    queue_wait_over_time, throttle_view,
};
use crate::tui::labs::overload::live::{LiveRecord, LiveScale, OverloadLive, OverloadView, live_scaled};
use crate::tui::labs::overload::run::OverloadResults;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::msg::{LiveMsg, Msg};
use crate::tui::view::footer;
use crate::tui::widgets::panel::panel;
use crate::wrap::first_that_fits;

/// The run shown, and the live part while the live screen shows.
fn parts<'a, S: LabSim<Results = OverloadResults, Live = OverloadLive>>(
    page: &'a SimPage<S>,
    frame: &dyn PageFrame,
) -> (&'a OverloadResults, Option<&'a OverloadLive>) {
    (
        page.shown_results(frame.verdict()),
        page.live_showing.then_some(&page.live),
    )
}

/// The live table's label column, the longest label ("per s, lesson scale") and a space.
const LABEL_W: usize = 20;

/// What a stretch of seconds adds up to, per second at the lesson's scale.
struct Rates {
    goodput: f64,
    wasted: f64,
    refused: f64,
    timed_out: f64,
    queue_max: f64,
}

impl Rates {
    fn of(seconds: &[Second], scale: LiveScale) -> Self {
        let n = seconds.len().max(1) as f64;
        let per_s = |f: fn(&Second) -> u64| seconds.iter().map(f).sum::<u64>() as f64 / n * scale.rate;
        Rates {
            goodput: per_s(|s| s.goodput),
            wasted: per_s(|s| s.wasted),
            refused: per_s(|s| s.refused),
            timed_out: per_s(|s| s.timed_out),
            queue_max: seconds.iter().map(|s| s.queue_len).max().unwrap_or(0) as f64 * scale.pool,
        }
    }

    /// One row of the live table: the label, then the five numbers in columns.
    fn row(&self, label: &str) -> String {
        format!(
            "{label:<LABEL_W$}{:>10.0}{:>10.0}{:>10.0}{:>10.0}{:>10.0}",
            self.goodput, self.wasted, self.refused, self.timed_out, self.queue_max
        )
    }
}

/// The lesson-scale settings on screen.
fn settings_line(run: &OverloadRun) -> String {
    let p = &run.params;
    format!(
        "{} workers x {} ms = {:.0}/s · offered {:.0}/s · {} · timeout {} ms",
        p.workers,
        p.service_ms,
        run.capacity_per_s,
        p.offered_per_s,
        p.policy.name(),
        p.client_timeout_ms
    )
}

/// The run's last second, every outcome of what was offered in it: `last second (10 s):
/// offered 2500 = goodput 2000 + refused 500`. The last second, not the run's mean, because
/// the lesson's figures are the steady state (20% refused, goodput falls to zero), which the
/// first second, filling the pool and the queue, is not; the mean is on the line below.
///
/// While the steady refused share is masked the outcomes give way to its placeholder: the
/// refused count, or the sum's other terms, over the offered count is that share.
fn last_second_line(run: &OverloadRun, masked: &Masked, width: usize) -> Line<'static> {
    let Some(last) = run.seconds.last() else {
        return Line::from("");
    };
    let (at_s, run_s) = (last.t_s, run.seconds.len());
    if let Some(step) = masked.step("overload.refused_share_steady") {
        let outcomes = format!("offered {}, outcomes {}", last.offered, placeholder(step));
        let wordings = [
            format!("sim, last second ({at_s:.0} of {run_s} s): {outcomes}"),
            format!("last second ({at_s:.0} s): {outcomes}"),
            format!("at {at_s:.0} s: {outcomes}"),
        ];
        return first_that_fits(wordings.map(Line::from).to_vec(), width).unwrap_or_default();
    }
    // The outcomes in the words `run overload` prints too.
    let x_calls_per_s = run.params.dependency.as_ref().map(|d| d.calls_per_s);
    let outcomes = crate::report::last_second_outcomes(last, x_calls_per_s);
    let wordings = [
        format!("sim, last second ({at_s:.0} of {run_s} s): {outcomes}"),
        format!("last second ({at_s:.0} s): {outcomes}"),
        format!("second {at_s:.0} of {run_s}: {outcomes}"),
        format!("at {at_s:.0} s: {outcomes}"),
    ];
    first_that_fits(wordings.map(Line::from).to_vec(), width).unwrap_or_default()
}

/// The live run's settings and how its numbers read back: its rates and its times both
/// (a live second stands for `scale.time` of the lesson's), in the longest wording that
/// fits `width`.
fn live_scale_line(p: &OverloadParams, scale: LiveScale, width: usize) -> String {
    let pool = format!("live {} x {} ms", p.workers, p.service_ms);
    let rest = format!(
        "offered {:.0}/s · timeout {:.0} ms · {:.0} s",
        p.offered_per_s, p.client_timeout_ms, p.duration_s
    );
    // How a live number reads as the lesson's, said plainly where it fits ("rates x5" left
    // a beginner asking what was multiplied by what).
    let (rate, time) = (scale.rate, scale.time);
    let plain = format!("lesson: rates x{rate}, times x{time}");
    let short = format!("rates x{rate}, times x{time}");
    let lesson_s = p.duration_s * time;
    let capacity = p.capacity_per_s();
    let wordings = [
        format!("{pool} = {capacity:.0}/s · {rest} (the lesson's {lesson_s:.0} s); {plain}"),
        format!("{pool} = {capacity:.0}/s · {rest}; {plain}"),
        format!("{pool} · {rest}; {plain}"),
        format!("{pool} · {rest}; {short}"),
    ];
    first_that_fits(wordings.map(Line::from).to_vec(), width)
        .map(|line| line.to_string())
        .unwrap_or_default()
}

/// The Results panel: three lines in sim; in live the live scale and a small table of the
/// live run against the sim at the live settings, both at the lesson's scale.
pub fn render_results<S: LabSim<Results = OverloadResults, Live = OverloadLive>>(
    page: &SimPage<S>,
    frame: &dyn PageFrame,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = frame.theme();
    let block = panel(results_title_of(page.shows_verdict_run(frame)), theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let (results, live) = parts(page, frame);
    let run = &results.recompute.run;
    let width = usize::from(inner.width);
    let fit = |line: String| fit_width(line, width);
    let mut lines = vec![Line::from(fit(settings_line(run)))];
    match live {
        None => {
            let masked = frame.masked();
            lines.push(last_second_line(run, &masked, width));
            let wait = run.seconds.iter().find(|s| s.t_s == 2.0).map_or(String::new(), |s| {
                let wait_s = masked.number("overload.queue_wait_at_2_s", || format!("{:.2} s", s.queue_wait_s));
                format!(" · wait at 2 s {wait_s}")
            });
            let mean = masked.number("overload.goodput_per_s", || {
                let per_s = Rates::of(
                    &run.seconds,
                    LiveScale {
                        rate: 1.0,
                        pool: 1.0,
                        time: 1.0,
                    },
                )
                .goodput;
                format!("{per_s:.0}")
            });
            let queue = masked.number("overload.max_queue_len", || run.totals.max_queue_len.to_string());
            let name = page.live.view.name();
            let run_s = run.seconds.len();
            let wordings = [
                format!("{run_s} s mean: goodput {mean}/s · queue max {queue}{wait} · v view: {name}"),
                format!("{run_s} s mean: goodput {mean}/s · queue max {queue}{wait} · v: {name}"),
                // A masked number's placeholder may be wider than the number: the view key goes first.
                format!("{run_s} s mean: goodput {mean}/s · queue max {queue}{wait}"),
                format!("mean {mean}/s · queue max {queue}{wait} · v: {name}"),
            ];
            let line = first_that_fits(wordings.map(Line::from).to_vec(), width).unwrap_or_default();
            lines.push(line.style(theme.dim()));
        }
        Some(live) => {
            let record = live.record.as_deref();
            let (params, scale) = match record {
                Some(record) => (record.params.clone(), record.scale),
                None => live_scaled(&run.params),
            };
            let status = live
                .status
                .clone()
                .unwrap_or_else(|| live_scale_line(&params, scale, width));
            lines.push(Line::styled(fit(status), theme.dim()));
            lines.push(Line::styled(
                fit(format!(
                    "{:<LABEL_W$}{:>10}{:>10}{:>10}{:>10}{:>10}",
                    "per s, lesson scale", "goodput", "wasted", "refused", "timed out", "queue max"
                )),
                theme.accent(),
            ));
            let total_s = params.duration_s;
            match record.filter(|r| !r.seconds.is_empty()) {
                None => {
                    lines.push(Line::from(fit(format!(
                        "live: s starts a {total_s:.0} s run (server and client on 127.0.0.1)"
                    ))));
                    lines.push(Line::styled(
                        fit("sim: the run at the same live settings, beside the measurement".to_string()),
                        theme.dim(),
                    ));
                }
                Some(record) => {
                    let measured = record.seconds.len();
                    let live_rates = Rates::of(&record.seconds, record.scale);
                    let sim_seconds = &record.sim.seconds[..measured.min(record.sim.seconds.len())];
                    let sim = Rates::of(sim_seconds, record.scale);
                    lines.push(Line::from(fit(
                        live_rates.row(&format!("live {measured} of {total_s:.0} s"))
                    )));
                    lines.push(Line::from(fit(sim.row("sim, same seconds"))));
                }
            }
        }
    }
    Paragraph::new(lines).render(inner, buf);
}

/// The live points the curve chart marks: the finished runs' at the settings on screen,
/// and the running run's, which moves each second.
fn live_points(live: &OverloadLive, results: &OverloadResults) -> Vec<CurvePoint> {
    let mut points = live.points_at(&results.recompute.run.params);
    let running = live.record.as_deref().filter(|r| r.measured.is_none() && !r.retuned);
    points.extend(running.and_then(LiveRecord::point));
    points
}

/// The view `v` chose: the curves and queue, the outcomes and throttle, the bulkhead, or
/// the metastable model.
pub fn render_charts<S: LabSim<Results = OverloadResults, Live = OverloadLive>>(
    page: &SimPage<S>,
    frame: &dyn PageFrame,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = frame.theme();
    let (results, live) = parts(page, frame);
    // The view `v` chose (kept in the live part, so it is the same in both modes).
    let chosen = page.live.view;
    let sim = &results.recompute;
    let points = live.map_or_else(Vec::new, |l| live_points(l, results));
    let record = live.and_then(|l| l.record.as_deref());
    // A live run's queue and outcomes (at the live scale) replace the simulated ones.
    let live_run = record.filter(|r| !r.seconds.is_empty()).map(|r| OverloadRun {
        seconds: r.seconds.clone(),
        ..r.sim.clone()
    });
    let shown_run = live_run.as_ref().unwrap_or(&sim.run);
    // A chart drawing a number another step asks for waits for it (simulated only: a live
    // screen masks nothing). The curves mark goodput at the offered load.
    let masked = frame.masked();
    let waits_for = |metrics: &[&str]| masked.first_step(metrics.iter().copied());
    // (The wait series reads to a row, a second or so: coarser than its check's tolerance.)
    let queue_masked = waits_for(&["overload.queue_len_at_2_s", "overload.max_queue_len"]);
    let outcomes_masked = waits_for(&["overload.refused_share_steady", "overload.throttle_probability"]);
    let throttle_masked = waits_for(&["overload.throttle_probability"]);
    let curves_masked = waits_for(&["overload.goodput_per_s"]);
    let slots = |name: &str| results.slots_case.metric(name);
    let slots_masked = waits_for(&[&slots("free_for_rest"), &slots("x_busy_end")]);
    let metastable_masked = waits_for(&["overload.metastable.db_load_end_per_s"]);
    let theme_of = theme;
    let or_masked =
        |step: Option<usize>, title: &str, area: Rect, buf: &mut Buffer, draw: &dyn Fn(&mut Buffer)| match step {
            Some(step) => masked_chart(title, step, theme_of, area, buf),
            None => draw(buf),
        };
    // Live, the curve (where the measured points land) gets a little more of the height.
    let top_share = if live.is_some() { 60 } else { 55 };
    let [top, bottom] = Layout::vertical([
        Constraint::Percentage(top_share),
        Constraint::Percentage(100 - top_share),
    ])
    .areas(area);
    match chosen {
        OverloadView::Curves => {
            or_masked(curves_masked, " goodput/s against offered/s ", top, buf, &|buf| {
                goodput_curves(sim, &points, theme, top, buf)
            });
            // Live, the axes are the simulation's at the live settings, the whole run's.
            let scale_from = record.map_or(shown_run, |r| &r.sim);
            // Both wait for the queue's numbers: the wait is the queue over the capacity.
            let [length, wait] = queue_halves(bottom);
            or_masked(queue_masked, " queue length ", length, buf, &|buf| {
                queue_length_over_time(shown_run, scale_from, theme, length, buf)
            });
            or_masked(queue_masked, " wait in queue ", wait, buf, &|buf| {
                queue_wait_over_time(shown_run, scale_from, theme, wait, buf)
            });
        }
        OverloadView::Outcomes => {
            or_masked(outcomes_masked, " per second ", top, buf, &|buf| {
                outcomes_per_second(&shown_run.seconds, shown_run.params.duration_s, theme, top, buf)
            });
            // Live, its counts are the simulation's at the sliders, not the live run's: said so.
            let counts_from = live.map(|_| format!("the sim's {} s", sim.run.params.duration_s));
            or_masked(throttle_masked, " client-side throttle ", bottom, buf, &|buf| {
                throttle_view(&sim.run, counts_from.as_deref(), theme, bottom, buf)
            });
        }
        OverloadView::Bulkhead => or_masked(slots_masked, " bulkhead: the pool's slots ", area, buf, &|buf| {
            bulkhead_view(&results.bulkhead, theme, area, buf)
        }),
        OverloadView::Metastable => or_masked(metastable_masked, " metastable: database load ", area, buf, &|buf| {
            metastable_view(&results.metastable, theme, area, buf)
        }),
    }
}

/// The keys the page's footer adds to the lab screen's, after the sliders' (the key table
/// leaves `v` out of the footer: only this page's views are worth the room).
pub const FOOTER_KEYS: &[(Msg, &str)] = &[(Msg::Live(LiveMsg::ToggleView), "v view")];

/// Lab 4's footer: the lab screen's keys with the page's own ([`FOOTER_KEYS`]) after the
/// sliders' (live: after start and stop), placed by what the keys do; on a narrow live
/// screen the lesson's `L` gives way (the help lists it).
pub fn render_footer(frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
    let mut entries = Vec::new();
    for (msg, entry) in footer_entries(frame) {
        entries.push((msg, entry));
        if matches!(msg, Msg::Step(_) | Msg::StartStop) {
            entries.extend_from_slice(FOOTER_KEYS);
        }
    }
    let width = |entries: &[(Msg, &str)]| 1 + entries.iter().map(|(_, e)| e.chars().count() + 2).sum::<usize>();
    if width(&entries) > usize::from(area.width) {
        entries.retain(|(msg, _)| *msg != Msg::ToggleLesson);
    }
    let entries: Vec<&str> = entries.into_iter().map(|(_, entry)| entry).collect();
    footer::render_entries(entries, frame.theme(), area, buf);
}
