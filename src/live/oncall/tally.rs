//! What checkout-api counts, by the drill second each request arrived in: its requests'
//! outcomes and, for each dependency, calls, attempts, errors, refusals and answer times.
//!
//! By arrival, as the simulation counts: a request's calls, retries and abandoned soft
//! calls all belong to the second the request came in, so that a row of the twin and a
//! row of the sim count the same requests' work. The headless run reads the rows once the
//! drill is over and every call has ended; the app's live drill also reads each second a
//! few seconds after it, once its requests have ended ([`DrillTally::snapshot`]).

use std::sync::Mutex;

use crate::engine::oncall::OncallDep;
use crate::engine::oncall::sim::{DRILL_S, REQUESTS_PER_S, WORKERS};

/// How many of the sim's requests one live request stands for. Why: the sim's load, 100
/// checkouts a drill second with four calls each and up to nine attempts a call, is 6,000
/// to 20,000 loopback exchanges a real second at 80 ms a drill second; measured on the
/// 2-core machine shared with three builds (load average 6, debug build), even the calm
/// baseline's attempts took 40 to 60 real ms instead of 2 to 10 and every worker filled.
/// A fifth of the load, each request standing for five, keeps the sim's numbers (70
/// checkouts a second of goodput, attempts a second as a dependency's load) at a rate
/// the machine sustains: goodput counts the live request and its four stand-ins each by
/// its own outcome ([`DrillTally::request`]), the dashboard's counts of calls and
/// attempts count the live call's five times.
pub const STANDS_FOR: u32 = 5;
/// Live requests a drill second: every fifth of the sim's, still three in ten sheddable.
pub const LIVE_REQUESTS_PER_S: usize = REQUESTS_PER_S / STANDS_FOR as usize;
/// checkout-api's live workers: the sim's 64 for a fifth of the load, rounded (12.8 to 13).
pub const LIVE_WORKERS: usize = (WORKERS + STANDS_FOR as usize / 2) / STANDS_FOR as usize;

/// The sim's requests live request `live_request` stands for, its own first: the five
/// in a row from five times its number (live request N is sent at drill second N / 20,
/// sim request 5N arrives then), so that the live requests stand for every sim request
/// once, in the sim's order. A dependency draws the live call's attempts and its
/// stand-ins' with these numbers' keys, as the sim does, and the breaker's window of 20
/// outcomes holds the same 20 requests in both.
pub fn stood_for(live_request: usize) -> impl Iterator<Item = usize> {
    let first = live_request * STANDS_FOR as usize;
    first..first + STANDS_FOR as usize
}

/// How a served request's stand-ins ended (true: served well), as checkout-api answered.
pub type StandIns = Option<[bool; STANDS_FOR as usize - 1]>;

/// One dependency's counts for one second.
#[derive(Clone, Debug, Default)]
pub struct DepTally {
    pub calls: u32,
    pub attempts: u32,
    pub errors: u32,
    pub not_permitted: u32,
    pub latencies_ms: Vec<f64>,
    pub busy_ms: f64,
}

/// How a request ended, as checkout-api answered it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestEnd {
    /// Answered well within the deadline.
    Served,
    /// Turned away by `shed=on`.
    Shed,
    /// Turned away because every worker was busy.
    Rejected,
    /// Served but failed, or never answered.
    Failed,
}

/// One second's counts.
#[derive(Clone, Debug, Default)]
pub struct SecondTally {
    pub requests: u32,
    pub goodput: u32,
    pub shed: u32,
    pub rejected: u32,
    pub failed: u32,
    /// Answer times of the requests served (well or not), drill ms.
    pub latencies_ms: Vec<f64>,
    pub deps: [DepTally; 4],
}

/// Every second's counts, shared by checkout-api's handlers and the load.
pub struct DrillTally {
    seconds: Mutex<Vec<SecondTally>>,
}

impl Default for DrillTally {
    /// Every second of the drill at zero.
    fn default() -> Self {
        Self {
            seconds: Mutex::new(vec![SecondTally::default(); DRILL_S]),
        }
    }
}

