//! Lab 4: what one slider step costs, the run at the lesson's defaults plus every
//! policy's goodput curve (6 policies x 9 loads), sequential and on two threads.

use criterion::{Criterion, criterion_group, criterion_main};
use resilience_lab::engine::overload::{self, OverloadParams};
use resilience_lab::tui::overload_recompute::recompute_parallel;
use std::hint::black_box;

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
    c.bench_function("overload recompute, 2 threads", |b| {
        b.iter(|| black_box(recompute_parallel(black_box(&params), 2)))
    });
}

criterion_group!(benches, slider_step);
criterion_main!(benches);
