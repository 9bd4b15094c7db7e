//! The drill's screen, whole, at 80x24 and 100x30 without colour: as opened, after the
//! incident has started, the lever picker and the decision log's form, the log with a
//! lever pulled, and the reveal.

use crate::common::{render, visited_app};
use resilience_lab::engine::oncall::{DrillSetup, builtin_incidents};
use resilience_lab::tui::app::{App, Screen};
use resilience_lab::tui::msg::{Msg, OncallMsg};

/// The easiest incident (one soft dependency to switch off), seed 1.
const INCIDENT: &str = "recommendations-hang";

/// The drill's onset for `INCIDENT` and seed 1, read from the engine (the tests may know it).
fn onset_s() -> usize {
    let incidents = builtin_incidents().unwrap();
    let incident = incidents.iter().find(|i| i.name == INCIDENT).unwrap();
    DrillSetup::new(incident, 1).onset_s as usize
}

/// The app on the drill, `seconds` drill seconds in.
pub fn drill_app(width: u16, height: u16, incident: &str, seed: u64, seconds: usize) -> App {
    let mut app = visited_app(width, height);
    app.oncall_seed = seed;
    app.oncall_incident = Some(incident.to_string());
    app.update(Msg::OpenOncall);
    assert_eq!(app.screen, Screen::Oncall);
    let screen = app.oncall.as_mut().unwrap();
    screen.play.step(seconds);
    app
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Msg::Type(c));
    }
}

/// Switch recommendations off (the picker's sixth row), with a reason and an expectation.
pub fn pull_recommendations_off(app: &mut App) {
    app.update(Msg::Oncall(OncallMsg::Levers));
    for _ in 0..5 {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    typed(app, "its p99 is near 2 s and the workers are full");
    app.update(Msg::Open);
    typed(app, "workers free within seconds");
    app.update(Msg::Open);
}

fn start(width: u16, height: u16) -> String {
    render(&drill_app(width, height, INCIDENT, 1, 0))
}

fn after_start(width: u16, height: u16) -> String {
    render(&drill_app(width, height, INCIDENT, 1, onset_s() + 20))
}

fn form(width: u16, height: u16) -> String {
    let mut app = drill_app(width, height, INCIDENT, 1, onset_s() + 20);
    app.update(Msg::Oncall(OncallMsg::Levers));
    for _ in 0..5 {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    typed(&mut app, "its p99 is near 2 s");
    render(&app)
}

fn picker(width: u16, height: u16) -> String {
    let mut app = drill_app(width, height, INCIDENT, 1, onset_s() + 20);
    app.update(Msg::Oncall(OncallMsg::Levers));
    app.update(Msg::Down);
    render(&app)
}

fn log(width: u16, height: u16) -> String {
    let mut app = drill_app(width, height, INCIDENT, 1, onset_s() + 20);
    pull_recommendations_off(&mut app);
    app.oncall.as_mut().unwrap().play.step(30);
    render(&app)
}

fn reveal(width: u16, height: u16) -> String {
    let mut app = drill_app(width, height, INCIDENT, 1, onset_s() + 20);
    pull_recommendations_off(&mut app);
    app.oncall.as_mut().unwrap().play.step(150);
    app.update(Msg::Oncall(OncallMsg::End));
    app.update(Msg::Oncall(OncallMsg::End));
    render(&app)
}

#[test]
fn start_80x24() {
    insta::assert_snapshot!(start(80, 24));
}

#[test]
fn start_100x30() {
    insta::assert_snapshot!(start(100, 30));
}

#[test]
fn after_start_80x24() {
    insta::assert_snapshot!(after_start(80, 24));
}

#[test]
fn after_start_100x30() {
    insta::assert_snapshot!(after_start(100, 30));
}

#[test]
fn picker_80x24() {
    insta::assert_snapshot!(picker(80, 24));
}

#[test]
fn form_80x24() {
    insta::assert_snapshot!(form(80, 24));
}

#[test]
fn form_100x30() {
    insta::assert_snapshot!(form(100, 30));
}

#[test]
fn log_80x24() {
    insta::assert_snapshot!(log(80, 24));
}

#[test]
fn log_100x30() {
    insta::assert_snapshot!(log(100, 30));
}

#[test]
fn reveal_80x24() {
    insta::assert_snapshot!(reveal(80, 24));
}

#[test]
fn reveal_100x30() {
    insta::assert_snapshot!(reveal(100, 30));
}

#[test]
fn home_offers_the_drill_and_o_opens_it() {
    let mut app = visited_app(80, 24);
    assert!(render(&app).contains("On-call"));
    assert!(render(&app).contains("o on-call"));
    app.update(Msg::OpenOncall);
    assert_eq!(app.screen, Screen::Oncall);
    app.update(Msg::Back);
    assert_eq!(app.screen, Screen::Home);
    assert!(app.oncall.as_ref().unwrap().play.view().paused, "home pauses the drill");
}

#[test]
fn the_end_saves_the_debrief_and_its_summary_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("progress.toml");
    let mut app = drill_app(100, 30, INCIDENT, 1, onset_s() + 20);
    app.progress_path = Some(progress.clone());
    pull_recommendations_off(&mut app);
    app.update(Msg::Oncall(OncallMsg::End));
    app.update(Msg::Oncall(OncallMsg::End));
    let saved = app.oncall.as_ref().unwrap().saved.clone().unwrap();
    assert!(saved.starts_with("debrief saved: "), "{saved}");
    let text = std::fs::read_to_string(&progress).unwrap();
    assert!(text.contains("format_version = 3"), "{text}");
    assert!(
        text.contains("[[oncall]]") && text.contains("incident = \"recommendations-hang\""),
        "{text}"
    );
    let summary = app.progress.oncall[0].clone();
    let debrief = summary.debrief.as_ref().expect("the summary names its debrief");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(debrief).unwrap()).unwrap();
    assert_eq!(doc["score"]["score"], summary.score);
    assert_eq!(
        doc["decisions"][0]["why"],
        "its p99 is near 2 s and the workers are full"
    );
    assert!(render(&app).contains("debrief saved: "));
    app.update(Msg::Back);
    assert!(render(&app).contains(&format!("played 1, last score {} / 100", summary.score)));
    // The next drill is a new one, with the next seed.
    app.update(Msg::OpenOncall);
    assert_eq!(app.oncall.as_ref().unwrap().seed, 2);
    assert!(app.oncall.as_ref().unwrap().reveal.is_none());
}

