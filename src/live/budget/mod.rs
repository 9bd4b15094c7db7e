//! Lab 5 live: a request's budget on real sockets, 127.0.0.1 only.
//!
//! - [`server`]: the lab's one use of `live::http` (serve, stop, one call, a dropped answer).
//! - [`chain`]: edge -> checkout -> payments -> a processor that hangs, the remaining
//!   budget in the `x-budget-ms` header, each hop reporting what it received, spent and
//!   passed on (scenario `deadline`); checkout's sequential calls (scenario `register`).
//! - [`api`]: the rate-limited third-party API (429 with `Retry-After` in a window, a
//!   documented token-bucket limit) and the note's clients (scenario `retry-after`).
//! - [`payments`]: commit-then-drop and idempotency keys (scenario `duplicates`).
//! - [`runner`]: runs a scenario to its end and measures the same named numbers as the
//!   simulation (`status`, `herd` and `half-open` have no live run yet).
//!
//! Every decision is the engine's (`engine::budget`): the backoff, the classification, the
//! `Retry-After` value, the token buckets and the ledger.

pub mod api;
pub mod chain;
pub mod half_open;
pub mod herd;
pub mod payments;
pub mod runner;
pub mod server;
pub mod status;
