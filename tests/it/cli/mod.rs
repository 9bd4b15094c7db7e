//! The headless command line through the real binary: golden outputs, JSON, bad input (one
//! line, exit code 2) and closed pipes.

mod closed_pipe;
mod edges;
mod fleet;
mod golden;
mod overload;
mod policy;
