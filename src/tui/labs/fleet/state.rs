//! Lab 1's fleet page's state: the simulation at its sliders, the run at a check's own
//! settings, its live part, and the keys that set its sliders.

use tokio::sync::mpsc;

use crate::content::fleet_changes;
use crate::content::params::fleet::{self as params, scenario_of};
use crate::content::question::CheckSettings;
use crate::content::{LabFile, Question};
use crate::engine::fleet::{self, FleetRun, FleetScenario};
use crate::tui::event::Event;
use crate::tui::frame::live::{LiveCtx, LivePart};
use crate::tui::frame::page_sliders::PageSliders;
use crate::tui::labs::fleet::live::FleetLive;
use crate::tui::labs::page;
use crate::tui::msg::{FleetMsg, Msg};
use crate::tui::slider::{Slider, value_of};

/// The slider that picks the scenario the others start from.
const SCENARIO: &str = "fleet_scenario";

/// When the `o` key rolls the fleet, in model seconds.
const ROLL_AT_S: f64 = 30.0;

/// The fleet view's state, kept while the learner switches views or goes home.
#[derive(Debug)]
pub struct FleetPage {
    /// The simulation at the sliders.
    pub run: FleetRun,
    /// The live view shows (key `m`), with its run if one was started.
    pub live_showing: bool,
    pub live: FleetLive,
    /// The run the last fleet check was scored on (at its own settings), which the view
    /// shows while that check's verdict is open: the screen is then the run the verdict names.
    pub check_run: Option<CheckRun>,
}

/// The fleet simulation at a check's own settings.
#[derive(Debug)]
pub struct CheckRun {
    pub check_id: String,
    pub run: FleetRun,
    /// What the check's settings change from its scenario's, in short words.
    pub changed: Vec<String>,
}

impl FleetPage {
    /// The fleet view of `lab` at the sliders of its second page, if it has one with
    /// sliders (Lab 1 as shipped).
    pub fn new(lab: &LabFile, page: Option<&PageSliders>) -> Option<Self> {
        let sliders = &page.filter(|page| !page.sliders.is_empty())?.sliders;
        Some(Self {
            run: fleet::simulate(&params::clamped(lab, &sliders[..])),
            live_showing: false,
            live: FleetLive::default(),
            check_run: None,
        })
    }

    /// Keeps the fleet run `check` is scored on, if it is a check of the fleet's page with
    /// settings of its own (a check on screen is scored on the sliders' run, which the view
    /// shows anyway).
    pub fn keep_check_run(&mut self, lab: &LabFile, check: &Question) {
        self.check_run = check
            .settings
            .as_ref()
            .and_then(CheckSettings::fixed)
            .filter(|_| lab.check_page(&check.id) > 0)
            .map(|own| CheckRun {
                check_id: check.id.clone(),
                run: fleet::simulate(&params::clamped(lab, own)),
                changed: fleet_changes::slider_changes(lab, own),
            });
    }

    /// The run the view shows while the verdict on `check_id` is open (`scored_live` when a
    /// live probe decided it): the check's own when the simulation scored it there, else
    /// `None` (the sliders' run, or the live record). It takes the verdict's parts rather than
    /// the verdict, so that this module does not import the predict module that imports it.
    pub fn verdict_run(&self, check_id: &str, scored_live: bool) -> Option<&FleetRun> {
        self.verdict_check(check_id, scored_live).map(|kept| &kept.run)
    }

    /// As [`FleetPage::verdict_run`], with what the check's settings changed.
    pub fn verdict_check(&self, check_id: &str, scored_live: bool) -> Option<&CheckRun> {
        if scored_live || self.live_showing {
            return None;
        }
        self.check_run.as_ref().filter(|kept| kept.check_id == check_id)
    }

    /// The sliders moved from `before` (a key, a step, an end, a click or a drag): a new
    /// scenario on the Scenario slider is applied whole, then the run follows, and a live
    /// run hears of it.
    pub fn sliders_moved(
        &mut self,
        lab: &LabFile,
        sliders: &mut [Slider],
        before: &[f64],
        events: Option<&mpsc::Sender<Event>>,
    ) {
        // The scenario it now names is applied whole, by the scenario key's own path, so the
        // run is that scenario.
        let scenario_slider = sliders.iter().position(|s| s.spec.name == SCENARIO);
        if let Some(index) = scenario_slider.filter(|&i| before.get(i) != Some(&sliders[i].value())) {
            apply_scenario(sliders, scenario_of(sliders[index].value()));
        }
        self.run = fleet::simulate(&params::clamped(lab, &sliders[..]));
        if self.live_showing {
            let ctx = LiveCtx {
                lab,
                sliders,
                // The fleet's live part reads no step.
                step: 0,
                events,
            };
            self.live.retune(&ctx);
        }
    }

