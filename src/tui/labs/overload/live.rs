//! Lab 4's live part: the server and paced client on 127.0.0.1 at the live scale, each
//! second's counts as they arrive, the simulation at the same settings beside them, the
//! measured goodput points, and which view shows.
//!
//! The sliders speak the lesson's scale (100 threads x 50 ms); a live run on this machine
//! keeps the ratios at 8 slots x 20 ms = 400/s (`content::params::overload::live_scaled`), its length scaled by the
//! same time factor, and its numbers are read back at the lesson's scale (its `LiveScale`) to
//! sit on the simulated curves.

use crate::content::{LabId, params};
use crate::engine::overload::{self, CurvePoint, OverloadParams, OverloadRun, Second};
use crate::live::overload::runner::{self, OverloadControl};
use crate::live::run::{LabBody, LabEvent, OverloadEvent};
use crate::tui::frame::live::{LiveCtx, LivePart, Runs, runs_methods};
use crate::tui::msg::Msg;

// The app's live run at the lesson's scale resolves with Lab 4's other parameters.
pub use crate::content::params::overload::{
    LIVE_MAX_S, LIVE_MIN_S, LIVE_SERVICE_MS, LIVE_WORKERS, LiveScale, live_scaled,
};

/// Measured points kept for the curve chart (the oldest go first).
pub const POINTS_KEPT: usize = 64;

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
    /// The paper's metastable model, second by second (its own numbers: no slider moves it).
    Metastable,
}

impl OverloadView {
    pub fn next(self) -> Self {
        match self {
            OverloadView::Curves => OverloadView::Outcomes,
            OverloadView::Outcomes => OverloadView::Bulkhead,
            OverloadView::Bulkhead => OverloadView::Metastable,
            OverloadView::Metastable => OverloadView::Curves,
        }
    }

    /// The view that draws what a check's `metric` counts, when the curves do not: a verdict
    /// switches to it, so the run it scored is on screen (the 160 free threads, not goodput).
    pub fn showing(metric: &str) -> Option<Self> {
        if crate::learning::metrics::SlotsCase::of_metric(metric).is_some() {
            Some(OverloadView::Bulkhead)
        } else if metric.starts_with("overload.throttle") {
            Some(OverloadView::Outcomes)
        } else if metric.starts_with("overload.metastable.") {
            Some(OverloadView::Metastable)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OverloadView::Curves => "curves",
            OverloadView::Outcomes => "outcomes",
            OverloadView::Bulkhead => "bulkhead",
            OverloadView::Metastable => "metastable",
        }
    }
}

/// The settings a measured point belongs to: all but the offered load (the curve's x).
fn curve_key(params: &OverloadParams) -> OverloadParams {
    OverloadParams {
        offered_per_s: 0.0,
        ..params.clone()
    }
}

/// One finished live run's point, at the lesson's scale, and the live settings it ran at.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPoint {
    key: OverloadParams,
    pub point: CurvePoint,
}

/// The run in progress (or the last one): its settings, the sim at the same settings, and
/// what has arrived.
#[derive(Clone, Debug)]
pub struct LiveRecord {
    /// The live settings it started with.
    pub params: OverloadParams,
    pub scale: LiveScale,
    /// The simulation at exactly the live settings, for the row beside the measured one.
    pub sim: OverloadRun,
    /// Each second as measured, at the live scale.
    pub seconds: Vec<Second>,
    /// The finished run, at the live scale.
    pub measured: Option<OverloadRun>,
    /// A setting moved while it ran: the sim row and the curve no longer describe it.
    pub retuned: bool,
}

impl LiveRecord {
    pub fn new(params: OverloadParams, scale: LiveScale) -> Self {
        Self {
            sim: overload::run(&params),
            params,
            scale,
            seconds: Vec::new(),
            measured: None,
            retuned: false,
        }
    }

    /// The finished run read back at the lesson's scale, for scoring a prediction made on
    /// the live screen: times x `time`, rates and per-second counts x `rate`, what the
    /// server holds x `pool`. A lesson-scale instant the live samples do not land on (the
    /// queue at 2 s when a live second is 2.5 lesson seconds) is simply absent.
    pub fn lesson_run(&self) -> Option<OverloadRun> {
        let run = self.measured.as_ref()?;
        let LiveScale { rate, pool, time } = self.scale;
        let count = |n: u64| (n as f64 * rate).round() as u64;
        let held = |n: u64| (n as f64 * pool).round() as u64;
        let slots = |n: u32| (f64::from(n) * pool).round() as u32;
        let seconds = run
            .seconds
            .iter()
            .map(|s| Second {
                t_s: s.t_s * time,
                offered: count(s.offered),
                goodput: count(s.goodput),
                wasted: count(s.wasted),
                refused: count(s.refused),
                timed_out: count(s.timed_out),
                throttled: count(s.throttled),
                queue_len: held(s.queue_len),
                queue_wait_s: s.queue_wait_s * time,
                oldest_wait_s: s.oldest_wait_s * time,
                busy: slots(s.busy),
                x_busy: slots(s.x_busy),
            })
            .collect();
        let mut totals = run.totals.clone();
        totals.goodput_per_s *= rate;
        totals.max_queue_len = held(totals.max_queue_len);
        Some(OverloadRun {
            params: OverloadParams {
                workers: slots(run.params.workers),
                service_ms: run.params.service_ms * time,
                ..run.params.clone()
            },
            capacity_per_s: run.capacity_per_s * rate,
            seconds,
            totals,
            ..run.clone()
        })
    }

