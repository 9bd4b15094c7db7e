//! resilience-lab: a terminal lab that teaches how a service survives its dependencies.
//!
//! # Layout
//!
//! - [`engine`]: the policies (breaker, retry budget, Full Jitter, health model) and the
//!   deterministic simulations; pure, no clock, no I/O.
//! - [`content`]: the lab files (`labs/*.toml`), embedded and overridable, and their validation.
//! - [`live`]: the live labs on 127.0.0.1 (tokio + hyper), calling the engine's policies.
//! - [`cli`]: the command line (clap).
//! - [`report`]: the headless text and JSON reports.
//! - [`commands`]: what each subcommand does, writing to the writer `main` hands it.
//! - [`metrics`]: named numbers of a run, for predict-then-observe checks.
//! - [`tui`]: the terminal app (ratatui): state, key table, views.
//! - [`review`]: spaced repetition for `quiz --review`, from the saved answers.
//! - [`drill`]: interview drills (`quiz --drill`): a prompt, a time limit, a model answer, a checklist.

pub mod cli;
pub mod commands;
pub mod content;
pub mod drill;
pub mod engine;
pub mod live;
pub mod metrics;
pub mod progress;
pub mod quiz;
pub mod report;
pub mod review;
pub mod tui;
