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
//! - A dependency decides all of a call's attempts at its first, under the load of the
//!   second before, and counts them there, as the sim plays a request's every retry at the
//!   moment it arrives ([`dependency`]).
//! - The load is a fifth of the sim's, each request standing for five in every count, with
//!   13 workers for the sim's 64 ([`tally::STANDS_FOR`]: the full load is more than two
//!   shared cores sustain). Live request N stands for the sim's requests 5N to 5N + 4
//!   ([`tally::stood_for`]); in a dependency's load and in its breaker's window the other
//!   four are stand-ins the dependency plays beside the live call, not copies of it.
//! - A breaker learns how an application attempt ended when it ends, in both, and is
//!   asked at a request's arrival: the sim's at its arrival plus the attempts' time, the
//!   twin's at the same sim moment, whatever moment the machine got to it. Every
//!   outcome, the live call's and its stand-ins', waits in the twin breaker's queue for
//!   its moment, and an ask at a sim request's arrival first learns those due by then,
//!   in their order ([`breaker_feed`]); the dependency asks for the stand-ins and the
//!   live call's retries at their arrivals when it plans them ([`dependency`]).
//! - checkout-api's workers are held on the drill clock from the moment the load sent the
//!   request, and the inbound deadline counts from then too, as the sim's do ([`workers`]).
//! - A failing attempt is answered 503 at the moment the sim says it ends (its caller's
//!   timeout, or a fast 10 ms rate-limit answer), so the caller's connection lives on; the
//!   hang's 1.9 s answer is a success after 1.9 s, as the sim's wait in the pool is.
//! - checkout-api counts each request's calls and attempts in the second the request
//!   arrived, as the sim does ([`tally`]); a second's workers-busy and breaker words are
//!   sampled at its end.
//! - Goodput counts every sim request, not one in five: a dependency tells checkout-api
//!   how each stand-in's call ended, checkout-api judges each stand-in's request by the
//!   sim's rule (`engine::oncall::sim::request_end`: the hard chain succeeded and no wait
//!   reached the deadline) and tells the load, which counts the live request and its four
//!   stand-ins each once ([`checkout`], [`tally`]). A stand-in shares the live request's
//!   worker, its sheddability and its breaker's first answer. (Counted five times, the
//!   live request's own outcome read goodput through a one-in-five sample, and
//!   payments-503's restored moment, where goodput sits just under the bar, moved 1 to
//!   2 s with which fifth was counted.)
//! - The random draws are keyed, not streamed: an attempt's draws come from the seed, the
//!   dependency, the sim request's number and the attempt's place in its call
//!   (`engine::oncall::sim::AttemptDraws`), so a live dependency draws for sim request
//!   5N + k what the sim draws for it, whatever order real arrivals take. (From streams
//!   of their own, the two drew different samples of the incident, and where breakers and
//!   retries cycle the sample alone moved the restored moment by up to 6 s.)
//!
//! - [`breaker_feed`]: a breaker fed each outcome at its sim moment, asked at the sim's.
//! - [`clock`]: drill time from real time and back.
//! - [`server`]: the one accept loop's use here.
//! - [`dependency`]: a dependency server with the incident's fault.
//! - [`checkout`]: checkout-api, its workers, levers, retry layers and breakers.
//! - [`load`]: the bounded steady load.
//! - [`tally`]: checkout-api's counts by arrival second.
//! - [`runner`]: the whole run, into the engine's `DrillRun`.
//! - [`workers`]: checkout-api's workers, held on the drill clock as the sim holds them.
//! - [`feed`]: the app's live drill: levers while it runs, rows as they complete.
//! - [`setup`]: the setup the servers share, where a facilitator's second fault goes.

pub mod breaker_feed;
pub mod checkout;
pub mod clock;
pub mod dependency;
pub mod feed;
pub mod load;
pub mod runner;
pub mod server;
pub mod setup;
pub mod tally;
pub mod workers;
