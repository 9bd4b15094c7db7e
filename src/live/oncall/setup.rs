//! The drill's setup as the twin's servers share it: the incident and its moment, fixed,
//! and a facilitator's second faults, which a live drill takes while it runs
//! (`oncall --gm`), so that checkout-api's retry layers and every dependency's answers
//! follow them from their moment on, as the simulation's do (`engine::oncall::sim`'s
//! `fault_on` and `mesh_attempts` read them from the setup).

use std::sync::{Arc, RwLock, RwLockReadGuard};

use crate::engine::oncall::{DrillSetup, ExtraFault};

/// One setup for every server of one twin; clones share it.
#[derive(Clone, Debug)]
pub struct SharedSetup(Arc<RwLock<DrillSetup>>);

impl SharedSetup {
    pub fn new(setup: &DrillSetup) -> Self {
        Self(Arc::new(RwLock::new(setup.clone())))
    }

    /// The setup as it stands now, for one decision (held briefly: a write waits for it).
    pub fn read(&self) -> RwLockReadGuard<'_, DrillSetup> {
        // A panic while the lock was held left nothing half-written: a push is whole.
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds a second fault, in force from its `from_s` on.
    pub fn add_fault(&self, fault: ExtraFault) {
        let mut setup = self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        setup.extra_faults.push(fault);
    }
}
