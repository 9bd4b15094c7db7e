//! The live modes of Lab 2 and Lab 3 as the app sees them: the keys' effects, the frame
//! tick's poll, and the shutdown the event loop awaits before restoring the terminal.
//!
//! `app.rs` only routes here ([`App::update_live`], [`App::live_sliders_changed`],
//! [`App::live_left`]); the runs themselves are in [`crate::tui::live_breaker`] and
//! [`crate::tui::live_retry`]. A run that is asked to stop keeps shutting its servers down
//! in the background; its task is kept in `stopping` so quitting can wait for it.

use std::time::Duration;

use tokio::task::JoinHandle;

use crate::engine::fault::{FaultKind, FaultSchedule, ManualOverride};
use crate::engine::retry::{Policy, ScenarioParams, run_scenario};
use crate::live::metastable::MetastableConfig;
use crate::tui::app::{App, Mode, Msg};
use crate::tui::live_breaker::{self, BreakerRun, BreakerSeries, Control};
use crate::tui::live_retry::{self, LOAD_MAX_PER_S, LOAD_STEP_PER_S, RetryRun, RetrySeries, RetryView};
use crate::tui::log;
use crate::tui::runs;
use crate::tui::slider::value_of;

/// How long quitting waits for live labs to shut down before aborting their tasks: a
/// brownout run ends its calls still out by their timeout (at most 2 s on the slider).
pub const SHUTDOWN_DEADLINE: Duration = Duration::from_secs(10);

/// The keys only the live screens use (the generic ones are [`Msg::ToggleMode`] and
/// [`Msg::StartStop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveMsg {
    /// Lab 3: brown the dependency out now, or heal it.
    BrownOut,
    /// Lab 3: the next fault kind.
    CycleFault,
    /// Lab 2: counting run or metastable view.
    ToggleView,
    /// Lab 2 metastable: fail the database for 10 s.
    Trigger,
    /// Lab 2: the next policy (A layered, B single, C budget).
    CyclePolicy,
    /// Lab 2 metastable: load to 0.
    CutLoad,
    /// Lab 2 metastable: the load this many steps up (negative: down).
    Load(i32),
}

/// Live state of the labs that have a live mode here.
pub struct LiveLabs {
    pub breaker: Option<BreakerRun>,
    /// What the last (or current) Lab 3 run showed.
    pub breaker_series: Option<BreakerSeries>,
    pub control: Control,
    pub retry: Option<RetryRun>,
    pub retry_series: Option<RetrySeries>,
    pub retry_view: RetryView,
    pub policy: Policy,
    /// The metastable steady load, actions per second.
    pub load_per_s: f64,
    /// One line for the live screens: a note, or why a run failed.
    pub status: Option<String>,
    /// Runs asked to stop, still shutting down.
    pub stopping: Vec<JoinHandle<()>>,
}

impl Default for LiveLabs {
    fn default() -> Self {
        Self {
            breaker: None,
            breaker_series: None,
            control: Control {
                manual: None,
                fault: FaultKind::Hang,
            },
            retry: None,
            retry_series: None,
            retry_view: RetryView::Counting,
            policy: Policy::Layered,
            load_per_s: MetastableConfig::default().load_per_s,
            status: None,
            stopping: Vec::new(),
        }
    }
}

/// Whether lab `lab_id` has a live mode on this screen.
pub fn has_live_mode(lab_id: &str) -> bool {
    matches!(lab_id, "retry" | "breaker")
}

/// The policy's letter and name, as the live screens print it.
pub fn policy_name(policy: Policy) -> &'static str {
    match policy {
        Policy::Layered => "A layered",
        Policy::TopOnly => "B single layer",
        Policy::TopOnlyBudget => "C single + budget",
    }
}

/// A policy and its attempts in a few characters: `A 4×4×4`, `B 4×1×1`, `C 4×1×1 +10%`.
pub fn short_policy(policy: Policy, attempts: &[u32], budget: f64) -> String {
    let letter = match policy {
        Policy::Layered => "A",
        Policy::TopOnly => "B",
        Policy::TopOnlyBudget => "C",
    };
    let product: Vec<String> = attempts.iter().map(u32::to_string).collect();
    let budget = match policy {
        Policy::TopOnlyBudget => format!(" +{:.0}% budget", budget * 100.0),
        _ => String::new(),
    };
    format!("{letter} {}{budget}", product.join("×"))
}

fn next_policy(policy: Policy) -> Policy {
    match policy {
        Policy::Layered => Policy::TopOnly,
        Policy::TopOnly => Policy::TopOnlyBudget,
        Policy::TopOnlyBudget => Policy::Layered,
    }
}

