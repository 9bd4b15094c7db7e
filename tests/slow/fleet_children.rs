//! Lab 1's fleet view, live, through the App, with real children (the built
//! `resilience-lab serve ...`): a run that ends by itself, and one each stopped by `s`, by
//! leaving the view and by quitting, each leaving no child behind. Real time: readiness
//! waits on real probes, and the test counts this process's children (alone in its process,
//! one test at a time, no other test's children are counted).

use crate::common::procs::{Which, children_of};
use crate::common::{render, visited_app as app};
use std::time::{Duration, Instant};

use resilience_lab::content::LabId;
use resilience_lab::engine::fleet::ReplicaState;
use resilience_lab::tui::app::App;
use resilience_lab::tui::event::{CHANNEL_CAPACITY, Event};
use resilience_lab::tui::labs::fleet::FleetPage;
use resilience_lab::tui::msg::{FleetMsg, Msg};
use resilience_lab::tui::screens::lab::live::LivePart;
use tokio::sync::mpsc;

const BIN: &str = env!("CARGO_BIN_EXE_resilience-lab");

fn panel(app: &App) -> &FleetPage {
    app.lab(LabId::Health).fleet.as_ref().expect("Lab 1's fleet view")
}

fn panel_mut(app: &mut App) -> &mut FleetPage {
    app.lab_mut(LabId::Health).fleet.as_mut().expect("Lab 1's fleet view")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// Hands queued events to the app until `done` or `deadline`; returns whether `done` came.
async fn pump(
    app: &mut App,
    events: &mut mpsc::Receiver<Event>,
    deadline: Duration,
    done: impl Fn(&App) -> bool,
) -> bool {
    let until = Instant::now() + deadline;
    while Instant::now() < until {
        while let Ok(event) = events.try_recv() {
            if let Event::Lab(lab, event) = event {
                app.on_event(lab, event);
            }
        }
        app.tick();
        if done(app) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

fn every_replica_ready(app: &App) -> bool {
    panel(app).live.record.as_ref().is_some_and(|record| {
        record
            .replicas
            .iter()
            .all(|r| r.timeline.iter().any(|c| c.state == ReplicaState::Ready))
    })
}

/// The app with an event queue, on the fleet view in live mode, its children from `BIN`.
fn live_app() -> (App, mpsc::Receiver<Event>) {
    let (events, received) = mpsc::channel(CHANNEL_CAPACITY);
    let mut app = app(100, 30);
    app.use_events(events);
    for msg in [Msg::Open, Msg::ToggleFleet, Msg::ToggleMode] {
        app.update(msg);
    }
    panel_mut(&mut app).live.program = Some(BIN.into());
    (app, received)
}

/// Starts a run and waits for its database and three ready replicas.
async fn start(app: &mut App, events: &mut mpsc::Receiver<Event>) -> Vec<u32> {
    app.update(Msg::StartStop);
    assert!(panel(app).live.running(), "s starts a run");
    let ready = pump(app, events, Duration::from_secs(20), every_replica_ready).await;
    assert!(ready, "every replica became ready: {:?}", panel(app).live.status);
    let children = children_of(std::process::id(), Which::Running);
    assert_eq!(children.len(), 4, "a database and three replicas: {children:?}");
    children
}

/// Waits for the run's end and checks that none of `children` runs any more.
async fn no_child_left(app: &mut App, events: &mut mpsc::Receiver<Event>, children: &[u32]) {
    let ended = pump(app, events, Duration::from_secs(20), |app| panel(app).live.finished).await;
    assert!(ended, "the run ended: {:?}", panel(app).live.status);
    let left: Vec<u32> = children_of(std::process::id(), Which::Running)
        .into_iter()
        .filter(|pid| children.contains(pid))
        .collect();
    assert!(left.is_empty(), "children outlived the run: {left:?}");
}

#[test]
fn live_runs_leave_no_child_however_they_end() {
    runtime().block_on(async {
        let (mut app, mut events) = live_app();
        // A rolling restart (90 model s, 9 real s) ends by itself and compares with the sim.
        for _ in 0..3 {
            app.update(Msg::Fleet(FleetMsg::Scenario));
        }
        let children = start(&mut app, &mut events).await;
        no_child_left(&mut app, &mut events, &children).await;
        let live = &panel(&app).live;
        assert_eq!(live.stopped_at_s, None, "it ended by itself");
        assert!(live.status.is_none(), "no failure: {:?}", live.status);
        let text = render(&app);
        assert!(text.contains("live done: restarts 0 (sim 0)"), "{text}");

        // Stopped with s.
        let children = start(&mut app, &mut events).await;
        app.update(Msg::StartStop);
        assert!(!panel(&app).live.running());
        no_child_left(&mut app, &mut events, &children).await;
        assert!(panel(&app).live.stopped_at_s.is_some());

        // Leaving the fleet view (F), then coming back.
        let children = start(&mut app, &mut events).await;
        app.update(Msg::ToggleFleet);
        no_child_left(&mut app, &mut events, &children).await;
        app.update(Msg::ToggleFleet);

        // Quitting: the event loop's bounded wait for every live run.
        let children = start(&mut app, &mut events).await;
        app.update(Msg::Quit);
        app.shutdown_live().await;
        let left: Vec<u32> = children_of(std::process::id(), Which::Running)
            .into_iter()
            .filter(|pid| children.contains(pid))
            .collect();
        assert!(left.is_empty(), "children outlived quitting: {left:?}");
    });
}
