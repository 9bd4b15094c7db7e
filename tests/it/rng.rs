//! The Python-compatible RNG against values printed by CPython 3.11:
//! `r = random.Random(seed); [r.random() for _ in range(3)]` and `Random(seed).uniform(0, 1.5)`.

use resilience_lab::engine::pyrandom::PyRandom;

const CPYTHON: [(u128, [f64; 3], f64); 6] = [
    (
        0,
        [0.8444218515250481, 0.7579544029403025, 0.420571580830845],
        1.266632777287572,
    ),
    (
        1,
        [0.13436424411240122, 0.8474337369372327, 0.763774618976614],
        0.20154636616860183,
    ),
    (
        7,
        [0.32383276483316237, 0.15084917392450192, 0.6509344730398537],
        0.48574914724974355,
    ),
    (
        42,
        [0.6394267984578837, 0.025010755222666936, 0.27502931836911926],
        0.9591401976868257,
    ),
    (
        4_294_967_295,
        [0.6353574441341173, 0.20319993954407756, 0.6073666030347188],
        0.9530361662011759,
    ),
    (
        4_294_967_296,
        [0.11299430095636409, 0.41782886486292836, 0.0166763664992291],
        0.16949145143454614,
    ),
];

#[test]
fn random_matches_cpython_for_each_seed() {
    for (seed, expected, _) in CPYTHON {
        let mut rng = PyRandom::new(seed);
        let drawn = [rng.random(), rng.random(), rng.random()];
        assert_eq!(drawn, expected, "seed {seed}");
    }
}

#[test]
fn uniform_matches_cpython_for_each_seed() {
    for (seed, _, expected) in CPYTHON {
        assert_eq!(PyRandom::new(seed).uniform(0.0, 1.5), expected, "seed {seed}");
    }
}

#[test]
fn seeds_above_64_bits_use_every_word() {
    // random.Random(2**64 + 5).random()
    assert_eq!(PyRandom::new((1u128 << 64) + 5).random(), 0.5105783769365112);
}
