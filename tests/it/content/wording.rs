//! What the labs' texts say to a learner, who has only the app and its book: no reference to
//! a lesson, note or exercise they cannot open.

use resilience_lab::content::Content;

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
