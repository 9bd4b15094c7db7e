//! The dependency register's policy check (the Atlas's Artefacts 1 and 2), as pure rules.
//!
//! A register lists a service's outbound dependencies with the settings that decide how a
//! request behaves when one of them misbehaves. The check holds it to four rules: retries
//! at one layer only, no retried side effect without idempotency, a degraded behaviour for
//! every soft dependency, and sequential calls whose worst case fits the inbound deadline.
//! The findings are worded, ordered and counted exactly as the Atlas's `check_policy.py`
//! prints them; reading the JSON (and refusing bad input) is the command's job.

/// Whether the service can answer without the dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DependencyCriticality {
    /// The request fails without it.
    Hard,
    /// The request can be answered in a degraded form without it.
    Soft,
}

/// One outbound dependency as the register records it. A required field the register
/// leaves out is `None`: the check reports it, as the Atlas's checker does, and skips the
/// dependency's other rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RegisteredDependency {
    pub name: Option<String>,
    pub criticality: Option<DependencyCriticality>,
    pub timeout_ms: Option<u64>,
    /// Attempts the application itself makes, the first included.
    pub max_attempts: Option<u64>,
    /// Attempts the client library (SDK) makes for each application attempt.
    pub sdk_attempts: Option<u64>,
    /// Attempts the service mesh or sidecar makes for each SDK attempt.
    pub mesh_attempts: Option<u64>,
    pub idempotent: Option<bool>,
    pub breaker: Option<bool>,
    pub runbook: Option<String>,
    /// Called one after another with the other sequential dependencies on the request path.
    pub sequential: bool,
    /// A non-idempotent call made safe to repeat by a key the client sends with each attempt.
    pub idempotency_key: bool,
    /// What the user gets when a soft dependency is unavailable; empty counts as none.
    pub degraded_behaviour: Option<String>,
}

/// A service's register: its inbound deadline and its dependencies, in the register's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Register {
    pub inbound_deadline_ms: u64,
    pub dependencies: Vec<RegisteredDependency>,
}

/// The register's required fields, in the order a "missing" finding lists them.
pub const REQUIRED_FIELDS: [&str; 9] = [
    "name",
    "criticality",
    "timeout_ms",
    "max_attempts",
    "sdk_attempts",
    "mesh_attempts",
    "idempotent",
    "breaker",
    "runbook",
];

impl RegisteredDependency {
    /// The required fields this dependency leaves out, in [`REQUIRED_FIELDS`] order.
    fn missing_fields(&self) -> Vec<&'static str> {
        let present = [
            self.name.is_some(),
            self.criticality.is_some(),
            self.timeout_ms.is_some(),
            self.max_attempts.is_some(),
            self.sdk_attempts.is_some(),
            self.mesh_attempts.is_some(),
            self.idempotent.is_some(),
            self.breaker.is_some(),
            self.runbook.is_some(),
        ];
        REQUIRED_FIELDS
            .iter()
            .zip(present)
            .filter(|(_, present)| !present)
            .map(|(field, _)| *field)
            .collect()
    }
}

/// Attempts one call to `dependency` can make: each layer repeats everything below it.
pub fn attempts(dependency: &RegisteredDependency) -> u128 {
    [
        dependency.max_attempts,
        dependency.sdk_attempts,
        dependency.mesh_attempts,
    ]
    .iter()
    .map(|n| u128::from(n.unwrap_or(1)))
    .product()
}

/// The register's worst case: every sequential dependency's timeout times its attempts,
/// added up (complete entries only, as [`check`] counts them), before any backoff sleep.
pub fn worst_case_ms(register: &Register) -> u128 {
    register
        .dependencies
        .iter()
        .filter(|d| d.sequential && d.missing_fields().is_empty())
        .map(|d| u128::from(d.timeout_ms.unwrap_or(0)) * attempts(d))
        .sum()
}

