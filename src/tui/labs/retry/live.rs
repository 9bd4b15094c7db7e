//! Lab 2's live part: the retry chain's runs driven from the lab screen.
//!
//! Two runs, never at once on one chain: a counting run with the sliders' p, attempts and
//! budget, and the metastable steady load (see `live::retry::runner`). The runs send the
//! chain's counters as events on the app's queue; [`RetrySeries`] folds them into what the
//! view draws, and is pure, so it is tested without a socket. Load and policy changes reach
//! the steady load through the run's `watch` (latest wins).

use tokio::time::Instant;

use crate::content::LabId;
use crate::content::params::{self, RetrySettings};
use crate::engine::retry::{RetryPolicy, ScenarioParams, ScenarioResult, run_scenario};
use crate::engine::retry_chain::MetastableConfig;
use crate::live::retry::chain::ChainSnapshot;
use crate::live::retry::runner::{
    self, LIVE_ACTIONS_MAX, LOAD_MAX_PER_S, LOAD_STEP_PER_S, RetryControl, RetryParams, TRIGGER_LENGTH,
};
use crate::live::run::{LabBody, LabEvent, RetryEvent};
use crate::tui::frame::live::{LiveCtx, LivePart, Runs, runs_methods};
use crate::tui::log;
use crate::tui::msg::{LiveMsg, Msg};

/// Width of one point of the charts: two frame ticks, so a short counting run still draws
/// a line (rates are per second whatever the width).
pub const POINT_S: f64 = 0.5;

/// Which live view of Lab 2 shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RetryView {
    #[default]
    Counting,
    Metastable,
}

/// One point of the charts: rates over the interval that ends at `t_s`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatePoint {
    /// Seconds since the run started, at the end of the interval.
    pub t_s: f64,
    /// Requests each server received per second: front end first, database last.
    pub received_per_s: Vec<f64>,
    pub db_per_s: f64,
    /// Actions that succeeded per second (goodput).
    pub ok_per_s: f64,
    /// Actions that ended, successes among them (0 when none ended).
    pub success_ratio: f64,
    /// Share of database requests that were retries rather than an action's first try.
    pub retry_ratio: f64,
    pub db_in_flight: u64,
}

/// Rates between two snapshots `dt_s` apart.
pub fn rate_point(before: &ChainSnapshot, after: &ChainSnapshot, t_s: f64, dt_s: f64) -> RatePoint {
    let dt_s = dt_s.max(1e-3);
    let delta = |a: u64, b: u64| a.saturating_sub(b);
    let received: Vec<u64> = after
        .received
        .iter()
        .enumerate()
        .map(|(index, now)| delta(*now, before.received.get(index).copied().unwrap_or(0)))
        .collect();
    let db = received.last().copied().unwrap_or(0);
    let started = delta(after.actions_started, before.actions_started);
    let done = delta(after.actions_done, before.actions_done);
    let ok = delta(after.actions_ok, before.actions_ok);
    RatePoint {
        t_s,
        received_per_s: received.iter().map(|n| *n as f64 / dt_s).collect(),
        db_per_s: db as f64 / dt_s,
        ok_per_s: ok as f64 / dt_s,
        success_ratio: if done == 0 { 0.0 } else { ok as f64 / done as f64 },
        // An action's first try reaches the database once; everything beyond is a retry.
        retry_ratio: if db == 0 {
            0.0
        } else {
            db.saturating_sub(started) as f64 / db as f64
        },
        db_in_flight: after.db_in_flight,
    }
}

/// What a live Lab 2 run has shown so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetrySeries {
    pub view: RetryView,
    /// The policy the run uses (kept here: `o` may pick another for the next run).
    pub policy: Option<RetryPolicy>,
    pub policy_label: String,
    /// Attempts per layer of the run, top first.
    pub attempts: Vec<u32>,
    pub p: f64,
    /// Actions a counting run makes (0 for the metastable run).
    pub actions: u64,
    /// The counters now, and when (seconds since the run started).
    pub latest: ChainSnapshot,
    pub latest_s: f64,
    /// The snapshot that opened the current point.
    pub point_start: ChainSnapshot,
    pub point_start_s: f64,
    pub points: Vec<RatePoint>,
    /// `[start, end)` of each trigger, in seconds since the run started.
    pub triggers: Vec<(f64, f64)>,
    /// The counting run's result once it ended.
    pub result: Option<ScenarioResult>,
    pub finished: bool,
}

impl RetrySeries {
    /// Takes the counters at `now_s`; closes a point every [`POINT_S`]. Returns whether
    /// anything shown changed.
    pub fn observe(&mut self, now_s: f64, snapshot: ChainSnapshot) -> bool {
        let changed = snapshot != self.latest;
        if now_s - self.point_start_s >= POINT_S {
            self.close_point(now_s, &snapshot);
            self.latest = snapshot;
            self.latest_s = now_s;
            return true;
        }
        self.latest = snapshot;
        self.latest_s = now_s;
        changed
    }

