//! The learning loop's rules, one test each, through the app's messages (no terminal, no child):
//! results hidden while predicting, Lab 1 live asked before the action, progress that counts
//! only what was done. (A check scored at its own settings whatever the sliders: tui_app.rs.)

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use resilience_lab::content::{Content, LabId};
use resilience_lab::live::run::Probe;
use resilience_lab::tui::app::App;
use resilience_lab::tui::frame::LabOutcome;
use resilience_lab::tui::keys::Context;
use resilience_lab::tui::msg::Msg;
use resilience_lab::tui::theme::Theme;
use resilience_lab::tui::theme::ThemeName;

fn app() -> App {
    let content = Content::load(None).expect("the built-in labs load");
    let mut app = App::new(content, Theme::new(ThemeName::Dark, false), Rect::new(0, 0, 100, 30));
    // A learner back for a later visit: no lesson opens by itself (the first visit has its own tests).
    app.mark_all_visited();
    app
}

fn text(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(app.area.width, app.area.height)).unwrap();
    terminal.draw(|frame| frame.render_widget(app, frame.area())).unwrap();
    terminal.backend().to_string()
}

fn type_in(app: &mut App, typed: &str) {
    for c in typed.chars() {
        app.update(Msg::Type(c));
    }
}

#[test]
fn what_a_prompt_asks_about_is_hidden_until_the_verdict() {
    let mut app = app();
    for msg in [Msg::Down, Msg::Down, Msg::Open, Msg::NextStep] {
        app.update(msg);
    }
    // Before any prompt the unanswered check hides them too (tests/it/reveal/panels.rs); `x` shows them.
    assert!(!text(&app).contains("to sick="), "hidden until predicted");
    app.update(Msg::Reveal);
    assert!(text(&app).contains("to sick="), "the results show once revealed");
    app.update(Msg::Predict);
    let predicting = text(&app);
    assert!(predicting.contains("how many calls will reach the"), "{predicting}");
    assert!(!predicting.contains("to sick="), "{predicting}");
    assert!(predicting.contains("hidden while you predict"));
    type_in(&mut app, "44");
    app.update(Msg::Open);
    let verdict = text(&app);
    assert!(verdict.contains("to sick="), "{verdict}");
    assert!(verdict.contains("Right"), "{verdict}");

    // Lab 2's 64.00 rows and bars, the same way.
    let mut app = self::app();
    app.update(Msg::Down);
    app.update(Msg::Open);
    app.update(Msg::Reveal);
    assert!(text(&app).contains("64.00"));
    app.update(Msg::Predict);
    assert!(!text(&app).contains("64.00"));
}

#[test]
fn lab1_live_asks_before_the_action_and_a_probe_decides() {
    let mut app = app();
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    // A stand-in server: the test sends the events its run would.
    crate::common::show_lab1_run(&mut app);
    app.update(Msg::Predict);
    let prompt = text(&app);
    assert!(prompt.contains("Predict:"), "the prompt is drawn: {prompt}");
    // Esc closes it and the live keys work again.
    app.update(Msg::Back);
    assert_eq!(app.context(), Context::Lab);
    assert!(!text(&app).contains("Your prediction"));
    app.update(Msg::Predict);
    type_in(&mut app, "503");
    app.update(Msg::Open);
    assert_eq!(app.context(), Context::Lab, "answered: s and t reach the live screen");
    assert!(text(&app).contains("you said 503: now start the server (s)"));

    crate::common::lab1_event(&mut app, crate::common::lab1_started(42));
    let readyz = |round, at_s, code: u16, body: &str| crate::common::lab1_probe(round, at_s, Probe::Readyz, code, body);
    crate::common::lab1_event(&mut app, readyz(0, 0.0, 503, "not ready: warming up"));
    assert!(
        app.labs[0].predict.observed.is_none(),
        "the probe at 0 s is before the moment the prompt names"
    );
    crate::common::lab1_event(&mut app, readyz(1, 0.5, 503, "not ready: warming up"));
    let screen = &mut app.labs[0];
    assert!(screen.predict.observed.is_some(), "the probe at 0.5 s decides");
    let observed = screen.predict.observed.clone().expect("a verdict");
    assert!(observed.verdict.right && observed.live, "{observed:?}");
    assert!(
        observed
            .explanation
            .starts_with("you said 503; the /readyz probe at 0.50 s answered 503 not ready: warming up"),
        "{}",
        observed.explanation
    );
    assert_eq!(
        screen.take_outcome(),
        Some(LabOutcome::Predicted {
            lab: LabId::Health,
            check_id: "health-readyz-during-warmup".to_string(),
            right: true,
            step_title: Some("Warm-up".to_string()),
            seen_first: false,
        })
    );
    assert!(text(&app).contains("Right"));
}

