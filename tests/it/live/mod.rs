//! Live labs in the default suite: a fast smoke test on 127.0.0.1:0 whose pass does not hang on
//! wall-clock margins (the rest is in `tests/slow/`).

mod bounds;
