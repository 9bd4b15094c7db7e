//! Lab 2 live: a three-hop chain on 127.0.0.1 where every hop retries.
//!
//! - [`chain`]: front end, back end and database, and the top client.
//! - [`config`]: what a chain is built with and what it counts.
//! - [`hops`]: the hops' handlers and the one retry loop they share.
//! - [`metastable`]: the feedback loop: steady load, a trigger, goodput over time.
//! - [`runner`]: the app's live runs (a counting run, the metastable load).

pub mod chain;
pub mod config;
pub mod hops;
pub mod metastable;
pub mod runner;
