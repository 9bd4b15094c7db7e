//! Engine benchmarks: the Atlas's retry table and the brownout comparison, as the CLI runs them,
//! each beside its floor (the table's random draws alone, a bare loop over the brownout's calls).

use criterion::{Criterion, criterion_group, criterion_main};
use resilience_lab::engine::breaker::{Breaker, BreakerConfig};
use resilience_lab::engine::brownout::{BrownoutParams, compare};
use resilience_lab::engine::pyrandom::PyRandom;
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

/// The retry table's floor: only the random draws its scenarios make (one per database
/// attempt at 0 < p < 1; none at p = 0 or 1), from a fresh generator per scenario as the table
/// seeds them. The table should stay within 5x of this.
fn retry_table_floor(c: &mut Criterion) {
    let draws: Vec<u64> = ATLAS_PS
        .iter()
        .filter(|&&p| p > 0.0 && p < 1.0)
        .flat_map(|&p| compare_policies(&[4, 4, 4], p, 0.1, 10_000, 42))
        .map(|(_, result)| result.db_attempts)
        .collect();
    let total: u64 = draws.iter().sum();
    c.bench_function(&format!("retry table floor ({total} random draws)"), |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for &count in &draws {
                let mut rng = PyRandom::new(42);
                for _ in 0..count {
                    sum += rng.random();
                }
            }
            black_box(sum)
        })
    });
}

/// The brownout comparison's floor: a bare loop over the same calls that only finds each
/// call's time, second and sickness and counts them. The comparison should stay within 4x.
fn breaker_run_floor(c: &mut Criterion) {
    let params = BrownoutParams::default();
    c.bench_function("brownout floor (2 x 6,000 calls, a bare per-call loop)", |b| {
        b.iter(|| {
            let params = black_box(&params);
            let rate = f64::from(params.rate);
            let seconds = params.duration_s.ceil() as usize;
            let mut per_second = vec![(0u64, 0u64); seconds];
            for _caller in 0..2 {
                for i in 0..params.total_calls() {
                    let now_s = i as f64 / rate;
                    let second = &mut per_second[(now_s as usize).min(seconds - 1)];
                    second.0 += 1;
                    second.1 += u64::from(params.is_sick(now_s));
                }
            }
            black_box(per_second)
        })
    });
}

criterion_group!(
    benches,
    retry_table,
    retry_table_floor,
    breaker_run,
    breaker_run_floor,
    breaker_record
);
criterion_main!(benches);
