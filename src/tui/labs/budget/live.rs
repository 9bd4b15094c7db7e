//! Lab 5's live part: `s` runs the scenario on screen on 127.0.0.1 to its end
//! (`live::budget::runner`); the result shows beside the simulation at the same settings.

use std::sync::{Arc, Mutex};

use crate::content::LabId;
use crate::content::params::budget::{budget_params, live_problem_of_sliders};
use crate::engine::budget::{BudgetParams, BudgetRun, BudgetScenario};
use crate::learning::metrics::{self, Metric};
use crate::live::budget::runner::{self, LiveBudget};
use crate::live::run::{LiveRun, stopped};
use crate::tui::frame::live::{LiveCtx, LivePart, Runs, runs_methods};
use crate::tui::labs::budget::run::scenario_at_step;

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
        // The command line's live limits, said with the sliders' names: a slider may reach
        // 100,000 herd clients, which no live run on this machine should start.
        if let Some(problem) = live_problem_of_sliders(scenario, &params, ctx.lab) {
            self.status = Some(format!("not started: {problem}"));
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

    // No `retune`: a run goes to its end at the settings it started with (its result is
    // compared with the simulation at those), so a slider applies at the next start.

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
