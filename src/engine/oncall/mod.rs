//! The on-call drill: checkout-api, its dependency register, a hidden incident, the
//! Atlas's levers and alerts, and a score, on a virtual clock.
//!
//! - [`register`]: the four dependencies as the Atlas's register records them.
//! - [`lever`]: the levers (`inventory.retries=0`, `shed=on`, ...) and a timed pull.
//! - [`incident`]: incident files, checked, and the seed's dependency and moment.
//! - [`call_plan`]: one call's retry layers as steps, for the sim and the live twin.
//! - [`sim`]: the drill second by second, with the golden signals and the two alerts.
//! - [`mode`]: which clock a drill was played on, for the printer.
//! - [`play`]: the drill played by a person: its clock, its pulls, what on-call sees.
//! - [`source`]: where a played drill's seconds come from, the sim or the live twin.
//! - [`score`]: what a drill scores and why.
//! - [`facilitator`]: what a facilitator (`oncall --gm`) sees and may ask of a drill.

pub mod call_plan;
pub mod facilitator;
pub mod incident;
pub mod lever;
pub mod mode;
pub mod play;
pub mod register;
pub mod score;
pub mod sim;
pub mod source;

pub use facilitator::{FacilitatorCommand, FacilitatorView};
pub use incident::{
    DrillSetup, ExtraFault, IncidentFileError, IncidentSpec, builtin_incidents, choose_incident, parse_incident,
};
pub use lever::{LeverPull, OncallLever};
pub use mode::DrillMode;
pub use play::{DecisionEntry, LiveClock, OncallPlay, OncallReveal, OncallView, OwnerHint};
pub use register::OncallDep;
pub use score::{DrillScore, score_drill};
pub use sim::{AlertLog, DrillRun, DrillSecond, run_drill};
pub use source::{DrillSource, LiveFeed};
