//! Lab 1's fleet view, live, through the App, with real children (the built
//! `resilience-lab serve ...`): a run that ends by itself, and one each stopped by `s`, by
//! leaving the view and by quitting, each leaving no child behind. Real time: readiness
//! waits on real probes, and the test counts this process's children (alone in its process,
//! one test at a time, no other test's children are counted).

use crate::common::procs::{Which, children_of};
use crate::common::{render, visited_app as app};
use std::time::{Duration, Instant};

use resilience_lab::content::LabId;
use resilience_lab::tui::app::App;
use resilience_lab::tui::event::{CHANNEL_CAPACITY, Event};
use resilience_lab::tui::labs::fleet::FleetPage;
use resilience_lab::tui::msg::{FleetMsg, Msg};
use tokio::sync::mpsc;

const BIN: &str = env!("CARGO_BIN_EXE_resilience-lab");

fn running(app: &App) -> bool {
    app.lab(LabId::Health).live_running()
}

fn running_children(among: &[u32]) -> Vec<u32> {
    children_of(std::process::id(), Which::Running)
        .into_iter()
        .filter(|pid| among.contains(pid))
        .collect()
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

/// The app with an event queue, on the fleet view in live mode, its children from `BIN`.
fn live_app() -> (App, mpsc::Receiver<Event>) {
    let (events, received) = mpsc::channel(CHANNEL_CAPACITY);
    let mut app = app(100, 30);
    app.use_events(events);
    for msg in [Msg::Open, Msg::NextPage, Msg::ToggleMode] {
        app.update(msg);
    }
    // The fleet page as the app made it, but with its children from `BIN` (this test's own
    // program is the test harness).
    let lab = app.content.lab(LabId::Health);
    let mut page = FleetPage::new(lab, app.lab(LabId::Health).pages.get(1)).expect("Lab 1's fleet page");
    page.live_showing = true;
    page.live.program = Some(BIN.into());
    app.lab_mut(LabId::Health).page_states[1] = Box::new(page);
    (app, received)
}

/// Starts a run and waits for its database and three replicas.
async fn start(app: &mut App, events: &mut mpsc::Receiver<Event>) -> Vec<u32> {
    app.update(Msg::StartStop);
    assert!(running(app), "s starts a run");
    let four = |_: &App| children_of(std::process::id(), Which::Running).len() == 4;
    let started = pump(app, events, Duration::from_secs(20), four).await;
    let children = children_of(std::process::id(), Which::Running);
    assert!(started, "a database and three replicas: {children:?}\n{}", render(app));
    children
}

/// Waits for the run's end and checks that none of `children` runs any more.
async fn no_child_left(app: &mut App, events: &mut mpsc::Receiver<Event>, children: &[u32]) {
    let gone = |app: &App| !running(app) && running_children(children).is_empty();
    let ended = pump(app, events, Duration::from_secs(20), gone).await;
    assert!(ended, "the run ended: {}", render(app));
    let left = running_children(children);
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
        // "live done" is said of a run that ended by itself without a failure.
        let text = render(&app);
        assert!(text.contains("live done: restarts 0 (sim 0)"), "{text}");

        // Stopped with s.
        let children = start(&mut app, &mut events).await;
        app.update(Msg::StartStop);
        assert!(!running(&app));
        no_child_left(&mut app, &mut events, &children).await;
        let text = render(&app);
        assert!(text.contains("stopped at") || text.contains("stopping:"), "{text}");

        // Leaving the fleet view (F), then coming back.
        let children = start(&mut app, &mut events).await;
        app.update(Msg::NextPage);
        no_child_left(&mut app, &mut events, &children).await;
        app.update(Msg::NextPage);

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
