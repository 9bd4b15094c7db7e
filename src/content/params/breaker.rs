//! Lab 3: the brownout run's parameters from the sliders, a check's settings or
//! `run breaker`'s flags, and the rules that hold between them.

use crate::content::LabId;
use crate::content::lab::{LabFile, LabParameterLimits, limit};
use crate::content::params::bound::{AtBound, default_of, value, whole};
use crate::content::values::Values;
use crate::engine::breaker::BreakerConfig;
use crate::engine::brownout::BrownoutParams;
use crate::error::UsageError;

/// The brownout's window: `brownout_start_s` and either `brownout_end_s` (the CLI's
/// `--brownout-s START,END`) or `brownout_length_s` (the sliders).
fn brownout_window_s(lab: &LabFile, values: &(impl Values + ?Sized)) -> (f64, f64) {
    match (values.value("brownout_start_s"), values.value("brownout_end_s")) {
        (Some(start_s), Some(end_s)) => (start_s, end_s),
        _ => match (values.value("brownout_start_s"), values.value("brownout_length_s")) {
            (Some(start_s), Some(length_s)) => (start_s, start_s + length_s),
            _ => {
                let start_s = default_of(lab, "brownout_start_s");
                (start_s, start_s + default_of(lab, "brownout_length_s"))
            }
        },
    }
}

/// The brownout run's parameters at the sliders or a check's settings (refused only when
/// they make no call at all: the app shows that run as empty).
pub fn brownout_params(lab: &LabFile, values: &(impl Values + ?Sized)) -> Result<BrownoutParams, UsageError> {
    resolve(lab, values, AtBound::Clamp)
}

/// The brownout run's parameters. Refused whatever the source when they make no call at
/// all; on the command line (`at` is [`AtBound::Refuse`]) also when the breaker could never
/// open or the brownout starts after the run's end. The app lets a learner try those (the
/// breaker then never opens, the chart shows no brownout); typed as flags they are almost
/// always a typo, so the command line says why instead of running.
pub fn resolve(lab: &LabFile, values: &(impl Values + ?Sized), at: AtBound) -> Result<BrownoutParams, UsageError> {
    let (brownout_start_s, brownout_end_s) = brownout_window_s(lab, values);
    let params = BrownoutParams {
        rate: whole(lab, values, "rate") as u32,
        duration_s: value(lab, values, "duration_s"),
        timeout_ms: value(lab, values, "timeout_ms"),
        healthy_ms: value(lab, values, "healthy_ms"),
        brownout_start_s,
        brownout_end_s,
        breaker: BreakerConfig {
            window: whole(lab, values, "window") as usize,
            min_calls: whole(lab, values, "min_calls") as usize,
            threshold: value(lab, values, "threshold"),
            open_s: value(lab, values, "open_s"),
            trial_calls: whole(lab, values, "trial_calls") as u32,
        },
    };
    if params.total_calls() == 0 {
        return Err(UsageError(format!(
            "--rate {} with --duration-s {} makes no call; allowed: rate x duration of at least 1",
            params.rate, params.duration_s
        )));
    }
    if at == AtBound::Clamp {
        return Ok(params);
    }
    if params.breaker.min_calls > params.breaker.window {
        return Err(UsageError(format!(
            "--min-calls {} is more than --window {}: the window never holds that many outcomes, so the breaker \
             could never open; allowed: min-calls up to the window",
            params.breaker.min_calls, params.breaker.window
        )));
    }
    if params.brownout_start_s >= params.duration_s {
        return Err(UsageError(format!(
            "--brownout-s starts at {} s but --duration-s {} ends the run before it; allowed: a brownout that \
             starts before the run ends",
            params.brownout_start_s, params.duration_s
        )));
    }
    Ok(params)
}

/// The most calls one caller of the Lab 3 simulation may make at the sliders' largest rate
/// and duration: two callers of 500,000 calls recompute in about 12 ms (20 to 30 ns a call
/// under load), within a 16 ms frame. The breaker's window does not count: recording an
/// outcome costs the same for any window.
pub const MAX_BREAKER_CALLS_PER_CALLER: f64 = 500_000.0;

