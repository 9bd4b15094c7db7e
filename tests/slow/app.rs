//! Live labs driven from the app's state, as the event loop drives them: keys, then frame
//! ticks until the run ends, then the shutdown the loop awaits before restoring the terminal.
//! Real sockets on 127.0.0.1, short schedules, every wait bounded.

use std::time::Duration;

use ratatui::layout::Rect;
use resilience_lab::content::Content;
use resilience_lab::content::LabId;
use resilience_lab::tui::app::App;
use resilience_lab::tui::event::{CHANNEL_CAPACITY, Event};
use resilience_lab::tui::msg::Msg;
use resilience_lab::tui::theme::Theme;
use resilience_lab::tui::theme::ThemeName;
use tokio::sync::mpsc;

/// Longest a test waits for a live run to end.
const RUN_DEADLINE: Duration = Duration::from_secs(60);

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// The app on its home screen at 100x30, every lab visited (no first-visit lesson).
fn home_app() -> App {
    let content = Content::load(None).expect("the built-in labs load");
    let mut app = App::new(content, Theme::new(ThemeName::Dark, false), Rect::new(0, 0, 100, 30));
    app.mark_all_visited();
    app
}

/// The app on lab `index` (0-based) in live mode, and its event queue.
fn live_app(index: usize) -> (App, mpsc::Receiver<Event>) {
    let mut app = home_app();
    let (events, received) = mpsc::channel(CHANNEL_CAPACITY);
    app.use_events(events);
    for _ in 0..index {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    assert!(app.labs[index].live_showing());
    (app, received)
}

/// The named number `name` of Lab 3's finished live run, as its page reports it.
fn breaker_measured(app: &App, name: &str) -> Option<f64> {
    let measured = app.lab(LabId::Breaker).live_run_metrics()?;
    resilience_lab::learning::metrics::lookup(&measured, name)
}

/// What the screen reads now (Lab 3's, Lab 2's).
fn screen_text(app: &App) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).expect("test terminal");
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .expect("drawn");
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// The rates over the arrows of Lab 2's live chain (`400/s`, `1.6k/s`), left to right.
fn chain_rates(text: &str) -> Vec<String> {
    let rows: Vec<&str> = text.lines().collect();
    let Some((row, column)) = rows.iter().enumerate().find_map(|(row, line)| {
        // In characters: the rows above hold other wide characters (a slider's track).
        let before = &line[..line.find("│client│")?];
        Some((row, before.chars().count()))
    }) else {
        return Vec::new();
    };
    // The rates stand two rows above the boxes' names, over the arrows.
    rows[row.saturating_sub(2)]
        .chars()
        .skip(column)
        .collect::<String>()
        .split_whitespace()
        .filter(|rate| rate.ends_with("/s"))
        .map(String::from)
        .collect()
}

