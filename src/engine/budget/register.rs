//! Scenario `register`: the Atlas's dependency register against its inbound deadline.
//!
//! Checkout calls payments, then inventory, one after the other; every attempt times out.
//! Payments' 800 ms x 2 and inventory's 150 ms x 3 take 2,050 ms, past the 2,000 ms
//! deadline: the edge gives up at 2,000 ms while checkout is still in inventory's third
//! attempt. At two inventory attempts the worst case is 1,900 ms, within. The worst case is
//! [`policy::worst_case_ms`] of the lab's own register, and [`policy::check`] on the same
//! register says whether it exceeds the deadline, so the lab and `policy check` agree.
//!
//! Convention: attempts follow each other with no backoff sleep (the Atlas's "before any
//! backoff sleep"); recommendations and receipt-store are not sequential and are kept as
//! the Atlas's register has them.

use serde::Serialize;

use crate::engine::policy::{self, DependencyCriticality, Register, RegisteredDependency};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegisterParams {
    pub deadline_ms: u64,
    pub payments_timeout_ms: u64,
    pub payments_attempts: u64,
    pub inventory_timeout_ms: u64,
    pub inventory_attempts: u64,
}

impl Default for RegisterParams {
    fn default() -> Self {
        Self {
            deadline_ms: 2_000,
            payments_timeout_ms: 800,
            payments_attempts: 2,
            inventory_timeout_ms: 150,
            inventory_attempts: 3,
        }
    }
}

/// One attempt on the timeline of a request whose every attempt times out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attempt {
    pub dependency: &'static str,
    /// 1 for the first attempt.
    pub number: u64,
    pub start_ms: u64,
    pub end_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegisterRun {
    pub attempts: Vec<Attempt>,
    /// Sequential timeouts times attempts, as the policy check adds them.
    pub worst_case_ms: u64,
    /// 1 if the worst case fits the deadline.
    pub within_deadline: u64,
    /// Attempts still running (or not yet begun) when the edge gave up.
    pub attempts_after_deadline: u64,
    /// 1 if `policy check` on the lab's register reports the worst case.
    pub policy_flags_worst_case: u64,
    /// Every problem `policy check` reports on the lab's register.
    pub policy_problems: Vec<String>,
}

fn dependency(name: &str, criticality: DependencyCriticality, timeout_ms: u64, attempts: u64) -> RegisteredDependency {
    RegisteredDependency {
        name: Some(name.to_string()),
        criticality: Some(criticality),
        timeout_ms: Some(timeout_ms),
        max_attempts: Some(attempts),
        sdk_attempts: Some(1),
        mesh_attempts: Some(1),
        idempotent: Some(true),
        breaker: Some(true),
        runbook: Some(format!("runbooks/checkout.md#{name}")),
        ..RegisteredDependency::default()
    }
}

/// The Atlas's register (`dependencies.json`) with payments' and inventory's timeouts,
/// attempts and the deadline taken from `p`.
pub fn lab_register(p: &RegisterParams) -> Register {
    let payments = RegisteredDependency {
        sequential: true,
        idempotent: Some(false),
        idempotency_key: true,
        ..dependency(
            "payments",
            DependencyCriticality::Hard,
            p.payments_timeout_ms,
            p.payments_attempts,
        )
    };
    let inventory = RegisteredDependency {
        sequential: true,
        ..dependency(
            "inventory",
            DependencyCriticality::Hard,
            p.inventory_timeout_ms,
            p.inventory_attempts,
        )
    };
    let recommendations = RegisteredDependency {
        degraded_behaviour: Some("render the page without the panel".to_string()),
        ..dependency("recommendations", DependencyCriticality::Soft, 200, 1)
    };
    let receipts = RegisteredDependency {
        sdk_attempts: Some(3),
        breaker: Some(false),
        runbook: Some("runbooks/checkout.md#receipts".to_string()),
        ..dependency("receipt-store", DependencyCriticality::Soft, 1_000, 2)
    };
    Register {
        inbound_deadline_ms: p.deadline_ms,
        dependencies: vec![payments, inventory, recommendations, receipts],
    }
}

pub fn run(p: &RegisterParams) -> RegisterRun {
    let register = lab_register(p);
    let mut attempts = Vec::new();
    let mut now_ms = 0;
    for (name, timeout_ms, count) in [
        ("payments", p.payments_timeout_ms, p.payments_attempts),
        ("inventory", p.inventory_timeout_ms, p.inventory_attempts),
    ] {
        for number in 1..=count {
            attempts.push(Attempt {
                dependency: name,
                number,
                start_ms: now_ms,
                end_ms: now_ms + timeout_ms,
            });
            now_ms += timeout_ms;
        }
    }
    let worst_case_ms = u64::try_from(policy::worst_case_ms(&register)).unwrap_or(u64::MAX);
    let policy_problems = policy::check(&register);
    RegisterRun {
        within_deadline: u64::from(worst_case_ms <= p.deadline_ms),
        attempts_after_deadline: attempts.iter().filter(|a| a.end_ms > p.deadline_ms).count() as u64,
        policy_flags_worst_case: u64::from(policy_problems.iter().any(|line| line.starts_with("worst case"))),
        policy_problems,
        worst_case_ms,
        attempts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payments_then_inventory_take_2050_of_2000() {
        let run = run(&RegisterParams::default());
        assert_eq!(run.worst_case_ms, 2_050);
        assert_eq!(run.within_deadline, 0);
        let last = run.attempts.last().expect("inventory's third attempt");
        assert_eq!(
            (last.dependency, last.number, last.start_ms, last.end_ms),
            ("inventory", 3, 1_900, 2_050)
        );
        assert_eq!(
            run.attempts_after_deadline, 1,
            "checkout still calls inventory when the edge gives up"
        );
        assert_eq!(run.policy_flags_worst_case, 1);
        // The Atlas's check_policy.py on dependencies.json prints these three.
        assert_eq!(
            run.policy_problems,
            [
                "receipt-store: retries at 2 layers (app x SDK = 6 attempts)",
                "receipt-store: soft dependency without a degraded behaviour",
                "worst case 2050 ms of sequential calls exceeds the 2000 ms inbound deadline",
            ]
        );
    }

    #[test]
    fn two_inventory_attempts_fit_in_1900() {
        let run = run(&RegisterParams {
            inventory_attempts: 2,
            ..RegisterParams::default()
        });
        assert_eq!(run.worst_case_ms, 1_900);
        assert_eq!(run.within_deadline, 1);
        assert_eq!(run.attempts_after_deadline, 0);
        assert_eq!(run.policy_flags_worst_case, 0, "policy check agrees");
    }
}
