//! The terminal app's behaviour without a terminal: messages in, state and screen text out.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use resilience_lab::content::Content;
use resilience_lab::engine::brownout;
use resilience_lab::tui::app::{App, Screen};
use resilience_lab::tui::keys::{self, Context};
use resilience_lab::tui::labs::health::HealthLab;
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

fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, modifiers)
}

fn text(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(app.area.width, app.area.height)).unwrap();
    terminal.draw(|frame| frame.render_widget(app, frame.area())).unwrap();
    terminal.backend().to_string()
}

#[test]
fn key_table_maps_the_documented_keys() {
    let none = KeyModifiers::NONE;
    let shift = KeyModifiers::SHIFT;
    let at = |context, code, modifiers| keys::msg_for(context, &key(code, modifiers));
    assert_eq!(at(Context::Home, KeyCode::Char('j'), none), Some(Msg::Down));
    assert_eq!(at(Context::Home, KeyCode::Up, none), Some(Msg::Up));
    assert_eq!(at(Context::Home, KeyCode::Enter, none), Some(Msg::Open));
    assert_eq!(at(Context::Home, KeyCode::Char('q'), none), Some(Msg::Quit));
    assert_eq!(at(Context::Lab, KeyCode::Char('q'), none), Some(Msg::Back));
    assert_eq!(at(Context::Lab, KeyCode::Esc, none), Some(Msg::Back));
    assert_eq!(at(Context::Lab, KeyCode::Tab, none), Some(Msg::NextSlider));
    assert_eq!(at(Context::Lab, KeyCode::BackTab, shift), Some(Msg::PrevSlider));
    assert_eq!(at(Context::Lab, KeyCode::Right, none), Some(Msg::Step(1)));
    assert_eq!(at(Context::Lab, KeyCode::Left, shift), Some(Msg::Step(-10)));
    assert_eq!(at(Context::Lab, KeyCode::Right, shift), Some(Msg::Step(10)));
    assert_eq!(at(Context::Lab, KeyCode::Home, none), Some(Msg::SliderMin));
    assert_eq!(at(Context::Lab, KeyCode::End, none), Some(Msg::SliderMax));
    assert_eq!(at(Context::Lab, KeyCode::Char('0'), none), Some(Msg::SliderReset));
    assert_eq!(at(Context::Lab, KeyCode::Char('L'), shift), Some(Msg::ToggleLesson));
    // `?` arrives with Shift on most layouts.
    assert_eq!(at(Context::Lab, KeyCode::Char('?'), shift), Some(Msg::ToggleHelp));
    assert_eq!(at(Context::Help, KeyCode::Esc, none), Some(Msg::ToggleHelp));
    // Raw mode turns Ctrl-C into a key: it quits from everywhere.
    for context in [Context::Home, Context::Lab, Context::Help] {
        assert_eq!(at(context, KeyCode::Char('c'), KeyModifiers::CONTROL), Some(Msg::Quit));
    }
    // A plain `c` does nothing, nor does Ctrl+q.
    assert_eq!(at(Context::Home, KeyCode::Char('c'), none), None);
    assert_eq!(at(Context::Home, KeyCode::Char('q'), KeyModifiers::CONTROL), None);
}

#[test]
fn every_context_documents_its_keys_and_the_footer_is_short() {
    for context in [Context::Home, Context::Lab, Context::Help] {
        let rows = keys::help_rows(context);
        assert!(rows.iter().any(|(label, _)| label.contains("Ctrl+C")), "{context:?}");
        // Six, and the reveal key while the step's unanswered check hides the run.
        assert!(keys::footer_keys(context).len() <= 7, "{context:?}");
        assert!(
            keys::footer_keys_if(context, |msg| msg != Msg::Reveal).len() <= 6,
            "{context:?}"
        );
    }
    let lab: Vec<&str> = keys::help_rows(Context::Lab).iter().map(|(label, _)| *label).collect();
    for label in ["Tab/↓/j", "←/→", "Shift+←/→", "Home", "End", "0", "L", "Esc/q", "?"] {
        assert!(lab.contains(&label), "lab help lacks {label}: {lab:?}");
    }
}

#[test]
fn home_navigation_opens_labs_quiz_and_book() {
    let mut app = app();
    app.update(Msg::Up);
    assert_eq!(app.home.selected, 0);
    for _ in 0..10 {
        app.update(Msg::Down);
    }
    assert_eq!(app.home.selected, 7, "stops at the on-call drill");
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Oncall);
    app.update(Msg::Back);
    app.update(Msg::Up);
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Book);
    app.update(Msg::Back);
    app.update(Msg::Up);
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Quiz);
    app.update(Msg::Back);
    assert_eq!(app.screen, Screen::Home);
    app.update(Msg::Up);
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Lab(4), "Lab 5");
    app.update(Msg::Back);
    assert_eq!(app.screen, Screen::Home);
    app.update(Msg::Quit);
    assert!(!app.running);
}

