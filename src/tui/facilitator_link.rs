//! The learner's app's side of a facilitator (`oncall --gm`): the drill's control endpoint
//! while a drill is under way, and its locator file beside the progress file.
//!
//! The app publishes the facilitator's view at every frame tick and takes the commands that
//! arrived since, so the drill is only ever changed by the app's own loop. The locator file
//! goes when the drill ends (a facilitator finds no drill to steer), the endpoint when the
//! drill's screen is replaced or the app quits; a file a crashed app left is known for
//! stale by its process id (`live::drill_control::read_locator`).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use crate::engine::oncall::{FacilitatorCommand, FacilitatorView};
use crate::live::drill_control::{self, DrillControl, DrillLocator, SharedView};

/// The endpoint of the drill on screen, and its locator file.
pub struct FacilitatorLink {
    control: DrillControl,
    view: SharedView,
    commands: mpsc::UnboundedReceiver<FacilitatorCommand>,
    /// The locator file while the drill runs; None once removed.
    locator: Option<PathBuf>,
    token: String,
    /// What became of the facilitator's last command, shown on their screen until the next.
    pub note: Option<String>,
}

impl FacilitatorLink {
    /// Opens the endpoint on 127.0.0.1, a free port, on the current tokio runtime, and
    /// writes its locator to `locator_file`.
    pub fn open(locator_file: &Path) -> io::Result<FacilitatorLink> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let token = drill_control::new_token();
        let view: SharedView = Arc::new(Mutex::new(None));
        let (tx, commands) = mpsc::unbounded_channel();
        let control = drill_control::start(listener, token.clone(), view.clone(), tx);
        drill_control::write_locator(
            locator_file,
            &DrillLocator {
                port: control.addr.port(),
                token: token.clone(),
                pid: std::process::id(),
            },
        )?;
        Ok(FacilitatorLink {
            control,
            view,
            commands,
            locator: Some(locator_file.to_path_buf()),
            token,
            note: None,
        })
    }

    /// Where the endpoint listens (tests, and the log).
    pub fn addr(&self) -> std::net::SocketAddr {
        self.control.addr
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// The commands that arrived since the last call, oldest first.
    pub fn take_commands(&mut self) -> Vec<FacilitatorCommand> {
        let mut taken = Vec::new();
        while let Ok(command) = self.commands.try_recv() {
            taken.push(command);
        }
        taken
    }

    /// What `GET /view` serves from now on.
    pub fn publish(&self, view: FacilitatorView) {
        if let Ok(mut shown) = self.view.lock() {
            *shown = Some(view);
        }
    }

    /// The drill has ended: its locator goes, so no facilitator finds it any more; the
    /// endpoint stays, so one already connected sees the end and the score.
    pub fn drill_ended(&mut self) {
        if let Some(path) = self.locator.take() {
            drill_control::remove_locator(&path, &self.token);
        }
    }
}

impl Drop for FacilitatorLink {
    fn drop(&mut self) {
        self.drill_ended();
        self.control.stop_now();
    }
}