    /// `m`, `s` and the live view's own keys; None for the rest.
    pub fn update_live(
        &mut self,
        msg: Msg,
        lab: &LabFile,
        sliders: &[Slider],
        events: Option<&mpsc::Sender<Event>>,
    ) -> Option<bool> {
        let ctx = LiveCtx {
            lab,
            sliders,
            step: 0,
            events,
        };
        match msg {
            Msg::ToggleMode => Some(page::toggle_mode(&mut self.live_showing, &mut self.live)),
            Msg::StartStop if self.live_showing => Some(if self.live.running() {
                self.live.stop()
            } else {
                self.live.start(&ctx)
            }),
            _ if self.live_showing => self.live.key(msg, &ctx),
            _ => None,
        }
    }

    /// The fleet's keys set its sliders; [`FleetPage::sliders_moved`] runs the fleet again.
    pub fn set_by_key(&self, key: FleetMsg, sliders: &mut [Slider]) {
        let flip = |value: f64| if value >= 0.5 { 0.0 } else { 1.0 };
        let value = |sliders: &[Slider], name: &str| value_of(sliders, name).unwrap_or(0.0);
        match key {
            FleetMsg::DbDown => set(sliders, "fleet_db_state", 2.0),
            FleetMsg::DbSlow => set(sliders, "fleet_db_state", 1.0),
            FleetMsg::DbUp => set(sliders, "fleet_db_state", 0.0),
            FleetMsg::Liveness => {
                let flipped = flip(value(sliders, "fleet_liveness_db"));
                set(sliders, "fleet_liveness_db", flipped);
            }
            FleetMsg::Readiness => {
                let flipped = flip(value(sliders, "fleet_readiness_db"));
                set(sliders, "fleet_readiness_db", flipped);
            }
            FleetMsg::Roll => {
                let roll_at_s = if value(sliders, "fleet_roll_at_s") > 0.0 {
                    0.0
                } else {
                    ROLL_AT_S
                };
                set(sliders, "fleet_roll_at_s", roll_at_s);
            }
            FleetMsg::Scenario => {
                let now = scenario(sliders);
                let index = FleetScenario::ALL.iter().position(|s| *s == now).unwrap_or(0);
                apply_scenario(sliders, FleetScenario::ALL[(index + 1) % FleetScenario::ALL.len()]);
            }
        }
    }
}

/// The scenario `sliders` start from.
pub fn scenario(sliders: &[Slider]) -> FleetScenario {
    scenario_of(value_of(sliders, SCENARIO).unwrap_or(0.0))
}

/// What the fleet sliders change from the scenario the Scenario slider names, in short
/// words ("roll at 30 s"): empty while the run is that scenario as it stands.
pub fn changed_labels(lab: &LabFile, sliders: &[Slider]) -> Vec<String> {
    fleet_changes::slider_changes(lab, sliders)
}

fn set(sliders: &mut [Slider], name: &str, value: f64) {
    if let Some(slider) = sliders.iter_mut().find(|s| s.spec.name == name) {
        slider.set_value(value);
    }
}

/// Every fleet slider to `scenario`'s values: the one way the view changes scenario
/// (key `c` and the Scenario slider alike).
fn apply_scenario(sliders: &mut [Slider], scenario: FleetScenario) {
    for (name, value) in params::scenario_values(scenario) {
        set(sliders, name, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};
    use crate::tui::frame::page_sliders::SliderWindow;

    #[test]
    fn keys_set_the_sliders_and_the_run_follows() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        let mut page = PageSliders::new(lab.page_parameters(1), SliderWindow::AroundFocus);
        let mut panel = FleetPage::new(lab, Some(&page)).expect("Lab 1 has fleet parameters");
        let mut press = |panel: &mut FleetPage, key| {
            let before = page.values();
            panel.set_by_key(key, &mut page.sliders);
            panel.sliders_moved(lab, &mut page.sliders, &before, None);
            scenario(&page.sliders)
        };
        assert_eq!(
            panel.run.total_restarts(),
            12,
            "the lab file's defaults are liveness-checks-db"
        );
        assert_eq!(press(&mut panel, FleetMsg::Liveness), FleetScenario::LivenessChecksDb);
        assert_eq!(panel.run.total_restarts(), 0, "process-local liveness restarts nothing");
        assert!(panel.run.requests.degraded > 0);
        assert_eq!(press(&mut panel, FleetMsg::Scenario), FleetScenario::ReadinessChecksDb);
        assert_eq!(panel.run.requests.refused, 530);
    }
}
