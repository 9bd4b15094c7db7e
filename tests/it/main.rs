//! The integration tests, one binary with one module per subject (linking the crate once,
//! not once per file). A new test joins the module of what it checks; a test whose pass
//! depends on wall-clock margins (a live run compared with the simulation, real sockets
//! under load) belongs in `tests/slow/` instead, which plain `cargo test` does not build.
//!
//! Snapshots live in `snapshots/` beside the module that takes them, named after the
//! module path (insta's default).

mod common;

mod app;
mod architecture;
mod book;
mod breaker;
mod cli;
mod content;
mod fit80;
mod fleet;
mod learning_loop;
mod live;
mod oncall;
mod overload;
mod quiz;
mod retry;
mod reveal;
mod rng;
mod screens;
