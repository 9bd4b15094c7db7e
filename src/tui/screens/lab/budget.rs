//! Lab 5's page, the screen's part: the seven scenarios of `engine::budget` at the sliders,
//! which scenario the page draws, its named numbers, and its live part.
//!
//! Self-contained so that the page can move behind a page trait as it is: [`at_sliders`] is
//! what the registry row's compute runs (through `sim`'s two wrappers), [`BudgetResults::metrics`] the named numbers (the
//! checks' and the hiding rule's), [`scenario_at_step`] which scenario the page shows, and
//! [`BudgetLive`] runs the shown scenario on 127.0.0.1 (`live::budget::runner`).
//!
//! The page shows one scenario at a time, the one the current guided step asks about: the
//! steps walk the scenarios in the material's order, so `[` and `]` are how the learner moves
//! between them, and a verdict shows the scenario of the check it scored.

use std::sync::{Arc, Mutex, OnceLock};

use crate::content::params::budget::budget_params;
use crate::content::{LabFile, LabId};
use crate::engine::budget::{self, BudgetParams, BudgetRun, BudgetScenario, herd, retry_after};
use crate::learning::metrics::{self, Metric};
use crate::live::budget::runner::{self, LiveBudget};
use crate::live::run::{LabEvent, LiveRun, stopped};
use crate::tui::msg::Msg;
use crate::tui::screens::lab::live::{LiveCtx, LivePart, Runs, runs_methods};
use crate::tui::slider::Slider;

/// The retry-after chart's slot: arrivals at the API per 100 ms.
pub const ARRIVAL_SLOT_MS: f64 = 100.0;

/// The herd chart's slot, the one its check counts in (`peak_per_10ms`).
pub const HERD_SLOT_MS: f64 = 10.0;

/// What the page shows: every scenario at the sliders, and what its charts draw.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetResults {
    pub params: BudgetParams,
    /// Each scenario's run, in [`BudgetScenario::ALL`]'s order.
    pub runs: Vec<BudgetRun>,
    /// Arrivals at the API per [`ARRIVAL_SLOT_MS`] from 0 to the run's duration: clients
    /// that ignore `Retry-After`, then clients that honour it.
    pub arrivals: [Vec<u64>; 2],
    /// The herd's returns per [`HERD_SLOT_MS`] with the sleep the slider picks, from the
    /// outage's end.
    pub herd_slots: Vec<u64>,
}

impl BudgetResults {
    /// The run of `scenario`.
    pub fn run(&self, scenario: BudgetScenario) -> &BudgetRun {
        let index = BudgetScenario::ALL.iter().position(|s| *s == scenario).unwrap_or(0);
        &self.runs[index]
    }

    /// The named numbers of every scenario (`budget.NAME`).
    pub fn metrics(&self) -> Vec<Metric> {
        metrics::budget_metrics(&self.runs)
    }
}

/// Counts of `times_ms` per `slot_ms` from `from_ms`, `slots` of them (later times are left out).
fn per_slot(times_ms: impl IntoIterator<Item = f64>, from_ms: f64, slot_ms: f64, slots: usize) -> Vec<u64> {
    let mut counts = vec![0; slots];
    for at_ms in times_ms {
        let slot = ((at_ms - from_ms) / slot_ms).floor();
        if slot >= 0.0 && (slot as usize) < slots {
            counts[slot as usize] += 1;
        }
    }
    counts
}