#[test]
fn progress_counts_only_what_was_done_in_the_lab() {
    let mut app = app();
    // A quiz answer tagged with Lab 3 and right: the lab's count does not move.
    // Lab 3: 8 steps and 7 checks.
    app.progress.record_answer("breaker-predict-sick-calls", None, true);
    assert_eq!(app.home_marker(2), "0/8 steps tried · 0/7 checks right");
    app.progress
        .labs
        .entry("breaker".into())
        .or_default()
        .checks_passed
        .push("breaker-q1".into());
    assert_eq!(
        app.home_marker(2),
        "0/8 steps tried · 0/7 checks right",
        "a bank id is not a check of the lab"
    );

    for msg in [Msg::Down, Msg::Down, Msg::Open] {
        app.update(msg);
    }
    // `p` on step 1, which has no check, says so and marks nothing.
    app.update(Msg::Predict);
    assert!(text(&app).contains("nothing to predict"));
    assert!(
        !app.progress.labs["breaker"]
            .steps_done
            .contains(&"Timeout alone".to_string())
    );
    app.update(Msg::Back);
    // Going on from it (n) is the learner saying it is done.
    app.update(Msg::NextStep);
    assert!(
        app.progress.labs["breaker"]
            .steps_done
            .contains(&"Timeout alone".to_string())
    );
    // A wrong prediction is saved as an answer; the step is not done.
    app.update(Msg::Predict);
    type_in(&mut app, "3000");
    app.update(Msg::Open);
    let screen = text(&app);
    assert!(screen.contains("Saved as not right yet"), "{screen}");
    assert!(!screen.contains("Step done"), "{screen}");
    assert!(
        !app.progress.labs["breaker"]
            .steps_done
            .contains(&"Add the breaker".to_string())
    );
    // Saved in the lab; the quiz's earlier answer stays the quiz's only one.
    assert_eq!(
        app.progress.labs["breaker"].check_answers["breaker-predict-sick-calls"].answered,
        1
    );
    assert_eq!(app.progress.questions["breaker-predict-sick-calls"].answered, 1);
    // Home counts the step as worked through, and its check as not right.
    assert_eq!(app.home_marker(2), "2/8 steps tried · 0/7 checks right");
}

/// A verdict scored at the check's own settings shows that run, not the sliders': Lab 3's
/// step 2 counts 44 calls to the sick dependency at a 200 ms timeout; with the timeout slider
/// at 500 ms the sliders' run sends more, and the results beside the verdict used to show it.
#[test]
fn a_verdict_at_the_checks_settings_shows_the_checks_run() {
    let mut app = app();
    for msg in [
        Msg::Down,
        Msg::Down,
        Msg::Open,
        Msg::NextSlider,
        Msg::NextSlider,
        Msg::Step(30),
    ] {
        app.update(msg);
    }
    let sliders_run = text(&app);
    assert!(
        sliders_run.contains("500 ms"),
        "the timeout slider moved: {sliders_run}"
    );
    assert!(!sliders_run.contains("to sick=   44"), "{sliders_run}");
    app.update(Msg::NextStep);
    app.update(Msg::Predict);
    type_in(&mut app, "44");
    app.update(Msg::Open);
    let verdict = text(&app);
    assert!(verdict.contains("Right"), "{verdict}");
    assert!(verdict.contains("to sick=   44"), "the check's run shows: {verdict}");
    assert!(verdict.contains("check's settings"), "and says so: {verdict}");
    // Esc closes the verdict and the sliders' run comes back.
    app.update(Msg::Back);
    let after = text(&app);
    assert!(
        !after.contains("to sick=   44") && !after.contains("check's settings"),
        "{after}"
    );
}

/// A check answered after `x` showed its run is recall, not a prediction (issue 26 item 4):
/// the step is done, the verdict says how it was saved, and home counts it as right after x
/// (no miss: it was never wrong). The same answer without `x` is a first-try right.
#[test]
fn a_right_answer_after_x_showed_the_run_is_not_first_try() {
    for peek in [false, true] {
        let mut app = app();
        app.area = ratatui::layout::Rect::new(0, 0, 80, 24);
        app.update(Msg::Down);
        app.update(Msg::Open);
        if peek {
            app.update(Msg::Reveal);
        }
        app.update(Msg::Predict);
        for c in "64".chars() {
            app.update(Msg::Type(c));
        }
        app.update(Msg::Open);
        let verdict = text(&app);
        assert!(verdict.contains("Right"), "{verdict}");
        assert_eq!(verdict.contains("saved as right after seeing the"), peek, "{verdict}");
        let expected = if peek {
            "1/7 steps tried · 1/7 checks right, 1 after x"
        } else {
            "1/7 steps tried · 1/7 checks right"
        };
        app.update(Msg::Back);
        app.update(Msg::Back);
        assert_eq!(app.home_marker(1), expected, "x first: {peek}");
    }
}

/// A right answer typed after a verdict showed the run's number is counted as done, but the
/// lab says it came after a miss: the home row and `progress` tell first-try predictions apart.
#[test]
fn a_right_answer_after_a_miss_is_said_so_on_home() {
    let mut app = app();
    app.area = ratatui::layout::Rect::new(0, 0, 80, 24);
    app.progress
        .record_answer("breaker-predict-sick-calls", Some("breaker"), false);
    app.progress
        .record_answer("breaker-predict-sick-calls", Some("breaker"), true);
    assert_eq!(app.home_marker(2), "1/8 steps tried · 1/7 checks right, 1 after a miss");
    // A check right the first time is only counted.
    app.progress
        .record_answer("breaker-predict-stuck-timeout", Some("breaker"), true);
    assert_eq!(app.home_marker(2), "2/8 steps tried · 2/7 checks right, 1 after a miss");
    let home = text(&app);
    assert!(home.contains("1 after a miss"), "{home}");
}
