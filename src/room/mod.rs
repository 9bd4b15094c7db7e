//! A room for a workshop: the class predicts a lab's check from laptops or phones, the
//! projector shows the spread, then the check's real run lands on it.
//!
//! - [`state`]: the room (its checks, the open one, answers, reveals, the class board).
//! - [`rules`]: what a participant may send (code, name, size, rate, Origin).
//! - [`reveal`]: the check's run and each answer's grade, by the lab screen's scoring.
//! - [`session`]: the session file, written as events arrive; merged for a course.
//! - [`spread`]: the answers' spread in bins, for the projector and the host's terminal.
//! - [`page`]: the participants' web page (no script, no external asset).
//!
//! The HTTP server is `live::room_server`; the host and join commands `commands::class`.

pub mod page;
pub mod reveal;
pub mod rules;
pub mod session;
pub mod spread;
pub mod state;

/// A room shared by the server's connections and the host's app.
pub type SharedRoom = std::sync::Arc<std::sync::Mutex<state::Room>>;