#[cfg(test)]
#[test]
fn faults_cycle_through_what_the_lab_offers() {
    use FaultKind::{Errors, Hang, Refuse, Slow};
    assert_eq!(next_fault(Hang, &FaultKind::ALL), Slow);
    assert_eq!(next_fault(Refuse, &FaultKind::ALL), Hang);
    assert_eq!(next_fault(Errors, &[Hang, Errors]), Hang);
    assert_eq!(
        next_fault(Slow, &[Hang, Errors]),
        Hang,
        "a fault the lab does not offer moves to its first"
    );
}

#[cfg(test)]
#[test]
fn short_policies_read() {
    assert_eq!(short_policy(Policy::Layered, &[4, 4, 4], 0.1), "A 4×4×4");
    assert_eq!(
        short_policy(Policy::TopOnlyBudget, &[4, 1, 1], 0.1),
        "C 4×1×1 +10% budget"
    );
}

/// The fault after `kind` among those the lab file offers (never empty: see `fault_kinds`).
fn next_fault(kind: FaultKind, offered: &[FaultKind]) -> FaultKind {
    match offered.iter().position(|k| *k == kind) {
        Some(at) => offered[(at + 1) % offered.len()],
        None => offered[0],
    }
}

/// Live runs spawn tasks: without a runtime (unit tests of the views) they cannot start.
fn runtime_here() -> bool {
    tokio::runtime::Handle::try_current().is_ok()
}

impl App {
    /// The live keys and the mode switch on lab `index`; returns whether the screen changed.
    pub fn update_live(&mut self, index: usize, msg: Msg) -> bool {
        let lab_id = self.content.labs[index].id.clone();
        if !has_live_mode(&lab_id) {
            return false;
        }
        let live_now = self.labs[index].mode == Mode::Live;
        match msg {
            Msg::ToggleMode => {
                if live_now {
                    self.live_left(index);
                    self.labs[index].mode = Mode::Sim;
                } else {
                    self.labs[index].mode = Mode::Live;
                }
                true
            }
            _ if !live_now => false,
            Msg::StartStop => match lab_id.as_str() {
                "breaker" => self.start_stop_breaker(index),
                _ => self.start_stop_retry(index),
            },
            Msg::Live(live_msg) => match lab_id.as_str() {
                "breaker" => self.breaker_key(live_msg),
                _ => self.retry_key(index, live_msg),
            },
            _ => false,
        }
    }

    fn start_stop_breaker(&mut self, index: usize) -> bool {
        if let Some(run) = self.live.breaker.take() {
            self.live.stopping.push(run.stop());
            if let Some(series) = &mut self.live.breaker_series {
                series.running = false;
            }
            self.live.status = Some("stopped early: no measured rows for a partial run".into());
            return true;
        }
        if !runtime_here() {
            self.live.status = Some("live runs need the app's async runtime".into());
            return true;
        }
        let params = runs::breaker_params(&self.content.labs[index], &self.labs[index].sliders);
        // A class's lab file may offer fewer faults: start on one it offers.
        let offered = self.content.labs[index].fault_kinds();
        if !offered.contains(&self.live.control.fault) {
            self.live.control.fault = offered[0];
        }
        let faults = FaultSchedule::window(self.live.control.fault, params.brownout_start_s, params.brownout_end_s);
        self.live.control.manual = None;
        log::line(&format!("lab 3 live: start {params:?}"));
        self.live.breaker_series = Some(BreakerSeries::new(params.clone(), self.live.control.fault));
        self.live.breaker = Some(live_breaker::spawn(params, faults));
        self.live.status = None;
        true
    }

    fn breaker_key(&mut self, msg: LiveMsg) -> bool {
        match msg {
            LiveMsg::BrownOut => {
                let Some(run) = &self.live.breaker else {
                    self.live.status = Some("b acts on a running lab: start one with s".into());
                    return true;
                };
                let sick_now = match self.live.control.manual {
                    Some(ManualOverride::Sick) => true,
                    Some(ManualOverride::Healthy) => false,
                    None => self
                        .live
                        .breaker_series
                        .as_ref()
                        .and_then(|s| s.samples.last())
                        .is_some_and(|s| s.sick),
                };
                self.live.control.manual = Some(if sick_now {
                    ManualOverride::Healthy
                } else {
                    ManualOverride::Sick
                });
                run.set_control(self.live.control);
                true
            }
            LiveMsg::CycleFault => {
                let offered = self.content.lab("breaker").fault_kinds();
                self.live.control.fault = next_fault(self.live.control.fault, &offered);
                if let Some(run) = &self.live.breaker {
                    run.set_control(self.live.control);
                }
                if let Some(series) = &mut self.live.breaker_series
                    && self.live.breaker.is_some()
                {
                    series.fault = self.live.control.fault;
                }
                true
            }
            _ => false,
        }
    }

