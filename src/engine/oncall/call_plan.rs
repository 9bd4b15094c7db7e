//! One call to a dependency with its retry layers, as a sequence of steps: ask the
//! breaker, make an attempt, tell the breaker, done. The simulation drives the steps at
//! once on its virtual clock; the live twin (`live::oncall`) drives the same steps over
//! HTTP, so that the two cannot disagree about how many attempts a call makes, when the
//! request's budget stops it, or when the breaker is asked and told.
//!
//! The layers: the application makes up to `max_attempts` attempts, each asking the
//! breaker first; each application attempt is up to `sdk_attempts x mesh_attempts`
//! attempts on the wire (the client library's and the mesh's retries, which the breaker
//! never sees). `DEP.retries=0` takes every layer down to one attempt.

/// What the driver of a call does next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CallStep {
    /// Ask the breaker (and the forced-open lever); answer with [`CallPlan::permitted`].
    AskBreaker,
    /// Make one attempt within `limit_ms` of the request's budget; answer with
    /// [`CallPlan::attempted`].
    Attempt { limit_ms: f64 },
    /// Tell the breaker how the application attempt ended (no answer needed).
    RecordBreaker { ok: bool },
    /// The call is over.
    Done(CallEnd),
}

/// How one call to a dependency ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallEnd {
    pub ok: bool,
    pub elapsed_ms: f64,
    /// True when the breaker (or the lever) refused the call's last application attempt.
    pub refused: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum CallPhase {
    /// Before an application attempt: the breaker is asked next.
    BeforeApp,
    /// Waiting for [`CallPlan::permitted`].
    AwaitPermit,
    /// Inside an application attempt: the next wire attempt, or the breaker told.
    Layers,
    /// Waiting for [`CallPlan::attempted`].
    AwaitAttempt,
    /// The breaker was told; the call ends or the next application attempt starts.
    Told,
    Finished,
}

/// One call's retry layers, stepped by its driver.
#[derive(Clone, Debug)]
pub struct CallPlan {
    app_attempts: u32,
    layers: u32,
    budget_ms: f64,
    app: u32,
    layer: u32,
    elapsed_ms: f64,
    ok: bool,
    refused: bool,
    phase: CallPhase,
}

impl CallPlan {
    /// A call of `app_attempts` application attempts of `layers` wire attempts each,
    /// within `budget_ms` (infinite for a caller that passes no deadline).
    pub fn new(app_attempts: u32, layers: u32, budget_ms: f64) -> Self {
        Self {
            app_attempts,
            layers,
            budget_ms,
            app: 0,
            layer: 0,
            elapsed_ms: 0.0,
            ok: false,
            refused: false,
            phase: CallPhase::BeforeApp,
        }
    }

    fn done(&mut self) -> CallStep {
        self.phase = CallPhase::Finished;
        CallStep::Done(CallEnd {
            ok: self.ok,
            elapsed_ms: self.elapsed_ms,
            refused: self.refused,
        })
    }

    /// The next step. A driver that skips an answer the step asks for gets the same step
    /// again, never a panic.
    pub fn next_step(&mut self) -> CallStep {
        loop {
            match self.phase {
                CallPhase::BeforeApp => {
                    if self.app >= self.app_attempts || self.elapsed_ms >= self.budget_ms {
                        return self.done();
                    }
                    self.phase = CallPhase::AwaitPermit;
                    return CallStep::AskBreaker;
                }
                CallPhase::AwaitPermit => return CallStep::AskBreaker,
                CallPhase::Layers => {
                    if self.ok || self.layer >= self.layers || self.elapsed_ms >= self.budget_ms {
                        self.phase = CallPhase::Told;
                        return CallStep::RecordBreaker { ok: self.ok };
                    }
                    self.phase = CallPhase::AwaitAttempt;
                    return CallStep::Attempt {
                        limit_ms: self.budget_ms - self.elapsed_ms,
                    };
                }
                CallPhase::AwaitAttempt => {
                    return CallStep::Attempt {
                        limit_ms: self.budget_ms - self.elapsed_ms,
                    };
                }
                CallPhase::Told => {
                    if self.ok {
                        return self.done();
                    }
                    self.app += 1;
                    self.layer = 0;
                    self.phase = CallPhase::BeforeApp;
                }
                CallPhase::Finished => return self.done(),
            }
        }
    }

    /// The breaker's answer to [`CallStep::AskBreaker`].
    pub fn permitted(&mut self, allowed: bool) {
        if self.phase != CallPhase::AwaitPermit {
            return;
        }
        if allowed {
            self.phase = CallPhase::Layers;
        } else {
            self.refused = true;
            self.ok = false;
            self.phase = CallPhase::Finished;
        }
    }

    /// An attempt's outcome; returns its time cut to what was left of the budget, the
    /// time the attempt counts for.
    pub fn attempted(&mut self, ok: bool, took_ms: f64) -> f64 {
        if self.phase != CallPhase::AwaitAttempt {
            return 0.0;
        }
        let took_ms = took_ms.min(self.budget_ms - self.elapsed_ms);
        self.elapsed_ms += took_ms;
        self.layer += 1;
        self.ok = ok;
        self.phase = CallPhase::Layers;
        took_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drives a plan with attempts that all fail after `took_ms`; returns (attempts, end).
    fn all_fail(mut plan: CallPlan, took_ms: f64, allow: bool) -> (u32, CallEnd) {
        let mut attempts = 0;
        for _ in 0..1_000 {
            match plan.next_step() {
                CallStep::AskBreaker => plan.permitted(allow),
                CallStep::Attempt { .. } => {
                    attempts += 1;
                    plan.attempted(false, took_ms);
                }
                CallStep::RecordBreaker { .. } => {}
                CallStep::Done(end) => return (attempts, end),
            }
        }
        panic!("the plan never ended");
    }

    #[test]
    fn every_layer_multiplies_the_attempts() {
        let (attempts, end) = all_fail(CallPlan::new(3, 3, f64::INFINITY), 10.0, true);
        assert_eq!(attempts, 9);
        assert!(!end.ok && !end.refused);
        assert_eq!(end.elapsed_ms, 90.0);
    }

    #[test]
    fn the_budget_stops_the_layers_and_cuts_the_last_attempt() {
        let (attempts, end) = all_fail(CallPlan::new(3, 3, 250.0), 100.0, true);
        assert_eq!(attempts, 3);
        assert_eq!(end.elapsed_ms, 250.0);
    }

    #[test]
    fn a_refusal_ends_the_call_with_no_attempt() {
        let (attempts, end) = all_fail(CallPlan::new(2, 1, f64::INFINITY), 10.0, false);
        assert_eq!(attempts, 0);
        assert!(end.refused);
    }

    #[test]
    fn a_success_ends_the_call_after_the_breaker_is_told() {
        let mut plan = CallPlan::new(2, 3, f64::INFINITY);
        assert_eq!(plan.next_step(), CallStep::AskBreaker);
        plan.permitted(true);
        assert!(matches!(plan.next_step(), CallStep::Attempt { .. }));
        plan.attempted(true, 5.0);
        assert_eq!(plan.next_step(), CallStep::RecordBreaker { ok: true });
        assert!(matches!(plan.next_step(), CallStep::Done(CallEnd { ok: true, .. })));
    }
}
