//! Lab 3 live: two callers against one dependency that browns out.
//!
//! - [`dependency`]: the server that falls sick on the engine's fault schedule.
//! - [`checkout`]: a caller on a fixed schedule, with or without the breaker.
//! - [`brownout`]: both callers against one dependency (the handle the CLI and runner hold).
//! - [`runner`]: the app's live run, retuned while it runs.
//! - [`wait_histogram`]: the callers' waits as histograms, for percentiles in constant memory.

pub mod brownout;
pub mod checkout;
pub mod dependency;
pub mod runner;
pub mod wait_histogram;
