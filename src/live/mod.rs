//! The live labs: real HTTP on 127.0.0.1 with tokio and hyper, real timers and processes.
//!
//! Every policy decision here is the engine's (the same `Breaker`, `Budget`, Full Jitter
//! and `HealthModel` the simulations use); this layer only supplies sockets, elapsed
//! time and counters. Nothing here binds or connects anywhere but the loopback address.
//!
//! - [`http`]: bind, serve with a graceful drain, one-off requests, a pooled client.
//! - Lab 1: [`health_server`] (`resilience-lab serve health`), [`health_child`] (that server
//!   as a child process, the handle the driver and the TUI use) and [`health_driver`] (the
//!   Atlas's `lab1.sh` schedule played against the child: `run health --live`).
//! - Lab 2: [`retry_chain`] (front end, back end and database, and the top client),
//!   [`retry_hops`] (the hops' handlers and the one retry loop they share) and
//!   [`metastable`] (the feedback loop: steady load, a trigger, goodput over time).
//! - Lab 1 at fleet scale: [`fleet`] (replicas, a restarter, a Service, a load and the
//!   shared database) and [`database_client`] (how a replica asks that database).
//! - Lab 3: [`dependency`] (the server that falls sick on the engine's fault schedule),
//!   [`checkout`] (a caller on a fixed schedule, with or without the breaker) and
//!   [`brownout`] (both callers against one dependency: the handle the CLI and TUI hold).

pub mod brownout;
pub mod checkout;
pub mod database_client;
pub mod dependency;
pub mod fleet;
pub mod health_child;
pub mod health_driver;
pub mod health_server;
pub mod http;
pub mod metastable;
pub mod retry_chain;
pub mod retry_hops;