/// Every policy problem of the register, one sentence each, in the Atlas's order: per
/// dependency in register order, then the deadline.
pub fn check(register: &Register) -> Vec<String> {
    let mut problems = Vec::new();
    for dependency in &register.dependencies {
        let name = dependency.name.as_deref().unwrap_or("?");
        let missing = dependency.missing_fields();
        if !missing.is_empty() {
            problems.push(format!("{name}: missing {}", missing.join(", ")));
            continue;
        }
        let layers = [
            ("app", dependency.max_attempts.unwrap_or(1)),
            ("SDK", dependency.sdk_attempts.unwrap_or(1)),
            ("mesh", dependency.mesh_attempts.unwrap_or(1)),
        ];
        let attempts = attempts(dependency);
        let retrying: Vec<&str> = layers.iter().filter(|(_, n)| *n > 1).map(|(label, _)| *label).collect();
        if retrying.len() > 1 {
            problems.push(format!(
                "{name}: retries at {} layers ({} = {attempts} attempts)",
                retrying.len(),
                retrying.join(" x ")
            ));
        }
        if attempts > 1 && dependency.idempotent == Some(false) && !dependency.idempotency_key {
            problems.push(format!("{name}: retried but not idempotent"));
        }
        let has_degraded = dependency
            .degraded_behaviour
            .as_deref()
            .is_some_and(|text| !text.is_empty());
        if dependency.criticality == Some(DependencyCriticality::Soft) && !has_degraded {
            problems.push(format!("{name}: soft dependency without a degraded behaviour"));
        }
    }
    // Sequential calls add up: the worst case is each one's timeout times its attempts.
    let worst_case_ms = worst_case_ms(register);
    if worst_case_ms > u128::from(register.inbound_deadline_ms) {
        problems.push(format!(
            "worst case {worst_case_ms} ms of sequential calls exceeds the {} ms inbound deadline",
            register.inbound_deadline_ms
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(name: &str) -> RegisteredDependency {
        RegisteredDependency {
            name: Some(name.into()),
            criticality: Some(DependencyCriticality::Hard),
            timeout_ms: Some(100),
            max_attempts: Some(1),
            sdk_attempts: Some(1),
            mesh_attempts: Some(1),
            idempotent: Some(true),
            breaker: Some(true),
            runbook: Some("runbooks/x.md".into()),
            ..RegisteredDependency::default()
        }
    }

    #[test]
    fn a_clean_register_has_no_problems() {
        let register = Register {
            inbound_deadline_ms: 100,
            dependencies: vec![RegisteredDependency {
                sequential: true,
                ..complete("a")
            }],
        };
        assert!(check(&register).is_empty(), "100 ms of 100 ms is within the deadline");
    }

    #[test]
    fn layers_multiply_and_each_rule_speaks_once() {
        let register = Register {
            inbound_deadline_ms: 1_000,
            dependencies: vec![
                RegisteredDependency {
                    max_attempts: Some(2),
                    sdk_attempts: Some(3),
                    mesh_attempts: Some(2),
                    idempotent: Some(false),
                    criticality: Some(DependencyCriticality::Soft),
                    degraded_behaviour: Some(String::new()),
                    sequential: true,
                    ..complete("store")
                },
                RegisteredDependency {
                    runbook: None,
                    breaker: None,
                    name: None,
                    sequential: true,
                    ..complete("ignored")
                },
            ],
        };
        assert_eq!(
            check(&register),
            [
                "store: retries at 3 layers (app x SDK x mesh = 12 attempts)",
                "store: retried but not idempotent",
                "store: soft dependency without a degraded behaviour",
                "?: missing name, breaker, runbook",
                "worst case 1200 ms of sequential calls exceeds the 1000 ms inbound deadline",
            ]
        );
    }

    #[test]
    fn an_idempotency_key_makes_a_retried_write_safe() {
        let register = Register {
            inbound_deadline_ms: 10_000,
            dependencies: vec![RegisteredDependency {
                max_attempts: Some(2),
                idempotent: Some(false),
                idempotency_key: true,
                ..complete("payments")
            }],
        };
        assert!(check(&register).is_empty());
    }
}
