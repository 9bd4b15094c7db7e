//! Predict-then-observe in a lab screen: the lab's guided steps, a prompt for the current
//! step's check, and the prediction scored against the run the check is about.
//!
//! A check carries its own settings (`content::settings`): it is scored by running the
//! simulation at them, whatever the sliders say, so a learner who answers the prompt's
//! question is marked by the run the prompt describes. A check "at the settings on screen"
//! is scored at the sliders' values, which its prompt shows.

use crate::content::params::Values;
use crate::content::question::CheckSettings;
use crate::content::{LabFile, Question};
use crate::learning::metrics::{self, Metric};
use crate::learning::quiz::{self, Asked, Response, Verdict};
#[cfg(test)]
use crate::learning::reveal::step_check;
use crate::tui::slider::Slider;
use crate::tui::widgets::number_input::NumberInput;

/// A prediction scored against the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    pub check_id: String,
    pub predicted: f64,
    /// What the run measured; `None` when the run does not produce the check's metric.
    pub measured: Option<f64>,
    /// Whether `measured` comes from a finished live run rather than the simulation.
    pub live: bool,
    pub verdict: Verdict,
    pub explanation: String,
    /// The learner saw this step's run (`x`) before this answer: a right one is recall, not a
    /// prediction, and is saved as right after a miss.
    pub seen_first: bool,
}

/// One lab's guided-step state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PredictState {
    /// Index into the lab's `steps`.
    pub step: usize,
    /// `hint` is the note that this view's steps go on in the other one: Enter closes it
    /// (nothing follows here), so its keys are [`crate::tui::keys::Context::Note`]'s, not a verdict's.
    pub elsewhere_note: bool,
    /// A verdict too long for its card shows its end (PgDn), not its start (PgUp); the
    /// line of what to do next stays at the card's foot either way.
    pub verdict_end: bool,
    /// The prompt is open and this is what was typed.
    pub input: Option<NumberInput>,
    /// The last prediction's outcome, shown until closed.
    pub observed: Option<Observed>,
    /// A one-line message: a step without a check (shown like an outcome), a number still to type.
    pub hint: Option<String>,
}

impl PredictState {
    /// Whether the prompt or an outcome covers the lab screen (keys go to it).
    pub fn is_open(&self) -> bool {
        self.input.is_some() || self.observed.is_some() || self.hint.is_some()
    }

    /// Whether an outcome (or a note on a step without a check) shows, waiting for Enter or Esc.
    pub fn is_showing_outcome(&self) -> bool {
        self.observed.is_some() || (self.input.is_none() && self.hint.is_some())
    }

    pub fn close(&mut self) {
        self.input = None;
        self.observed = None;
        self.hint = None;
        self.elsewhere_note = false;
        self.verdict_end = false;
    }
}

