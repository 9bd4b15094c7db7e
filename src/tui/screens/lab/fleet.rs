//! Lab 1's fleet view: its own sliders (the lab file's `fleet_*` parameters), its keys, and
//! the fleet simulation they give, run again on every change (about 2 ms, `cargo bench
//! --bench fleet`). Key `F` switches between it and the single-server screen, whose sliders
//! and results it leaves as they are. Key `m` switches the view to live (its live part,
//! `fleet_live`), where `s` starts real replicas at the sliders' settings.

use ratatui::layout::Position;
use tokio::sync::mpsc;

use crate::content::fleet_changes;
use crate::content::params::fleet::{self as params, scenario_of};
use crate::content::question::CheckSettings;
use crate::content::{LabFile, Question};
use crate::engine::fleet::{self, FleetRun, Scenario};
use crate::tui::event::Event;
use crate::tui::layout::{self, SliderHit};
use crate::tui::msg::{FleetMsg, Msg};
use crate::tui::screens::lab::first_visit::is_fleet_check;
use crate::tui::screens::lab::fleet_live::FleetLive;
use crate::tui::screens::lab::live::{LiveCtx, LivePart};
use crate::tui::slider::Slider;

/// The slider that picks the scenario the others start from.
const SCENARIO: &str = "fleet_scenario";

/// When the `o` key rolls the fleet, in model seconds.
const ROLL_AT_S: f64 = 30.0;

/// The fleet view's state, kept while the learner switches views or goes home.
#[derive(Debug)]
pub struct FleetPanel {
    pub showing: bool,
    pub sliders: Vec<Slider>,
    pub focus: usize,
    /// The simulation at the sliders.
    pub run: FleetRun,
    /// A click landed on the focused bar and the button is still down.
    dragging: bool,
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

impl FleetPanel {
    /// The fleet view of `lab`, if its file declares a second page (Lab 1 as shipped).
    pub fn new(lab: &LabFile) -> Option<Self> {
        let sliders: Vec<Slider> = lab.page_parameters(1).into_iter().map(Slider::new).collect();
        if sliders.is_empty() {
            return None;
        }
        let run = fleet::simulate(&params::clamped(lab, &sliders[..]));
        Some(Self {
            showing: false,
            sliders,
            focus: 0,
            run,
            dragging: false,
            live_showing: false,
            live: FleetLive::default(),
            check_run: None,
        })
    }

