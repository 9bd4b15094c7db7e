//! The live labs: real HTTP on 127.0.0.1 with tokio and hyper, real timers and processes.
//!
//! Every policy decision here is the engine's (the same `Breaker`, `Budget`, Full Jitter
//! and `HealthModel` the simulations use); this layer only supplies sockets, elapsed
//! time and counters. Nothing here binds or connects anywhere but the loopback address,
//! and nothing here names the terminal app or the command line (`tests/it/architecture.rs`).
//!
//! - [`run`]: the one handle shape of every live run ([`run::LiveRun`]), the events a run
//!   sends into the app's queue ([`run::LabEvent`]) and the bounded `join_all` for quitting.
//! - [`http`]: bind, serve with a graceful drain, one-off requests, a pooled client.
//! - [`health`] (Lab 1): the server, the server as a child process, the `lab1.sh` driver,
//!   and the runner the app starts.
//! - [`fleet`] (Lab 1 at fleet scale): replicas, a restarter, a Service, a load and the
//!   shared database; [`database_client`]: how a replica asks that database.
//! - [`retry`] (Lab 2): the chain (front end, back end, database), its hops, the
//!   metastable steady load, and the runner the app starts.
//! - [`breaker`] (Lab 3): the sick dependency, the checkout callers, both callers against
//!   one dependency, and the runner the app starts.
//! - [`overload`] (Lab 4): a server with worker slots and the engine's shedding rules, a
//!   paced client with timeouts and the throttle, and the runner the app starts.
//! - [`drill_control`]: the on-call drill's control endpoint for a facilitator (`oncall --gm`).
//! - [`loopback_server`]: a server on a free loopback port through the one accept loop,
//!   for the labs whose servers run inside this process (Lab 5, the drill's twin).
//! - [`oncall`] (the on-call drill): checkout-api and its four dependencies, a bounded
//!   load and the levers at their drill times, into the simulation's rows and score.
//! - [`room_server`]: a workshop room's server (the participants' page and answers).

pub mod breaker;
pub mod budget;
pub mod database_client;
pub mod drill_control;
pub mod fleet;
pub mod health;
pub mod http;
pub mod loopback_server;
pub mod oncall;
pub mod overload;
pub mod retry;
pub mod room_server;
pub mod run;
