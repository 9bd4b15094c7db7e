//! Lab 4 live: a server with worker slots and the engine's shedding rules on 127.0.0.1,
//! and a paced client with timeouts and the engine's adaptive throttle.
//!
//! - [`server`]: the hyper server; every admission, queue and age-cap decision is
//!   [`crate::engine::overload::ServerCore`]'s, the same code the simulation runs.
//! - [`client`]: an open-loop load at the offered rate, each request under the caller's
//!   timeout, optionally behind [`crate::engine::overload::AdaptiveThrottle`].
//! - [`runner`]: [`spawn`] starts both, sends one [`crate::engine::overload::Second`] per
//!   second and a final summary on a tokio mpsc sender, and stops by itself.
//!
//! Capacity is scaled to a 2-core machine with the lesson's ratios: 8 slots x 20 ms =
//! 400 requests/s (the lesson's 100 x 50 ms = 2,000/s), the client's timeout 20 service
//! times (400 ms), the age cap 4 service times (80 ms), the admission limit the pool plus
//! half of it (12). A slot is a timer, not a CPU: the work is a 20 ms sleep.

pub mod client;
pub mod runner;
pub mod server;

pub use runner::{LiveSummary, OverloadControl, live_params, run_to_end, spawn};