#[test]
fn moving_the_timeout_slider_recomputes_lab3_like_the_cli() {
    let mut app = app();
    app.update(Msg::Down);
    app.update(Msg::Down);
    app.update(Msg::Open);
    // Every step asks for a with-breaker number: revealed (`x` on each), they show.
    for step in 0..app.content.labs[2].steps.len() {
        app.labs[2].revealed.insert(step);
    }
    // Rate, duration, then the timeout.
    app.update(Msg::NextSlider);
    app.update(Msg::NextSlider);
    app.update(Msg::Step(10));
    let state = &app.labs[2];
    assert_eq!(state.lab_sliders()[2].display(), "300 ms");
    let expected = brownout::compare(&brownout::BrownoutParams {
        timeout_ms: 300.0,
        ..Default::default()
    });
    // The page reports the named numbers of the run it shows: those of the run at 300 ms.
    assert_eq!(
        state.shown_metrics(),
        resilience_lab::learning::metrics::breaker_metrics(&expected)
    );
    // The app's row: the command line's, with sent= where the Atlas prints calls=.
    assert!(text(&app).contains(&resilience_lab::tui::labs::breaker::results::app_rows(&expected)[1].line()));
}

#[test]
fn lab2_rows_follow_p() {
    let mut app = app();
    app.update(Msg::Down);
    app.update(Msg::Open);
    // Step 1's check is unanswered: its rows show once revealed; the other steps ask for
    // rows B and C and for p = 0.3's numbers, so they are revealed too.
    app.update(Msg::Reveal);
    for step in 1..app.content.labs[1].steps.len() {
        app.labs[1].revealed.insert(step);
    }
    assert!(text(&app).contains("A: 4 attempts at 3 layers    p=1.0  db attempts/action= 64.00  success=  0.0%"));
    // p from 1.0 down 14 steps of 0.05 is 0.3.
    app.update(Msg::Step(-10));
    for _ in 0..4 {
        app.update(Msg::Step(-1));
    }
    let screen = text(&app);
    assert!(
        screen.contains("C: B plus 10% budget         p=0.3  db attempts/action=  1.11  success= 78.2%"),
        "{screen}"
    );
}

#[test]
fn clicking_and_dragging_a_slider_bar_sets_it() {
    let mut app = app();
    app.update(Msg::Down);
    app.update(Msg::Down);
    app.update(Msg::Open);
    // At 100x30 the parameter panel starts at row 9; its first row is at y 10, its bar at y 11.
    app.update(Msg::Click(5, 12));
    assert_eq!(
        app.labs[2].pages[0].focus, 1,
        "a click on the row under the bar focuses Duration"
    );
    // The bar follows the focused row: Duration is now at y 11 and its bar at y 12, from x 3.
    app.update(Msg::Click(3, 12));
    assert_eq!(app.labs[2].lab_sliders()[1].display(), "5 s");
    app.update(Msg::Drag(200, 12));
    assert_eq!(
        app.labs[2].lab_sliders()[1].display(),
        "300 s",
        "dragging past the end clamps"
    );
}

#[test]
fn mouse_click_opens_a_home_entry_and_the_wheel_moves() {
    let mut app = app();
    app.update(Msg::Wheel(10, 10, true));
    assert_eq!(app.home.selected, 1);
    // Lab 3's heading is on row 8 (title, border, then 3 rows per entry).
    app.update(Msg::Click(10, 8));
    assert_eq!(app.screen, Screen::Lab(2));
}

#[test]
fn help_overlay_is_modal() {
    let mut app = app();
    app.update(Msg::ToggleHelp);
    assert_eq!(app.context(), Context::Help);
    assert!(!app.update(Msg::Open), "keys under the overlay change nothing");
    app.update(Msg::Down);
    assert_eq!(app.home.selected, 0, "↑↓ scroll the overlay, not the list under it");
    assert!(text(&app).contains("select the entry below"));
    app.update(Msg::ToggleHelp);
    assert_eq!(app.context(), Context::Home);
}

#[test]
fn page_keys_scroll_the_transition_log_and_the_lesson() {
    let mut app = app();
    app.area = Rect::new(0, 0, 80, 24);
    app.update(Msg::Down);
    app.update(Msg::Down);
    app.update(Msg::Open);
    // Steps 6 and 7 ask when the breaker first opens (the log's first line): revealed, it shows.
    for step in 0..app.content.labs[2].steps.len() {
        app.labs[2].revealed.insert(step);
    }
    // At 80x24 one row of the log shows: two transitions.
    assert!(text(&app).contains("t=10.29s closed -> open"));
    app.update(Msg::ScrollDown);
    let screen = text(&app);
    assert!(!screen.contains("t=10.29s closed -> open"), "{screen}");
    assert!(screen.contains("t=25.89s half_open -> open"), "{screen}");
    app.update(Msg::ToggleLesson);
    // The lesson's first line: the lab file's first paragraph.
    let start: String = app.content.labs[2]
        .lesson
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text(&app).contains(&start), "{}", text(&app));
    app.update(Msg::ScrollDown);
    assert!(!text(&app).contains(&start));
}