/// The named parameters with their values as the sliders display them, e.g.
/// `Breaker window 20 calls, Minimum calls 10 calls`.
pub fn describe(specs: &[crate::content::ParameterSpec], names: &[&str], values: &(impl Values + ?Sized)) -> String {
    names
        .iter()
        .filter_map(|name| {
            let spec = specs.iter().find(|spec| spec.name == *name)?;
            let value = values.value(name).unwrap_or(spec.default);
            Some(format!("{} {}", spec.label, spec.display(value)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the sliders stand at the check's own settings (always, for a check on screen):
/// only then may a live run, which runs at the sliders, score it.
pub fn sliders_at_settings(check: &Question, sliders: &[Slider]) -> bool {
    check
        .settings
        .as_ref()
        .and_then(CheckSettings::fixed)
        .is_none_or(|own| {
            own.iter()
                .all(|(name, value)| sliders.value(name).is_none_or(|slider| (slider - value).abs() < 1e-9))
        })
}

/// How much a prompt's conditions say of a check's own settings: a card short of rows asks
/// for less before it drops the step's own text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionDetail {
    /// Each setting that differs, and the slider's value beside it.
    Full,
    /// Each setting that differs, without the sliders' values.
    Settings,
    /// Only how many settings differ.
    Count,
}

/// The conditions a prompt shows under its question: for a check at the settings on screen,
/// the sliders it `shows`; for a check with its own settings, those the sliders differ from
/// (nothing when they stand at them).
pub fn conditions(lab: &LabFile, check: &Question, sliders: &[Slider]) -> Option<String> {
    conditions_in(lab, check, sliders, ConditionDetail::Full)
}

/// [`conditions`] with as much of a check's own settings as `detail` says; the settings on
/// screen are named in full at every detail (they are few, and they are what to look at).
pub fn conditions_in(lab: &LabFile, check: &Question, sliders: &[Slider], detail: ConditionDetail) -> Option<String> {
    match check.settings.as_ref()? {
        CheckSettings::OnScreen => {
            let names: Vec<&str> = check.shows.iter().map(String::as_str).collect();
            Some(format!(
                "At the settings on screen: {}",
                describe(&lab.parameters, &names, sliders)
            ))
        }
        CheckSettings::Fixed(own) => {
            let differ: Vec<String> = lab
                .parameters
                .iter()
                .filter_map(|spec| {
                    let set = own.value(&spec.name)?;
                    let slider = sliders.value(&spec.name)?;
                    ((set - slider).abs() > 1e-9).then(|| match detail {
                        ConditionDetail::Full => {
                            format!("{} {} (slider {})", spec.label, spec.display(set), spec.display(slider))
                        }
                        _ => format!("{} {}", spec.label, spec.display(set)),
                    })
                })
                .collect();
            (!differ.is_empty()).then(|| match detail {
                ConditionDetail::Count => format!(
                    "Scored at the check's own settings: {} {} from the sliders",
                    differ.len(),
                    if differ.len() == 1 { "differs" } else { "differ" }
                ),
                _ => format!("Scored at the check's own settings: {}", differ.join(", ")),
            })
        }
    }
}

/// Scores `predicted` for `check` against the simulation at the check's settings (at the
/// sliders for a check on screen), or against the metrics of a finished live run when there
/// is one that produces the check's metric and the sliders stand at the check's settings.
/// The sliders moved to `check`'s own settings, or `None` when the check has none or the
/// sliders already stand there (the sliders' run is then the check's).
pub fn sliders_for_check(check: &Question, sliders: &[Slider]) -> Option<Vec<Slider>> {
    let own = check.settings.as_ref().and_then(CheckSettings::fixed)?;
    if sliders_at_settings(check, sliders) {
        return None;
    }
    let mut moved = sliders.to_vec();
    for (name, value) in own {
        if let Some(slider) = moved.iter_mut().find(|s| s.spec.name == *name) {
            slider.set_value(*value);
        }
    }
    Some(moved)
}

pub fn observe(
    lab: &LabFile,
    check: &Question,
    predicted: impl Into<quiz::Reading>,
    sliders: &[Slider],
    live_run: Option<Vec<Metric>>,
) -> Observed {
    let predicted: quiz::Reading = predicted.into();
    let produces = |run: &Vec<Metric>| quiz::expected_number(check, run).is_some();
    let (run, live) = match live_run
        .filter(produces)
        .filter(|_| sliders_at_settings(check, sliders))
    {
        Some(run) => (run, true),
        None => (metrics::check_run(lab, check, sliders), false),
    };
    let asked = Asked {
        question: check.clone(),
        choice_order: Vec::new(),
    };
    Observed {
        check_id: check.id.clone(),
        predicted: predicted.value,
        measured: quiz::expected_number(check, &run),
        live,
        verdict: quiz::grade(&asked, &Response::Number(predicted), &run),
        explanation: check.explanation.clone(),
        seen_first: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::content::LabId;

    fn sliders(lab: &LabFile) -> Vec<Slider> {
        lab.parameters.iter().cloned().map(Slider::new).collect()
    }

    /// What Lab 3's first opening depends on, for its check put at the settings on screen.
    const SHOWS: [&str; 8] = [
        "rate",
        "duration_s",
        "timeout_ms",
        "brownout_start_s",
        "brownout_length_s",
        "window",
        "min_calls",
        "threshold",
    ];

    fn set(sliders: &mut [Slider], name: &str, value: f64) {
        for slider in sliders.iter_mut().filter(|s| s.spec.name.starts_with(name)) {
            slider.set_value(value);
        }
    }

    #[test]
    fn a_check_is_scored_at_its_own_settings_whatever_the_sliders_say() {
        let content = Content::load(None).expect("content");
        let lab = content.lab(LabId::Retry);
        let check = step_check(lab, 0).expect("step 1 has a check");
        let mut sliders = sliders(lab);
        let observed = observe(lab, &check, 64.0, &sliders, None);
        assert!(observed.verdict.right, "{observed:?}");
        assert_eq!(observed.measured, Some(64.0));
        // Step 2 moves p to 0.30, and two attempts per layer would make 2 x 2 x 2 = 8: the
        // check still asks about p = 1.0 and 4 attempts a layer, and is scored there.
        set(&mut sliders, "p", 0.3);
        set(&mut sliders, "attempts_", 2.0);
        let observed = observe(lab, &check, 64.0, &sliders, None);
        assert!(observed.verdict.right, "{observed:?}");
        assert_eq!(observed.measured, Some(64.0));
    }

    #[test]
    fn the_prompt_shows_the_conditions_it_is_scored_at() {
        let content = Content::load(None).expect("content");
        let retry = content.lab(LabId::Retry);
        let check = step_check(retry, 0).expect("step 1 has a check");
        let mut at_retry = sliders(retry);
        assert_eq!(
            conditions(retry, &check, &at_retry),
            None,
            "the sliders stand at its settings"
        );
        set(&mut at_retry, "p", 0.3);
        assert_eq!(
            conditions(retry, &check, &at_retry).as_deref(),
            Some("Scored at the check's own settings: Failure probability 1.00 (slider 0.30)")
        );
        let breaker = content.lab(LabId::Breaker);
        // No shipped check is at the settings on screen since Lab 3's step 7 carries its own
        // window (issue 26): its check, put on screen, stands for one.
        let mut check = step_check(breaker, 6).expect("step 7 asks when the breaker first opens");
        check.settings = Some(CheckSettings::OnScreen);
        check.shows = SHOWS.map(str::to_string).to_vec();
        let mut at_breaker = sliders(breaker);
        set(&mut at_breaker, "window", 100.0);
        let shown = conditions(breaker, &check, &at_breaker).expect("an on-screen check shows its sliders");
        assert!(
            shown.starts_with("At the settings on screen: Call rate 100 calls/s"),
            "{shown}"
        );
        // What else decides the first opening shows too: the timeout, the brownout, the breaker.
        for shows in [
            "Timeout 200 ms",
            "Brownout start 10 s",
            "Breaker window 100 calls, Minimum calls 10",
        ] {
            assert!(shown.contains(shows), "{shown}");
        }
    }

    #[test]
    fn a_check_on_screen_is_scored_at_the_sliders() {
        let content = Content::load(None).expect("content");
        let lab = content.lab(LabId::Breaker);
        let mut check = step_check(lab, 6).expect("step 7 asks when the breaker first opens");
        check.settings = Some(CheckSettings::OnScreen);
        check.shows = SHOWS.map(str::to_string).to_vec();
        let mut sliders = sliders(lab);
        assert!((observe(lab, &check, 10.29, &sliders, None).measured.expect("opens") - 10.29).abs() < 0.01);
        set(&mut sliders, "window", 100.0);
        set(&mut sliders, "min_calls", 100.0);
        let observed = observe(lab, &check, 10.69, &sliders, None);
        assert!(observed.verdict.right, "{observed:?}");
    }

    #[test]
    fn a_finished_live_run_scores_the_prediction_when_it_has_the_metric() {
        let content = Content::load(None).expect("content");
        let lab = content.lab(LabId::Breaker);
        let check = step_check(lab, 1).expect("step 2 asks for the calls to the sick dependency");
        let mut sliders = sliders(lab);
        let live_run = vec![("breaker.with_breaker.sick_calls".to_string(), 45.0)];
        let observed = observe(lab, &check, 45.0, &sliders, Some(live_run.clone()));
        assert!(observed.live && observed.verdict.right);
        assert_eq!(observed.measured, Some(45.0));
        // A live run without that metric leaves the simulation to score it.
        let observed = observe(
            lab,
            &check,
            45.0,
            &sliders,
            Some(vec![("breaker.other".to_string(), 1.0)]),
        );
        assert!(!observed.live);
        assert_eq!(observed.measured, Some(44.0));
        // A live run at other settings than the check's does not score it either.
        set(&mut sliders, "brownout_length_s", 20.0);
        let observed = observe(lab, &check, 45.0, &sliders, Some(live_run));
        assert!(!observed.live);
        assert_eq!(observed.measured, Some(44.0));
    }
}