/// Lab 3's whole-file bound: the calls one slider step recomputes at the largest rate and
/// duration a lab file allows (`max_of` gives a parameter's largest value by name).
fn calls_per_frame_problems(max_of: &dyn Fn(&str) -> Option<f64>) -> Vec<String> {
    let mut problems = Vec::new();
    if let (Some(rate), Some(duration_s)) = (max_of("rate"), max_of("duration_s"))
        && rate * duration_s > MAX_BREAKER_CALLS_PER_CALLER
    {
        problems.push(format!(
            "parameters \"rate\" and \"duration_s\": max {rate} calls/s for max {duration_s} s is {} calls a run, \
             too many to recompute within a frame on every slider step; allowed: rate max x duration_s max \
             up to {MAX_BREAKER_CALLS_PER_CALLER}",
            rate * duration_s
        ));
    }
    problems
}

/// Lab 3's parameters: each one its lab file must define, with the widest range the engine
/// accepts (the content checker holds a lab file to them).
#[linkme::distributed_slice(crate::content::lab::PARAMETER_LIMITS)]
static PARAMETER_LIMITS: LabParameterLimits = LabParameterLimits {
    lab: LabId::Breaker,
    whole_lab_problems: calls_per_frame_problems,
    limits: &[
        limit("rate", 1.0, 10_000.0, true),
        limit("duration_s", 1.0, 3_600.0, false),
        limit("timeout_ms", 1.0, 60_000.0, false),
        limit("healthy_ms", 0.0, 60_000.0, false),
        limit("brownout_start_s", 0.0, 3_600.0, false),
        limit("brownout_length_s", 0.1, 3_600.0, false),
        limit("window", 1.0, 10_000.0, true),
        limit("min_calls", 1.0, 10_000.0, true),
        limit("threshold", 0.01, 1.0, false),
        limit("open_s", 0.0, 3_600.0, false),
        limit("trial_calls", 1.0, 1_000.0, true),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_file_whose_largest_run_cannot_recompute_in_a_frame_is_refused() {
        let row = crate::content::lab::PARAMETER_LIMITS
            .iter()
            .find(|row| row.lab == LabId::Breaker)
            .expect("Lab 3 registers its limits");
        let largest = |rate: f64| {
            move |name: &str| match name {
                "rate" => Some(rate),
                "duration_s" => Some(1_000.0),
                _ => None,
            }
        };
        assert!(
            (row.whole_lab_problems)(&largest(500.0)).is_empty(),
            "500,000 calls fit"
        );
        let problems = (row.whole_lab_problems)(&largest(501.0));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("501000 calls a run"), "{problems:?}");
    }
    use crate::content::values::Defaults;
    use crate::content::{Content, LabId};

    #[test]
    fn a_brownout_window_comes_from_an_end_or_a_length() {
        let content = Content::load(None).expect("embedded content loads");
        let breaker = content.lab(LabId::Breaker);
        let by_end: &[(&str, f64)] = &[("brownout_start_s", 2.0), ("brownout_end_s", 8.0)];
        let by_length: &[(&str, f64)] = &[("brownout_start_s", 2.0), ("brownout_length_s", 6.0)];
        let window = |values: &[(&str, f64)]| {
            let params = brownout_params(breaker, values).expect("calls");
            (params.brownout_start_s, params.brownout_end_s)
        };
        assert_eq!(window(by_end), (2.0, 8.0));
        assert_eq!(window(by_length), (2.0, 8.0));
        let defaults = brownout_params(breaker, &Defaults).expect("calls");
        assert_eq!(
            defaults,
            BrownoutParams::default(),
            "the lab file as shipped is the Atlas's run"
        );
        let none: &[(&str, f64)] = &[("rate", 0.0)];
        assert!(brownout_params(breaker, none).is_err());
    }

    #[test]
    fn the_command_line_refuses_a_breaker_that_could_never_open_and_the_sliders_allow_it() {
        let content = Content::load(None).expect("embedded content loads");
        let breaker = content.lab(LabId::Breaker);
        let never: &[(&str, f64)] = &[("window", 10.0), ("min_calls", 20.0)];
        assert!(resolve(breaker, never, AtBound::Refuse).is_err());
        assert!(resolve(breaker, never, AtBound::Clamp).is_ok(), "a learner may try it");
    }
}
