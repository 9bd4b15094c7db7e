//! Where a played drill's seconds come from: the simulation, which knows the whole run at
//! once and plays it again at each lever, or the live twin on 127.0.0.1, whose rows arrive
//! as its requests end and whose levers go to the running checkout-api.
//!
//! This is the one seam between [`super::play::OncallPlay`] and its clock: the view, the
//! alerts, the score and the debrief read the play's [`DrillRun`] and never ask which
//! source filled it. The engine names no runtime, so the live twin is a trait here
//! ([`LiveFeed`]), implemented in `live::oncall::feed`.

use std::fmt::Debug;

use super::incident::ExtraFault;
use super::lever::OncallLever;
use super::sim::{AlertLog, DrillRun, DrillSecond};

/// The live twin as a played drill sees it: a clock that runs on its own, a lever sent to
/// the running service, the rows that have completed.
pub trait LiveFeed: Debug + Send {
    /// Real milliseconds one drill second lasts.
    fn ms_per_drill_s(&self) -> u64;
    /// Drill seconds since the twin's second 0 (0 while the servers warm up).
    fn now_s(&self) -> f64;
    /// Sends `lever` to the running checkout-api now.
    fn pull(&mut self, lever: OncallLever);
    /// The rows completed since the last call, oldest first, their `alerts` still empty
    /// (the play closes them through one [`AlertLog`]).
    fn take_rows(&mut self) -> Vec<DrillSecond>;
    /// The whole run, once the drill's clock is over and every call has ended: its rows
    /// read again from the final counts, levers left empty (the play keeps them). Or why
    /// the twin stopped without one, as a clause ("it could not start on 127.0.0.1: ...",
    /// "it panicked: ..."), at once, so
    /// that the drill ends on the seconds measured instead of waiting for rows that will
    /// not come.
    fn take_final(&mut self) -> Option<Result<DrillRun, String>>;
    /// Adds a facilitator's second fault to the running twin now, through the channel
    /// the levers take.
    fn add_fault(&mut self, fault: ExtraFault);
    /// Stops the servers and the load now (also what dropping the feed does).
    fn stop(&mut self);
}

/// Which source a played drill reads.
#[derive(Debug)]
pub enum DrillSource {
    /// The deterministic simulation: the play's own clock shows its rows.
    Sim,
    /// The live twin, with the alerts of the rows it has handed over so far.
    Live { feed: Box<dyn LiveFeed>, alerts: AlertLog },
}

impl DrillSource {
    /// The live twin's feed.
    pub fn live(feed: Box<dyn LiveFeed>) -> Self {
        DrillSource::Live {
            feed,
            alerts: AlertLog::default(),
        }
    }
}