    /// Ends the current point at `now_s` with the rates since it opened, and opens the next.
    fn close_point(&mut self, now_s: f64, snapshot: &ChainSnapshot) {
        let span_s = now_s - self.point_start_s;
        self.points.push(rate_point(&self.point_start, snapshot, now_s, span_s));
        self.point_start = snapshot.clone();
        self.point_start_s = now_s;
    }

    /// The run ended: closes the last, partial point so that a run shorter than a point
    /// still shows its rates.
    pub fn close(&mut self, now_s: f64, snapshot: ChainSnapshot) {
        if now_s - self.point_start_s > 0.05 && snapshot != self.point_start {
            self.close_point(now_s, &snapshot);
        }
        self.latest = snapshot;
        self.latest_s = now_s;
    }

    /// The per-hop rates to draw on the chain's arrows: the last closed point's.
    pub fn hop_rates(&self) -> Vec<f64> {
        self.points
            .last()
            .map_or_else(|| vec![0.0; self.latest.received.len()], |p| p.received_per_s.clone())
    }

    /// Database attempts per finished action so far (the amplification the lab counts): the
    /// attempts the chain reported for finished actions over those actions, so the attempts
    /// of actions still in flight (counted apart, [`Self::db_attempts_unfinished`]) never lift
    /// it past the most one action can make.
    pub fn db_per_action(&self) -> f64 {
        let finished = self.latest.actions_done.saturating_sub(self.latest.actions_expired);
        if finished == 0 {
            0.0
        } else {
            self.latest.db_attempts_of_finished as f64 / finished as f64
        }
    }

    /// Database attempts not (yet) reported for a finished action: actions in flight, or cut off.
    pub fn db_attempts_unfinished(&self) -> u64 {
        let db = self.latest.received.last().copied().unwrap_or(0);
        db.saturating_sub(self.latest.db_attempts_of_finished)
    }
}

/// Lab 2's live part: the run, its view and policy, the steady load, what it showed.
#[derive(Debug)]
pub struct RetryLive {
    pub runs: Runs<RetryControl>,
    /// When the current run started, for the trigger bands on the time axis.
    started: Option<Instant>,
    /// Which view the current run is (the learner may have switched since).
    run_view: RetryView,
    pub series: Option<RetrySeries>,
    pub view: RetryView,
    pub policy: RetryPolicy,
    /// The metastable steady load, actions per second.
    pub load_per_s: f64,
    /// One line for the live screen: a note, or why a run failed.
    pub status: Option<String>,
}

impl Default for RetryLive {
    fn default() -> Self {
        Self {
            runs: Runs::default(),
            started: None,
            run_view: RetryView::Counting,
            series: None,
            view: RetryView::Counting,
            policy: RetryPolicy::Layered,
            load_per_s: MetastableConfig::default().load_per_s,
            status: None,
        }
    }
}

impl RetryLive {
    fn metastable_running(&self) -> bool {
        self.runs.running() && self.run_view == RetryView::Metastable
    }

    /// Sends the load, policy, attempts and budget to a running steady load.
    fn push_load(&mut self, ctx: &LiveCtx) {
        let settings = params::retry_settings(ctx.lab, ctx.sliders);
        let policy = self.policy;
        if let Some(run) = self.runs.current() {
            let load = runner::load_settings(policy, &settings.layered, settings.budget, self.load_per_s);
            run.retune_with(|control| control.load = Some(load));
            if let Some(series) = &mut self.series {
                series.attempts = policy.attempts(&settings.layered);
                series.policy_label = short_policy(policy, &series.attempts, settings.budget);
            }
        }
    }

    /// Stops the current run, if any (true then); the series is finished.
    fn stop_run(&mut self) -> bool {
        let stopped = self.runs.stop();
        if stopped && let Some(series) = &mut self.series {
            series.finished = true;
        }
        stopped
    }
}