impl DrillTally {
    /// Changes second `t_s`'s counts (a second past the drill is dropped).
    fn with(&self, t_s: usize, change: impl FnOnce(&mut SecondTally)) {
        if let Ok(mut seconds) = self.seconds.lock()
            && let Some(second) = seconds.get_mut(t_s)
        {
            change(second);
        }
    }

    pub fn dep(&self, t_s: usize, dep: OncallDep, change: impl FnOnce(&mut DepTally)) {
        self.with(t_s, |second| change(&mut second.deps[dep.index()]));
    }

    /// A request of second `t_s` ended: how, after `took_ms`, and whether it was
    /// sheddable. Turned away (shed or busy), it counts [`STANDS_FOR`] times, as its
    /// stand-ins were turned away with it; served (well or not), it counts once and each
    /// of its stand-ins by its own outcome (`stand_ins`, None when the answer never came:
    /// failed with it), so that goodput counts every sim request, not one in five. The
    /// stand-ins are sheddable when the live request is (they share its answer to shed).
    pub fn request(&self, t_s: usize, end: RequestEnd, sheddable: bool, took_ms: f64, stand_ins: StandIns) {
        self.with(t_s, |second| {
            second.requests += STANDS_FOR;
            let mut count = |end: RequestEnd, times: u32| match end {
                RequestEnd::Served if !sheddable => second.goodput += times,
                RequestEnd::Served => {}
                RequestEnd::Shed => second.shed += times,
                RequestEnd::Rejected => second.rejected += times,
                RequestEnd::Failed => second.failed += times,
            };
            match end {
                RequestEnd::Served | RequestEnd::Failed => {
                    count(end, 1);
                    for served in stand_ins.unwrap_or_default() {
                        count(if served { RequestEnd::Served } else { RequestEnd::Failed }, 1);
                    }
                    second.latencies_ms.push(took_ms);
                }
                RequestEnd::Shed | RequestEnd::Rejected => count(end, STANDS_FOR),
            }
        });
    }

    /// Second `t_s`'s counts as they stand (a copy): the app's live drill shows a second
    /// once its requests have ended, before the drill is over.
    pub fn snapshot(&self, t_s: usize) -> Option<SecondTally> {
        self.seconds.lock().ok()?.get(t_s).cloned()
    }

    /// Every second's counts, taken out.
    pub fn take(&self) -> Vec<SecondTally> {
        self.seconds
            .lock()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_requests_stand_for_every_sim_request_once_in_its_order() {
        let sim: Vec<usize> = (0..LIVE_REQUESTS_PER_S * 3).flat_map(stood_for).collect();
        assert_eq!(sim, (0..REQUESTS_PER_S * 3).collect::<Vec<_>>());
        // The live request sent at drill second 2.5 stands for the sim's arriving then.
        assert_eq!(stood_for(50).next(), Some(250));
    }

    #[test]
    fn a_served_request_counts_its_stand_ins_by_their_own_outcomes() {
        let tally = DrillTally::default();
        tally.request(3, RequestEnd::Served, false, 40.0, Some([true, false, true, true]));
        tally.request(3, RequestEnd::Failed, false, 2_000.0, Some([true, true, false, false]));
        tally.request(3, RequestEnd::Failed, false, 4_000.0, None);
        tally.request(3, RequestEnd::Served, true, 40.0, Some([true; 4]));
        tally.request(3, RequestEnd::Rejected, false, 0.0, None);
        let second = tally.snapshot(3).expect("second 3");
        assert_eq!(second.requests, 25);
        assert_eq!(second.goodput, 4 + 2, "each of the five once; a sheddable one none");
        assert_eq!(second.failed, 1 + 3 + 5);
        assert_eq!(second.rejected, 5, "turned away with its stand-ins");
        assert_eq!(second.latencies_ms.len(), 4, "one answer time a live request");
    }
}
