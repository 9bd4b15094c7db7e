//! The terminal app: terminal setup and restore, the event loop, and its modules.
//!
//! - [`app`]: the app: which screen shows, progress, routing to the screens (`impl App`).
//! - [`event`]: the one event queue (terminal input, frame tick, signals, live samples).
//! - [`facilitator_link`]: the drill's control endpoint for a facilitator (`oncall --gm`).
//! - [`game_master`]: `oncall --gm`, the facilitator's own terminal beside a learner's drill.
//! - [`msg`]: the messages the keys and the mouse send.
//! - [`keys`]: the one key table.
//! - [`layout`]: pure layouts, shared by the views and the mouse hit tests.
//! - [`frame`]: the lab screen, the same for every lab and naming none: one slider and mouse
//!   handler, the step, prompt and verdict machine, the lesson; its drawing in `frame/view/`
//!   (title, parameter panel, footer) around the page showing.
//! - [`labs`]: the lab registry and each lab's pages, one folder per page behind one trait.
//! - [`screens`]: home, quiz, book, the drill and the room, each owning its state.
//! - [`learning`]: progress loaded before the terminal is taken.
//! - [`slider`]: slider arithmetic.
//! - [`view`]: drawing, one file per screen region (a lab screen's is `frame/view/`).
//! - [`widgets`]: small widgets the views share (slider bar, state band, panel, number input).
//! - [`theme`]: colours by role; `NO_COLOR`; `--theme`.
//! - [`log`]: the `--log` diagnostics file.
//! - [`markdown`]: the book's Markdown renderer (styled by the theme, links found on their rows).
//! - [`room_link`]: a joined app's link to a workshop's room (`--join`): each prediction is sent too.

pub mod app;
pub mod event;
pub mod facilitator_link;
pub mod frame;
pub mod game_master;
pub mod keys;
pub mod labs;
pub mod layout;
pub mod learning;
pub mod log;
pub mod markdown;
pub mod msg;
pub mod room_link;
pub mod screens;
pub mod slider;
pub mod theme;
pub mod view;
pub mod widgets;

use std::io::{IsTerminal, stdout};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, bail};
use crossterm::cursor::Show;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::layout::Rect;
use ratatui::{DefaultTerminal, Terminal};

use crate::content::Content;
use crate::tui::app::App;
use crate::tui::event::Event;
use crate::tui::theme::{Theme, ThemeName};
use tokio::sync::mpsc::{Receiver, Sender};

/// Whether the app has the terminal (raw mode, alternate screen, mouse capture) right now.
static TERMINAL_TAKEN: AtomicBool = AtomicBool::new(false);

/// Leaves the terminal as it was found: mouse capture off, raw mode off, main screen back.
///
/// Runs once however many paths call it (panic hooks, the guard): leaving the alternate
/// screen a second time would move the cursor back over what the panic report printed.
pub fn restore_terminal() {
    if !TERMINAL_TAKEN.swap(false, Ordering::SeqCst) {
        return;
    }
    // Raw mode first, as ratatui::restore does; then what ratatui::restore leaves behind:
    // mouse capture, and the cursor a panic may have left hidden.
    let _ = disable_raw_mode();
    let _ = execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen, Show);
}

/// Takes the terminal: raw mode, the alternate screen, mouse capture.
///
/// Also used after SIGCONT: the shell may have reset the terminal's modes while the app was
/// stopped, so raw mode is left and entered again (crossterm would skip a second enable).
fn take_terminal() -> Result<()> {
    TERMINAL_TAKEN.store(true, Ordering::SeqCst);
    let _ = disable_raw_mode();
    enable_raw_mode().wrap_err("entering raw mode")?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)
        .wrap_err("entering the alternate screen with mouse capture")
}

/// SIGTSTP: gives the terminal back and stops the process the way the default action would;
/// returns once SIGCONT (`fg`) has let it go on, with the terminal taken again.
fn suspend<B: Backend>(terminal: &mut Terminal<B>) -> Result<()>
where
    B::Error: Send + Sync + 'static,
{
    log::line("received SIGTSTP: stopping until SIGCONT");
    restore_terminal();
    // SAFETY: raise only sends a signal to this process; SIGSTOP cannot be caught.
    unsafe { libc::raise(libc::SIGSTOP) };
    resume(terminal)
}