impl LivePart for RetryLive {
    fn start(&mut self, ctx: &LiveCtx) -> bool {
        let events = match self.runs.sender(ctx, LabId::Retry) {
            Ok(events) => events,
            Err(why) => {
                self.status = Some(why.into());
                return true;
            }
        };
        let RetrySettings {
            layered,
            p,
            budget,
            actions,
            seed,
        } = params::retry_settings(ctx.lab, ctx.sliders);
        let policy = self.policy;
        let attempts = policy.attempts(&layered);
        let view = self.view;
        let (run_params, p, actions) = match view {
            RetryView::Counting => {
                let actions = actions.min(LIVE_ACTIONS_MAX);
                let run_params = RetryParams::Counting {
                    attempts: attempts.clone(),
                    p,
                    budget: policy.budget(budget),
                    actions,
                    seed,
                };
                (run_params, p, actions)
            }
            RetryView::Metastable => {
                // The lab's values resolve as the command line's do; the policy and the
                // load are this screen's own keys, not sliders.
                let resolved = match params::retry::metastable_settings(ctx.lab, ctx.sliders, Some(layered.clone())) {
                    Ok(config) => config,
                    Err(why) => {
                        self.status = Some(why.to_string());
                        return true;
                    }
                };
                let config = MetastableConfig { policy, ..resolved };
                let load = runner::load_settings(policy, &layered, budget, self.load_per_s);
                (RetryParams::Metastable { config, load }, 0.0, 0)
            }
        };
        log::line(&format!("lab 2 live: start {view:?} {policy:?} {attempts:?}"));
        self.series = Some(RetrySeries {
            view,
            policy: Some(policy),
            policy_label: short_policy(policy, &attempts, budget),
            attempts,
            p,
            actions,
            point_start: ChainSnapshot {
                received: vec![0; 3],
                ..Default::default()
            },
            ..RetrySeries::default()
        });
        self.started = Some(Instant::now());
        self.run_view = view;
        self.runs.begin(runner::spawn(run_params, events));
        self.status = None;
        true
    }

    fn retune(&mut self, ctx: &LiveCtx) -> bool {
        if self.metastable_running() {
            self.push_load(ctx);
        } else if self.runs.running() {
            self.status = Some("p, attempts, budget and actions apply on the next start (s)".into());
        }
        true
    }

    fn key(&mut self, msg: Msg, ctx: &LiveCtx) -> Option<bool> {
        let Msg::Live(msg) = msg else { return None };
        match msg {
            LiveMsg::ToggleView => {
                self.stop_run();
                // A note about the run just stopped belongs to the view it ran in.
                self.status = None;
                self.view = match self.view {
                    RetryView::Counting => RetryView::Metastable,
                    RetryView::Metastable => RetryView::Counting,
                };
                self.series = None;
            }
            LiveMsg::CyclePolicy => {
                self.policy = next_policy(self.policy);
                if self.metastable_running() {
                    self.push_load(ctx);
                } else if self.runs.running() {
                    self.status = Some("the policy applies on the next start (s)".into());
                }
            }
            LiveMsg::Trigger => {
                if self.metastable_running() {
                    if let Some(run) = self.runs.current() {
                        run.retune_with(|control| control.triggers += 1);
                    }
                    let t_s = self.started.map_or(0.0, |at| at.elapsed().as_secs_f64());
                    if let Some(series) = &mut self.series {
                        series.triggers.push((t_s, t_s + TRIGGER_LENGTH.as_secs_f64()));
                    }
                } else {
                    self.status = Some("g triggers a running metastable load: v, then s".into());
                }
            }
            LiveMsg::CutLoad => {
                self.load_per_s = 0.0;
                self.push_load(ctx);
            }
            LiveMsg::Load(steps) => {
                let load = self.load_per_s + f64::from(steps) * LOAD_STEP_PER_S;
                self.load_per_s = load.clamp(0.0, LOAD_MAX_PER_S);
                self.push_load(ctx);
            }
            LiveMsg::BrownOut | LiveMsg::CycleFault => return Some(false),
        }
        Some(true)
    }

    fn on_event(&mut self, event: LabEvent) -> bool {
        if !self.runs.is_current(&event) {
            return false;
        }
        let LabBody::Retry(event) = *event.body else {
            return false;
        };
        match event {
            RetryEvent::Counters { now_s, snapshot } => {
                self.series.as_mut().is_some_and(|s| s.observe(now_s, snapshot))
            }
            RetryEvent::Done { last, result } => {
                if let (Some((now_s, snapshot)), Some(series)) = (last, &mut self.series) {
                    series.close(now_s, snapshot);
                }
                self.stop_run();
                match result {
                    Ok(result) => {
                        if let Some(series) = &mut self.series {
                            series.finished = true;
                            series.result = result;
                        }
                    }
                    Err(error) => self.status = Some(format!("the live run failed: {error}")),
                }
                true
            }
        }
    }

    runs_methods!("stopped");
}

/// The policy's letter and name, as the live screens print it.
pub fn policy_name(policy: RetryPolicy) -> &'static str {
    match policy {
        RetryPolicy::Layered => "A layered",
        RetryPolicy::TopOnly => "B single layer",
        RetryPolicy::TopOnlyBudget => "C single + budget",
    }
}