/// The lesson panel's text rows (inside its border) as drawn now.
fn lesson_rows(app: &App, index: usize) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(app.area.width, app.area.height)).unwrap();
    terminal.draw(|frame| frame.render_widget(app, frame.area())).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let panel = app.labs[index].layout(app.area).expect("room for the lab screen").right;
    (panel.y + 1..panel.bottom() - 1)
        .map(|y| {
            (panel.x + 1..panel.right() - 1)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

#[test]
fn page_keys_move_the_lesson_a_page_keeping_one_row() {
    let mut app = app();
    app.area = Rect::new(0, 0, 80, 24);
    app.update(Msg::Down);
    app.update(Msg::Open);
    app.update(Msg::ToggleLesson);
    let first = lesson_rows(&app, 1);
    assert!(first.len() > 6, "a panel of several rows: {first:?}");
    app.update(Msg::ScrollDown);
    let second = lesson_rows(&app, 1);
    // The last row of one page heads the next: a page, not three lines.
    assert_eq!(second[0], first[first.len() - 1], "{first:#?}\n{second:#?}");
    assert_ne!(second[1], first[first.len() - 1]);
    app.update(Msg::ScrollUp);
    assert_eq!(lesson_rows(&app, 1), first, "PgUp comes back a page");
    // Past the end PgDn stops, so one PgUp from there moves at once.
    for _ in 0..100 {
        app.update(Msg::ScrollDown);
    }
    let end = lesson_rows(&app, 1);
    app.update(Msg::ScrollUp);
    let before_end = lesson_rows(&app, 1);
    assert_eq!(before_end[before_end.len() - 1], end[0], "{end:#?}\n{before_end:#?}");
}

#[test]
fn home_and_end_go_to_the_lessons_top_and_end_while_it_shows_not_a_slider() {
    let mut app = app();
    app.area = Rect::new(0, 0, 80, 24);
    app.update(Msg::Down);
    app.update(Msg::Open);
    app.update(Msg::ToggleLesson);
    let values = app.labs[1].lab_sliders().to_vec();
    let top = lesson_rows(&app, 1);
    app.update(Msg::SliderMax);
    assert_eq!(
        app.labs[1].lab_sliders(),
        &values[..],
        "End moved no slider under the lesson"
    );
    let end = lesson_rows(&app, 1);
    assert_ne!(end, top, "End went to the lesson's end");
    app.update(Msg::ScrollDown);
    assert_eq!(lesson_rows(&app, 1), end, "nothing after the end");
    app.update(Msg::SliderMin);
    assert_eq!(lesson_rows(&app, 1), top, "Home went back to the top");
    assert_eq!(app.labs[1].lab_sliders(), &values[..]);
    // The lesson closed, they move the focused slider again.
    app.update(Msg::ToggleLesson);
    app.update(Msg::SliderMax);
    let focused = &app.labs[1].lab_sliders()[0];
    assert_eq!(focused.value(), focused.spec.max, "End: the slider to its maximum");
}

#[test]
fn the_lesson_says_p_opens_the_current_steps_card() {
    let mut app = app();
    app.area = Rect::new(0, 0, 100, 30);
    app.update(Msg::Down);
    app.update(Msg::Open);
    // A step with a check: the lesson under its text names the key.
    let step = app.content.labs[1]
        .steps
        .iter()
        .position(|step| step.check.is_some())
        .expect("Lab 2 has a step with a check");
    app.labs[1].predict.step = step;
    app.update(Msg::ToggleLesson);
    let mut found = false;
    for _ in 0..10 {
        if lesson_rows(&app, 1)
            .iter()
            .any(|row| row.contains("p opens this step's prediction card"))
        {
            found = true;
            break;
        }
        app.update(Msg::ScrollDown);
    }
    assert!(found, "{:#?}", lesson_rows(&app, 1));
}

// Learning: the quiz, predictions and progress, through the app's messages.

use resilience_lab::learning::progress;
use resilience_lab::tui::screens::quiz::Stage;

/// Opens the quiz from home and starts it with the default pick (all questions).
fn start_quiz(app: &mut App) {
    for _ in 0..5 {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Quiz);
    assert_eq!(app.context(), Context::QuizSetup);
    app.update(Msg::Open);
    assert_eq!(app.quiz.stage, Stage::Question);
}

/// Answers the question showing: its right letter, or a number.
fn answer(app: &mut App) {
    let asked = app.quiz.asked[app.quiz.current].clone();
    match asked.right_letter() {
        Some(letter) => {
            app.update(Msg::Answer(letter as u8 - b'a'));
        }
        None => {
            app.update(Msg::Type('7'));
            app.update(Msg::Open);
        }
    }
    assert_eq!(app.quiz.stage, Stage::Feedback);
}

/// A number typed with the question's own unit ("7 attempts") shows that unit once, not
/// "7 attempts attempts" (review 5), while typing and in the feedback.
#[test]
fn an_answer_typed_with_its_unit_shows_the_unit_once() {
    let mut app = app();
    start_quiz(&mut app);
    for _ in 0..app.quiz.asked.len() {
        let asked = app.quiz.asked[app.quiz.current].clone();
        let unit = asked
            .question
            .unit
            .clone()
            .filter(|u| u.chars().all(char::is_alphabetic));
        let (None, Some(unit)) = (asked.right_letter(), unit) else {
            answer(&mut app);
            app.update(Msg::Open);
            continue;
        };
        for c in format!("7 {unit}").chars() {
            app.update(Msg::Type(c));
        }
        let typing = text(&app);
        assert!(!typing.contains(&format!("{unit} {unit}")), "{typing}");
        app.update(Msg::Open);
        let feedback = text(&app);
        assert!(feedback.contains(&format!("7 {unit}")), "{feedback}");
        assert!(!feedback.contains(&format!("7 {unit} {unit}")), "{feedback}");
        return;
    }
    panic!(
        "no number question with a unit among the quiz's {}",
        app.quiz.asked.len()
    );
}

#[test]
fn quiz_answers_are_saved_and_read_back_by_the_progress_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("progress.toml");
    let mut app = app();
    app.use_progress(Some(path.clone()), progress::load(&path).expect("no file yet"));
    app.mark_all_visited();
    start_quiz(&mut app);
    answer(&mut app);
    assert!(path.is_file(), "saved after the first answer");
    app.update(Msg::Open);
    answer(&mut app);
    // Esc stops the quiz at the review; Esc again goes home.
    app.update(Msg::Back);
    assert_eq!(app.quiz.stage, Stage::Review);
    assert!(text(&app).contains("Score: "));
    app.update(Msg::Back);
    assert_eq!(app.screen, Screen::Home);
    assert!(text(&app).contains("answered 2 of "), "{}", text(&app));

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("--progress")
        .arg(&path)
        .arg("progress")
        .output()
        .expect("run resilience-lab progress");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("questions answered: 2 of "), "{stdout}");
}

