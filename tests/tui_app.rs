//! The terminal app's behaviour without a terminal: messages in, state and screen text out.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use resilience_lab::cli::ThemeName;
use resilience_lab::content::Content;
use resilience_lab::engine::brownout;
use resilience_lab::tui::app::{App, Msg, Screen};
use resilience_lab::tui::keys::{self, Context};
use resilience_lab::tui::runs::LabResults;
use resilience_lab::tui::theme::Theme;

fn app() -> App {
    let content = Content::load(None).expect("the built-in labs load");
    App::new(content, Theme::new(ThemeName::Dark, false), Rect::new(0, 0, 100, 30))
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
        assert!(keys::footer_keys(context).len() <= 6, "{context:?}");
    }
    let lab: Vec<&str> = keys::help_rows(Context::Lab).iter().map(|(label, _)| *label).collect();
    for label in ["Tab/↓/j", "←/→", "Shift+←/→", "Home", "End", "0", "L", "Esc/q", "?"] {
        assert!(lab.contains(&label), "lab help lacks {label}: {lab:?}");
    }
}

#[test]
fn home_navigation_opens_labs_and_says_coming_soon() {
    let mut app = app();
    app.update(Msg::Up);
    assert_eq!(app.home_selected, 0);
    for _ in 0..10 {
        app.update(Msg::Down);
    }
    assert_eq!(app.home_selected, 4, "stops at Book");
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Home);
    assert_eq!(app.status.as_deref(), Some("Book: coming soon"));
    app.update(Msg::Up);
    app.update(Msg::Up);
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Lab(2));
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
    // Rate, duration, then the timeout.
    app.update(Msg::NextSlider);
    app.update(Msg::NextSlider);
    app.update(Msg::Step(10));
    let state = &app.labs[2];
    assert_eq!(state.sliders[2].display(), "300 ms");
    let LabResults::Breaker(run) = &state.results else {
        panic!("lab 3 shows a brownout run")
    };
    let expected = brownout::compare(&brownout::BrownoutParams {
        timeout_ms: 300.0,
        ..Default::default()
    });
    assert_eq!(run, &expected);
    assert!(text(&app).contains(&expected.with_breaker.summary.atlas_line("with breaker")));
}

#[test]
fn lab2_rows_follow_p() {
    let mut app = app();
    app.update(Msg::Down);
    app.update(Msg::Open);
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
        app.labs[2].focus, 1,
        "a click on the row under the bar focuses Duration"
    );
    // The bar follows the focused row: Duration is now at y 11 and its bar at y 12, from x 3.
    app.update(Msg::Click(3, 12));
    assert_eq!(app.labs[2].sliders[1].display(), "5 s");
    app.update(Msg::Drag(200, 12));
    assert_eq!(
        app.labs[2].sliders[1].display(),
        "300 s",
        "dragging past the end clamps"
    );
}

#[test]
fn mouse_click_opens_a_home_entry_and_the_wheel_moves() {
    let mut app = app();
    app.update(Msg::Wheel(10, 10, true));
    assert_eq!(app.home_selected, 1);
    // Lab 3's heading is on row 8 (title, border, then 3 rows per entry).
    app.update(Msg::Click(10, 8));
    assert_eq!(app.screen, Screen::Lab(2));
}

#[test]
fn help_overlay_is_modal() {
    let mut app = app();
    app.update(Msg::ToggleHelp);
    assert_eq!(app.context(), Context::Help);
    assert!(!app.update(Msg::Down), "keys under the overlay change nothing");
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
    // At 80x24 one row of the log shows: two transitions.
    assert!(text(&app).contains("t=10.29s closed -> open"));
    app.update(Msg::ScrollDown);
    let screen = text(&app);
    assert!(!screen.contains("t=10.29s closed -> open"), "{screen}");
    assert!(screen.contains("t=25.89s half_open -> open"), "{screen}");
    app.update(Msg::ToggleLesson);
    assert!(text(&app).contains("A checkout page calls a soft dependency"));
    app.update(Msg::ScrollDown);
    assert!(!text(&app).contains("A checkout page calls a soft dependency"));
}

#[test]
fn live_keys_need_live_mode_and_a_live_lab() {
    use resilience_lab::tui::app::Mode;
    let mut app = app();
    // Lab 1's live screen is another engineer's: m leaves it in sim here.
    app.update(Msg::Open);
    assert!(!app.update(Msg::ToggleMode));
    assert_eq!(app.labs[0].mode, Mode::Sim);
    app.update(Msg::Back);
    app.update(Msg::Down);
    app.update(Msg::Down);
    app.update(Msg::Open);
    // In sim, s and b change nothing.
    assert!(!app.update(Msg::StartStop));
    assert!(!app.update(Msg::Live(resilience_lab::tui::live::LiveMsg::BrownOut)));
    let m = keys::msg_for(Context::Lab, &key(KeyCode::Char('m'), KeyModifiers::NONE));
    assert_eq!(m, Some(Msg::ToggleMode));
    assert!(app.update(Msg::ToggleMode));
    assert_eq!(app.labs[2].mode, Mode::Live);
    assert!(text(&app).contains("live · 127.0.0.1"));
    // Outside a runtime (this test) a start explains itself instead of panicking.
    assert!(app.update(Msg::StartStop));
    assert!(app.live.breaker.is_none());
    assert!(app.live.status.as_deref().is_some_and(|s| s.contains("runtime")));
    // f cycles the fault kind in the CLI's order; Ctrl+C still quits, c alone does not.
    app.update(Msg::Live(resilience_lab::tui::live::LiveMsg::CycleFault));
    assert_eq!(app.live.control.fault.name(), "slow");
    let ctrl_c = keys::msg_for(Context::Lab, &key(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(ctrl_c, Some(Msg::Quit));
    assert!(app.update(Msg::ToggleMode));
    assert_eq!(app.labs[2].mode, Mode::Sim);
}