/// The goodput Lab 2's metastable view reads now (its Results line), actions per second.
fn goodput_per_s(app: &App) -> f64 {
    screen_text(app)
        .split("goodput ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or(0.0)
}

fn set(app: &mut App, lab: usize, name: &str, value: f64) {
    let slider = app.labs[lab].pages[0]
        .sliders
        .iter_mut()
        .find(|slider| slider.spec.name == name)
        .unwrap_or_else(|| panic!("no slider {name}"));
    slider.set_value(value);
    assert_eq!(slider.value(), value, "{name} is on the grid");
}

/// Hands the queued events to the app every frame until `done` or the deadline; returns
/// whether `done` came.
async fn pump(app: &mut App, events: &mut mpsc::Receiver<Event>, done: impl Fn(&App) -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + RUN_DEADLINE;
    while tokio::time::Instant::now() < deadline {
        while let Ok(event) = events.try_recv() {
            if let Event::Lab(lab, event) = event {
                app.on_event(lab, event);
            }
        }
        if done(app) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    false
}

/// Tasks still alive, after giving the client pools' connection tasks up to 2 s to see
/// their servers' connections close (they end on EOF, a moment after the drain).
async fn alive_tasks() -> usize {
    let metrics = tokio::runtime::Handle::current().metrics();
    for _ in 0..40 {
        if metrics.num_alive_tasks() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    metrics.num_alive_tasks()
}

#[test]
fn lab3_live_runs_from_the_app_and_leaves_no_task() {
    runtime().block_on(async {
        let (mut app, mut events) = live_app(2);
        set(&mut app, 2, "duration_s", 5.0);
        set(&mut app, 2, "brownout_start_s", 1.0);
        set(&mut app, 2, "brownout_length_s", 1.0);
        set(&mut app, 2, "rate", 50.0);
        assert_eq!(alive_tasks().await, 0);
        app.update(Msg::StartStop);
        assert!(app.lab(LabId::Breaker).live_running(), "s started a run");
        // A breaker slider while running goes through the watch channel, without a restart.
        app.update(Msg::NextSlider);
        app.update(Msg::Step(1));
        assert!(
            pump(&mut app, &mut events, |app| !app.lab(LabId::Breaker).live_running()).await,
            "the run ended within {RUN_DEADLINE:?}"
        );
        // The page reports the finished run's measured rows as named numbers.
        let calls = breaker_measured(&app, "breaker.timeout_only.calls");
        assert_eq!(calls, Some(250.0), "5 s at 50 calls/s");
        let sick = breaker_measured(&app, "breaker.timeout_only.sick_calls").unwrap_or_default();
        assert!(sick > 0.0, "the brownout was seen: {sick} calls to the sick dependency");
        let text = screen_text(&app);
        assert!(text.contains("finished · live rows measured"), "{text}");
        app.shutdown_live().await;
        assert!(!app.lab(LabId::Breaker).live_running());
        assert_eq!(alive_tasks().await, 0, "shutdown left no task");
    });
}

#[test]
fn lab2_live_counting_run_counts_like_the_sim_and_leaves_no_task() {
    runtime().block_on(async {
        let (mut app, mut events) = live_app(1);
        set(&mut app, 1, "actions", 100.0);
        app.update(Msg::StartStop);
        assert!(
            pump(&mut app, &mut events, |app| !app.lab(LabId::Retry).live_running()).await,
            "the run ended within {RUN_DEADLINE:?}"
        );
        let text = screen_text(&app);
        let rates = chain_rates(&text);
        assert_eq!(rates.len(), 3, "{text}");
        assert!(
            rates.iter().all(|rate| rate != "0/s"),
            "a run shorter than a point still charts one: {rates:?}"
        );
        // p = 1 and 4 x 4 x 4: every action costs exactly 64 database attempts.
        let measured = app.lab(LabId::Retry).live_run_metrics().expect("a counting result");
        let per_action = resilience_lab::learning::metrics::lookup(&measured, "retry.a.db_attempts_per_action");
        assert_eq!(per_action, Some(64.0));
        assert!(text.contains("front end 400 · back end 1600 · database 6400"), "{text}");
        app.shutdown_live().await;
        assert_eq!(alive_tasks().await, 0, "shutdown left no task");
    });
}

#[test]
fn lab2_metastable_load_stops_when_leaving_the_screen() {
    runtime().block_on(async {
        let (mut app, mut events) = live_app(1);
        app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::ToggleView));
        app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::Load(-4)));
        app.update(Msg::StartStop);
        assert!(
            pump(&mut app, &mut events, |app| goodput_per_s(app) > 0.0).await,
            "goodput was measured"
        );
        app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::Trigger));
        let text = screen_text(&app);
        assert!(
            !text.contains("g triggers a running metastable load"),
            "the load took the trigger: {text}"
        );
        assert!(app.lab(LabId::Retry).live_running());
        app.update(Msg::Back);
        assert!(
            !app.lab(LabId::Retry).live_running(),
            "leaving the screen stops the load"
        );
        app.shutdown_live().await;
        assert_eq!(alive_tasks().await, 0, "shutdown left no task");
    });
}

#[test]
fn the_live_drill_stops_its_servers_and_tasks_when_the_app_quits() {
    runtime().block_on(async {
        let mut app = home_app();
        assert_eq!(alive_tasks().await, 0);
        app.update(Msg::OpenOncallLive);
        assert!(app.live_running(), "O started the twin");
        let deadline = tokio::time::Instant::now() + RUN_DEADLINE;
        while app
            .oncall
            .as_ref()
            .is_some_and(|screen| screen.play.view().second.is_none())
        {
            assert!(tokio::time::Instant::now() < deadline, "the twin's rows arrive");
            tokio::time::sleep(Duration::from_millis(250)).await;
            app.tick();
        }
        assert!(alive_tasks().await > 0, "the twin's servers and load are running");
        // What the event loop does on every way out, before the terminal is restored.
        app.shutdown_live().await;
        assert!(!app.live_running());
        assert_eq!(alive_tasks().await, 0, "quitting left no server, load or task");
    });
}