#[test]
fn a_prediction_in_a_lab_is_scored_against_the_sliders_run_and_saved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("progress.toml");
    let mut app = app();
    app.use_progress(Some(path.clone()), progress::load(&path).expect("no file yet"));
    app.mark_all_visited();
    app.update(Msg::Down);
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Lab(1));
    // `p` opens the prompt: digits type, Backspace erases, Enter runs.
    assert_eq!(
        keys::msg_for(Context::Lab, &key(KeyCode::Char('p'), KeyModifiers::NONE)),
        Some(Msg::Predict)
    );
    app.update(Msg::Predict);
    assert_eq!(app.context(), Context::Predict);
    assert_eq!(
        keys::msg_for(Context::Predict, &key(KeyCode::Char('6'), KeyModifiers::NONE)),
        Some(Msg::Type('6'))
    );
    for msg in [Msg::Type('6'), Msg::Type('5'), Msg::Erase, Msg::Type('4'), Msg::Open] {
        app.update(msg);
    }
    let observed = app.labs[1].predict.observed.clone().expect("an outcome");
    assert_eq!((observed.predicted, observed.measured), (64.0, Some(64.0)));
    assert!(observed.verdict.right);
    assert_eq!(app.context(), Context::Observed);
    assert!(text(&app).contains("the run measured 64 attempts"));
    let saved = progress::load(&path).expect("saved").progress;
    assert_eq!(saved.labs["retry"].steps_done, ["Layered retries"]);
    assert_eq!(saved.labs["retry"].checks_passed, ["retry-predict-layered"]);
    // Enter moves on to step 2 (one retrying layer, 4 attempts).
    app.update(Msg::Open);
    assert_eq!(app.labs[1].predict.step, 1);
    app.update(Msg::Predict);
    for c in "4".chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
    assert!(app.labs[1].predict.observed.as_ref().expect("outcome").verdict.right);
    app.update(Msg::Back);
    app.update(Msg::Back);
    // Lab 2 has 7 steps and 7 checks.
    assert!(
        text(&app).contains("2/7 steps tried · 2/7 checks right"),
        "{}",
        text(&app)
    );
}

