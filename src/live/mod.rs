//! The live labs: real HTTP on 127.0.0.1 with tokio and hyper, real timers and processes.
//!
//! Every policy decision here is the engine's (the same `Breaker`, `Budget`, Full Jitter
//! and `HealthModel` the simulations use); this layer only supplies sockets, elapsed
//! time and counters. Nothing here binds or connects anywhere but the loopback address.
//!
//! - [`http`]: bind, serve with a graceful drain, one-off requests, a pooled client.
//! - [`health_server`]: Lab 1's server (`resilience-lab serve health`).
//! - [`health_child`]: that server as a child process, the handle the driver and the TUI use.
//! - [`health_driver`]: the Atlas's `lab1.sh` schedule played against the child (`run health --live`).

pub mod health_child;
pub mod health_driver;
pub mod health_server;
pub mod http;
