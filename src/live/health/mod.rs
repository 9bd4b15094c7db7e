//! Lab 1 live: a server with truthful probes and an ordered shutdown, run as a child process.
//!
//! - [`server`]: `resilience-lab serve health`, with [`log_queue`] (the request log off the
//!   request path) keeping it answerable and [`lifecycle_out`] (its stdout lines off the
//!   server's thread) keeping its grace deadline; its connection limits and timeouts and the
//!   Host/Origin guard on its admin routes are every server's (`live::http`).
//! - [`child`]: that server as a child process (the handle the driver and the runner use).
//! - [`driver`]: the Atlas's `lab1.sh` schedule played against the child (`run health --live`).
//! - [`runner`]: the app's live run: the child, its probes, `/work` and signals on command.

pub mod child;
pub mod driver;
pub mod lifecycle_out;
pub mod log_queue;
pub mod runner;
pub mod server;