#[test]
fn a_check_is_scored_at_its_own_settings_whatever_the_sliders_say() {
    let mut app = app();
    app.update(Msg::Down);
    app.update(Msg::Open);
    // Step 2 says to move p to 0.30 (the first slider), and two attempts at the browser
    // layer (the second) would make 2 x 4 x 4 = 32 at p = 1.0; step 1's check still asks
    // about p = 1.0 and 4 attempts at each of 3 layers.
    app.update(Msg::Step(-14));
    app.update(Msg::NextSlider);
    app.update(Msg::Step(-2));
    assert_eq!(app.labs[1].lab_sliders()[0].value(), 0.3);
    app.update(Msg::Predict);
    for c in "64".chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
    let observed = app.labs[1].predict.observed.clone().expect("an outcome");
    assert_eq!(observed.measured, Some(64.0));
    assert!(observed.verdict.right, "{observed:?}");
    assert!(
        app.progress.labs["retry"]
            .checks_passed
            .contains(&"retry-predict-layered".to_string())
    );
}

#[test]
fn a_failed_save_shows_in_the_status_line_and_the_app_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A folder where the file should be: the rename over it fails.
    let path = dir.path().join("progress.toml");
    std::fs::create_dir(&path).expect("a folder in the way");
    let mut app = app();
    app.progress_path = Some(path);
    start_quiz(&mut app);
    answer(&mut app);
    assert!(app.running);
    assert!(
        app.status.as_deref().unwrap_or("").starts_with("progress not saved"),
        "{:?}",
        app.status
    );
    assert!(text(&app).contains("progress not saved"));
}

#[test]
fn a_progress_notice_shows_once_on_the_home_screen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("progress.toml");
    std::fs::write(&path, "not = = toml").expect("write");
    let mut app = app();
    app.use_progress(Some(path.clone()), progress::load(&path).expect("moved aside"));
    assert!(text(&app).contains("could not be read"));
    // Opening an entry clears it.
    app.update(Msg::Open);
    app.update(Msg::Back);
    assert!(!text(&app).contains("could not be read"));
}

#[test]
fn the_book_opens_chapters_and_scrolls() {
    let mut app = app();
    for _ in 0..6 {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Book);
    assert!(text(&app).contains("Introduction"));
    assert!(!text(&app).contains("# Introduction"), "headings without their markers");
    assert!(!text(&app).contains("```"), "code blocks without their fences");
    app.update(Msg::NextItem);
    app.update(Msg::Open);
    assert_eq!(app.book.open, 1);
    assert!(text(&app).contains("Book · Lab 1"));
    app.update(Msg::ScrollDown);
    assert!(!text(&app).contains("# Lab 1"));
    // A click on the list's seventh row opens Lab 3 (title row, border, then two rows each).
    app.update(Msg::Click(5, 8));
    assert_eq!(app.book.open, 3);
    assert_eq!(app.book.scroll, 0);
    // Held keys stop at the chapter's end: the last line stays on screen.
    for _ in 0..200 {
        app.update(Msg::ScrollDown);
    }
    assert!(text(&app).contains("line "));
}

#[test]
fn every_new_context_documents_its_keys_and_keeps_the_footer_short() {
    for context in [
        Context::QuizSetup,
        Context::QuizChoice,
        Context::QuizNumber,
        Context::QuizFeedback,
        Context::QuizReview,
        Context::Book,
        Context::Predict,
        Context::Observed,
    ] {
        let rows = keys::help_rows(context);
        assert!(rows.iter().any(|(label, _)| label.contains("Ctrl+C")), "{context:?}");
        assert!(rows.iter().any(|(label, _)| label.contains('?')), "{context:?}");
        // Six, and the reveal key while the step's unanswered check hides the run.
        assert!(keys::footer_keys(context).len() <= 7, "{context:?}");
        assert!(
            keys::footer_keys_if(context, |msg| msg != Msg::Reveal).len() <= 6,
            "{context:?}"
        );
    }
    let at = |context, code| keys::msg_for(context, &key(code, KeyModifiers::NONE));
    assert_eq!(at(Context::QuizChoice, KeyCode::Char('c')), Some(Msg::Answer(2)));
    assert_eq!(at(Context::QuizNumber, KeyCode::Char(',')), Some(Msg::Type(',')));
    assert_eq!(at(Context::QuizNumber, KeyCode::Backspace), Some(Msg::Erase));
    assert_eq!(at(Context::QuizFeedback, KeyCode::Right), Some(Msg::Open));
    assert_eq!(at(Context::Lab, KeyCode::Char(']')), Some(Msg::NextStep));
    assert_eq!(at(Context::Lab, KeyCode::Char('[')), Some(Msg::PrevStep));
    // `m` switches Sim/Live on every lab; `s` starts or stops a live run.
    assert_eq!(at(Context::Lab, KeyCode::Char('m')), Some(Msg::ToggleMode));
    assert_eq!(at(Context::Lab, KeyCode::Char('s')), Some(Msg::StartStop));
}