/// `O` on home starts the drill live (its servers on 127.0.0.1) and `o` the simulated one,
/// each only when no drill is running; quitting stops the live twin and leaves no task.
#[test]
fn o_and_shift_o_on_home_open_the_drill_simulated_or_live() {
    runtime().block_on(async {
        let mut app = home_app();
        app.update(Msg::OpenOncallLive);
        assert!(app.oncall.as_ref().expect("a drill").play.is_live(), "O opens it live");
        app.update(Msg::Back);
        // The running drill comes back whatever the key: `o` does not start a second one.
        app.update(Msg::OpenOncall);
        assert!(
            app.oncall.as_ref().expect("a drill").play.is_live(),
            "o resumes the live drill"
        );
        app.shutdown_live().await;
        assert_eq!(alive_tasks().await, 0, "shutdown left no task");
        let mut sim = home_app();
        sim.update(Msg::OpenOncall);
        assert!(
            !sim.oncall.as_ref().expect("a drill").play.is_live(),
            "o opens it simulated"
        );
    });
}

/// The app's live drill (`oncall --live`) driven as the event loop drives it, with no
/// terminal: the screen's keys pull the runbook's levers while the twin runs on
/// 127.0.0.1 (the whole drill at 120 ms a drill second, the early end at the app's 400 ms),
/// ticks read its rows, and the drill ends by its clock. Goodput must come back and the
/// score must be the simulation's for the same levers, within margins; the twin's task
/// must be gone after.
mod live_drill {
    use std::time::{Duration, Instant};

    use resilience_lab::engine::oncall::sim::DRILL_S;
    use resilience_lab::engine::oncall::{DrillSetup, OncallLever, builtin_incidents, run_drill, score_drill};
    use resilience_lab::live::oncall::feed::{APP_MS_PER_DRILL_S, ROW_COMPLETE_AFTER_S};
    use resilience_lab::tui::msg::{Msg, OncallMsg};
    use resilience_lab::tui::screens::oncall::{OncallScreen, OncallStage};

    const INCIDENT: &str = "inventory-brownout";
    const SEED: u64 = 1;
    /// The scale the whole drill plays at here: faster than the app's 400 ms so that CI's
    /// real-time stage holds it (50 s, not 168 s), slow enough that a tick is half a drill
    /// second, as the app's 250 ms frame tick is at 400 ms.
    const TEST_MS_PER_DRILL_S: u64 = 120;
    /// The drill's wall time, plus the warm-up and the tail the twin waits for soft calls.
    const DRILL_DEADLINE: Duration = Duration::from_secs(DRILL_S as u64 * TEST_MS_PER_DRILL_S / 1_000 + 40);
    /// How often the test ticks: half a drill second, as the app's frame tick is at its scale.
    const TICK: Duration = Duration::from_millis(TEST_MS_PER_DRILL_S / 2);
    /// Drill seconds the restored moment may differ from the sim's: the twin agrees to 1 s
    /// (`oncall.rs`); a lever pulled by keys lands up to a tick late.
    const RESTORED_WITHIN_S: f64 = 2.0;
    /// Points the score may differ from the sim's (the restored moment moves 0.2 a second).
    const SCORE_WITHIN: u32 = 5;

    fn setup() -> DrillSetup {
        let incidents = builtin_incidents().expect("the shipped incidents parse");
        let incident = incidents
            .iter()
            .find(|i| i.name == INCIDENT)
            .expect("a shipped incident");
        DrillSetup::new(incident, SEED)
    }

