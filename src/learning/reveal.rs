//! Predict, then observe, before any prompt opens: while the current step's check is still
//! unanswered, the simulated run it asks about stays hidden, so the learner cannot read the
//! answer off the screen and type it in.
//!
//! The run shows again once the check is answered (right or not, in this lab's progress),
//! or once the learner asks to see it without predicting (`x`, that step only, for this
//! session: the check stays unanswered and can still be predicted). A step without a check
//! hides nothing. A live screen is never hidden whole (its run is the learner's to start
//! and watch), but the numbers it draws are named like the simulation's and masked by the
//! same rule until the verdict: a finished run's `measured 1.11` was read off and typed in.

use std::collections::BTreeSet;

use crate::content::{LabFile, Question};
use crate::learning::progress::Progress;

/// The check of step `step` of `lab`, tagged with its lab, if the step has one.
pub fn step_check(lab: &LabFile, step: usize) -> Option<Question> {
    let id = lab.steps.get(step)?.check.as_deref()?;
    lab.checks.iter().find(|check| check.id == id).map(|check| Question {
        lab: Some(lab.id.clone()),
        ..check.clone()
    })
}

/// The steps whose run the learner chose to see without predicting: kept in the screen for
/// the session, never saved (revealing is not answering).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Revealed(BTreeSet<usize>);

impl Revealed {
    /// Marks `step` revealed; true if it was not already.
    pub fn insert(&mut self, step: usize) -> bool {
        self.0.insert(step)
    }

    pub fn contains(&self, step: usize) -> bool {
        self.0.contains(&step)
    }
}

/// Whether the check `check_id` of `lab` was predicted in the lab, right or not (a file from
/// before answers were kept per lab still lists the checks passed).
pub fn answered(progress: &Progress, lab: &LabFile, check_id: &str) -> bool {
    progress.labs.get(lab.lab.name()).is_some_and(|saved| {
        saved
            .check_answers
            .get(check_id)
            .is_some_and(|answers| answers.answered > 0)
            || saved.checks_passed.iter().any(|id| id == check_id)
    })
}

/// Whether step `step` of `lab`, on a simulated page, hides its run: it has a check that is
/// neither answered in `progress` nor `revealed`.
pub fn step_hides_run(lab: &LabFile, step: usize, revealed: &Revealed, progress: &Progress) -> bool {
    step_check(lab, step).is_some_and(|check| !revealed.contains(step) && !answered(progress, lab, &check.id))
}

/// How many of `lab`'s checks still wait for a prediction: neither answered in `progress`
/// nor seen with `x` this session. While any waits, the lesson panel keeps the lab's book
/// chapter folded, since the chapter works out every answer (Lab 2's opens with 4 x 4 x 4 =
/// 64, Lab 3's results table gives 44 and 10.29 s); the book screen has it whenever the
/// learner chooses to read it.
pub fn checks_waiting(lab: &LabFile, revealed: &Revealed, progress: &Progress) -> usize {
    (0..lab.steps.len())
        .filter(|&step| step_hides_run(lab, step, revealed, progress))
        .count()
}

/// What a displayed run must not show yet: all of it ([`Masked::whole`]: a prompt is open,
/// or the current step's check waits for a prediction), or the numbers other steps'
/// unanswered checks ask for (metric name to the step, from 0, whose check asks for it).
///
/// The whole-panel hiding covers the current step only; another step's check may be
/// scored at the very settings on screen (step 2 of Lab 2 asks about row C of step 1's run),
/// so without the numbers a verdict or a step without a check would show the next answer.
/// A report row hides them by metric before it is text (the report's cells ask [`Masked::step`]);
/// a view formatting a number itself asks [`Masked::number`], and leaves out a chart series
/// or marker that [`Masked::contains`] names, saying [`Why::text`] instead.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Masked {
    numbers: std::collections::BTreeMap<String, usize>,
    whole: Option<Why>,
}

/// Why numbers are hidden, in the screen's words: the one legend of hiding, for a whole
/// panel and for a chart that waits for a masked number. One hidden number shows
/// [`placeholder`] in its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A prediction prompt is open: its answer must not be on screen.
    Predicting,
    /// The current step's check waits for a prediction (or a reveal).
    UntilPredicted,
    /// Step (from 0) asks for a number this drawing shows.
    AskedBy(usize),
}

