//! Fleet benchmarks: ten replicas for ten model minutes, as `run fleet --sim` runs them.

use criterion::{Criterion, criterion_group, criterion_main};
use resilience_lab::engine::fleet::{FleetParams, FleetScenario, simulate};
use std::hint::black_box;

fn ten_replicas_ten_minutes(c: &mut Criterion) {
    for scenario in [FleetScenario::LivenessChecksDb, FleetScenario::ProcessLocal] {
        let mut params = FleetParams::scenario(scenario);
        params.replicas = 10;
        params.duration_s = 600.0;
        c.bench_function(&format!("fleet {} (10 replicas, 600 s)", scenario.name()), |b| {
            b.iter(|| black_box(simulate(black_box(&params))))
        });
    }
}

criterion_group!(benches, ten_replicas_ten_minutes);
criterion_main!(benches);
