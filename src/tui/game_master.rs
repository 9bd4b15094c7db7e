//! `resilience-lab oncall --gm`: a facilitator's terminal beside a learner's drill.
//!
//! It finds the drill through the locator file beside the progress file (or `--port` and
//! `--token`), checks that the drill answers before the terminal is taken (no drill: one
//! line, exit 2), then asks for the drill's view at every frame tick and sends what the
//! facilitator picks. The terminal is taken and restored as the app does it (`tui::run`'s
//! guard, panic hook and signals), so it is left as found however the screen ends.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr, bail};
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};

use crate::engine::oncall::builtin_incidents;
use crate::error::UsageError;
use crate::live::drill_control::{self, ControlError};
use crate::tui::event::Event;
use crate::tui::keys;
use crate::tui::screens::facilitator::{FacilitatorOutcome, FacilitatorScreen};
use crate::tui::theme::{Theme, ThemeName};

/// What `oncall --gm` is started with, as plain values (`main.rs` fills it in).
#[derive(Clone, Debug)]
pub struct GameMasterSettings {
    /// The learner's progress file (`--progress`); none: the user's data directory.
    pub progress: Option<PathBuf>,
    /// The drill's port and token, when given; what is missing comes from the locator file.
    pub port: Option<u16>,
    pub token: Option<String>,
    pub theme: ThemeName,
}

/// The drill's address and token: the flags', else the locator file's.
fn find_drill(settings: &GameMasterSettings) -> Result<(SocketAddr, String)> {
    let at = |port: u16| SocketAddr::from(([127, 0, 0, 1], port));
    if let (Some(port), Some(token)) = (settings.port, &settings.token) {
        return Ok((at(port), token.clone()));
    }
    let progress = settings
        .progress
        .clone()
        .or_else(crate::learning::progress::default_path);
    let Some(progress) = progress else {
        bail!(UsageError(
            "no drill found: no data directory here; pass --progress FILE as the learner did, or --port P --token T"
                .to_string()
        ));
    };
    let locator =
        drill_control::read_locator(&drill_control::locator_path(&progress)).map_err(|e| UsageError(e.to_string()))?;
    Ok((
        at(settings.port.unwrap_or(locator.port)),
        settings.token.clone().unwrap_or(locator.token),
    ))
}

/// Runs the facilitator's screen until they leave or a signal arrives.
pub fn run(settings: &GameMasterSettings) -> Result<ExitCode> {
    let (addr, token) = find_drill(settings)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .wrap_err("starting the async runtime")?;
    // Before the terminal is taken: a drill that does not answer is one line, exit 2.
    let first = runtime.block_on(drill_control::fetch_view(addr, &token));
    let first = match first {
        Ok(view) => view,
        Err(ControlError::Refused { line, .. }) => {
            bail!(UsageError(format!("no drill found at {addr}: it refused: {line}")))
        }
        Err(ControlError::Unreachable(why)) => bail!(UsageError(format!(
            "no drill found at {addr} ({why}): the file may be left from a run that has ended"
        ))),
    };
    if !(std::io::IsTerminal::is_terminal(&std::io::stdout()) && std::io::IsTerminal::is_terminal(&std::io::stdin())) {
        bail!("the facilitator's screen needs a terminal on stdin and stdout");
    }
    let incidents = builtin_incidents().map_err(|e| color_eyre::eyre::eyre!("{e}"))?;
    let mut screen = FacilitatorScreen::new(incidents, addr.to_string());
    screen.show(first);
    let theme = Theme::from_env(settings.theme);
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        super::restore_terminal();
        previous_hook(info);
    }));
    let events = {
        let _runtime = runtime.enter();
        crate::tui::event::spawn()?
    };
    let _guard = super::TerminalGuard;
    super::take_terminal()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout())).wrap_err("measuring the terminal")?;
    let stopped = runtime.block_on(watch(&mut terminal, &mut screen, theme, addr, &token, events.1))?;
    Ok(match stopped {
        Some(number) => ExitCode::from(u8::try_from(128 + number).unwrap_or(u8::MAX)),
        None => ExitCode::SUCCESS,
    })
}

/// The facilitator's loop; returns the signal that stopped it, if one did.
async fn watch<B: Backend>(
    terminal: &mut Terminal<B>,
    screen: &mut FacilitatorScreen,
    theme: Theme,
    addr: SocketAddr,
    token: &str,
    mut events: tokio::sync::mpsc::Receiver<Event>,
) -> Result<Option<i32>>
where
    B::Error: Send + Sync + 'static,
{
    let mut dirty = true;
    // The drill's last note shown, so that a note is shown once, not over a newer status.
    let mut last_note: Option<String> = None;
    loop {
        if dirty {
            terminal
                .draw(|frame| {
                    crate::tui::view::facilitator::render(screen, theme, frame.area(), frame.buffer_mut());
                })
                .wrap_err("drawing the screen")?;
            dirty = false;
        }
        let Some(event) = events.recv().await else {
            return Ok(None);
        };
        match event {
            Event::Terminal(crossterm::event::Event::Key(key)) => {
                let Some(msg) = keys::msg_for(screen.context(), &key) else {
                    continue;
                };
                match screen.update(msg) {
                    FacilitatorOutcome::Quit => return Ok(None),
                    FacilitatorOutcome::Unchanged => {}
                    FacilitatorOutcome::Changed => dirty = true,
                    FacilitatorOutcome::Send(command) => {
                        screen.status = Some(match drill_control::send_command(addr, token, &command).await {
                            Ok(()) => "sent; the drill applies it at its next tick".to_string(),
                            Err(error) => error.to_string(),
                        });
                        dirty = true;
                    }
                }
            }
            Event::Terminal(_) => dirty = true,
            Event::Tick => {
                match drill_control::fetch_view(addr, token).await {
                    Ok(view) => {
                        if view.note.is_some() && view.note != last_note {
                            last_note.clone_from(&view.note);
                            screen.status.clone_from(&view.note);
                        }
                        screen.show(view);
                    }
                    Err(error) => {
                        screen.status = Some(format!("{error}: the learner's app has closed, or left the drill"));
                    }
                }
                dirty = true;
            }
            Event::Signal { number, .. } => return Ok(Some(number)),
            Event::InputClosed(_) => return Ok(None),
            Event::Suspend => {
                super::suspend(terminal)?;
                dirty = true;
            }
            Event::Resumed => {
                super::resume(terminal)?;
                dirty = true;
            }
            Event::Lab(..) => {}
        }
    }
}
