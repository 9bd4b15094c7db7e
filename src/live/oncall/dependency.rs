//! One of checkout-api's four dependencies as a server: it answers each attempt as the
//! simulation's dependency would (`engine::oncall::sim::attempt_outcome`), from the same
//! incident, at the drill time the attempt arrives, under the load of the last whole drill
//! second it saw, and takes the answer's time for real (scaled) before it answers.
//!
//! It counts attempts by the drill second of the checkout they serve, as the sim does, and
//! judges its load by the second before that one: a stall of the machine that bunches
//! arrivals is not load the sim's steady customers would make (measured: with counting by
//! arrival, a loaded machine's bunching put inventory past its brownout capacity after
//! the levers, where the sim has it below). Answers: 200 for a success; 503 for a failure
//! (a fast 503 above a rate limit, or a slow one at the caller's timeout: past capacity
//! the attempt is queued beyond the timeout, and the server answers at the moment the
//! caller would give up, so that the caller's connection stays open for its next attempt;
//! a connection dropped at each timeout would be thousands of new connections a drill
//! second in a storm).

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use hyper::Request;
use hyper::StatusCode;
use hyper::body::Incoming;

use super::clock::DrillClock;
use super::server;
use super::tally::STANDS_FOR;
use crate::engine::oncall::sim::{DRILL_S, attempt_outcome};
use crate::engine::oncall::{DrillSetup, OncallDep};
use crate::engine::pyrandom::PyRandom;
use crate::live::http::{self, TextBody};
use crate::live::loopback_server::LoopbackServer;

/// The path an attempt asks for; `/warm` opens a connection before the drill and counts nothing.
pub const ATTEMPT_PATH: &str = "/attempt";
pub const WARM_PATH: &str = "/warm";

/// Drill seconds counted past the drill's end (abandoned calls still arriving).
const TAIL_S: usize = 60;

struct DrillDependency {
    dep: OncallDep,
    setup: DrillSetup,
    clock: DrillClock,
    /// Attempts that reached the server in each drill second.
    arrivals: Vec<AtomicU32>,
    /// The server's own stream, from the seed and the dependency: the sim's draws cannot
    /// be replayed in the live order of arrivals, so the twin agrees in distribution.
    rng: Mutex<PyRandom>,
}

impl DrillDependency {
    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> hyper::Response<TextBody> {
        if request.uri().path() == WARM_PATH {
            return http::text(StatusCode::OK, "warm\n");
        }
        let t_s = self.clock.now_s();
        // The second of the request the attempt serves (`?s=`), as the sim counts load; an
        // attempt without one counts in the second it arrived.
        let second = server::query(&request, "s")
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(t_s as usize)
            .min(self.arrivals.len() - 1);
        // Each live attempt stands for five of the sim's, in the load as in the counts.
        self.arrivals[second].fetch_add(STANDS_FOR, Ordering::Relaxed);
        let offered_per_s = match second.checked_sub(1) {
            Some(last) => f64::from(self.arrivals[last].load(Ordering::Relaxed)),
            None => 0.0,
        };
        let (ok, took_ms) = match self.rng.lock() {
            Ok(mut rng) => attempt_outcome(&self.setup, self.dep, t_s, offered_per_s, &mut rng),
            Err(_) => (false, 0.0),
        };
        tokio::time::sleep(self.clock.real(took_ms)).await;
        if ok {
            http::text(StatusCode::OK, "ok\n")
        } else {
            http::text(StatusCode::SERVICE_UNAVAILABLE, "failed: past capacity, or the fault\n")
        }
    }
}

/// Starts `dep`'s server for the drill of `setup` on `clock`.
pub async fn serve(dep: OncallDep, setup: &DrillSetup, clock: DrillClock) -> std::io::Result<LoopbackServer> {
    let stream = u128::from(setup.seed) * 2 + 1 + 1_000 * (dep.index() as u128 + 1);
    let model = Arc::new(DrillDependency {
        dep,
        setup: setup.clone(),
        clock,
        arrivals: (0..DRILL_S + TAIL_S).map(|_| AtomicU32::new(0)).collect(),
        rng: Mutex::new(PyRandom::new(stream)),
    });
    server::serve(move |request| model.clone().handle(request)).await
}
