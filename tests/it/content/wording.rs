//! What the labs' texts say to a learner, who has only the app and its book: no reference to
//! a lesson, note or exercise they cannot open.

use resilience_lab::content::Content;
use resilience_lab::tui::msg::Msg;

/// Words that point at material outside the app ("the source lesson's settings", "the retry
/// note asks", "the Atlas's table"): a learner cannot follow them (issue 26, a new user's trial).
const UNFOLLOWABLE: [&str; 6] = [
    "source lesson",
    "retry note",
    "the note's",
    "Atlas",
    "original exercise",
    "second exercise",
];

#[test]
fn no_lab_text_points_at_material_the_learner_cannot_open() {
    let content = Content::load(None).expect("the built-in labs load");
    let mut found = Vec::new();
    for lab in &content.labs {
        let texts = std::iter::once(("lesson", &lab.lesson))
            .chain(lab.steps.iter().map(|step| ("step", &step.text)))
            .chain(lab.checks.iter().map(|check| ("prompt", &check.prompt)))
            .chain(lab.checks.iter().map(|check| ("why", &check.explanation)))
            .chain(lab.parameters.iter().map(|spec| ("help", &spec.help)));
        for (what, text) in texts {
            for words in UNFOLLOWABLE {
                if text.contains(words) {
                    found.push(format!("{} {what}: {words:?} in {text:?}", lab.id));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Lab 5's half-open results name the breakers by what they do: "the note's breaker" named a
/// note the learner never saw (issue 26, a new user's trial).
#[test]
fn lab_5s_half_open_results_name_no_note() {
    use resilience_lab::engine::budget::{self, BudgetScenario};
    let run = budget::run(BudgetScenario::HalfOpen, &budget::BudgetParams::default());
    let rows: Vec<String> = resilience_lab::report::budget_rows(&run)
        .iter()
        .map(|row| row.line())
        .collect();
    assert!(rows.iter().any(|row| row.contains("no half-open limit")), "{rows:?}");
    for row in &rows {
        assert!(!UNFOLLOWABLE.iter().any(|words| row.contains(words)), "{row}");
    }
}

/// The whole numbers in `text`, each a run of digits not part of a decimal ("2.5" gives none).
fn whole_numbers(text: &str) -> Vec<u64> {
    let bytes = text.as_bytes();
    let mut numbers = Vec::new();
    let mut start = None;
    for (index, byte) in bytes.iter().chain(std::iter::once(&b' ')).enumerate() {
        match (byte.is_ascii_digit(), start) {
            (true, None) => start = Some(index),
            (false, Some(from)) => {
                let decimal = (from > 0 && bytes[from - 1] == b'.')
                    || (*byte == b'.' && bytes.get(index + 1).is_some_and(u8::is_ascii_digit));
                if !decimal {
                    numbers.extend(text[from..index].parse::<u64>().ok());
                }
                start = None;
            }
            _ => {}
        }
    }
    numbers
}

/// A step's check is open beside its page's sliders, and the focused slider's help shows under
/// them: no help on that page may state the check's answer ("keeps answering 503" beside "what
/// status code will /readyz return?", a beginner's trial). Answers of one digit are left out:
/// "0: none" or "1 in 3" say how a slider reads, not what a check asks.
#[test]
fn no_slider_help_states_the_answer_of_a_check_on_its_page() {
    use resilience_lab::learning::metrics;
    let content = Content::load(None).expect("the built-in labs load");
    let mut found = Vec::new();
    for lab in &content.labs {
        for (index, step) in lab.steps.iter().enumerate() {
            let Some(check) = step
                .check
                .as_deref()
                .and_then(|id| lab.checks.iter().find(|c| c.id == id))
            else {
                continue;
            };
            let Some(metric) = check.metric.as_deref() else {
                continue;
            };
            let defaults: Vec<(String, f64)> = lab
                .parameters
                .iter()
                .map(|spec| (spec.name.clone(), spec.default))
                .collect();
            let Some(answer) = metrics::lookup(&metrics::check_run(lab, check, &defaults[..]), metric) else {
                continue;
            };
            if answer.fract() != 0.0 || answer < 10.0 {
                continue;
            }
            for spec in lab.page_parameters(lab.step_page(index)) {
                if whole_numbers(&spec.help).contains(&(answer as u64)) {
                    found.push(format!(
                        "{} step {}: {} help {:?} states {answer}",
                        lab.id,
                        index + 1,
                        spec.name,
                        spec.help
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The 0 key puts the focused slider back to its default, so a step that says "set the
/// deregistration delay to 0" (default 1 s) sends a learner to the wrong key: such a step says
/// which keys reach 0 (a beginner's trial pressed 0 and got 1.0 s).
#[test]
fn a_step_setting_a_slider_to_zero_says_how_when_zero_is_not_its_default() {
    let content = Content::load(None).expect("the built-in labs load");
    let mut found = Vec::new();
    for lab in &content.labs {
        for (index, step) in lab.steps.iter().enumerate() {
            let text = step.text.to_lowercase();
            for spec in lab.page_parameters(lab.step_page(index)) {
                let asks_zero = [
                    format!("{} to 0 ", spec.label.to_lowercase()),
                    format!("{} to 0:", spec.label.to_lowercase()),
                    format!("{} to 0.", spec.label.to_lowercase()),
                    format!("{} to 0 (", spec.label.to_lowercase()),
                ]
                .iter()
                .any(|words| text.contains(words.as_str()));
                if asks_zero && spec.default != 0.0 && !(text.contains("home") || text.contains('←')) {
                    found.push(format!("{} step {}: {:?}", lab.id, index + 1, step.text));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Lab 5's Retry-After check counts each client's first call, the one the 429 answered: the
/// prompt says so, or "each holds all its calls behind one gate" reads as none getting through.
#[test]
fn the_retry_after_prompt_counts_each_clients_first_call() {
    let content = Content::load(None).expect("the built-in labs load");
    let check = content
        .labs
        .iter()
        .flat_map(|lab| &lab.checks)
        .find(|check| check.metric.as_deref() == Some("budget.arrivals_in_window"))
        .expect("the Retry-After check");
    assert!(check.prompt.contains("first call"), "{}", check.prompt);
}

/// A step names a chart as its title reads: Lab 4's "read the queue chart" sent a beginner
/// through every `v` view looking for a title that none has. Every chart a Lab 4 step names
/// in quotes is a panel title on Lab 4's curves view (revealed, at 100x30).
#[test]
fn lab_4s_steps_name_the_queue_charts_by_their_titles() {
    let content = Content::load(None).expect("the built-in labs load");
    let overload = content.labs.iter().find(|lab| lab.id == "overload").expect("Lab 4");
    let mut app = crate::common::visited_app(100, 30);
    for msg in [Msg::Down, Msg::Down, Msg::Down, Msg::Open, Msg::Reveal] {
        app.update(msg);
    }
    let screen = crate::common::render(&app);
    let mut named = 0;
    for step in &overload.steps {
        assert!(!step.text.contains("queue chart"), "{}", step.text);
        for (at, _) in step.text.match_indices("\" chart") {
            let title = step.text[..at].rsplit('"').next().unwrap_or_default();
            assert!(
                screen.contains(&format!(" {title} ")),
                "{title:?} is no panel of:\n{screen}"
            );
            named += 1;
        }
    }
    assert!(named >= 1, "a step names the queue chart");
}
