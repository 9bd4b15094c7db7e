//! A facilitator's screen (`oncall --gm`): the learner's drill watched from a second
//! terminal, with its hidden incident, and the three things a facilitator may do.
//!
//! ```text
//! Watch --f--> Faults (↑↓ fault, Tab dependency) --Enter--> Watch (second fault sent)
//!   |   --h--> Hints (↑↓ whose)                   --Enter--> Watch (hint sent)
//!   |   --E--> ConfirmEnd                         --Enter--> Watch (end sent)
//!   +--q/Esc--> quit                  Esc in any picker: back to Watch, nothing sent
//! ```
//!
//! The screen holds only what the drill last sent ([`FacilitatorView`]); what it asks for
//! goes back as a [`FacilitatorCommand`] the caller sends, so this state machine does no I/O.

use crate::engine::oncall::incident::IncidentSpec;
use crate::engine::oncall::register::OncallDep;
use crate::engine::oncall::{FacilitatorCommand, FacilitatorView};
use crate::tui::keys::Context;
use crate::tui::msg::{FacilitatorMsg, Msg};

/// A second fault being picked: which of the offered faults, on which dependency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultPick {
    pub selected: usize,
    /// None: the fault's own file's dependency (the first it names); else the register's.
    pub dependency: Option<OncallDep>,
}

/// Where the screen is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FacilitatorStage {
    Watch,
    Faults(FaultPick),
    /// The owners' hints on offer, the highlighted row.
    Hints(usize),
    ConfirmEnd,
}

/// What the caller must do after a message.
#[derive(Clone, Debug, PartialEq)]
pub enum FacilitatorOutcome {
    Unchanged,
    Changed,
    /// Send this to the drill.
    Send(FacilitatorCommand),
    Quit,
}

/// A facilitator's screen's state.
#[derive(Clone, Debug)]
pub struct FacilitatorScreen {
    /// The drill's last view; None until the first arrives.
    pub view: Option<FacilitatorView>,
    pub stage: FacilitatorStage,
    /// The shipped incidents, whose faults a facilitator may add.
    pub incidents: Vec<IncidentSpec>,
    /// The last thing to say: a command sent or refused, the drill gone.
    pub status: Option<String>,
    /// Where the drill is, for the title (`127.0.0.1:PORT`).
    pub reached_at: String,
}

impl FacilitatorScreen {
    pub fn new(incidents: Vec<IncidentSpec>, reached_at: String) -> Self {
        Self {
            view: None,
            stage: FacilitatorStage::Watch,
            incidents,
            status: None,
            reached_at,
        }
    }

    pub fn context(&self) -> Context {
        match self.stage {
            FacilitatorStage::Watch => Context::Facilitator,
            FacilitatorStage::ConfirmEnd => Context::FacilitatorConfirm,
            _ => Context::FacilitatorPicker,
        }
    }

    /// The faults on offer: every shipped incident's but the drill's own.
    pub fn fault_offer(&self) -> Vec<&IncidentSpec> {
        let own = self.view.as_ref().map(|v| v.incident.as_str());
        self.incidents.iter().filter(|i| Some(i.name.as_str()) != own).collect()
    }

    /// The dependency a pick puts its fault on.
    pub fn pick_dependency(&self, pick: &FaultPick) -> Option<OncallDep> {
        pick.dependency
            .or_else(|| self.fault_offer().get(pick.selected).map(|i| i.dependencies[0]))
    }

    /// The owners' hints on offer, as (index the drill knows it by, whose, text).
    pub fn hint_offer(&self) -> Vec<(usize, String, String)> {
        let Some(view) = &self.view else {
            return Vec::new();
        };
        let whose = std::iter::once(format!("{} ({})", view.dependency, view.incident)).chain(
            view.extra_faults
                .iter()
                .map(|f| format!("{} ({})", f.dependency, f.incident)),
        );
        whose
            .zip(&view.owner_hints)
            .enumerate()
            .filter(|(_, (_, text))| !text.is_empty())
            .map(|(i, (who, text))| (i, who, text.clone()))
            .collect()
    }