#[test]
fn a_step_without_a_check_is_done_when_the_learner_goes_on_from_it() {
    let mut app = app();
    app.update(Msg::Down);
    app.update(Msg::Down);
    app.update(Msg::Open);
    let lab = &app.content.labs[2];
    assert!(lab.steps[0].check.is_none(), "Lab 3's first step has no check");
    let title = lab.steps[0].title.clone();
    app.update(Msg::Predict);
    assert_eq!(app.context(), Context::Observed);
    assert!(
        text(&app).contains("nothing to predict"),
        "the card says so, asking nothing"
    );
    assert!(
        app.progress.labs["breaker"].steps_done.is_empty(),
        "`p` alone does not do the step"
    );
    app.update(Msg::Open);
    assert_eq!(
        app.progress.labs["breaker"].steps_done,
        [title],
        "going on from it does"
    );
    assert_eq!(app.context(), Context::Lab);
    assert_eq!(app.labs[2].predict.step, 1);
    // `[` goes back a step and stops at the first.
    app.update(Msg::PrevStep);
    app.update(Msg::PrevStep);
    assert_eq!(app.labs[2].predict.step, 0);
}

#[test]
fn lab1_live_keys_come_first_only_on_the_live_screen() {
    use crossterm::event::Event as TermEvent;

    let press = |code| TermEvent::Key(key(code, KeyModifiers::NONE));
    let mut app = app();
    app.update(Msg::Open);
    // Simulated Lab 1: `s` is the generic start/stop and changes nothing here; `m` switches to live.
    assert_eq!(app.msg_for(&press(KeyCode::Char('s'))), Some(Msg::StartStop));
    assert!(!app.update(Msg::StartStop));
    assert_eq!(app.msg_for(&press(KeyCode::Char('m'))), Some(Msg::ToggleMode));
    app.update(Msg::ToggleMode);
    assert_eq!(
        app.live_context_ignoring_help(),
        Some(Context::LiveHealth),
        "Lab 1's live screen shows"
    );
    assert_eq!(app.msg_for(&press(KeyCode::Char('s'))), Some(Msg::StartStop));
    // The old "predict the next probe" game is gone: p asks a step's check before its action.
    assert_eq!(app.msg_for(&press(KeyCode::F(2))), None);
    assert_eq!(app.msg_for(&press(KeyCode::Char('p'))), Some(Msg::Predict));
    // The lab screen's keys still work under the live ones.
    assert_eq!(app.msg_for(&press(KeyCode::Tab)), Some(Msg::NextSlider));
    assert_eq!(app.msg_for(&press(KeyCode::Esc)), Some(Msg::Back));
    assert!(keys::footer_keys(Context::LiveHealth).len() <= 6);
    let screen = text(&app);
    assert!(screen.contains("live · 127.0.0.1"), "{screen}");
    assert!(screen.contains("s starts `resilience-lab serve health`"), "{screen}");
    // Without the app's runtime (a test), `s` says so instead of starting anything.
    app.update(Msg::StartStop);
    assert!(!app.labs[0].live_running());
    // Lab 2 is not Lab 1: its `s` is the shared start/stop of Labs 2 and 3.
    app.update(Msg::Back);
    app.update(Msg::Down);
    app.update(Msg::Open);
    assert_ne!(app.live_context_ignoring_help(), Some(Context::LiveHealth));
    assert_eq!(app.msg_for(&press(KeyCode::Char('s'))), Some(Msg::StartStop));
}

#[test]
fn lab1_live_log_scrolls_and_the_lesson_still_shows() {
    use resilience_lab::live::health::child::Stream;

    let mut app = app();
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    crate::common::show_live::<HealthLab>(&mut app, 0, |live| {
        live.apply(crate::common::lab1_started(7));
        for n in 0..40 {
            live.apply_line(f64::from(n), Stream::Stderr, &format!("GET /work?n={n}"));
        }
    });
    assert!(text(&app).contains("GET /work?n=39"));
    app.update(Msg::ScrollUp);
    let screen = text(&app);
    assert!(!screen.contains("GET /work?n=39"), "{screen}");
    assert!(screen.contains("GET /work?n=36"), "{screen}");
    app.update(Msg::ToggleLesson);
    let screen = text(&app);
    assert!(
        screen.contains("Guided steps"),
        "the lesson panel replaces the live panels: {screen}"
    );
    assert!(screen.contains("pid 7"), "the server panel stays: {screen}");
}