    /// The sliders' attempts (layered), p, budget, actions and seed on lab `index`.
    fn retry_settings(&self, index: usize) -> (Vec<u32>, f64, f64, u64, u64) {
        let sliders = &self.labs[index].sliders;
        let whole = |name: &str, fallback: f64| value_of(sliders, name).unwrap_or(fallback).round();
        let layered = ["attempts_client", "attempts_frontend", "attempts_backend"]
            .iter()
            .map(|name| whole(name, 4.0) as u32)
            .collect();
        (
            layered,
            value_of(sliders, "p").unwrap_or(1.0),
            value_of(sliders, "budget").unwrap_or(0.1),
            whole("actions", 2_000.0) as u64,
            whole("seed", 42.0) as u64,
        )
    }

    fn start_stop_retry(&mut self, index: usize) -> bool {
        if let Some(run) = self.live.retry.take() {
            self.live.stopping.push(run.stop());
            if let Some(series) = &mut self.live.retry_series {
                series.finished = true;
            }
            self.live.status = Some("stopped".into());
            return true;
        }
        if !runtime_here() {
            self.live.status = Some("live runs need the app's async runtime".into());
            return true;
        }
        let (layered, p, budget, actions, seed) = self.retry_settings(index);
        let policy = self.live.policy;
        let attempts = policy.attempts(&layered);
        let view = self.live.retry_view;
        let (run, p, actions) = match view {
            RetryView::Counting => {
                let actions = actions.min(live_retry::LIVE_ACTIONS_MAX);
                let run = live_retry::spawn_counting(attempts.clone(), p, policy.budget(budget), actions, seed);
                (run, p, actions)
            }
            RetryView::Metastable => {
                let config = MetastableConfig {
                    policy,
                    layered: layered.clone(),
                    budget,
                    seed,
                    ..MetastableConfig::default()
                };
                let settings = live_retry::load_settings(policy, &layered, budget, self.live.load_per_s);
                (live_retry::spawn_metastable(config, settings), 0.0, 0)
            }
        };
        log::line(&format!("lab 2 live: start {view:?} {policy:?} {attempts:?}"));
        self.live.retry_series = Some(RetrySeries {
            view,
            policy: Some(policy),
            policy_label: short_policy(policy, &attempts, budget),
            attempts,
            p,
            actions,
            point_start: crate::live::retry_chain::ChainSnapshot {
                received: vec![0; 3],
                ..Default::default()
            },
            ..RetrySeries::default()
        });
        self.live.retry = Some(run);
        self.live.status = None;
        true
    }

    fn retry_key(&mut self, index: usize, msg: LiveMsg) -> bool {
        match msg {
            LiveMsg::ToggleView => {
                self.stop_retry();
                self.live.retry_view = match self.live.retry_view {
                    RetryView::Counting => RetryView::Metastable,
                    RetryView::Metastable => RetryView::Counting,
                };
                self.live.retry_series = None;
                true
            }
            LiveMsg::CyclePolicy => {
                self.live.policy = next_policy(self.live.policy);
                let metastable = self
                    .live
                    .retry
                    .as_ref()
                    .is_some_and(|r| r.view == RetryView::Metastable);
                if metastable {
                    self.push_load(index);
                } else if self.live.retry.is_some() {
                    self.live.status = Some("the policy applies on the next start (s)".into());
                }
                true
            }
            LiveMsg::Trigger => {
                let started = self.live.retry.as_ref().is_some_and(RetryRun::trigger);
                if started {
                    let t_s = self.live.retry.as_ref().map_or(0.0, RetryRun::elapsed_s);
                    if let Some(series) = &mut self.live.retry_series {
                        series
                            .triggers
                            .push((t_s, t_s + live_retry::TRIGGER_LENGTH.as_secs_f64()));
                    }
                } else {
                    self.live.status = Some("g triggers a running metastable load: v, then s".into());
                }
                true
            }
            LiveMsg::CutLoad => {
                self.live.load_per_s = 0.0;
                self.push_load(index);
                true
            }
            LiveMsg::Load(steps) => {
                let load = self.live.load_per_s + f64::from(steps) * LOAD_STEP_PER_S;
                self.live.load_per_s = load.clamp(0.0, LOAD_MAX_PER_S);
                self.push_load(index);
                true
            }
            LiveMsg::BrownOut | LiveMsg::CycleFault => false,
        }
    }

    /// Sends the load, policy, attempts and budget to a running steady load.
    fn push_load(&mut self, index: usize) {
        let (layered, _, budget, _, _) = self.retry_settings(index);
        let policy = self.live.policy;
        if let Some(run) = &self.live.retry {
            run.set_load(live_retry::load_settings(
                policy,
                &layered,
                budget,
                self.live.load_per_s,
            ));
            if let Some(series) = &mut self.live.retry_series {
                series.attempts = policy.attempts(&layered);
                series.policy_label = short_policy(policy, &series.attempts, budget);
            }
        }
    }