    /// A new view from the drill.
    pub fn show(&mut self, view: FacilitatorView) {
        if view.ended && self.stage != FacilitatorStage::Watch {
            self.stage = FacilitatorStage::Watch;
        }
        self.view = Some(view);
    }

    pub fn update(&mut self, msg: Msg) -> FacilitatorOutcome {
        if msg == Msg::Quit {
            return FacilitatorOutcome::Quit;
        }
        match self.stage.clone() {
            FacilitatorStage::Watch => self.update_watch(msg),
            FacilitatorStage::Faults(pick) => self.update_faults(pick, msg),
            FacilitatorStage::Hints(selected) => {
                let count = self.hint_offer().len();
                match msg {
                    Msg::Up => self.stage = FacilitatorStage::Hints(selected.saturating_sub(1)),
                    Msg::Down => self.stage = FacilitatorStage::Hints((selected + 1).min(count.saturating_sub(1))),
                    Msg::Back => self.stage = FacilitatorStage::Watch,
                    Msg::Open => {
                        self.stage = FacilitatorStage::Watch;
                        if let Some((hint, _, _)) = self.hint_offer().get(selected) {
                            return FacilitatorOutcome::Send(FacilitatorCommand::CallOwner { hint: *hint });
                        }
                    }
                    _ => return FacilitatorOutcome::Unchanged,
                }
                FacilitatorOutcome::Changed
            }
            FacilitatorStage::ConfirmEnd => match msg {
                Msg::Open => {
                    self.stage = FacilitatorStage::Watch;
                    FacilitatorOutcome::Send(FacilitatorCommand::End)
                }
                Msg::Back => {
                    self.stage = FacilitatorStage::Watch;
                    FacilitatorOutcome::Changed
                }
                _ => FacilitatorOutcome::Unchanged,
            },
        }
    }

    fn update_watch(&mut self, msg: Msg) -> FacilitatorOutcome {
        let running = self.view.as_ref().is_some_and(|v| !v.ended);
        match msg {
            Msg::Facilitator(_) if !running => {
                self.status = Some("the drill has ended: nothing more to send".to_string());
            }
            Msg::Facilitator(FacilitatorMsg::AddFault) => {
                self.stage = FacilitatorStage::Faults(FaultPick {
                    selected: 0,
                    dependency: None,
                });
            }
            Msg::Facilitator(FacilitatorMsg::CallOwner) => {
                if self.hint_offer().is_empty() {
                    self.status = Some("no owner's hint written for these incidents".to_string());
                } else {
                    self.stage = FacilitatorStage::Hints(0);
                }
            }
            Msg::Facilitator(FacilitatorMsg::End) => self.stage = FacilitatorStage::ConfirmEnd,
            _ => return FacilitatorOutcome::Unchanged,
        }
        FacilitatorOutcome::Changed
    }

    fn update_faults(&mut self, mut pick: FaultPick, msg: Msg) -> FacilitatorOutcome {
        let count = self.fault_offer().len();
        match msg {
            Msg::Up => pick.selected = pick.selected.saturating_sub(1),
            Msg::Down => pick.selected = (pick.selected + 1).min(count.saturating_sub(1)),
            // The file's dependency, then each of the register's in turn, then the file's again.
            Msg::NextItem => {
                pick.dependency = match pick.dependency {
                    None => Some(OncallDep::ALL[0]),
                    Some(dep) => OncallDep::ALL.get(dep.index() + 1).copied(),
                };
            }
            Msg::Back => {
                self.stage = FacilitatorStage::Watch;
                return FacilitatorOutcome::Changed;
            }
            Msg::Open => {
                self.stage = FacilitatorStage::Watch;
                let incident = self.fault_offer().get(pick.selected).map(|i| i.name.clone());
                if let (Some(incident), Some(dep)) = (incident, self.pick_dependency(&pick)) {
                    return FacilitatorOutcome::Send(FacilitatorCommand::AddFault {
                        incident,
                        dependency: dep.name().to_string(),
                    });
                }
                return FacilitatorOutcome::Changed;
            }
            _ => return FacilitatorOutcome::Unchanged,
        }
        self.stage = FacilitatorStage::Faults(pick);
        FacilitatorOutcome::Changed
    }
}
