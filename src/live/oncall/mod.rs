//! The on-call drill's live twin: checkout-api and its four dependencies as real servers
//! on 127.0.0.1, the drill's load, the incident's fault and the levers at their drill
//! times, measured into the same rows, alerts and score as the simulation
//! (`engine::oncall`), to check that the simulation tells the truth about real sockets.
//!
//! Time is scaled: one drill second is [`runner::MS_PER_DRILL_S`] real ms, and every
//! latency, timeout, deadline and lever moment with it. The mechanisms are the engine's,
//! not copies: the retry layers are `engine::oncall::call_plan::CallPlan` stepped over
//! HTTP, the breakers `engine::breaker::Breaker`, a dependency's answer
//! `engine::oncall::sim::attempt_outcome`, the alerts `engine::oncall::sim::AlertWatch`.
//!
//! Conventions the twin needs to be comparable with the sim, each the honest reading of
//! the sim's model:
//!
//! - A dependency decides it is over capacity from the attempts of the last whole drill
//!   second's checkouts (the sim's "attempts made in the last whole second"), counted by
//!   the second of the checkout each attempt serves ([`dependency`]).
//! - The load is a fifth of the sim's, each request standing for five in every count, in
//!   a dependency's load and in its breaker's window, with 13 workers for the sim's 64
//!   ([`tally::STANDS_FOR`]: the full load is more than two shared cores sustain).
//! - A failing attempt is answered 503 at the moment the sim says it ends (its caller's
//!   timeout, or a fast 10 ms rate-limit answer), so the caller's connection lives on; the
//!   hang's 1.9 s answer is a success after 1.9 s, as the sim's wait in the pool is.
//! - checkout-api counts each request's calls and attempts in the second the request
//!   arrived, as the sim does ([`tally`]); a second's workers-busy and breaker words are
//!   sampled at its end.
//! - The random draws are the servers' own streams from the seed: the sim's draws cannot be
//!   replayed in the live order of arrivals, so the twin agrees in distribution, not draw
//!   for draw.
//!
//! - [`clock`]: drill time from real time and back.
//! - [`server`]: the one accept loop's use here.
//! - [`dependency`]: a dependency server with the incident's fault.
//! - [`checkout`]: checkout-api, its workers, levers, retry layers and breakers.
//! - [`load`]: the bounded steady load.
//! - [`tally`]: checkout-api's counts by arrival second.
//! - [`runner`]: the whole run, into the engine's `DrillRun`.
//! - [`feed`]: the app's live drill: levers while it runs, rows as they complete.

pub mod checkout;
pub mod clock;
pub mod dependency;
pub mod feed;
pub mod load;
pub mod runner;
pub mod server;
pub mod tally;
