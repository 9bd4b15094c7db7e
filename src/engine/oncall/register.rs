//! checkout-api's dependency register, as the Atlas's Artefact 1 records it, plus the
//! drill's own numbers for what the register does not say (capacity, usual latency).
//!
//! The register is the learner's map: it says which dependencies are hard (the checkout
//! fails without them) and which soft (the page degrades), how long each call may take,
//! how many attempts each layer makes and which dependencies have a breaker. The drill
//! reads its levers' limits from here: a soft dependency can be switched off, a
//! dependency without a breaker has no breaker to force open.

use serde::Serialize;

/// One of checkout-api's four outbound dependencies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OncallDep {
    Payments,
    Inventory,
    Recommendations,
    ReceiptStore,
}

impl OncallDep {
    /// In the register's order, which is also the order of the screen's rows.
    pub const ALL: [OncallDep; 4] = [
        OncallDep::Payments,
        OncallDep::Inventory,
        OncallDep::Recommendations,
        OncallDep::ReceiptStore,
    ];

    /// The register's name, which is also the lever's prefix (`inventory.retries`).
    pub fn name(self) -> &'static str {
        match self {
            OncallDep::Payments => "payments",
            OncallDep::Inventory => "inventory",
            OncallDep::Recommendations => "recommendations",
            OncallDep::ReceiptStore => "receipt-store",
        }
    }

    pub fn from_name(name: &str) -> Option<OncallDep> {
        OncallDep::ALL.into_iter().find(|dep| dep.name() == name)
    }

    /// Position in [`OncallDep::ALL`], for per-dependency arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn row(self) -> &'static RegisterRow {
        &REGISTER[self.index()]
    }
}

/// One record of the register, with the drill's capacity and latency beside it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegisterRow {
    pub dep: OncallDep,
    /// Hard: the checkout fails without it. Soft: the page renders without it.
    pub hard: bool,
    /// Called one after another on the request path (the hard ones) or beside them.
    pub sequential: bool,
    pub timeout_ms: f64,
    /// Attempts the application makes, the first call included.
    pub max_attempts: u32,
    /// Attempts the client library makes per application attempt.
    pub sdk_attempts: u32,
    /// Attempts the mesh sidecar makes per library attempt.
    pub mesh_attempts: u32,
    pub breaker: bool,
    /// Attempts a second it serves before it queues past every timeout (the drill's number:
    /// three times the steady load of 100 calls/s, the receipt store's 1.3 times).
    pub capacity_per_s: f64,
    /// Its usual answer time; an attempt takes 0.6 to 1.4 times this.
    pub usual_ms: f64,
}

/// The inbound deadline of a checkout request, from the register.
pub const INBOUND_DEADLINE_MS: f64 = 2_000.0;

#[rustfmt::skip]
pub const REGISTER: [RegisterRow; 4] = [
    //                                  hard   seq    timeout  app sdk mesh breaker cap/s  usual
    RegisterRow { dep: OncallDep::Payments,        hard: true,  sequential: true,  timeout_ms: 800.0,   max_attempts: 2, sdk_attempts: 1, mesh_attempts: 1, breaker: true,  capacity_per_s: 300.0, usual_ms: 120.0 },
    RegisterRow { dep: OncallDep::Inventory,       hard: true,  sequential: true,  timeout_ms: 150.0,   max_attempts: 3, sdk_attempts: 1, mesh_attempts: 1, breaker: true,  capacity_per_s: 300.0, usual_ms: 30.0 },
    RegisterRow { dep: OncallDep::Recommendations, hard: false, sequential: false, timeout_ms: 200.0,   max_attempts: 1, sdk_attempts: 1, mesh_attempts: 1, breaker: true,  capacity_per_s: 300.0, usual_ms: 60.0 },
    RegisterRow { dep: OncallDep::ReceiptStore,    hard: false, sequential: false, timeout_ms: 1_000.0, max_attempts: 2, sdk_attempts: 3, mesh_attempts: 1, breaker: false, capacity_per_s: 130.0, usual_ms: 40.0 },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_the_order_of_all() {
        for dep in OncallDep::ALL {
            assert_eq!(dep.row().dep, dep);
            assert_eq!(OncallDep::from_name(dep.name()), Some(dep));
        }
    }

    #[test]
    fn the_receipt_store_already_retries_in_two_layers() {
        let row = OncallDep::ReceiptStore.row();
        assert_eq!(row.max_attempts * row.sdk_attempts * row.mesh_attempts, 6);
    }
}