/// Every scenario at `params`, and the charts' series (kept from `previous` where the
/// settings they depend on did not move).
pub fn results(params: &BudgetParams, previous: Option<&BudgetResults>) -> BudgetResults {
    let runs = budget::run_all(params);
    let ra = &params.retry_after;
    let arrivals = match previous {
        Some(previous) if previous.params.retry_after == *ra => previous.arrivals.clone(),
        _ => {
            let slots = (ra.duration_ms as f64 / ARRIVAL_SLOT_MS).ceil() as usize;
            [false, true].map(|honour| {
                let (_, times) =
                    retry_after::run_with_arrivals(&retry_after::RetryAfterParams { honour, ..ra.clone() });
                per_slot(times, 0.0, ARRIVAL_SLOT_MS, slots)
            })
        }
    };
    let herd_slots = match previous {
        Some(previous) if previous.params.herd == params.herd && previous.params.herd_sleep == params.herd_sleep => {
            previous.herd_slots.clone()
        }
        _ => {
            let herd_run = herd::run(&params.herd, params.herd_sleep.0);
            let outage_ms = params.herd.outage_ms as f64;
            let last_ms = herd_run.landed_ms.iter().copied().fold(outage_ms, f64::max);
            // At least a second after the outage, so that a fixed sleep's one spike shows as one.
            let count = (((last_ms - outage_ms) / HERD_SLOT_MS).floor() as usize + 1).max(100);
            per_slot(herd_run.landed_ms, outage_ms, HERD_SLOT_MS, count)
        }
    };
    BudgetResults {
        params: params.clone(),
        runs,
        arrivals,
        herd_slots,
    }
}

/// Lab 5 at the sliders, keeping what `previous` computed that they cannot have moved (the
/// registry row's `compute` and `recompute` are `sim`'s wrappers of this).
pub fn at_sliders(sliders: &[Slider], previous: Option<&BudgetResults>) -> BudgetResults {
    results(&budget_params(sliders), previous)
}

/// Which scenario names each number, from a run of each at the defaults (the names do not
/// depend on the settings).
fn scenario_names() -> &'static [(String, BudgetScenario)] {
    static NAMES: OnceLock<Vec<(String, BudgetScenario)>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let params = BudgetParams::default();
        BudgetScenario::ALL
            .iter()
            .flat_map(|&scenario| {
                budget::run(scenario, &params)
                    .metrics
                    .into_iter()
                    .map(move |(name, _)| (metrics::budget_metric(name), scenario))
            })
            .collect()
    })
}

/// The scenario whose run names `metric` (`budget.worst_case_ms`: register).
pub fn scenario_of_metric(metric: &str) -> Option<BudgetScenario> {
    scenario_names()
        .iter()
        .find(|(name, _)| name == metric)
        .map(|(_, scenario)| *scenario)
}

/// The scenario guided step `step` asks about (its check's), else the first.
pub fn scenario_at_step(lab: &LabFile, step: usize) -> BudgetScenario {
    let check = lab.steps.get(step).and_then(|step| step.check.as_deref());
    lab.checks
        .iter()
        .find(|candidate| Some(candidate.id.as_str()) == check)
        .and_then(|check| check.metric.as_deref().and_then(scenario_of_metric))
        .unwrap_or_default()
}

/// How scenario `scenario` runs live, in a few words for the screen.
pub fn live_note(scenario: BudgetScenario) -> &'static str {
    match scenario {
        BudgetScenario::Deadline => "time scaled 1:20: model ms on screen, real ms are 20 times fewer",
        BudgetScenario::Register => "real time: every attempt waits its whole timeout",
        BudgetScenario::RetryAfter => "real time (Retry-After counts whole seconds): four API servers side by side",
        BudgetScenario::Duplicates => "the seeded plan decides which orders meet commit-then-drop",
        BudgetScenario::Status => "backoff sleeps time scaled 1:10: the server counts the attempts",
        BudgetScenario::HalfOpen => "time shifted to the cooldown's end, then real time",
        BudgetScenario::Herd => "real time: the herd sleep slider's sleep, 1,000 clients on one dependency",
    }
}

/// What the live run left for the screen: filled by the run's task, read on the frame tick.
type LiveResultSlot = Arc<Mutex<Option<Result<Option<LiveBudget>, String>>>>;