    /// Mean goodput per second so far, at the lesson's scale: the point the live run puts
    /// on the curve (it moves each second while the run goes, and stays when it ends).
    pub fn point(&self) -> Option<CurvePoint> {
        let seconds = self.seconds.len();
        (seconds > 0).then(|| {
            let goodput: u64 = self.seconds.iter().map(|s| s.goodput).sum();
            CurvePoint {
                offered_per_s: self.params.offered_per_s * self.scale.rate,
                goodput_per_s: goodput as f64 / seconds as f64 * self.scale.rate,
            }
        })
    }
}

#[derive(Debug, Default)]
pub struct OverloadLive {
    runs: Runs<OverloadControl>,
    /// The current (or last) run.
    pub record: Option<Box<LiveRecord>>,
    /// Finished runs' points, each with the settings it ran at (the chart shows those of
    /// the settings on screen).
    pub points: Vec<MeasuredPoint>,
    pub status: Option<String>,
    pub view: OverloadView,
}

impl OverloadLive {
    /// Stops the current run, if any (true then).
    fn stop_run(&mut self) -> bool {
        self.runs.stop()
    }

    /// The measured points of the settings `lesson` (at the lesson's scale), oldest first.
    pub fn points_at(&self, lesson: &OverloadParams) -> Vec<CurvePoint> {
        let key = curve_key(&live_scaled(lesson).0);
        self.points.iter().filter(|m| m.key == key).map(|m| m.point).collect()
    }

    /// The live run's record as if the events of a run had arrived: `seconds` one by one,
    /// then `measured` if it finished (the snapshots' deterministic stand-in for sockets).
    pub fn replay(&mut self, record: LiveRecord) {
        let LiveRecord { seconds, measured, .. } = record.clone();
        self.record = Some(Box::new(LiveRecord {
            seconds: Vec::new(),
            measured: None,
            ..record
        }));
        for second in seconds {
            self.observe(OverloadEvent::Sample(second));
        }
        if let Some(run) = measured {
            self.observe(OverloadEvent::Done(Ok(Box::new(run))));
        }
    }

    /// One event of the current run.
    fn observe(&mut self, event: OverloadEvent) {
        let Some(record) = self.record.as_mut() else { return };
        match event {
            OverloadEvent::Sample(second) => record.seconds.push(second),
            OverloadEvent::Done(Ok(run)) => {
                record.seconds.clone_from(&run.seconds);
                record.measured = Some(*run);
                if let (Some(point), false) = (record.point(), record.retuned) {
                    let key = curve_key(&record.params);
                    self.points
                        .retain(|m| m.key != key || m.point.offered_per_s != point.offered_per_s);
                    self.points.push(MeasuredPoint { key, point });
                    let over = self.points.len().saturating_sub(POINTS_KEPT);
                    self.points.drain(..over);
                }
            }
            OverloadEvent::Done(Err(error)) => self.status = Some(format!("the live run failed: {error}")),
        }
    }
}

impl LivePart for OverloadLive {
    fn start(&mut self, ctx: &LiveCtx) -> bool {
        let events = match self.runs.sender(ctx, LabId::Overload) {
            Ok(events) => events,
            Err(why) => {
                self.status = Some(why.into());
                return true;
            }
        };
        let (live, scale) = live_scaled(&params::overload_params(ctx.lab, ctx.sliders));
        self.record = Some(Box::new(LiveRecord::new(live.clone(), scale)));
        self.runs.begin(runner::spawn(live, events));
        self.status = None;
        true
    }

    fn retune(&mut self, ctx: &LiveCtx) -> bool {
        let (Some(run), Some(record)) = (self.runs.current(), self.record.as_mut()) else {
            return true;
        };
        let (live, _) = live_scaled(&params::overload_params(ctx.lab, ctx.sliders));
        let started = &record.params;
        let pool_moved = live.capacity_per_s() != started.capacity_per_s();
        let params = OverloadParams {
            workers: started.workers,
            service_ms: started.service_ms,
            duration_s: started.duration_s,
            ..live
        };
        record.retuned |= params != *started;
        run.retune(OverloadControl { params });
        self.status = if pool_moved {
            Some("workers and service time apply on the next start (s)".into())
        } else if record.retuned {
            Some("changed while running: the sim row is at the start's settings, no curve point".into())
        } else {
            None
        };
        true
    }

