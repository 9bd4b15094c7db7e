//! The projector's room: what the host's app shows of a room, read from its shared state
//! at each frame ([`Board::of`]), and the host's controls (open the next check, reveal,
//! close), which only this process can call.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::content::Content;
use crate::live::room_server::{self, RoomServer};
use crate::room::SharedRoom;
use crate::room::session::RevealRecord;
use crate::room::state::{COUNTDOWN_S, Room};

/// One participant's row on the class board.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    pub name: String,
    /// `retry 3` (lab and step) when a joined app reported one.
    pub step: Option<String>,
    pub right: u32,
    pub answered: u32,
}

/// What the projector draws, taken from the room at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub code: String,
    pub url: String,
    /// The open check: id, prompt, unit.
    pub check: Option<(String, String, String)>,
    /// The counted answers to the open check (one per participant).
    pub values: Vec<f64>,
    /// Seconds left on the countdown.
    pub left_s: u64,
    pub reveal: Option<RevealRecord>,
    pub rows: Vec<BoardRow>,
    pub write_error: Option<String>,
}

impl Board {
    /// The room as it stands at `now_ms`, reached at `url`.
    pub fn of(room: &Room, url: &str, now_ms: u64) -> Board {
        let open = room.open_check();
        let check = open.map(|c| {
            (
                c.check.id.clone(),
                c.check.prompt.clone(),
                c.check.unit.clone().unwrap_or_default(),
            )
        });
        let (values, left_s, reveal) = match (&room.open, &check) {
            (Some(opened), Some((id, _, _))) => (
                room.answers(id).into_iter().map(|(_, v)| v).collect(),
                COUNTDOWN_S.saturating_sub(now_ms.saturating_sub(opened.opened_ms) / 1000),
                room.reveal_of(id).cloned(),
            ),
            _ => (Vec::new(), 0, None),
        };
        let rows = room
            .participants
            .iter()
            .map(|(name, p)| BoardRow {
                name: name.clone(),
                step: p.step.as_ref().map(|(lab, step)| format!("{lab} {step}")),
                right: p.right,
                answered: p.answered,
            })
            .collect();
        Board {
            code: room.code.clone(),
            url: url.to_string(),
            check,
            values,
            left_s,
            reveal,
            rows,
            write_error: room.write_error.clone(),
        }
    }
}

/// A room the app hosts (`C` on home): the projector's hold on it and the server the class
/// reaches.
pub struct RoomHost {
    pub screen: RoomScreen,
    /// Taken when the app stops it.
    server: Option<RoomServer>,
}

impl RoomHost {
    /// Hosts a room of `content`'s checks on 127.0.0.1, at a port the system picks: the app
    /// binds loopback only (a room on the class's network is `class host --lan`). The room is
    /// kept in memory; `class host --session FILE` is the host that writes one. Needs the
    /// app's tokio runtime, which the event loop runs in.
    pub fn start(content: &Content) -> Result<RoomHost, String> {
        let runtime =
            tokio::runtime::Handle::try_current().map_err(|_| "the app's runtime is not running".to_string())?;
        let room = crate::room::state::Room::new(content, None)?;
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))
            .and_then(|listener| listener.set_nonblocking(true).map(|()| listener))
            .map_err(|err| format!("cannot listen on 127.0.0.1: {err}"))?;
        let _entered = runtime.enter();
        let listener =
            tokio::net::TcpListener::from_std(listener).map_err(|err| format!("cannot listen on 127.0.0.1: {err}"))?;
        let room: SharedRoom = Arc::new(Mutex::new(room));
        let server = room_server::start(room.clone(), listener, None);
        let url = format!("http://{}/", server.addr);
        Ok(RoomHost {
            screen: RoomScreen { room, url },
            server: Some(server),
        })
    }

    /// Stops the server, waiting up to `deadline` for open connections.
    pub async fn stop(&mut self, deadline: Duration) {
        if let Some(server) = self.server.take() {
            server.stop(deadline).await;
        }
    }
}

/// The host's app's hold on its room.
pub struct RoomScreen {
    pub room: SharedRoom,
    pub url: String,
}

impl RoomScreen {
    /// The board now.
    pub fn board(&self) -> Option<Board> {
        let room = self.room.lock().ok()?;
        Some(Board::of(&room, &self.url, crate::room::state::unix_ms()))
    }

    /// Opens the check after the open one (the first when none is), in the labs' order.
    pub fn open_next(&self) {
        if let Ok(mut room) = self.room.lock() {
            let ids: Vec<String> = room.checks().iter().map(|c| c.check.id.clone()).collect();
            let at = room
                .open
                .as_ref()
                .and_then(|open| ids.iter().position(|id| *id == open.id))
                .map_or(0, |i| (i + 1) % ids.len().max(1));
            if let Some(id) = ids.get(at) {
                let _ = room.open(id, crate::room::state::unix_ms());
            }
        }
    }

    /// Reveals the open check.
    pub fn reveal(&self) {
        if let Ok(mut room) = self.room.lock() {
            room.reveal(crate::room::state::unix_ms());
        }
    }
}