/// The title's clock live: the twin's scale and how far its rows trail, where the sim's
/// speed and pause state stand (a fixed view: live timing varies from run to run).
#[test]
fn the_live_title_says_the_scale_and_how_far_the_signals_trail() {
    use resilience_lab::engine::oncall::LiveClock;
    use resilience_lab::tui::view::oncall::clock_words;
    let app = drill_app(100, 30, INCIDENT, 1, 30);
    let mut view = app.oncall.as_ref().unwrap().play.view();
    assert_eq!(
        clock_words(&view),
        "   t=30 s of 420   500 ms a drill second   running",
        "the sim's words as before"
    );
    view.live = Some(LiveClock {
        ms_per_drill_s: 400,
        behind_s: 5,
    });
    assert_eq!(
        clock_words(&view),
        "   t=30 s of 420   live, 1 s = 400 ms, signals 5 s late"
    );
    let title = format!(" On call: checkout-api{}", clock_words(&view));
    assert!(title.chars().count() <= 80, "fits 80 columns: {title:?}");
}

/// Live, the footer does not offer a pause or a speed: it says the clock cannot stop.
#[test]
fn the_live_footer_says_the_clock_cannot_pause() {
    use resilience_lab::tui::keys::{Context, footer_keys};
    let live = footer_keys(Context::OncallLiveDrill);
    assert_eq!(
        live,
        ["Space live: cannot pause", "l levers", "E end", "Esc home", "? help"]
    );
    let sim = footer_keys(Context::OncallDrill);
    assert!(sim.contains(&"Space pause") && sim.contains(&"+/- speed"));
}