    fn stop_retry(&mut self) {
        if let Some(run) = self.live.retry.take() {
            self.live.stopping.push(run.stop());
            if let Some(series) = &mut self.live.retry_series {
                series.finished = true;
            }
        }
    }

    /// A slider moved on lab `index`: the live parts that apply at once get it.
    pub fn live_sliders_changed(&mut self, index: usize) {
        if self.labs[index].mode != Mode::Live {
            return;
        }
        match self.content.labs[index].id.as_str() {
            "breaker" => {
                let params = runs::breaker_params(&self.content.labs[index], &self.labs[index].sliders);
                if let (Some(run), Some(series)) = (&self.live.breaker, &self.live.breaker_series) {
                    run.set_config(params.breaker.clone());
                    let mut started = series.params.clone();
                    started.breaker = params.breaker.clone();
                    self.live.status = (started != params)
                        .then(|| "rate, duration, timeouts and the brownout apply on the next start (s)".into());
                }
            }
            "retry" => {
                if self
                    .live
                    .retry
                    .as_ref()
                    .is_some_and(|r| r.view == RetryView::Metastable)
                {
                    self.push_load(index);
                } else if self.live.retry.is_some() {
                    self.live.status = Some("p, attempts, budget and actions apply on the next start (s)".into());
                }
            }
            _ => {}
        }
    }

    /// The learner left lab `index` (home, or back to sim): its live runs stop.
    pub fn live_left(&mut self, index: usize) {
        match self.content.labs[index].id.as_str() {
            "breaker" => {
                if let Some(run) = self.live.breaker.take() {
                    self.live.stopping.push(run.stop());
                    if let Some(series) = &mut self.live.breaker_series {
                        series.running = false;
                    }
                }
            }
            "retry" => self.stop_retry(),
            _ => {}
        }
    }

    /// The frame tick: folds what the runs sent; returns whether the screen must be redrawn.
    pub fn poll_live(&mut self) -> bool {
        let mut changed = false;
        self.live.stopping.retain(|task| !task.is_finished());
        if let Some(run) = &mut self.live.breaker {
            let polled = run.poll();
            if let Some(series) = &mut self.live.breaker_series {
                changed |= !polled.samples.is_empty();
                for sample in polled.samples {
                    series.push(sample);
                }
            }
            if let Some(report) = polled.report {
                changed = true;
                // The task is ending: keep its handle so quitting still waits for it.
                if let Some(run) = self.live.breaker.take() {
                    self.live.stopping.push(run.stop());
                }
                if let Some(series) = &mut self.live.breaker_series {
                    series.running = false;
                }
                match report {
                    Ok(run) => {
                        if let Some(series) = &mut self.live.breaker_series {
                            series.measured = Some(run.comparison);
                        }
                    }
                    Err(error) => self.live.status = Some(format!("the live run failed: {error}")),
                }
            }
        }
        if let Some(run) = &mut self.live.retry {
            if let (Some((now_s, snapshot)), Some(series)) = (run.read(), &mut self.live.retry_series) {
                changed |= series.observe(now_s, snapshot);
            }
            if let Some(report) = run.report() {
                changed = true;
                if let (Some((now_s, snapshot)), Some(series)) = (run.read(), &mut self.live.retry_series) {
                    series.close(now_s, snapshot);
                }
                if let Some(run) = self.live.retry.take() {
                    self.live.stopping.push(run.stop());
                }
                match report {
                    Ok(result) => {
                        if let Some(series) = &mut self.live.retry_series {
                            series.finished = true;
                            series.result = result;
                        }
                    }
                    Err(error) => self.live.status = Some(format!("the live run failed: {error}")),
                }
            }
        }
        changed
    }

    /// Stops every live run and waits (bounded) until their servers and tasks are gone.
    pub async fn shutdown_live(&mut self) {
        if let Some(run) = self.live.breaker.take() {
            self.live.stopping.push(run.stop());
        }
        if let Some(run) = self.live.retry.take() {
            self.live.stopping.push(run.stop());
        }
        let tasks = std::mem::take(&mut self.live.stopping);
        if tasks.is_empty() {
            return;
        }
        let aborted = live_breaker::join_all(tasks, SHUTDOWN_DEADLINE).await;
        log::line(&format!(
            "live labs shut down ({aborted} aborted after {SHUTDOWN_DEADLINE:?})"
        ));
    }
}

/// The sim's result at a live counting run's own settings, for the row beside it.
pub fn sim_of(params: &ScenarioParams) -> crate::engine::retry::ScenarioResult {
    run_scenario(params)
}
