//! Lab 1's fleet view, live, through the App.
//!
//! Snapshots (TestBackend + insta, colour off, 100x30 and 80x24) of a run fed as samples
//! through the app's event path (`App::on_event`, as the run's task sends them), from a
//! recorded-like run: the simulation's run with every change 0.6 s late and a few requests
//! failed in the moment an endpoint leaves, as live runs measure. The real runs of real
//! children are in `tests/slow/fleet_children.rs`.

use crate::common::{render, visited_app as app};

use resilience_lab::content::LabId;
use resilience_lab::content::params::fleet as fleet_params;
use resilience_lab::engine::fleet::{FleetRun, ReplicaState, RequestOutcome, simulate};
use resilience_lab::live::fleet::FleetSample;
use resilience_lab::live::run::{LabBody, LabEvent};
use resilience_lab::tui::app::App;
use resilience_lab::tui::frame::live::LivePart;
use resilience_lab::tui::labs::fleet::FleetPage;
use resilience_lab::tui::labs::fleet::live::APP_TIME_SCALE;
use resilience_lab::tui::msg::Msg;

/// The run id the synthetic samples carry.
const RUN: u64 = 7;

/// Lab 1's fleet page as the app makes it on the fleet view in live mode, showing run
/// [`RUN`] of `run`'s settings from its start: put in the app's place, it takes the samples
/// the app hands it as the page the app made would.
fn page_showing(app: &App, run: &FleetRun) -> FleetPage {
    let lab = app.content.lab(LabId::Health);
    let mut page = FleetPage::new(lab, app.lab(LabId::Health).pages.get(1)).expect("Lab 1's fleet page");
    page.live_showing = true;
    page.live.begin(RUN, run.params.clone());
    page
}

/// Lab 1 opened, the fleet view on, in live mode.
fn fleet_live(width: u16, height: u16) -> App {
    let mut app = app(width, height);
    for msg in [Msg::Open, Msg::NextPage, Msg::ToggleMode] {
        app.update(msg);
    }
    let page = app.lab(LabId::Health).later_page().expect("the fleet view shows");
    assert!(!page.simulated(), "the fleet view is live");
    app
}

/// The simulation at the view's defaults as a live run would measure it: every change
/// 0.6 s late, and 12 requests failed instead of answered while endpoints left.
fn recorded_run(app: &App) -> FleetRun {
    let lab = app.content.lab(LabId::Health);
    let mut params = fleet_params::clamped(lab, &app.lab(LabId::Health).pages[1].sliders[..]);
    params.time_scale = APP_TIME_SCALE;
    let mut run = simulate(&params);
    for replica in &mut run.replicas {
        for change in replica.timeline.iter_mut().filter(|c| c.t_s > 0.0) {
            change.t_s += 0.6;
        }
        for t_s in &mut replica.restart_times_s {
            *t_s += 0.6;
        }
    }
    for (t_s, _) in run.endpoints.iter_mut().filter(|(t_s, _)| *t_s > 0.0) {
        *t_s += 0.6;
    }
    for window in &mut run.no_endpoint_windows {
        window.0 += 0.6;
        window.1 = (window.1 + 0.6).min(params.duration_s);
    }
    let moved = 12.min(run.requests.ok);
    run.requests.ok -= moved;
    run.requests.failed += moved;
    for second in run.per_second.iter_mut().filter(|s| s.ok > 0).take(moved as usize) {
        second.ok -= 1;
        second.failed += 1;
    }
    run
}

/// The samples a live run of `run` sends up to model second `until_s`, in time order.
fn samples_of(run: &FleetRun, until_s: f64) -> Vec<(f64, FleetSample)> {
    let mut samples: Vec<(f64, FleetSample)> = Vec::new();
    for (replica, row) in run.replicas.iter().enumerate() {
        for change in &row.timeline {
            samples.push((
                change.t_s,
                FleetSample::Replica {
                    replica,
                    change: *change,
                },
            ));
        }
    }
    for &(t_s, ready) in run.endpoints.iter().skip(1) {
        samples.push((t_s, FleetSample::Endpoints { t_s, ready }));
    }
    for &(t_s, state) in &run.database {
        samples.push((t_s, FleetSample::Database { t_s, state }));
    }
    for (second, totals) in run.per_second.iter().enumerate() {
        for (outcome, count) in [
            (RequestOutcome::Ok, totals.ok),
            (RequestOutcome::Degraded, totals.degraded),
            (RequestOutcome::Failed, totals.failed),
            (RequestOutcome::Refused, totals.refused),
        ] {
            for _ in 0..count {
                samples.push((second as f64, FleetSample::Request { second, outcome }));
            }
        }
    }
    samples.retain(|(t_s, _)| *t_s <= until_s);
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    samples
}