    /// Pulls `lever` through the screen as a learner does: the picker, the lever's row, a reason.
    fn pull_by_keys(screen: &mut OncallScreen, lever: OncallLever) {
        screen.update(Msg::Oncall(OncallMsg::Levers));
        let row = screen
            .play
            .offer()
            .iter()
            .position(|l| *l == lever)
            .unwrap_or_else(|| panic!("{lever} is on offer"));
        for _ in 0..row {
            screen.update(Msg::Down);
        }
        screen.update(Msg::Open);
        for c in "the runbook says so".chars() {
            screen.update(Msg::Type(c));
        }
        screen.update(Msg::Open);
        screen.update(Msg::Open);
        assert_eq!(screen.stage, OncallStage::Drill, "{lever} pulled");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_live_drill_played_by_keys_restores_goodput_and_scores_as_the_sim() {
        let setup = setup();
        let incident = setup.incident.clone();
        let mut screen = OncallScreen::new_live_at(&incident, SEED, TEST_MS_PER_DRILL_S);
        let started = Instant::now();
        let mut runbook = setup.runbook().into_iter().peekable();
        let mut most_behind_s = 0;
        while screen.reveal.is_none() {
            assert!(started.elapsed() < DRILL_DEADLINE, "the live drill ends by its clock");
            tokio::time::sleep(TICK).await;
            screen.tick();
            let view = screen.play.view();
            if view.t_s > 20 && !view.ended {
                most_behind_s = most_behind_s.max(view.live.expect("a live view").behind_s);
            }
            while let Some(pull) = runbook.next_if(|p| p.t_s as usize <= view.t_s) {
                pull_by_keys(&mut screen, pull.lever);
            }
        }
        let reveal = screen.reveal.clone().expect("the reveal");
        assert_eq!(reveal.run.seconds.len(), DRILL_S, "every second counted");
        assert!(
            most_behind_s as f64 <= ROW_COMPLETE_AFTER_S + 2.0,
            "rows {most_behind_s} drill s behind the clock"
        );
        let levers: Vec<String> = reveal.run.levers.iter().map(|p| p.lever.to_string()).collect();
        let runbook: Vec<String> = setup.runbook().iter().map(|p| p.lever.to_string()).collect();
        assert_eq!(levers, runbook, "every runbook lever pulled, in order");
        let live = reveal.score.clone();
        let sim = score_drill(&run_drill(&setup, &reveal.run.levers));
        eprintln!(
            "{INCIDENT} seed {SEED} live app: restored {:?} (sim {:?}), right lever {:?}, attempts after {:.3} (sim {:.3}), score {} (sim {})",
            live.goodput_restored_s,
            sim.goodput_restored_s,
            live.right_lever_s,
            live.attempts_per_request_after,
            sim.attempts_per_request_after,
            live.score,
            sim.score
        );
        let (restored, right) = (
            live.goodput_restored_s.expect("goodput restored live"),
            live.right_lever_s.expect("the right lever pulled"),
        );
        assert!(restored - right <= 60.0, "goodput back within 60 s of the right lever");
        assert!(live.attempts_per_request_after <= 1.05);
        assert!(
            (restored - sim.goodput_restored_s.expect("restored in the sim")).abs() <= RESTORED_WITHIN_S,
            "restored like the sim"
        );
        assert!(live.score.abs_diff(sim.score) <= SCORE_WITHIN, "scored like the sim");
        let task = screen.stop_live().expect("the twin's task");
        tokio::time::timeout(Duration::from_secs(3), task)
            .await
            .expect("the twin's task has ended with the drill")
            .expect("the twin's task did not panic");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_live_drill_ended_early_stops_its_servers_at_once() {
        let incident = setup().incident;
        let mut screen = OncallScreen::new_live(&incident, SEED);
        let started = Instant::now();
        while screen.play.view().second.is_none() {
            assert!(started.elapsed() < Duration::from_secs(20), "rows arrive");
            tokio::time::sleep(TICK).await;
            screen.tick();
        }
        screen.update(Msg::Oncall(OncallMsg::End));
        screen.update(Msg::Oncall(OncallMsg::End));
        let reveal = screen.reveal.clone().expect("E reveals");
        assert!(reveal.live_cut_at_s.is_some(), "the reveal says what it counted");
        let dir = tempfile::tempdir().expect("a temporary folder");
        let saved = screen
            .save(&dir.path().join("progress.toml"))
            .expect("the debrief saves");
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(saved).expect("the debrief reads")).expect("JSON");
        assert_eq!(doc["mode"], "live");
        assert_eq!(doc["ms_per_drill_s"], APP_MS_PER_DRILL_S);
        assert_eq!(doc["measured_s"], reveal.live_cut_at_s.unwrap());
        let task = screen.stop_live().expect("the twin's task");
        tokio::time::timeout(Duration::from_secs(3), task)
            .await
            .expect("the twin stops within 3 s of the end")
            .expect("the twin's task did not panic");
    }
}
