//! Lab 3: the brownout run's parameters from the sliders, a check's settings or
//! `run breaker`'s flags, and the rules that hold between them.

use crate::content::lab::LabFile;
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

#[cfg(test)]
mod tests {
    use super::*;
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
