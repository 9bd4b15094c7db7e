//! Lab 4's live part: the server and paced client on 127.0.0.1 at the live scale, each
//! second's counts as they arrive, the measured run at the end, and which view shows.
//!
//! The sliders speak the lesson's scale (100 threads x 50 ms); a live run on this machine
//! keeps the ratios at 8 slots x 20 ms = 400/s ([`live_scaled`]), and its points are read
//! back at the lesson's scale to sit on the simulated curves.

use tokio::task::JoinHandle;

use crate::content::{LabId, params};
use crate::engine::overload::{CurvePoint, OverloadParams, OverloadRun, Second};
use crate::live::overload::runner::{self, OverloadControl};
use crate::live::run::{LabBody, LabEvent, LiveRun, OverloadEvent};
use crate::tui::msg::Msg;
use crate::tui::screens::lab::live::{LiveCtx, LivePart};

/// The live pool: 8 slots x 20 ms = 400 requests/s on a 2-core machine.
pub const LIVE_WORKERS: u32 = 8;
pub const LIVE_SERVICE_MS: f64 = 20.0;
/// A live run's length: long enough for the FIFO queue to pass the timeout.
pub const LIVE_DURATION_S: f64 = 10.0;

/// Which chart the right-hand side shows (`v` cycles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OverloadView {
    /// Goodput against offered load per policy, and the queue over time.
    #[default]
    Curves,
    /// Goodput, wasted and refused per second, and the client throttle's arithmetic.
    Outcomes,
    /// Dependency X with and without its own pool.
    Bulkhead,
}

impl OverloadView {
    pub fn next(self) -> Self {
        match self {
            OverloadView::Curves => OverloadView::Outcomes,
            OverloadView::Outcomes => OverloadView::Bulkhead,
            OverloadView::Bulkhead => OverloadView::Curves,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OverloadView::Curves => "curves",
            OverloadView::Outcomes => "outcomes",
            OverloadView::Bulkhead => "bulkhead",
        }
    }
}

/// The lesson-scale settings `params` at the live scale: the same offered / capacity,
/// timeout / service time and queue limits / workers ratios, and the factor that reads a
/// live rate back at the lesson's scale.
pub fn live_scaled(params: &OverloadParams) -> (OverloadParams, f64) {
    let time = LIVE_SERVICE_MS / params.service_ms.max(1e-9);
    let pool = f64::from(LIVE_WORKERS) / f64::from(params.workers.max(1));
    let live = OverloadParams {
        workers: LIVE_WORKERS,
        service_ms: LIVE_SERVICE_MS,
        client_timeout_ms: params.client_timeout_ms * time,
        age_cap_ms: params.age_cap_ms * time,
        admission_limit: ((f64::from(params.admission_limit) * pool).round() as u32).max(1),
        duration_s: LIVE_DURATION_S,
        dependency: None,
        trace_at_s: None,
        ..params.clone()
    };
    let factor = params.capacity_per_s() / live.capacity_per_s();
    let live = OverloadParams {
        offered_per_s: (params.offered_per_s / factor).round().max(1.0),
        ..live
    };
    (live, factor)
}

#[derive(Debug, Default)]
pub struct OverloadLive {
    run: Option<LiveRun<OverloadControl>>,
    next_run: u64,
    /// Runs asked to stop and still ending, for quitting to wait on.
    stopping: Vec<JoinHandle<()>>,
    /// The live run's settings and the factor back to the lesson's scale.
    pub started: Option<Box<(OverloadParams, f64)>>,
    /// Each second of the current (or last) run, at the live scale.
    pub seconds: Vec<Second>,
    /// Measured points (offered, goodput) at the lesson's scale, one per second.
    pub points: Vec<CurvePoint>,
    /// The finished run, at the live scale.
    pub measured: Option<Box<OverloadRun>>,
    pub status: Option<String>,
    pub view: OverloadView,
}

impl OverloadLive {
    fn stop_run(&mut self) {
        if let Some(run) = self.run.take() {
            self.stopping.push(run.stop());
        }
    }
}

impl LivePart for OverloadLive {
    fn start(&mut self, ctx: &LiveCtx) -> bool {
        self.next_run += 1;
        let Some(events) = ctx.sender(LabId::Overload, self.next_run) else {
            self.status = Some("live runs need the app's async runtime".into());
            return true;
        };
        let (live, factor) = live_scaled(&params::overload_params(ctx.lab, ctx.sliders));
        self.stopping.retain(|task| !task.is_finished());
        self.seconds.clear();
        self.points.clear();
        self.measured = None;
        self.started = Some(Box::new((live.clone(), factor)));
        self.run = Some(runner::spawn(live, events));
        self.status = None;
        true
    }

    fn retune(&mut self, ctx: &LiveCtx) -> bool {
        let (Some(run), Some(started)) = (&self.run, &self.started) else {
            return true;
        };
        let (live, _) = live_scaled(&params::overload_params(ctx.lab, ctx.sliders));
        let started = &started.0;
        let pool_moved = live.capacity_per_s() != started.capacity_per_s();
        run.retune(OverloadControl {
            params: OverloadParams {
                workers: started.workers,
                service_ms: started.service_ms,
                ..live
            },
        });
        self.status = pool_moved.then(|| "workers and service time apply on the next start (s)".into());
        true
    }

    fn key(&mut self, _msg: Msg, _ctx: &LiveCtx) -> Option<bool> {
        None
    }

    fn on_event(&mut self, event: LabEvent) -> bool {
        if self.run.as_ref().is_none_or(|run| run.id != event.run) {
            return false;
        }
        let LabBody::Overload(event) = *event.body else {
            return false;
        };
        let factor = self.started.as_ref().map_or(1.0, |started| started.1);
        match event {
            OverloadEvent::Sample(second) => {
                self.points.push(CurvePoint {
                    offered_per_s: second.offered as f64 * factor,
                    goodput_per_s: second.goodput as f64 * factor,
                });
                self.seconds.push(second);
            }
            OverloadEvent::Done(result) => {
                self.stop_run();
                match result {
                    Ok(run) => self.measured = Some(run),
                    Err(error) => self.status = Some(format!("the live run failed: {error}")),
                }
            }
        }
        true
    }

    fn stop(&mut self) -> bool {
        if self.run.is_some() {
            self.stop_run();
            self.status = Some("stopped early".into());
        }
        true
    }

    fn running(&self) -> bool {
        self.run.is_some()
    }

    fn leave(&mut self) {
        self.stop_run();
    }

    fn shutdown(&mut self) -> Vec<JoinHandle<()>> {
        self.stop_run();
        std::mem::take(&mut self.stopping)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_scale_keeps_the_lessons_ratios() {
        let lesson = OverloadParams::default();
        let (live, factor) = live_scaled(&lesson);
        assert_eq!(live.capacity_per_s(), 400.0);
        assert_eq!(factor, 5.0);
        assert_eq!(live.offered_per_s, 500.0);
        assert_eq!(live.age_cap_ms, 80.0);
        assert_eq!(live.client_timeout_ms, lesson.client_timeout_ms * 0.4);
    }
}
