//! The engine's breaker driven through the Atlas's brownout, transition by transition.

use resilience_lab::engine::breaker::{BreakerConfig, BreakerState};
use resilience_lab::engine::brownout::{BrownoutParams, compare, simulate};

fn log(params: &BrownoutParams) -> Vec<String> {
    simulate(params, true)
        .transitions
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn default_run_cycles_open_and_half_open_every_five_seconds_then_closes() {
    let transitions = simulate(&BrownoutParams::default(), true).transitions;
    assert_eq!(transitions.len(), 13);
    assert_eq!((transitions[0].t_s, transitions[0].to), (10.29, BreakerState::Open));
    for pair in transitions[1..11].chunks(2) {
        assert_eq!(pair[0].to, BreakerState::HalfOpen);
        assert_eq!(pair[1].to, BreakerState::Open, "a trial times out 0.2 s later");
        assert!((pair[1].t_s - pair[0].t_s - 0.2).abs() < 1e-9);
    }
    assert_eq!(transitions[12].to, BreakerState::Closed);
    assert_eq!(
        transitions[12].t_s, 41.36,
        "three trials of 40 ms succeed after the brownout"
    );
}

#[test]
fn atlas_exercise_resilience4j_window_opens_at_10_69_s() {
    let params = BrownoutParams {
        breaker: BreakerConfig {
            window: 100,
            min_calls: 100,
            ..BreakerConfig::default()
        },
        ..BrownoutParams::default()
    };
    assert_eq!(log(&params)[0], "t=10.69s closed -> open");
}

#[test]
fn atlas_exercise_one_second_open_time_probes_more_often() {
    let params = BrownoutParams {
        breaker: BreakerConfig {
            open_s: 1.0,
            ..BreakerConfig::default()
        },
        ..BrownoutParams::default()
    };
    let run = compare(&params);
    assert_eq!(log(&params)[1], "t=11.29s open -> half_open");
    assert!(
        run.with_breaker.summary.sick_calls > 44,
        "shorter open time sends more trials into the brownout"
    );
    assert!(run.with_breaker.summary.degraded < 3133, "and recovers sooner after it");
}

#[test]
fn no_breaker_means_every_brownout_call_waits_the_timeout() {
    let run = compare(&BrownoutParams::default());
    assert_eq!(run.timeout_only.summary.sick_calls, 3000);
    assert_eq!(run.timeout_only.summary.p99_wait_ms, 200.0);
    assert!(
        (run.timeout_only.summary.stuck - 20.0).abs() < 1e-9,
        "Little's law: 100/s x 0.2 s"
    );
    assert!(run.timeout_only.transitions.is_empty());
}

/// The Atlas's question: a full 100-call window at 50%, the dependency failing every call at
/// 2 calls/s, opens 25 s after the first failure (50 failures / 2 per second). The rate slider
/// reaches 2 calls/s, so the app runs it: the sliders set there give that answer.
#[test]
fn the_sliders_reach_two_calls_a_second_and_open_after_25_s() {
    use resilience_lab::content::{Content, LabId, params};
    use resilience_lab::tui::slider::Slider;

    let content = Content::load(None).expect("the built-in labs load");
    let lab = content.lab(LabId::Breaker);
    let mut sliders: Vec<Slider> = lab.parameters.iter().cloned().map(Slider::new).collect();
    // The window fills with 120 healthy calls before the brownout, which outlasts the opening.
    for (name, value) in [
        ("rate", 2.0),
        ("window", 100.0),
        ("min_calls", 100.0),
        ("threshold", 0.5),
        ("duration_s", 120.0),
        ("brownout_start_s", 60.0),
        ("brownout_length_s", 50.0),
    ] {
        let slider = sliders.iter_mut().find(|s| s.spec.name == name).expect(name);
        slider.set_value(value);
        assert_eq!(slider.value(), value, "the {name} slider reaches {value}");
    }
    let run = params::brownout_params(lab, sliders.as_slice()).expect("calls");
    let first = simulate(&run, true).transitions[0].clone();
    assert_eq!(first.to, BreakerState::Open);
    let after_s = first.t_s - 60.0;
    // The 50th failing call goes out 24.5 s in and fails when its 200 ms timeout fires.
    assert!(
        (24.5..=25.5 + 0.2).contains(&after_s),
        "opened {after_s} s after the first failure"
    );
}
