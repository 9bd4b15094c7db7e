//! The live labs: real HTTP on 127.0.0.1 with tokio and hyper, real timers and processes.
//!
//! Every policy decision here is the engine's (the same `Breaker`, `Budget`, Full Jitter
//! and `HealthModel` the simulations use); this layer only supplies sockets, elapsed
//! time and counters. Nothing here binds or connects anywhere but the loopback address.
//!
//! - [`http`]: bind, serve with a graceful drain, one-off GET, pooled client.
//! - [`retry_chain`]: Lab 2's front end, back end and database, and the top client.
//! - [`retry_hops`]: the hops' handlers and the one retry loop they share.
//! - [`metastable`]: Lab 2's feedback loop: steady load, a trigger, goodput over time.

pub mod http;
pub mod metastable;
pub mod retry_chain;
pub mod retry_hops;
