//! Scenario `deadline`: one deadline passed down a chain, hop by hop.
//!
//! The request enters the edge with `inbound_ms` to live. Each hop works its own time and
//! passes on what is left: with the Atlas's (SRE book's) numbers, 30 s in, 7 s of work at
//! the edge, 23 s passed to checkout; 4 s there, 19 s passed to payments. Payments works
//! 1 s and then calls a processor that does not answer.
//!
//! - Propagated, payments waits for the processor only as long as the request has left
//!   (18 s), and stops when the edge gives up.
//! - Hard-coded, payments waits its own 20 s whatever is left: after 12 s of work that ends
//!   at 32 s, 2 s after the edge gave up. Those 2 s are `wasted_ms`: the time the chain
//!   keeps working on a request after its deadline (the last hop's end minus the deadline).
//! - Early rejection (it needs the propagated budget): a hop whose budget is shorter than
//!   its own work refuses at once, instead of starting work that cannot finish.
//!
//! Conventions: the network costs nothing (a hop's received budget is exactly what its
//! caller passed); without propagation a hop below the edge knows no budget at all.

use serde::Serialize;

/// The hops' names, edge first; the last one calls the processor.
pub const HOPS: [&str; 3] = ["edge", "checkout", "payments"];

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeadlineParams {
    /// The request's deadline as the edge receives it.
    pub inbound_ms: u64,
    /// Each hop's own work, edge first.
    pub work_ms: [u64; 3],
    /// The wait on the processor a hop uses when it knows no deadline.
    pub hard_timeout_ms: u64,
    /// Whether the remaining budget travels down with each call.
    pub propagate: bool,
    /// Whether a hop with less budget than its work refuses at once.
    pub early_reject: bool,
}

impl Default for DeadlineParams {
    fn default() -> Self {
        Self {
            inbound_ms: 30_000,
            work_ms: [7_000, 4_000, 1_000],
            hard_timeout_ms: 20_000,
            propagate: true,
            early_reject: true,
        }
    }
}

/// What one hop received, spent and passed on: a row of the waterfall.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HopRow {
    pub name: &'static str,
    /// When the call reached this hop, from the request's start.
    pub at_ms: u64,
    /// The budget it received; `None` when nothing told it (no propagation).
    pub received_ms: Option<u64>,
    /// Its own work, and for the last hop its wait on the processor.
    pub spent_ms: u64,
    /// The budget it passed on; `None` when it passes none.
    pub passed_ms: Option<u64>,
    /// It refused at once: its budget was shorter than its work.
    pub rejected: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeadlineRun {
    pub hops: Vec<HopRow>,
    /// How long payments waited on the processor (0 if it never called it).
    pub processor_wait_ms: u64,
    /// When the chain stopped working on the request.
    pub end_ms: u64,
    /// Work done after the deadline (the edge had given up).
    pub wasted_ms: u64,
    /// 1 if a hop refused the request early, else 0.
    pub early_rejections: u64,
    /// When the edge had its outcome: an early refusal, the deadline, or the end.
    pub answered_at_ms: u64,
}

pub fn run(p: &DeadlineParams) -> DeadlineRun {
    let deadline_ms = p.inbound_ms;
    let mut now_ms = 0u64;
    let mut hops = Vec::new();
    let mut early_rejections = 0;
    let mut processor_wait_ms = 0;
    for (index, name) in HOPS.iter().enumerate() {
        let received_ms = (index == 0 || p.propagate).then(|| deadline_ms.saturating_sub(now_ms));
        let work_ms = p.work_ms[index];
        if let Some(budget) = received_ms
            && p.early_reject
            && budget < work_ms
        {
            hops.push(HopRow {
                name,
                at_ms: now_ms,
                received_ms,
                spent_ms: 0,
                passed_ms: None,
                rejected: true,
            });
            early_rejections = 1;
            break;
        }
        // A hop that knows its budget stops at the deadline; one that does not, works on.
        let spent_work_ms = match received_ms {
            Some(budget) => work_ms.min(budget),
            None => work_ms,
        };
        let at_ms = now_ms;
        now_ms += spent_work_ms;
        let left_ms = received_ms.map(|budget| budget - spent_work_ms);
        let last = index == HOPS.len() - 1;
        let mut spent_ms = spent_work_ms;
        if last && left_ms != Some(0) {
            processor_wait_ms = match left_ms {
                Some(left) if p.propagate => p.hard_timeout_ms.min(left),
                _ => p.hard_timeout_ms,
            };
            spent_ms += processor_wait_ms;
            now_ms += processor_wait_ms;
        }
        hops.push(HopRow {
            name,
            at_ms,
            received_ms,
            spent_ms,
            passed_ms: if p.propagate { left_ms } else { None },
            rejected: false,
        });
        if left_ms == Some(0) {
            break;
        }
    }
    let end_ms = now_ms;
    DeadlineRun {
        wasted_ms: end_ms.saturating_sub(deadline_ms),
        answered_at_ms: end_ms.min(deadline_ms),
        hops,
        processor_wait_ms,
        end_ms,
        early_rejections,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_seconds_leave_23_then_19() {
        let run = run(&DeadlineParams::default());
        let received: Vec<Option<u64>> = run.hops.iter().map(|h| h.received_ms).collect();
        assert_eq!(received, [Some(30_000), Some(23_000), Some(19_000)]);
        let passed: Vec<Option<u64>> = run.hops.iter().map(|h| h.passed_ms).collect();
        assert_eq!(passed, [Some(23_000), Some(19_000), Some(18_000)]);
        assert_eq!(
            run.processor_wait_ms, 18_000,
            "payments waits what is left, not its 20 s"
        );
        assert_eq!(run.wasted_ms, 0);
        assert_eq!(run.end_ms, 30_000);
    }

    #[test]
    fn a_hard_coded_20_s_after_12_s_wastes_2_s() {
        let run = run(&DeadlineParams {
            propagate: false,
            ..DeadlineParams::default()
        });
        assert_eq!(run.hops[2].at_ms + 1_000, 12_000, "12 s used when the wait begins");
        assert_eq!(run.processor_wait_ms, 20_000);
        assert_eq!(run.end_ms, 32_000);
        assert_eq!(run.wasted_ms, 2_000);
        assert_eq!(run.hops[1].received_ms, None, "nothing told checkout the budget");
    }

    #[test]
    fn a_hop_with_less_budget_than_its_work_refuses_at_once() {
        let short = DeadlineParams {
            inbound_ms: 11_500,
            ..DeadlineParams::default()
        };
        let refused = run(&short);
        assert_eq!(refused.early_rejections, 1);
        let last = refused.hops.last().expect("payments");
        assert_eq!(
            (last.name, last.received_ms, last.rejected),
            ("payments", Some(500), true)
        );
        assert_eq!(
            refused.answered_at_ms, 11_000,
            "the edge knows 500 ms before its deadline"
        );
        assert_eq!(refused.processor_wait_ms, 0);
        let started = run(&DeadlineParams {
            early_reject: false,
            ..short
        });
        assert_eq!(started.early_rejections, 0);
        assert_eq!(started.hops[2].spent_ms, 500, "work begun that could not finish");
        assert_eq!(started.answered_at_ms, 11_500);
    }
}