/// After SIGCONT: the terminal taken again and the whole screen drawn anew.
///
/// Not `Terminal::clear`, which asks the terminal for the cursor position while the event
/// task reads the input: the screen is cleared, then a blank frame makes ratatui's last
/// frame match it, so the next draw repaints every cell.
fn resume<B: Backend>(terminal: &mut Terminal<B>) -> Result<()>
where
    B::Error: Send + Sync + 'static,
{
    take_terminal()?;
    execute!(
        stdout(),
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )
    .wrap_err("clearing the screen after SIGCONT")?;
    terminal
        .draw(|frame| frame.render_widget(ratatui::widgets::Clear, frame.area()))
        .wrap_err("clearing the screen after SIGCONT")?;
    Ok(())
}

/// Restores the terminal when the loop ends, whichever way it ends.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// What the app is started with, from the command line as plain values: the app names no
/// clap type (`main.rs` fills this in from `Cli`).
#[derive(Clone, Debug)]
pub struct AppSettings {
    /// Where the diagnostics go (`--log`); none: nowhere.
    pub log: Option<std::path::PathBuf>,
    /// A workshop room to join (`--join URL CODE`), as typed.
    pub join: Option<(String, String)>,
    /// The name the room's projector shows (`--name`).
    pub name: Option<String>,
    pub theme: ThemeName,
    /// The progress file (`--progress`); none: the user's data directory.
    pub progress: Option<std::path::PathBuf>,
    /// Opens on the on-call drill (`oncall`), not on home.
    pub oncall: Option<OncallStart>,
}

/// `oncall [--seed S] [--incident NAME] [--live]`: the app opens on the drill.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OncallStart {
    pub seed: Option<u64>,
    pub incident: Option<String>,
    /// The drill's seconds from the live twin on 127.0.0.1, not the sim.
    pub live: bool,
}

/// The name of the runtime's threads, where tasks run (the event loop runs on the main
/// thread): a panic there is a task's, which ends the task and not the app, so the panic
/// hook leaves the terminal as it is and writes the panic to the log.
const WORKER_THREAD_NAME: &str = "resilience-lab-worker";

/// Runs the terminal app until the learner quits or a signal arrives.
///
/// `main` has installed color_eyre already; the hook installed here restores the terminal
/// before color_eyre's hook prints the panic, so the report lands on the normal screen.
/// A drawing error returns here through the guard, which restores too.
pub fn run(settings: &AppSettings, content: Content) -> Result<ExitCode> {
    // The log first: a bad --log path is a usage error even where there is no terminal.
    if let Some(path) = &settings.log {
        log::open(path)?;
    }
    // A wrong room URL is the user's bad input (exit 2), said before anything starts.
    let join = match &settings.join {
        Some((url, code)) => Some((
            crate::live::room_server::parse_room_url(url).map_err(crate::error::UsageError)?,
            code.clone(),
        )),
        None => None,
    };
    if !(stdout().is_terminal() && std::io::stdin().is_terminal()) {
        bail!(
            "the terminal app needs a terminal on stdin and stdout; \
             in scripts use `resilience-lab labs` or `resilience-lab run <lab>`"
        );
    }
    let theme = Theme::from_env(settings.theme);
    // Before the terminal is taken: a newer-format file is a one-line error, left untouched.
    let (progress_path, loaded) = learning::load_progress(settings.progress.as_deref())?;
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some(WORKER_THREAD_NAME) {
            // A task's panic: tokio hands it to the task's owner (the live drill's twin
            // says it on the drill screen), and the app, its screen included, goes on.
            log::line(&format!("panic in a task: {info}"));
            return;
        }
        restore_terminal();
        log::line(&format!("panic: {info}"));
        previous_hook(info);
    }));
    // Two workers: live labs send real traffic on the same runtime, and on one thread a busy
    // chain would delay the frame tick and the keys.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(WORKER_THREAD_NAME)
        .enable_all()
        .build()
        .wrap_err("starting the async runtime")?;
    // Signal handlers before the terminal is taken: a SIGTERM during start-up (the labs'
    // first runs) is queued and quits through the restore, instead of killing the process
    // with the alternate screen and mouse capture still on.
    let events = {
        let _runtime = runtime.enter();
        event::spawn()?
    };
    // The guard comes first: if a step below fails after raw mode is on, raw mode is still
    // turned off. The terminal is set up by hand rather than with ratatui::init, whose own
    // panic hook would restore a second time (see restore_terminal).
    let _guard = TerminalGuard;
    take_terminal()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout())).wrap_err("measuring the terminal")?;
    log::line("terminal app started");
    let size = terminal.size().wrap_err("reading the terminal size")?;
    let mut app = App::new(content, theme, Rect::new(0, 0, size.width, size.height));
    // A drill's control endpoint announces itself beside the progress file, for `oncall --gm`.
    app.facilitator_locator = progress_path.as_deref().map(crate::live::drill_control::locator_path);
    app.use_progress(progress_path, loaded);
    if let Some((addr, code)) = join {
        let _runtime = runtime.enter();
        app.room_link = Some(room_link::RoomLink::spawn(
            addr,
            code,
            settings.name.clone().unwrap_or_default(),
        ));
    }
    // A different quiz and drill each session; tests keep App::new's fixed seeds.
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs());
    app.quiz.seed = now_s;
    app.oncall_seed = now_s % (u64::from(u32::MAX) + 1);
    if let Some(start) = settings.oncall.clone() {
        app.oncall_seed = start.seed.unwrap_or(app.oncall_seed);
        app.oncall_incident = start.incident;
        app.oncall_live = start.live;
        // On the runtime: a live drill starts its servers now.
        let _runtime = runtime.enter();
        app.open_oncall();
    }
    let result = runtime.block_on(event_loop(&mut terminal, app, events));
    log::line(&format!("terminal app stopping: {result:?}"));
    result
}

