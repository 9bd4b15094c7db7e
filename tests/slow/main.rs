//! The real-time tests: live runs on 127.0.0.1 compared with the simulation, servers timed
//! under abuse, the app driving live labs. Their pass depends on wall-clock margins, so a
//! loaded machine can fail them; plain `cargo test` does not build them (`test = false` in
//! Cargo.toml). `.ci/run` runs them by name, one at a time, after the default suite:
//! `cargo test --test slow -- --test-threads=1`.

// The app fixtures and the /proc helpers the default suite shares; not every helper is used here.
#[allow(dead_code)]
#[path = "../it/common/mod.rs"]
mod common;

mod app;
mod breaker;
mod budget;
mod every_server;
mod fleet;
mod fleet_children;
mod health;
mod health_abuse;
mod oncall;
mod overload;
mod retry;
