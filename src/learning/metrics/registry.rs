//! The registry of the labs' runs as named numbers: the type of a metric and the row each
//! lab's file here adds to [`LAB_METRICS`] (a sibling of the labs' files, so they import it
//! without importing the module that re-exports them).

use crate::content::params::Values;
use crate::content::{LabFile, LabId};

/// A metric's name and its value in one run.
pub type Metric = (String, f64);

/// A lab's simulated run as named numbers, registered by the lab's own file here.
pub struct LabMetrics {
    pub lab: LabId,
    /// Every metric the simulation of the lab produces at the values given.
    pub run: fn(&LabFile, &dyn Values) -> Vec<Metric>,
}

/// Every lab's [`LabMetrics`], one row each, in no order (a distributed slice, `linkme`:
/// each lab's file adds its own; the test below holds every `LabId` to one row).
#[linkme::distributed_slice]
pub static LAB_METRICS: [LabMetrics];