impl Why {
    pub fn text(self) -> String {
        match self {
            Why::Predicting => "hidden while you predict: the verdict shows the run".to_string(),
            // What to press, either way.
            Why::UntilPredicted => "hidden until you predict (p) or reveal (x)".to_string(),
            Why::AskedBy(step) => format!("hidden until step {} is predicted (or revealed with x)", step + 1),
        }
    }
}

impl Masked {
    /// Everything hidden, for `why`.
    pub fn all(why: Why) -> Self {
        Masked {
            numbers: Default::default(),
            whole: Some(why),
        }
    }

    /// Why the whole run is hidden, if it is: its panels say so and draw nothing of it.
    pub fn whole(&self) -> Option<Why> {
        self.whole
    }

    /// The step (from 0) that asks for `metric`, if its number is masked.
    pub fn step(&self, metric: &str) -> Option<usize> {
        self.numbers.get(metric).copied()
    }

    pub fn contains(&self, metric: &str) -> bool {
        self.numbers.contains_key(metric)
    }

    /// The first step asking for any of `metrics`: a chart drawing them waits for it.
    pub fn first_step<'a>(&self, metrics: impl IntoIterator<Item = &'a str>) -> Option<usize> {
        metrics.into_iter().filter_map(|metric| self.step(metric)).min()
    }

    /// `shown` formatted, or the placeholder naming the step that asks for `metric`.
    pub fn number(&self, metric: &str, shown: impl FnOnce() -> String) -> String {
        self.step(metric).map_or_else(shown, placeholder)
    }

    /// The numbers either masks, each for the first step asking (a live screen draws its
    /// run's numbers and the simulation's); the whole-panel reason of `self`, else `other`'s.
    #[must_use]
    pub fn union(mut self, other: Masked) -> Self {
        for (metric, step) in other.numbers {
            let first = self.numbers.entry(metric).or_insert(step);
            *first = (*first).min(step);
        }
        self.whole = self.whole.or(other.whole);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty() && self.whole.is_none()
    }
}

/// What stands in for a masked number, everywhere: `?s` and the step (from 1) that asks for
/// it. It opens with `?` so it cannot be read as a value (`/readyz (step 2)` read as the
/// probe's answer), and it is as narrow as most numbers, so a report row pads it to the
/// number's column ([`crate::report::cells::Row::join`]). What it means is said once, by the
/// lab screen's one legend ([`LEGENDS`]), wherever one is on screen.
pub fn placeholder(step: usize) -> String {
    format!("?s{}", step + 1)
}

/// The one legend of [`placeholder`], longest first: the screen draws the longest that fits.
/// Its wording is [`Why::AskedBy`]'s, for any step.
pub const LEGENDS: [&str; 3] = [
    "?sN: hidden until step N is predicted (or revealed with x)",
    "?sN: hidden until step N is predicted",
    "?sN: hidden",
];

/// Whether `text` shows a [`placeholder`]: `?s` and a digit, not inside a word (the
/// legend's own `?sN` is not one).
pub fn shows_placeholder(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(3).enumerate().any(|(at, three)| {
        three[0] == '?' && three[1] == 's' && three[2].is_ascii_digit() && (at == 0 || !chars[at - 1].is_alphanumeric())
    })
}

/// How many of `check`'s own settings a run at `run_values` differs from: 0 for a check on
/// screen (its answer is whatever the sliders show). Settings in `spanning` are left out (a
/// drawing covers every value of them: Lab 2's p-curve spans every p), and so are settings
/// moot in both runs ([`crate::content::moot`]: an up database's window); a parameter the
/// run does not name counts as equal, as
/// the lab screen's `sliders_at_settings` compares.
fn settings_differing(check: &crate::content::Question, run_values: &[(String, f64)], spanning: &[&str]) -> usize {
    use crate::content::params::Values;
    check
        .settings
        .as_ref()
        .and_then(crate::content::question::CheckSettings::fixed)
        .map_or(0, |own| {
            // A setting moot in both runs cannot change the answer: the rolling restart that
            // `c` runs with the database up asks step 8's question whatever the window says.
            let run_moot = crate::content::moot::moot(run_values);
            let moot: Vec<&str> = crate::content::moot::moot(own)
                .into_iter()
                .filter(|name| run_moot.contains(name))
                .collect();
            own.iter()
                .filter(|(name, _)| !spanning.contains(&name.as_str()))
                .filter(|(name, _)| !moot.contains(&name.as_str()))
                .filter(|(name, value)| run_values.value(name).is_some_and(|run| (run - value).abs() >= 1e-9))
                .count()
        })
}