#[test]
fn each_live_screen_lists_its_own_keys_in_the_footer() {
    // Every lab: live, the footer lists start, stop and the way back, not the simulation's
    // slider keys (with those only, a learner on a live screen was not told that `s` runs it),
    // and `p`, since a live check is predicted before the action that decides it (Lab 1's
    // live screen listed its own keys and left `p` out).
    for index in 0..5 {
        let mut app = app();
        for _ in 0..index {
            app.update(Msg::Down);
        }
        app.update(Msg::Open);
        let footer = |app: &App| text(app).lines().last().unwrap_or_default().to_string();
        let press = |code| crossterm::event::Event::Key(key(code, KeyModifiers::NONE));
        let sim = footer(&app);
        assert!(
            sim.contains("←→ adjust") && !sim.contains("s start/stop"),
            "lab {}: {sim}",
            index + 1
        );
        app.update(Msg::ToggleMode);
        let live = footer(&app);
        for entry in ["s start/stop", "m sim", "p predict", "Esc back"] {
            assert!(live.contains(entry), "lab {}: {entry} in {live}", index + 1);
        }
        assert!(!live.contains("←→ adjust"), "lab {}: {live}", index + 1);
        // The keys it lists are the live screen's: `s` and `m` reach it from the key table.
        assert_eq!(app.msg_for(&press(KeyCode::Char('s'))), Some(Msg::StartStop));
        assert_eq!(app.msg_for(&press(KeyCode::Char('m'))), Some(Msg::ToggleMode));
        app.update(Msg::ToggleMode);
        assert_eq!(
            footer(&app),
            sim,
            "lab {}: back in the simulation, its footer",
            index + 1
        );
    }
}

#[test]
fn live_keys_need_live_mode_and_a_live_lab() {
    let mut app = app();
    // Every lab has one mode flag, its screen's own: `m` on Lab 1 shows its live screen
    // and sets Lab 1's mode only.
    app.update(Msg::Open);
    assert!(app.update(Msg::ToggleMode));
    assert_eq!(
        app.live_context_ignoring_help(),
        Some(Context::LiveHealth),
        "Lab 1's live screen shows"
    );
    assert!(app.labs[0].live_showing());
    assert!(!app.labs[2].live_showing());
    app.update(Msg::ToggleMode);
    app.update(Msg::Back);
    app.update(Msg::Down);
    app.update(Msg::Down);
    app.update(Msg::Open);
    // In sim, s and b change nothing.
    assert!(!app.update(Msg::StartStop));
    assert!(!app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::BrownOut)));
    let m = keys::msg_for(Context::Lab, &key(KeyCode::Char('m'), KeyModifiers::NONE));
    assert_eq!(m, Some(Msg::ToggleMode));
    assert!(app.update(Msg::ToggleMode));
    assert!(app.labs[2].live_showing());
    assert!(text(&app).contains("live · 127.0.0.1"));
    // Outside a runtime (this test) a start explains itself instead of panicking.
    assert!(app.update(Msg::StartStop));
    assert!(!app.labs[2].live_running());
    assert!(text(&app).contains("runtime"), "{}", text(&app));
    // f cycles the fault kind in the CLI's order; Ctrl+C still quits, c alone does not.
    let fault = |name: &str| resilience_lab::tui::view::footer::choice_hint("f", "fault", name);
    assert!(text(&app).contains(&fault("hang")), "{}", text(&app));
    app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::CycleFault));
    assert!(text(&app).contains(&fault("slow")), "{}", text(&app));
    let ctrl_c = keys::msg_for(Context::Lab, &key(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(ctrl_c, Some(Msg::Quit));
    assert!(app.update(Msg::ToggleMode));
    assert!(!app.labs[2].live_showing());
}

#[test]
fn the_quiz_setup_says_how_many_questions_are_due() {
    let mut app = app();
    app.screen = Screen::Quiz;
    assert!(!text(&app).contains("due for review"), "nothing answered, nothing due");
    app.progress.record_answer("retry-three-layers", None, false);
    app.progress.record_answer("overload-capacity", None, true);
    // The miss is due again today; the right answer only tomorrow (the review schedule).
    assert!(text(&app).contains("1 due for review today"), "{}", text(&app));
}

// A lab's checks predicted in the lab count in the lab; the quiz's counts and review come
// from answers given in the quiz only.

/// Lab 2 with a progress file at `path`, its first check predicted wrong then right in the
/// lab, back on the home screen.
fn lab2_predicted_in_the_lab(path: &std::path::Path) -> App {
    let mut app = app();
    app.use_progress(Some(path.to_path_buf()), progress::load(path).expect("no file yet"));
    app.mark_all_visited();
    app.update(Msg::Down);
    app.update(Msg::Open);
    for answer in ["5", "64"] {
        app.update(Msg::Predict);
        for c in answer.chars() {
            app.update(Msg::Type(c));
        }
        app.update(Msg::Open);
        app.update(Msg::Back);
    }
    app.update(Msg::Back);
    assert_eq!(app.screen, Screen::Home);
    app
}

/// The `resilience-lab` binary's standard output for `args` on the progress file `path`.
fn run_on_progress(path: &std::path::Path, args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
        .arg("--progress")
        .arg(path)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run resilience-lab");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let output = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}");
    stdout
}

