//! resilience-lab: a terminal lab that teaches how a service survives its dependencies.
//!
//! # Layout
//!
//! - [`engine`]: the policies (breaker, retry budget, Full Jitter, health model) and the
//!   deterministic simulations; pure, no clock, no I/O.
//! - [`content`]: the lab files (`labs/*.toml`), embedded and overridable, and their validation.
//! - [`live`]: the live labs on 127.0.0.1 (tokio + hyper), calling the engine's policies.
//! - [`cli`]: the command line (clap).
//! - [`cli_values`]: negative numbers, allowed choices and ports on the command line, in one line.
//! - [`report`]: the headless text and JSON reports.
//! - [`signals`]: the signals that end a headless live run, and the exit code after one.
//! - [`commands`]: what each subcommand does, writing to the writer `main` hands it.
//! - [`metrics`]: named numbers of a run, for predict-then-observe checks.
//! - [`tui`]: the terminal app (ratatui): state, key table, views.

pub mod cli;
pub mod cli_values;
pub mod commands;
pub mod content;
pub mod engine;
pub mod live;
pub mod metrics;
pub mod progress;
pub mod quiz;
pub mod report;
pub mod signals;
pub mod tui;
