//! What the app's newer test files share: an app at a size for a learner who has never
//! opened a lab, and the text it draws (no colour, so a snapshot is what a learner reads).
//! [`procs`] finds child processes in `/proc`, for the tests that no child outlives its parent;
//! [`binary`] runs the real binary with typed input. [`written_links`] counts a chapter's
//! links as its Markdown writes them, so a test of the book's links follows the book's text.
//! [`show_live`] stands a live part of the test's making in a lab's first page;
//! [`show_lab1_run`] and [`lab1_event`] feed Lab 1's a stand-in server's events through the
//! screen's event path, as its run's task would.

pub mod binary;
pub mod procs;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use resilience_lab::content::Content;
use resilience_lab::live::run::{HealthEvent, LabBody, LabEvent, Probe};
use resilience_lab::tui::app::App;
use resilience_lab::tui::labs::health::HealthLab;
use resilience_lab::tui::labs::sim_page::{LabSim, SimPage};
use resilience_lab::tui::theme::Theme;
use resilience_lab::tui::theme::ThemeName;

/// The app at `width`x`height` on its home screen, every lab's first visit still to come.
pub fn app(width: u16, height: u16) -> App {
    let content = Content::load(None).expect("the built-in labs load");
    App::new(
        content,
        Theme::new(ThemeName::Dark, false),
        Rect::new(0, 0, width, height),
    )
}

/// The app at `width`x`height` for a learner back for a later visit: every lab visited, so
/// no lesson opens by itself (the first visit has its own tests).
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub fn visited_app(width: u16, height: u16) -> App {
    let mut app = app(width, height);
    app.mark_all_visited();
    app
}

/// The links a book chapter's Markdown writes (`[label](target)`): the ones Tab visits.
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub fn written_links(markdown: &str) -> usize {
    markdown.matches("](").count()
}

/// The screen as text, one quoted line per row.
pub fn render(app: &App) -> String {
    let area = app.area;
    let mut terminal = Terminal::new(TestBackend::new(area.width, area.height)).expect("test terminal");
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .expect("draw");
    terminal.backend().to_string()
}

/// Types `typed` into the current step's prediction card and presses Enter: the run scores
/// it, and the verdict stays open.
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub fn predict(app: &mut App, typed: &str) {
    use resilience_lab::tui::msg::Msg;
    app.update(Msg::Predict);
    for c in typed.chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
}

/// The first page of lab `index` (0-based, a `S` page) live at its sliders, with its live
/// part as `tweak` leaves it: the tests' stand-in for a run on 127.0.0.1. The page is the
/// screen's to hold, so a test hands it one rather than reach into the one it has.
pub fn show_live<S: LabSim>(app: &mut App, index: usize, tweak: impl FnOnce(&mut S::Live)) {
    let sliders = app.labs[index].lab_sliders().to_vec();
    let mut page = SimPage::<S>::new(&app.content.labs[index], &sliders);
    page.live_showing = true;
    tweak(&mut page.live);
    app.labs[index].page_states[0] = Box::new(page);
}

/// The run id of the stand-in Lab 1 server the tests feed ([`show_lab1_run`]).
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub const LAB1_RUN: u64 = 7;

/// Lab 1's first page live, taking the events of run [`LAB1_RUN`] as it takes a started
/// server's: no child runs, the test sends its events ([`lab1_event`]).
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub fn show_lab1_run(app: &mut App) {
    show_live::<HealthLab>(app, 0, |live| live.show_run(LAB1_RUN));
}

/// Hands Lab 1's screen `event` of run [`LAB1_RUN`], as the run's task does through the
/// app's queue; the screen shows a live check it decides (its outcome left for the app).
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub fn lab1_event(app: &mut App, event: HealthEvent) -> bool {
    app.labs[0].on_event(LabEvent {
        run: LAB1_RUN,
        body: Box::new(LabBody::Health(event)),
    })
}

/// A stand-in Lab 1 server's start: pid `pid` on the default port, the default settings.
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub fn lab1_started(pid: u32) -> HealthEvent {
    HealthEvent::Started {
        pid,
        port: 18080,
        config: resilience_lab::engine::health::HealthConfig::default(),
        note: None,
        listening_at: tokio::time::Instant::now(),
    }
}

/// A stand-in Lab 1 probe of round `round`, sent at `at_s`, answered `code` with `body`.
#[allow(dead_code)] // Not every test file that shares this module wants it.
pub fn lab1_probe(round: u64, at_s: f64, probe: Probe, code: u16, body: &str) -> HealthEvent {
    HealthEvent::Probe {
        round,
        at_s,
        probe,
        outcome: resilience_lab::live::http::GetOutcome::Answered {
            code,
            body: format!("{body}\n"),
        },
    }
}
