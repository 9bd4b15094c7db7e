//! Lab 4's recompute for a slider step, shared out over the cores.
//!
//! The run and the curve points are independent simulations (each owns its generator),
//! so they are split across threads and joined; the result equals
//! [`engine::overload::recompute`](crate::engine::overload::recompute) exactly.

use crate::engine::overload::{self, Curve, OverloadParams, Policy, Recompute};

/// The run at `params` and every policy's curve, on up to `threads` threads.
pub fn recompute_parallel(params: &OverloadParams, threads: usize) -> Recompute {
    let offered = overload::sweep_offered(params);
    let jobs: Vec<(Policy, f64)> = Policy::ALL
        .iter()
        .flat_map(|&policy| offered.iter().map(move |&o| (policy, o)))
        .collect();
    let threads = threads.clamp(1, jobs.len().max(1));
    let (run, mut points) = std::thread::scope(|scope| {
        // Deal the jobs out round-robin: the expensive high-load points spread evenly.
        let handles: Vec<_> = (1..threads)
            .map(|t| {
                let mine: Vec<(usize, Policy, f64)> = jobs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % threads == t)
                    .map(|(i, &(p, o))| (i, p, o))
                    .collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .map(|(i, policy, o)| (i, overload::sweep_point(params, policy, o)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let run = overload::run(params);
        let mut points: Vec<_> = jobs
            .iter()
            .enumerate()
            .filter(|(i, _)| i % threads == 0)
            .map(|(i, &(policy, o))| (i, overload::sweep_point(params, policy, o)))
            .collect();
        for handle in handles {
            points.extend(handle.join().unwrap_or_default());
        }
        (run, points)
    });
    points.sort_by_key(|(i, _)| *i);
    let per_policy = offered.len();
    let curves = Policy::ALL
        .iter()
        .enumerate()
        .map(|(p, &policy)| Curve {
            policy,
            points: points[p * per_policy..(p + 1) * per_policy]
                .iter()
                .map(|(_, pt)| *pt)
                .collect(),
        })
        .collect();
    Recompute { run, curves }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_equals_sequential() {
        let params = OverloadParams {
            duration_s: 2.0,
            ..OverloadParams::default()
        };
        assert_eq!(recompute_parallel(&params, 2), overload::recompute(&params));
        assert_eq!(recompute_parallel(&params, 1), overload::recompute(&params));
    }
}