/// Lab 5's live part: `s` runs the scenario on screen on 127.0.0.1 to its end; the result
/// shows beside the simulation at the same settings.
#[derive(Debug, Default)]
pub struct BudgetLive {
    runs: Runs<()>,
    /// Where the running task leaves its result.
    outcome: Option<LiveResultSlot>,
    /// The scenario of the current or last run, and its settings.
    pub scenario: Option<BudgetScenario>,
    pub params: Option<BudgetParams>,
    /// The last run's measured numbers and how it was made.
    pub measured: Option<BudgetRun>,
    pub notes: Vec<String>,
    pub status: Option<String>,
}

impl std::fmt::Debug for LiveBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveBudget")
            .field("run", &self.run)
            .field("notes", &self.notes)
            .finish()
    }
}

impl BudgetLive {
    /// The named numbers of the last finished run, as a verdict on the live page reads them.
    pub fn run_metrics(&self) -> Option<Vec<Metric>> {
        self.measured
            .as_ref()
            .map(|run| metrics::budget_metrics(std::slice::from_ref(run)))
    }

    fn stop_run(&mut self) -> bool {
        self.outcome = None;
        self.runs.stop()
    }

    /// Starts `scenario` at `params`; the status says why not when it cannot.
    fn start_scenario(&mut self, ctx: &LiveCtx, scenario: BudgetScenario, params: BudgetParams) -> bool {
        if !runner::has_live(scenario) {
            self.status = Some(format!("scenario {} is {}", scenario.name(), live_note(scenario)));
            return true;
        }
        let sender = match self.runs.sender(ctx, LabId::Budget) {
            Ok(sender) => sender,
            Err(why) => {
                self.status = Some(why.to_string());
                return true;
            }
        };
        let outcome: LiveResultSlot = Arc::new(Mutex::new(None));
        let left = outcome.clone();
        let run_params = params.clone();
        self.runs
            .begin(LiveRun::spawn(sender.run(), (), move |mut inbox| async move {
                tokio::select! {
                    () = stopped(&mut inbox.stop) => {}
                    measured = runner::run(scenario, &run_params) => {
                        let result = measured.map_err(|err| format!("a server could not start: {err}"));
                        if let Ok(mut slot) = left.lock() {
                            *slot = Some(result);
                        }
                    }
                }
            }));
        self.outcome = Some(outcome);
        self.scenario = Some(scenario);
        self.params = Some(params);
        self.measured = None;
        self.notes.clear();
        self.status = Some(format!(
            "running {} on 127.0.0.1 · {} · s stop",
            scenario.name(),
            live_note(scenario)
        ));
        true
    }
}

impl LivePart for BudgetLive {
    fn start(&mut self, ctx: &LiveCtx) -> bool {
        // The page's scenario is its current step's; the live part asks the screen's sliders.
        let step = ctx.step;
        let scenario = scenario_at_step(ctx.lab, step);
        self.start_scenario(ctx, scenario, budget_params(ctx.sliders))
    }

    fn retune(&mut self, _ctx: &LiveCtx) -> bool {
        // A run goes to its end at the settings it started with (its result is compared
        // with the simulation at those): a slider applies at the next start.
        false
    }

    fn key(&mut self, _msg: Msg, _ctx: &LiveCtx) -> Option<bool> {
        None
    }

    fn on_event(&mut self, _event: LabEvent) -> bool {
        false
    }

    fn tick(&mut self) -> bool {
        let Some(result) = self.outcome.as_ref().and_then(|slot| slot.lock().ok()?.take()) else {
            return false;
        };
        self.outcome = None;
        self.runs.stop();
        match result {
            Ok(Some(live)) => {
                self.measured = Some(live.run);
                self.notes = live.notes;
                self.status = Some("done · s runs again".to_string());
            }
            Ok(None) => self.status = Some("this scenario has no live run".to_string()),
            Err(why) => self.status = Some(why),
        }
        true
    }

    runs_methods!("stopped · s starts again");
}
