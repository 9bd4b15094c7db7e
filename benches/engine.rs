//! Engine benchmarks: the Atlas's retry table and the brownout comparison, as the CLI runs them.

use criterion::{Criterion, criterion_group, criterion_main};
use resilience_lab::engine::brownout::{BrownoutParams, compare};
use resilience_lab::engine::retry::{ATLAS_PS, compare_policies, jitter_sleeps_s};
use std::hint::black_box;

fn retry_table(c: &mut Criterion) {
    c.bench_function("retry table (9 scenarios x 10,000 actions)", |b| {
        b.iter(|| {
            for p in ATLAS_PS {
                black_box(compare_policies(&[4, 4, 4], black_box(p), 0.1, 10_000, 42));
            }
            black_box(jitter_sleeps_s(7, 6, 0.1, 2.0))
        })
    });
}

fn breaker_run(c: &mut Criterion) {
    let params = BrownoutParams::default();
    c.bench_function("brownout comparison (2 x 6,000 calls)", |b| {
        b.iter(|| black_box(compare(black_box(&params))))
    });
}

criterion_group!(benches, retry_table, breaker_run);
criterion_main!(benches);
