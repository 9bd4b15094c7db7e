//! The live labs: real HTTP on 127.0.0.1 with tokio and hyper, real timers and processes.
//!
//! Every policy decision here is the engine's (the same `Breaker`, `Budget`, Full Jitter
//! and `HealthModel` the simulations use); this layer only supplies sockets, elapsed
//! time and counters. Nothing here binds or connects anywhere but the loopback address.

pub mod http;
pub mod metastable;
pub mod retry_chain;