/// Runs the app until it quits; the exit code is 0, or 128 + a signal's number when a
/// signal stopped it.
async fn event_loop(
    terminal: &mut DefaultTerminal,
    mut app: App,
    events: (Sender<Event>, Receiver<Event>),
) -> Result<ExitCode> {
    let result = run_loop(terminal, &mut app, events).await;
    // On every way out (quit, signal, a drawing error), and before the terminal is restored:
    // no server child, live server or task outlives the app. The stops take a moment, so the
    // screen says why the app has not left yet.
    app.quitting();
    if app.live_running() {
        let _ = terminal.draw(|frame| {
            frame.render_widget(&app, frame.area());
            let area = frame.area();
            let line = ratatui::text::Line::from(" stopping the live labs…");
            frame.render_widget(line, Rect::new(0, area.height.saturating_sub(1), area.width, 1));
        });
    }
    app.shutdown_live().await;
    result.map(|()| match app.stopped_by_signal {
        Some(number) => ExitCode::from(u8::try_from(128 + number).unwrap_or(u8::MAX)),
        None => ExitCode::SUCCESS,
    })
}

/// How long the input must stay quiet before work too slow for a frame (Lab 2's p-curve)
/// runs: a burst of steps (key repeat, a drag) draws its rows at each frame and computes the
/// curve once, when it ends.
pub const QUIET_BEFORE_SLOW_WORK: Duration = Duration::from_millis(16);

async fn run_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    (sender, mut events): (Sender<Event>, Receiver<Event>),
) -> Result<()>
where
    B::Error: Send + Sync + 'static,
{
    app.use_events(sender);
    let mut dirty = true;
    while app.running {
        if dirty {
            // One recompute for everything the drained events changed.
            app.settle_for_frame();
            terminal
                .draw(|frame| frame.render_widget(&*app, frame.area()))
                .wrap_err("drawing the screen")?;
            dirty = false;
        }
        let first = if app.slow_work_pending() {
            match tokio::time::timeout(QUIET_BEFORE_SLOW_WORK, events.recv()).await {
                Ok(event) => event,
                Err(_quiet) => {
                    dirty = app.finish_slow_work();
                    continue;
                }
            }
        } else {
            events.recv().await
        };
        let Some(first) = first else { break };
        // Drain what is already queued (a mouse drag sends many) so one frame covers it all.
        let mut next = Some(first);
        while let Some(event) = next {
            match event {
                Event::Suspend => {
                    suspend(terminal)?;
                    dirty = true;
                }
                Event::Resumed => {
                    resume(terminal)?;
                    dirty = true;
                }
                event => dirty |= handle(app, event),
            }
            next = events.try_recv().ok();
        }
    }
    Ok(())
}

