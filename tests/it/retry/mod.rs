//! Lab 2, retries: slider bursts recompute once (the live runs are in `tests/slow/`).

mod charts;
mod slider_burst;