/// The run a view shows, as [`masked_metrics`] judges it.
pub struct ShownRun<'a> {
    /// Every parameter's value in that run.
    pub values: &'a [(String, f64)],
    /// Its named numbers ([`crate::learning::metrics`]).
    pub metrics: &'a [crate::learning::metrics::Metric],
}

/// The metrics a run must mask: those of every check of `lab` on a guided step that is
/// neither answered in `progress` nor `revealed`, and whose answer that run shows: it is the
/// run the check is scored on (no setting differs, [`settings_differing`]), or it is one
/// setting away and its number for the check's metric would be scored right (`answer` gives
/// a check's answer at its own settings). The second catches a setting the number does not
/// depend on: Lab 1's fleet step 4 (a 60 s outage) restarts first at the 61.0 s that step 5
/// (a 300 s outage) asks for. Runs further away are other experiments: a 0 there is not the
/// answer given away. The current step's own check is among them while unanswered, which
/// changes nothing: its panels are hidden whole then. A check `given_away_at_any_settings`
/// (its view draws the arithmetic: Lab 4's bulkhead) is masked in any run showing its number.
/// A masked check's `given_away_by` numbers are masked with its own, for the same step.
pub fn masked_metrics(
    lab: &LabFile,
    shown: &ShownRun,
    spanning: &[&str],
    answer: impl Fn(&crate::content::Question) -> Option<f64>,
    (revealed, progress): (&Revealed, &Progress),
) -> Masked {
    let mut masked = std::collections::BTreeMap::new();
    for step in 0..lab.steps.len() {
        let Some(check) = step_check(lab, step) else { continue };
        if revealed.contains(step) || answered(progress, lab, &check.id) {
            continue;
        }
        // A run without the check's number (a breaker that never opens) has nothing to hide.
        let Some(number) = crate::learning::metrics::lookup(shown.metrics, check.metric.as_deref().unwrap_or_default())
        else {
            continue;
        };
        let shows_answer = check.given_away_at_any_settings
            || match settings_differing(&check, shown.values, spanning) {
                0 => true,
                1 => answer(&check).is_some_and(|answer| check.number_is_right(number, answer)),
                _ => false,
            };
        if !shows_answer {
            continue;
        }
        // The numbers the answer follows from go with it: the same run shows them.
        for metric in check.metric.iter().chain(&check.given_away_by) {
            masked.entry(metric.clone()).or_insert(step);
        }
    }
    Masked {
        numbers: masked,
        whole: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    #[test]
    fn a_placeholder_is_found_in_a_line_and_the_legend_is_not_one() {
        assert!(shows_placeholder(&format!("to sick={} degraded", placeholder(1))));
        assert!(shows_placeholder(&placeholder(11)));
        for legend in LEGENDS {
            assert!(!shows_placeholder(legend), "{legend}");
        }
        assert!(
            !shows_placeholder("costs?s are high"),
            "inside a word is no placeholder"
        );
        assert!(!shows_placeholder("what is it? s2 maybe"));
    }

    /// Review 6: `c` on fleet step 8 ran the rolling restart with the database up and its
    /// window at 30-330 s, two settings from step 8's check (window 30-90 s), and showed its
    /// "failed 27". An up database's window is no difference; a down one's is.
    #[test]
    fn an_up_databases_window_is_no_difference() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(crate::content::LabId::Health);
        let check = lab
            .checks
            .iter()
            .find(|c| c.id == "fleet-rolling-prestop-0-failed")
            .expect("step 8's check");
        let own = check
            .settings
            .as_ref()
            .and_then(crate::content::question::CheckSettings::fixed)
            .expect("fixed");
        let moved = |state: f64| -> Vec<(String, f64)> {
            own.iter()
                .map(|(name, value)| match name.as_str() {
                    "fleet_db_start_s" => (name.clone(), 10.0),
                    "fleet_db_end_s" => (name.clone(), 330.0),
                    "fleet_db_state" => (name.clone(), state),
                    _ => (name.clone(), *value),
                })
                .collect()
        };
        assert_eq!(settings_differing(check, &moved(0.0), &[]), 0);
        assert_eq!(settings_differing(check, &moved(2.0), &[]), 3);
    }
}
