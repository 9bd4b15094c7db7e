//! The one map from a parameter's name (a slider in a lab file, a flag on the command line,
//! a check's own settings) to the engine's parameters: one `resolve` and one set of bounds
//! per parameter set, whichever way a run was asked for.
//!
//! Every source of values implements [`Values`]. A name the source does not give takes the
//! lab file's default (which `--content` may have changed for a class), or for the fleet and
//! Lab 4, whose command line starts from a named scenario, the scenario's value.
//!
//! A value past a bound is treated by [`AtBound`]: the command line refuses it (one line
//! naming the flag, the value and what is allowed; exit 2), the sliders and a check's
//! settings are held at the bound. So a rule such as "a probe's timeout is below every probe
//! period" is written once, in its set's file, and both sides follow it.
//!
//! - [`health`]: Lab 1's server; [`fleet`]: Lab 1 at fleet scale;
//! - [`retry`]: Lab 2; [`breaker`]: Lab 3; [`overload`]: Lab 4.

mod bound;
pub mod breaker;
pub mod budget;
pub mod fleet;
pub mod health;
pub mod overload;
pub mod retry;

pub use crate::content::values::{Defaults, Values};
pub use bound::{AtBound, Bound, default_of, value};
pub use breaker::brownout_params;
pub use health::{health_config, live_port, probe_period_s};
pub use overload::{overload_bulkhead_params, overload_hang_params, overload_params};
pub use retry::{ATTEMPT_NAMES, RetrySettings, layered_defaults, retry_settings};