/// A policy and its attempts in a few characters: `A 4×4×4`, `B 4×1×1`, `C 4×1×1 +10%`.
pub fn short_policy(policy: RetryPolicy, attempts: &[u32], budget: f64) -> String {
    let letter = match policy {
        RetryPolicy::Layered => "A",
        RetryPolicy::TopOnly => "B",
        RetryPolicy::TopOnlyBudget => "C",
    };
    let product: Vec<String> = attempts.iter().map(u32::to_string).collect();
    let budget = match policy {
        RetryPolicy::TopOnlyBudget => format!(" +{:.0}% budget", budget * 100.0),
        _ => String::new(),
    };
    format!("{letter} {}{budget}", product.join("×"))
}

pub fn next_policy(policy: RetryPolicy) -> RetryPolicy {
    match policy {
        RetryPolicy::Layered => RetryPolicy::TopOnly,
        RetryPolicy::TopOnly => RetryPolicy::TopOnlyBudget,
        RetryPolicy::TopOnlyBudget => RetryPolicy::Layered,
    }
}

/// The sim's result at a live counting run's own settings, for the row beside it.
pub fn sim_of(params: &ScenarioParams) -> ScenarioResult {
    run_scenario(params)
}

#[cfg(test)]
#[test]
fn short_policies_read() {
    assert_eq!(short_policy(RetryPolicy::Layered, &[4, 4, 4], 0.1), "A 4×4×4");
    assert_eq!(
        short_policy(RetryPolicy::TopOnlyBudget, &[4, 1, 1], 0.1),
        "C 4×1×1 +10% budget"
    );
}

#[cfg(test)]
pub mod tests {
    use super::*;

    pub fn snapshot(received: [u64; 3], started: u64, done: u64, ok: u64) -> ChainSnapshot {
        ChainSnapshot {
            received: received.to_vec(),
            actions_started: started,
            actions_done: done,
            actions_ok: ok,
            // With nothing in flight, every attempt is a finished action's.
            db_attempts_of_finished: if started == done { received[2] } else { 0 },
            ..ChainSnapshot::default()
        }
    }

    #[test]
    fn the_live_ratio_counts_finished_actions_only() {
        // p = 1, 4 x 4 x 4: 1,129 actions done at 64 each, 871 in flight with 500 attempts so far.
        let series = RetrySeries {
            latest: ChainSnapshot {
                db_attempts_of_finished: 1129 * 64,
                ..snapshot([4 * 2000, 16 * 1500, 1129 * 64 + 500], 2000, 1129, 0)
            },
            ..RetrySeries::default()
        };
        assert_eq!(series.db_per_action(), 64.0, "never above 4 x 4 x 4");
        assert_eq!(series.db_attempts_unfinished(), 500);
    }

    #[test]
    fn rates_come_from_counter_deltas() {
        let before = snapshot([10, 40, 160], 10, 10, 0);
        let after = snapshot([30, 120, 480], 30, 28, 7);
        let point = rate_point(&before, &after, 3.0, 0.5);
        assert_eq!(point.received_per_s, vec![40.0, 160.0, 640.0]);
        assert_eq!(point.db_per_s, 640.0);
        assert_eq!(point.ok_per_s, 14.0);
        assert_eq!(point.success_ratio, 7.0 / 18.0);
        // 320 database requests, 20 of them first tries.
        assert_eq!(point.retry_ratio, 300.0 / 320.0);
        let idle = rate_point(&after, &after, 4.0, 1.0);
        assert_eq!((idle.success_ratio, idle.retry_ratio, idle.db_per_s), (0.0, 0.0, 0.0));
    }

    #[test]
    fn observe_closes_a_point_each_second() {
        let mut series = RetrySeries {
            point_start: snapshot([0, 0, 0], 0, 0, 0),
            ..RetrySeries::default()
        };
        assert!(series.observe(0.1, snapshot([4, 16, 64], 1, 1, 0)));
        assert!(!series.observe(0.2, snapshot([4, 16, 64], 1, 1, 0)), "nothing new");
        assert!(series.points.is_empty());
        assert!(series.observe(0.5, snapshot([8, 32, 128], 2, 2, 0)));
        assert_eq!(series.points.len(), 1);
        assert_eq!(series.hop_rates(), vec![16.0, 64.0, 256.0], "per second over 0.5 s");
        assert_eq!(series.db_per_action(), 64.0);
        // The run ends 0.25 s into the next point: that partial point is kept.
        series.close(0.75, snapshot([12, 48, 192], 3, 3, 0));
        assert_eq!(series.points.len(), 2);
        assert_eq!(series.hop_rates(), vec![16.0, 64.0, 256.0]);
        series.close(0.76, snapshot([12, 48, 192], 3, 3, 0));
        assert_eq!(series.points.len(), 2, "nothing new, no point");
    }
}
