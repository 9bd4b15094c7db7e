//! Lab 3, the circuit breaker: the engine's breaker through the Atlas's brownout (the live runs
//! are in `tests/slow/`).

mod results;
mod steps;
