//! Lab 1 at fleet scale, live on 127.0.0.1: real `serve health` replicas that ask a real
//! `serve database`, a restarter that probes them over HTTP and stops and restarts the
//! processes with the back-off, a Service (a proxy) over the ready endpoints, and a paced load.
//!
//! Every decision is the engine's ([`crate::engine::fleet`]: `ProbeState`, `BackoffSpec`,
//! `pick_endpoint`); these files add processes, sockets and a time scale, so that a
//! scenario of ten model minutes runs in one real minute at `time_scale` 0.1.
//!
//! - [`database`]: the shared database server (`serve database`).
//! - `replica`: a replica's command line and the scaled clock.
//! - `recorder`: what the run saw, in model seconds, and the samples it sends.
//! - `restarter`: one task per replica: probe, stop, back off, restart.
//! - `service`: the proxy that refuses connections when no endpoint is ready.
//! - `load`: the paced, bounded client load.
//! - `runner`: [`spawn`] (the app's, a `LiveRun`), [`spawn_program`] and [`run`] (the
//!   CLI's), which start and stop all of it.

pub mod database;
mod load;
pub mod recorder;
mod replica;
mod restarter;
mod runner;
pub mod service;

pub use recorder::FleetSample;
pub use runner::{FleetControl, FleetHandle, run, spawn, spawn_program};