#[test]
fn a_prediction_in_a_lab_counts_in_the_lab_not_on_the_quiz_row() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = lab2_predicted_in_the_lab(&dir.path().join("progress.toml"));
    // 5, then 64 once the verdict had shown it: done, and said to be after a miss.
    assert_eq!(app.home_marker(1), "1/7 steps tried · 1/7 checks right, 1 after a miss");
    let quiz_row = app.home_marker(app.content.labs.len());
    assert!(quiz_row.starts_with("answered 0 of "), "{quiz_row}");
    assert!(quiz_row.ends_with("right at the last try 0"), "{quiz_row}");
}

#[test]
fn the_progress_command_counts_a_lab_prediction_in_the_lab_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("progress.toml");
    lab2_predicted_in_the_lab(&path);
    let stdout = run_on_progress(&path, &["progress"], "");
    let lab2 = stdout.lines().find(|l| l.contains("Retry")).expect("Lab 2's row");
    assert!(
        lab2.ends_with("1/7 steps tried · 1/7 checks right, 1 after a miss"),
        "{stdout}"
    );
    assert!(stdout.contains("questions answered: 0 of "), "{stdout}");
}

#[test]
fn a_missed_prediction_in_a_lab_is_not_due_for_quiz_review() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("progress.toml");
    let mut app = lab2_predicted_in_the_lab(&path);
    // Lab 2's second check, missed in the lab: the quiz has no miss of its own to review.
    app.update(Msg::Open);
    app.update(Msg::NextStep);
    app.update(Msg::Predict);
    app.update(Msg::Type('9'));
    app.update(Msg::Open);
    assert!(text(&app).contains("Saved as not right yet"), "{}", text(&app));
    app.screen = Screen::Quiz;
    assert!(!text(&app).contains("due for review"), "{}", text(&app));
    let stdout = run_on_progress(&path, &["quiz", "--review", "--count", "1", "--seed", "1"], "q\n");
    assert!(stdout.contains("0 questions due for review"), "{stdout}");
}

/// `C` on home hosts a room on 127.0.0.1 and shows the projector: a participant's answer
/// to the check `n` opened lands on the histogram, `r` reveals it, Esc leaves the room
/// running, and the app's shutdown stops its server.
#[tokio::test]
async fn c_hosts_a_room_that_counts_answers_and_stops_with_the_app() {
    use resilience_lab::live::room_server::{self, Sent};
    let none = KeyModifiers::NONE;
    assert_eq!(
        keys::msg_for(Context::Home, &key(KeyCode::Char('C'), none)),
        Some(Msg::OpenRoom)
    );
    let mut app = app();
    assert!(app.update(Msg::OpenRoom));
    assert_eq!(app.screen, Screen::Room);
    assert_eq!(app.context(), Context::Room);
    assert_eq!(
        keys::msg_for(Context::Room, &key(KeyCode::Char('r'), none)),
        Some(Msg::RoomReveal)
    );
    app.update(Msg::RoomNext);
    let host = app.room_host.as_ref().expect("a room is hosted");
    let board = host.screen.board().expect("the board");
    let addr = room_server::parse_room_url(&board.url).expect("the room's URL");
    assert!(addr.ip().is_loopback(), "{addr}");
    let (check, _, _) = board.check.clone().expect("n opened a check");
    assert!(text(&app).contains(&board.url), "the projector shows where to join");
    let form = room_server::answer_form(&board.code, "ada", &check, "503");
    match room_server::send_form(addr, "/answer", &form).await {
        Sent::Answered { code, line } => assert_eq!(code, 200, "{line}"),
        Sent::Unreachable(why) => panic!("the room is unreachable: {why}"),
    }
    let board = app
        .room_host
        .as_ref()
        .and_then(|h| h.screen.board())
        .expect("the board");
    assert_eq!(board.values, [503.0]);
    assert!(board.reveal.is_none(), "nothing is revealed before r");
    app.update(Msg::RoomReveal);
    let board = app
        .room_host
        .as_ref()
        .and_then(|h| h.screen.board())
        .expect("the board");
    assert!(board.reveal.is_some(), "r revealed the check");
    app.update(Msg::Back);
    assert_eq!(app.screen, Screen::Home);
    app.update(Msg::OpenRoom);
    let again = app
        .room_host
        .as_ref()
        .and_then(|h| h.screen.board())
        .expect("the board");
    assert_eq!(again.code, board.code, "C again shows the same room");
    app.shutdown_live().await;
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "the room's server stopped with the app"
    );
}