    fn key(&mut self, _msg: Msg, _ctx: &LiveCtx) -> Option<bool> {
        None
    }

    fn on_event(&mut self, event: LabEvent) -> bool {
        if !self.runs.is_current(&event) {
            return false;
        }
        let LabBody::Overload(event) = *event.body else {
            return false;
        };
        if matches!(event, OverloadEvent::Done(_)) {
            // The task is ending: keep its handle so quitting still waits for it.
            self.stop_run();
        }
        self.observe(event);
        true
    }

    runs_methods!("stopped early: no curve point for a partial run");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v_reaches_the_metastable_view_and_its_verdict_shows_it() {
        let cycle: Vec<&str> = std::iter::successors(Some(OverloadView::Curves), |view| Some(view.next()))
            .take(5)
            .map(OverloadView::name)
            .collect();
        assert_eq!(cycle, ["curves", "outcomes", "bulkhead", "metastable", "curves"]);
        assert_eq!(
            OverloadView::showing("overload.metastable.db_load_end_per_s"),
            Some(OverloadView::Metastable)
        );
        assert_eq!(OverloadView::showing("overload.goodput_per_s"), None);
    }

    #[test]
    fn the_live_scale_keeps_the_lessons_ratios() {
        let lesson = OverloadParams::default();
        let (live, scale) = live_scaled(&lesson);
        assert_eq!(live.capacity_per_s(), 400.0);
        assert_eq!((scale.rate, scale.pool, scale.time), (5.0, 12.5, 2.5));
        assert_eq!(live.offered_per_s, 500.0);
        assert_eq!(live.age_cap_ms, 80.0);
        assert_eq!(live.client_timeout_ms, 400.0);
        assert_eq!(live.admission_limit, 12);
        assert_eq!(live.duration_s, 4.0, "10 s at 50 ms a request is 4 s at 20 ms");
    }

    #[test]
    fn a_live_run_stays_within_its_bounds() {
        let slow = OverloadParams {
            service_ms: 1_000.0,
            ..OverloadParams::default()
        };
        let fast = OverloadParams {
            service_ms: 1.0,
            ..OverloadParams::default()
        };
        assert_eq!(live_scaled(&slow).0.duration_s, LIVE_MIN_S);
        assert_eq!(live_scaled(&fast).0.duration_s, LIVE_MAX_S);
        let one_slow_worker = OverloadParams {
            workers: 1,
            service_ms: 1_000.0,
            offered_per_s: 10_000.0,
            ..OverloadParams::default()
        };
        assert_eq!(
            live_scaled(&one_slow_worker).0.offered_per_s,
            params::overload::LIVE_MAX_OFFERED_PER_S,
            "a setting far past capacity runs at the command line's live limit"
        );
    }

    /// The FIFO collapse at the live scale reads back close to the lesson's run: the
    /// scaled run is the same run in smaller units.
    #[test]
    fn the_scaled_sim_reads_back_as_the_lessons() {
        let lesson = OverloadParams::default();
        let (live, scale) = live_scaled(&lesson);
        let at_lesson = overload::run(&lesson).totals.goodput_per_s;
        let read_back = overload::run(&live).totals.goodput_per_s * scale.rate;
        assert!(
            (read_back - at_lesson).abs() <= 0.05 * 2_000.0,
            "{read_back} against {at_lesson}"
        );
    }

    #[test]
    fn a_finished_run_leaves_one_point_per_load_and_settings() {
        let lesson = OverloadParams::default();
        let (live, scale) = live_scaled(&lesson);
        let mut part = OverloadLive::default();
        let record = LiveRecord::new(live.clone(), scale);
        let finished = LiveRecord {
            seconds: record.sim.seconds.clone(),
            measured: Some(record.sim.clone()),
            ..record.clone()
        };
        part.replay(finished.clone());
        part.replay(finished);
        let points = part.points_at(&lesson);
        assert_eq!(points.len(), 1, "the same load again replaces its point");
        let goodput: u64 = record.sim.seconds.iter().map(|s| s.goodput).sum();
        assert_eq!(points[0].offered_per_s, 2_500.0);
        assert_eq!(points[0].goodput_per_s, goodput as f64 / 4.0 * 5.0);
        let lifo = OverloadParams {
            policy: overload::SheddingPolicy::Lifo,
            ..lesson
        };
        assert!(
            part.points_at(&lifo).is_empty(),
            "another policy's curve has its own points"
        );
    }
}
