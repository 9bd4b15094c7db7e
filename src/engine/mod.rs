//! The policies and simulations every lab is built on: pure, deterministic code.
//!
//! Nothing in this module reads a clock, sleeps, spawns a task or does I/O. Time is
//! passed in as `f64` seconds (the unit the Atlas's scripts use), so the same
//! [`breaker::Breaker`], [`fault::FaultSchedule`], [`retry::Budget`] and [`health::HealthModel`] serve the
//! simulated labs (a virtual clock) and the live labs (elapsed time on a real clock).
//! [`fleet`] puts Lab 1's model into a fleet (replicas, probes, restarts, a Service).
//! `tests/it/architecture.rs` fails if any file here names an async runtime or a
//! terminal library.

pub mod breaker;
pub mod brownout;
pub mod budget;
pub mod fault;
pub mod fleet;
pub mod health;
pub mod oncall;
pub mod overload;
pub mod policy;
pub mod pyfmt;
pub mod pyrandom;
pub mod retry;
pub mod retry_chain;
pub mod stats;