fn event(run: u64, sample: FleetSample) -> LabEvent {
    LabEvent {
        run,
        body: Box::new(LabBody::Fleet(sample)),
    }
}

fn send(app: &mut App, sample: FleetSample) {
    app.on_event(LabId::Health, event(RUN, sample));
}

/// The fleet view live, showing run [`RUN`] fed up to `until_s`, then `Done` if `done`.
fn fed(width: u16, height: u16, until_s: f64, done: bool) -> App {
    let mut app = fleet_live(width, height);
    let run = recorded_run(&app);
    let page = page_showing(&app, &run);
    app.lab_mut(LabId::Health).page_states[1] = Box::new(page);
    for (_, sample) in samples_of(&run, until_s) {
        send(&mut app, sample);
    }
    if done {
        send(&mut app, FleetSample::Done(Box::new(run)));
    }
    app
}

/// The page's live part takes the samples of its run as their events carry them (the app
/// hands them on as they come: the snapshots below are of an app fed so).
#[test]
fn samples_through_the_event_path_fill_the_record_as_the_run_measured() {
    let app = fleet_live(100, 30);
    let run = recorded_run(&app);
    let mut live = page_showing(&app, &run).live;
    for (_, sample) in samples_of(&run, 600.0) {
        live.on_event(event(RUN, sample));
    }
    let record = live.record.as_ref().expect("a record");
    assert_eq!(record.requests, run.requests);
    assert_eq!(record.total_restarts(), run.total_restarts());
    assert_eq!(record.first_restart_s(), run.first_restart_s());
    for (got, want) in record.replicas.iter().zip(&run.replicas) {
        let states: Vec<ReplicaState> = got.timeline.iter().map(|c| c.state).collect();
        let wanted: Vec<ReplicaState> = want.timeline.iter().map(|c| c.state).collect();
        assert_eq!(states, wanted, "{}", got.name);
    }
    assert_eq!(record.no_endpoint_windows, run.no_endpoint_windows);
    // A sample of another run is not this run's.
    let before = live.record.clone();
    live.on_event(event(RUN + 1, FleetSample::Failed("stale".into())));
    assert_eq!(live.record, before);
    assert!(!live.finished);
}

#[test]
fn fleet_live_running_100x30() {
    let text = render(&fed(100, 30, 300.0, false));
    assert!(text.contains("fleet (live)"), "{text}");
    assert!(text.contains("live 300/600 s at 10x"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn fleet_live_finished_100x30() {
    let text = render(&fed(100, 30, 600.0, true));
    assert!(
        text.contains("live done: restarts 12 (sim 12) · first 61.6 s (sim 61.0) · requests ±5%: yes"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn fleet_live_finished_80x24() {
    insta::assert_snapshot!(render(&fed(80, 24, 600.0, true)));
}

#[test]
fn fleet_live_help_lists_what_the_view_takes() {
    let mut app = fleet_live(100, 30);
    app.update(Msg::ToggleHelp);
    let text = render(&app);
    for key in ["m  simulated or live", "s  live: start a run", "d/w/u", "p  predict"] {
        assert!(text.contains(key), "{key}: {text}");
    }
    for other_labs in ["b/f", "o/g", "+/-/c", "m/s"] {
        assert!(!text.contains(other_labs), "{other_labs}: {text}");
    }
}

/// A live run stopped halfway: its line says the restarts by then and that the sim's whole
/// run is below, in full at 80 columns (it was cut at `by then; the sim's whole │`).
#[test]
fn a_stopped_live_run_says_so_whole_at_80_columns() {
    for (width, height) in [(80, 24), (100, 30)] {
        let mut app = fleet_live(width, height);
        let run = recorded_run(&app);
        let mut page = page_showing(&app, &run);
        page.live.stopped_at_s = Some(300.0);
        app.lab_mut(LabId::Health).page_states[1] = Box::new(page);
        for (_, sample) in samples_of(&run, 300.0) {
            send(&mut app, sample);
        }
        send(&mut app, FleetSample::Done(Box::new(run)));
        let text = render(&app);
        let row = text
            .lines()
            .find(|row| row.contains("live stopped"))
            .unwrap_or_else(|| panic!("the stopped line:\n{text}"));
        assert!(row.contains("whole run below"), "{width}x{height}: {row}\n{text}");
    }
}
