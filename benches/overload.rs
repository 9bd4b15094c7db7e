//! Lab 4: what one slider step costs, the run at the lesson's defaults plus every
//! policy's goodput curve (6 policies x 9 loads), sequential and on two threads.
//!
//! The two-thread split lives here, not in the app: the app's screen draws its curves from
//! the engine's smaller sweep (`screen_recompute_after`), which fits a frame on one thread.

use criterion::{Criterion, criterion_group, criterion_main};
use resilience_lab::engine::overload::{self, Curve, OverloadParams, Recompute, SheddingPolicy};
use std::hint::black_box;

/// The run at `params` and every policy's curve, on up to `threads` threads.
fn recompute_parallel(params: &OverloadParams, threads: usize) -> Recompute {
    let offered = overload::sweep_offered(params);
    let jobs: Vec<(SheddingPolicy, f64)> = SheddingPolicy::ALL
        .iter()
        .flat_map(|&policy| offered.iter().map(move |&o| (policy, o)))
        .collect();
    let threads = threads.clamp(1, jobs.len().max(1));
    let (run, mut points) = std::thread::scope(|scope| {
        // Deal the jobs out round-robin: the expensive high-load points spread evenly.
        let handles: Vec<_> = (1..threads)
            .map(|t| {
                let mine: Vec<(usize, SheddingPolicy, f64)> = jobs
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
    let curves = SheddingPolicy::ALL
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

fn slider_step(c: &mut Criterion) {
    let params = OverloadParams::default();
    c.bench_function("overload run (2,500/s for 10 s)", |b| {
        b.iter(|| black_box(overload::run(black_box(&params))))
    });
    c.bench_function("overload recompute, 1 thread (run + 54 sweep runs)", |b| {
        b.iter(|| black_box(overload::recompute(black_box(&params))))
    });
    let previous = overload::recompute(&params);
    let dragged = OverloadParams {
        offered_per_s: 2_600.0,
        ..params.clone()
    };
    c.bench_function("overload step of the offered load (curves kept)", |b| {
        b.iter(|| black_box(overload::recompute_after(black_box(&previous), black_box(&dragged))))
    });
    c.bench_function("overload screen step, curves recomputed (shrunk-pool sweep)", |b| {
        b.iter(|| black_box(overload::screen_recompute_after(None, black_box(&params))))
    });
    let screen = overload::screen_recompute_after(None, &params);
    c.bench_function("overload screen step of the offered load (curves kept)", |b| {
        b.iter(|| {
            black_box(overload::screen_recompute_after(
                Some(black_box(&screen)),
                black_box(&dragged),
            ))
        })
    });
    // Measured only if it is the same result: the split must not change a single point.
    let short = OverloadParams {
        duration_s: 2.0,
        ..params.clone()
    };
    assert_eq!(recompute_parallel(&short, 2), overload::recompute(&short));
    c.bench_function("overload recompute, 2 threads", |b| {
        b.iter(|| black_box(recompute_parallel(black_box(&params), 2)))
    });
}

criterion_group!(benches, slider_step);
criterion_main!(benches);
