//! The flags every `run` lab shares: simulated or live, text or JSON. A module of its own so
//! that `cli` and a lab's own flag module (`commands::budget`'s `args`) both reach it without a loop.

use clap::Args;

/// How to run and how to print.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct ModeArgs {
    /// Simulate on a virtual clock (the default): instant and exact.
    #[arg(long, conflicts_with = "live")]
    pub sim: bool,
    /// Run for real on 127.0.0.1.
    #[arg(long)]
    pub live: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}