/// One E asks before the drill ends (a trial's drill ended on a single stray E): the footer
/// says what a second E does, the clock and the incident stay as they were, and any other
/// key lets the drill go on.
#[test]
fn one_e_asks_and_a_second_ends_the_drill() {
    let mut app = drill_app(80, 24, INCIDENT, 1, onset_s() + 20);
    app.update(Msg::Oncall(OncallMsg::End));
    let asked = render(&app);
    assert!(
        asked.contains(" E again ends the drill and reveals the incident; any other key goes on"),
        "{asked}"
    );
    assert!(app.oncall.as_ref().unwrap().reveal.is_none(), "not ended yet");
    app.update(Msg::Oncall(OncallMsg::Pause));
    assert!(!render(&app).contains("E again ends"), "another key went on");
    app.update(Msg::Oncall(OncallMsg::End));
    app.update(Msg::Oncall(OncallMsg::End));
    assert!(app.oncall.as_ref().unwrap().reveal.is_some(), "E twice ended it");
}

/// A live twin that stopped by itself before its first row: it could not start.
#[derive(Debug)]
struct TwinThatCannotStart;

impl resilience_lab::engine::oncall::LiveFeed for TwinThatCannotStart {
    fn ms_per_drill_s(&self) -> u64 {
        400
    }
    fn now_s(&self) -> f64 {
        0.0
    }
    fn pull(&mut self, _: resilience_lab::engine::oncall::OncallLever) {}
    fn take_rows(&mut self) -> Vec<resilience_lab::engine::oncall::DrillSecond> {
        Vec::new()
    }
    fn take_final(&mut self) -> Option<Result<resilience_lab::engine::oncall::DrillRun, String>> {
        Some(Err("it could not start on 127.0.0.1: no free port".to_string()))
    }
    fn add_fault(&mut self, _: resilience_lab::engine::oncall::ExtraFault) {}
    fn stop(&mut self) {}
}

#[test]
fn a_live_twin_that_cannot_start_ends_the_drill_and_the_screen_says_why() {
    use resilience_lab::engine::oncall::{DrillSource, OncallPlay};
    use resilience_lab::tui::screens::oncall::{OncallOutcome, OncallStage};
    let mut app = drill_app(80, 24, INCIDENT, 1, 0);
    let setup = {
        let incidents = builtin_incidents().unwrap();
        DrillSetup::new(incidents.iter().find(|i| i.name == INCIDENT).unwrap(), 1)
    };
    let screen = app.oncall.as_mut().unwrap();
    screen.play = OncallPlay::with_source(&setup, DrillSource::live(Box::new(TwinThatCannotStart)));
    assert_eq!(
        screen.advance(0),
        OncallOutcome::Ended,
        "no frozen screen: the drill ends"
    );
    assert_eq!(screen.stage, OncallStage::Reveal(0));
    let text = render(&app);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("The live service stopped"))
        .collect();
    assert_eq!(lines.len(), 1, "one line says it:\n{text}");
    assert!(
        lines[0].contains("The live service stopped: it could not start on 127.0.0.1: no free port."),
        "{}",
        lines[0]
    );
    assert!(text.contains("the score counts the 0 drill seconds measured"), "{text}");
}

/// A switched-off dependency's row reads zero, so it carries a probe: failing while the fault
/// lasts, then healthy since the second it ended, which is when the runbook puts the lever back
/// (a trial's recommendations stayed off to the end: nothing on screen said it was well).
#[test]
fn a_switched_off_dependency_shows_its_probe_and_when_it_got_well() {
    let incidents = builtin_incidents().unwrap();
    let incident = incidents.iter().find(|i| i.name == INCIDENT).unwrap();
    let setup = DrillSetup::new(incident, 1);
    let ended_s = (setup.onset_s + incident.duration_s) as usize;
    let mut app = drill_app(80, 24, INCIDENT, 1, onset_s() + 20);
    pull_recommendations_off(&mut app);
    let row = |screen: &str| {
        screen
            .lines()
            .find(|line| line.contains("recommendations soft"))
            .unwrap_or_default()
            .to_string()
    };
    let during = render(&app);
    assert!(
        row(&during).contains("switched off, no calls") && row(&during).contains("probe: failing"),
        "{during}"
    );
    let now = app.oncall.as_ref().unwrap().play.view().t_s;
    app.oncall.as_mut().unwrap().play.step(ended_s + 5 - now);
    let after = render(&app);
    assert!(
        row(&after).contains(&format!("probe: healthy since t={ended_s}")),
        "{after}"
    );
}

/// The first screen says what the drill asks before anything goes wrong.
#[test]
fn the_drill_states_its_goal_before_the_first_lever() {
    let screen = start(80, 24);
    assert!(screen.contains("Goal: keep goodput near calm"), "{screen}");
}