/// Applies one event; returns whether the screen must be redrawn.
fn handle(app: &mut App, event: Event) -> bool {
    match event {
        Event::Terminal(term_event) => match app.msg_for(&term_event) {
            Some(msg) => {
                // Ctrl-C is the terminal's interrupt key, a keystroke only in raw mode: the app
                // exits as SIGINT would make it, 130, as shells and the README expect.
                if msg == msg::Msg::Quit && is_ctrl_c(&term_event) {
                    app.stopped_by_signal = Some(libc::SIGINT);
                }
                app.update_deferred(msg)
            }
            None => false,
        },
        // Nothing animates on the simulated clock; Lab 1's server clock moves on.
        Event::Tick => app.tick(),
        Event::Lab(lab, event) => app.on_event(lab, event),
        Event::Signal { name, number } => {
            log::line(&format!("received {name}: quitting"));
            app.stopped_by_signal = Some(number);
            app.update_deferred(msg::Msg::Quit)
        }
        Event::InputClosed(reason) => {
            log::line(&format!("terminal input closed ({reason}): quitting"));
            app.update_deferred(msg::Msg::Quit)
        }
        // The loop handles these itself: they need the terminal.
        Event::Suspend | Event::Resumed => true,
    }
}

fn is_ctrl_c(event: &crossterm::event::Event) -> bool {
    matches!(
        event,
        crossterm::event::Event::Key(key)
            if key.code == crossterm::event::KeyCode::Char('c')
                && key.modifiers.contains(crossterm::event::KeyModifiers::CONTROL)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn app() -> App {
        let content = Content::load(None).expect("built-in content");
        App::new(content, Theme::from_env(ThemeName::Dark), Rect::new(0, 0, 100, 30))
    }

    #[test]
    fn ctrl_c_quits_as_sigint_does_and_q_quits_with_zero() {
        let mut interrupted = app();
        let ctrl_c = crossterm::event::Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        handle(&mut interrupted, Event::Terminal(ctrl_c));
        assert!(!interrupted.running);
        assert_eq!(
            interrupted.stopped_by_signal,
            Some(libc::SIGINT),
            "exit code 128 + 2 = 130"
        );

        let mut quit = app();
        let q = crossterm::event::Event::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE));
        handle(&mut quit, Event::Terminal(q));
        assert!(!quit.running);
        assert_eq!(quit.stopped_by_signal, None, "exit code 0");
    }

    #[tokio::test(start_paused = true)]
    async fn steps_a_few_ms_apart_compute_the_p_curve_once_when_the_input_goes_quiet() {
        use crate::tui::labs::retry::{RetryLab, run};
        use crate::tui::labs::sim_page::LabSim;
        use ratatui::backend::TestBackend;
        use std::time::Duration;

        let mut app = app();
        app.mark_all_visited();
        for msg in [msg::Msg::Down, msg::Msg::Open, msg::Msg::NextSlider] {
            app.update(msg);
        }
        let key = |code| Event::Terminal(crossterm::event::Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        let (sender, events) = tokio::sync::mpsc::channel(64);
        let keys = sender.clone();
        // Key repeat: each step arrives alone, sooner than the quiet the curve waits for.
        tokio::spawn(async move {
            for _ in 0..10 {
                tokio::time::sleep(Duration::from_millis(5)).await;
                let _ = keys.send(key(KeyCode::Left)).await;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
            let quit = Event::Signal {
                name: "SIGTERM",
                number: libc::SIGTERM,
            };
            let _ = keys.send(quit).await;
        });
        let before = run::curves_computed();
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("test terminal");
        run_loop(&mut terminal, &mut app, (sender, events))
            .await
            .expect("the loop runs");
        assert_eq!(run::curves_computed() - before, 1, "one curve for the burst");
        let screen = &app.labs[1];
        assert_eq!(
            screen.lab_sliders()[1].value(),
            1.0,
            "ten steps down from 4, clamped at 1"
        );
        let fresh = RetryLab::compute(&app.content.labs[1], screen.lab_sliders());
        assert_eq!(
            screen.shown_metrics(),
            RetryLab::metrics(&fresh),
            "the last frame shows the final values"
        );
        assert!(
            !screen.settle_pending() && !screen.slow_work_pending(),
            "and waits for nothing"
        );
    }
}