    /// Keeps the fleet run `check` is scored on, if it is a fleet check with settings of its
    /// own (a check on screen is scored on the sliders' run, which the view shows anyway).
    pub fn keep_check_run(&mut self, lab: &LabFile, check: &Question) {
        self.check_run = check
            .settings
            .as_ref()
            .and_then(CheckSettings::fixed)
            .filter(|_| is_fleet_check(lab, check))
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

    /// As [`FleetPanel::verdict_run`], with what the check's settings changed.
    pub fn verdict_check(&self, check_id: &str, scored_live: bool) -> Option<&CheckRun> {
        if scored_live || self.live_showing {
            return None;
        }
        self.check_run.as_ref().filter(|kept| kept.check_id == check_id)
    }

    /// The scenario the sliders start from.
    pub fn scenario(&self) -> Scenario {
        scenario_of(self.value(SCENARIO))
    }

    fn value(&self, name: &str) -> f64 {
        self.sliders
            .iter()
            .find(|s| s.spec.name == name)
            .map_or(0.0, Slider::value)
    }

    fn set(&mut self, name: &str, value: f64) {
        if let Some(slider) = self.sliders.iter_mut().find(|s| s.spec.name == name) {
            slider.set_value(value);
        }
    }

    /// The first slider the panel shows on `rows` rows: the focused one stays in view.
    pub fn first_shown(&self, rows: usize) -> usize {
        let rows = rows.max(1);
        (self.focus + 1)
            .saturating_sub(rows)
            .min(self.sliders.len().saturating_sub(rows))
    }

    /// Applies `msg` if the fleet view takes it: Some(changed), or None for the lab screen.
    /// `events` is the app's queue, for live runs (`None` without a runtime).
    pub fn update(
        &mut self,
        msg: Msg,
        lab: &LabFile,
        (area, rows): (ratatui::layout::Rect, (layout::ResultsRows, layout::ResultsRows)),
        events: Option<&mpsc::Sender<Event>>,
    ) -> Option<bool> {
        if let Some(changed) = self.update_live(msg, lab, events) {
            return Some(changed);
        }
        let before: Vec<f64> = self.sliders.iter().map(Slider::value).collect();
        let focus_before = self.focus;
        let count = self.sliders.len();
        match msg {
            Msg::NextSlider => self.focus = (self.focus + 1) % count,
            Msg::PrevSlider => self.focus = (self.focus + count - 1) % count,
            Msg::Step(delta) => self.sliders[self.focus].step_by(i64::from(delta)),
            Msg::SliderMin => self.sliders[self.focus].to_min(),
            Msg::SliderMax => self.sliders[self.focus].to_max(),
            Msg::SliderReset => self.sliders[self.focus].reset(),
            Msg::Fleet(key) => self.key(key),
            Msg::Click(x, y) => self.click((area, rows), Position::new(x, y)),
            Msg::Drag(x, _) if self.dragging => {
                if let Some(fraction) = self.hit_fraction((area, rows), x) {
                    self.sliders[self.focus].set_fraction(fraction);
                }
            }
            Msg::Release => self.dragging = false,
            Msg::Wheel(_, _, down) => {
                self.focus = if down {
                    (self.focus + 1).min(count - 1)
                } else {
                    self.focus.saturating_sub(1)
                }
            }
            // Other labs' live keys, and `s` in the simulation, do nothing here.
            Msg::StartStop | Msg::Live(_) => return Some(false),
            _ => return None,
        }
        // The Scenario slider moved (a step, an end, a click or a drag): the scenario it now
        // names is applied whole, by the scenario key's own path, so the run is that scenario.
        let scenario_slider = self.sliders.iter().position(|s| s.spec.name == SCENARIO);
        if let Some(index) = scenario_slider.filter(|&i| self.sliders[i].value() != before[i]) {
            self.apply_scenario(scenario_of(self.sliders[index].value()));
        }
        let values_changed = self.sliders.iter().map(Slider::value).ne(before.iter().copied());
        if values_changed {
            self.run = fleet::simulate(&params::clamped(lab, &self.sliders[..]));
            if self.live_showing {
                let ctx = LiveCtx {
                    lab,
                    sliders: &self.sliders,
                    // The fleet's live part reads no step.
                    step: 0,
                    events,
                };
                self.live.retune(&ctx);
            }
        }
        Some(values_changed || focus_before != self.focus)
    }

    /// `m`, `s` and the live view's own keys; None for the rest of [`FleetPanel::update`].
    fn update_live(&mut self, msg: Msg, lab: &LabFile, events: Option<&mpsc::Sender<Event>>) -> Option<bool> {
        let ctx = LiveCtx {
            lab,
            sliders: &self.sliders,
            step: 0,
            events,
        };
        match msg {
            Msg::ToggleMode => {
                if self.live_showing {
                    self.live.leave();
                }
                self.live_showing = !self.live_showing;
                Some(true)
            }
            Msg::StartStop if self.live_showing => Some(if self.live.running() {
                self.live.stop()
            } else {
                self.live.start(&ctx)
            }),
            _ if self.live_showing => self.live.key(msg, &ctx),
            _ => None,
        }
    }

    fn key(&mut self, key: FleetMsg) {
        let flip = |value: f64| if value >= 0.5 { 0.0 } else { 1.0 };
        match key {
            FleetMsg::DbDown => self.set("fleet_db_state", 2.0),
            FleetMsg::DbSlow => self.set("fleet_db_state", 1.0),
            FleetMsg::DbUp => self.set("fleet_db_state", 0.0),
            FleetMsg::Liveness => self.set("fleet_liveness_db", flip(self.value("fleet_liveness_db"))),
            FleetMsg::Readiness => self.set("fleet_readiness_db", flip(self.value("fleet_readiness_db"))),
            FleetMsg::Roll => {
                let roll_at_s = if self.value("fleet_roll_at_s") > 0.0 {
                    0.0
                } else {
                    ROLL_AT_S
                };
                self.set("fleet_roll_at_s", roll_at_s);
            }
            FleetMsg::Scenario => {
                let index = Scenario::ALL.iter().position(|s| *s == self.scenario()).unwrap_or(0);
                self.apply_scenario(Scenario::ALL[(index + 1) % Scenario::ALL.len()]);
            }
        }
    }

    /// Every fleet slider to `scenario`'s values: the one way the view changes scenario
    /// (key `c` and the Scenario slider alike).
    fn apply_scenario(&mut self, scenario: Scenario) {
        for (name, value) in params::scenario_values(scenario) {
            self.set(name, value);
        }
    }

    /// What the fleet sliders change from the scenario the Scenario slider names, in short
    /// words ("roll at 30 s"): empty while the run is that scenario as it stands.
    pub fn changed_labels(&self, lab: &LabFile) -> Vec<String> {
        fleet_changes::slider_changes(lab, &self.sliders[..])
    }

    /// The panel's sliders as the params renderer lays them out: a window around the focus.
    fn window(
        &self,
        area: ratatui::layout::Rect,
        rows: (layout::ResultsRows, layout::ResultsRows),
    ) -> Option<(layout::LabLayout, usize)> {
        let layout = layout::lab(area, rows, false)?;
        let rows = usize::from(layout.params.height.saturating_sub(6));
        let first = self.first_shown(rows);
        Some((layout, first))
    }

    fn click(
        &mut self,
        (area, rows): (ratatui::layout::Rect, (layout::ResultsRows, layout::ResultsRows)),
        at: Position,
    ) {
        self.dragging = false;
        let Some((layout, first)) = self.window(area, rows) else {
            return;
        };
        let rows = usize::from(layout.params.height.saturating_sub(6)).max(1);
        let shown = (self.sliders.len() - first).min(rows);
        match layout::slider_hit(&layout, shown, self.focus - first, at) {
            Some(SliderHit::Row(row)) => self.focus = first + row,
            Some(SliderHit::Bar(fraction)) => {
                self.dragging = true;
                self.sliders[self.focus].set_fraction(fraction);
            }
            None => {}
        }
    }

    fn hit_fraction(
        &self,
        (area, rows): (ratatui::layout::Rect, (layout::ResultsRows, layout::ResultsRows)),
        x: u16,
    ) -> Option<f64> {
        let (layout, first) = self.window(area, rows)?;
        let rows = usize::from(layout.params.height.saturating_sub(6)).max(1);
        layout::bar_fraction(&layout, (self.sliders.len() - first).min(rows), self.focus - first, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, LabId};

    #[test]
    fn keys_set_the_sliders_and_the_run_follows() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        let area = (
            ratatui::layout::Rect::new(0, 0, 100, 30),
            (layout::ResultsRows::Fixed(5), layout::ResultsRows::Fixed(5)),
        );
        let mut panel = FleetPanel::new(lab).expect("Lab 1 has fleet parameters");
        assert_eq!(panel.scenario(), Scenario::LivenessChecksDb);
        assert_eq!(
            panel.run.total_restarts(),
            12,
            "the lab file's defaults are liveness-checks-db"
        );
        assert_eq!(
            panel.update(Msg::Fleet(FleetMsg::Liveness), lab, area, None),
            Some(true)
        );
        assert_eq!(panel.run.total_restarts(), 0, "process-local liveness restarts nothing");
        assert!(panel.run.requests.degraded > 0);
        panel.update(Msg::Fleet(FleetMsg::Scenario), lab, area, None);
        assert_eq!(panel.scenario(), Scenario::ReadinessChecksDb);
        assert_eq!(panel.run.requests.refused, 530);
        assert_eq!(
            panel.update(Msg::Back, lab, area, None),
            None,
            "Esc goes to the lab screen"
        );
    }
}
