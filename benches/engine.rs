//! Engine benchmarks: the Atlas's retry table and the brownout comparison, as the CLI runs them.

use criterion::{Criterion, criterion_group, criterion_main};
use resilience_lab::engine::breaker::{Breaker, BreakerConfig};
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

/// One closed-breaker outcome recorded into a full window: the cost must not grow with the
/// window (it recounted all of it on every call before rolling counts).
fn breaker_record(c: &mut Criterion) {
    for window in [20, 10_000] {
        let mut breaker = Breaker::new(BreakerConfig {
            window,
            min_calls: window,
            threshold: 1.0,
            ..BreakerConfig::default()
        });
        // Fill the window with outcomes that never reach the threshold.
        for i in 0..window {
            breaker.record(0.0, i.is_multiple_of(2));
        }
        let mut i = 0u64;
        c.bench_function(&format!("breaker record (window {window})"), |b| {
            b.iter(|| {
                i += 1;
                breaker.record(0.0, black_box(i.is_multiple_of(2)));
            })
        });
    }
}

criterion_group!(benches, retry_table, breaker_run, breaker_record);
criterion_main!(benches);
