//! A lab page's first visit: the lesson opens by itself (the lab file's paragraphs, then the
//! guided steps with the page's first step expanded, and how to close it and go on), once
//! per page, remembered in the progress file; later visits open to the lab.

use crate::common::{app, predict, render};
use resilience_lab::learning::progress;
use resilience_lab::tui::app::{App, Screen};
use resilience_lab::tui::msg::Msg;

/// From home, lab `index` (0-based) opened.
fn open_lab(app: &mut App, index: usize) {
    for _ in 0..index {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    assert_eq!(app.screen, Screen::Lab(index));
}

/// The first words of a lab file's lesson, as the panel shows them at the top.
fn lesson_start(app: &App, index: usize) -> String {
    app.content.labs[index]
        .lesson
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_labs_first_visit_opens_the_lesson_once() {
    let mut app = app(100, 30);
    for index in 0..app.content.labs.len() {
        open_lab(&mut app, index);
        let screen = &app.labs[index];
        assert!(
            screen.show_lesson && screen.first_visit,
            "lab {index}: the lesson opened by itself"
        );
        assert_eq!(screen.predict.step, 0, "step 1 expanded");
        let text = render(&app);
        assert!(text.contains("First visit: L or Esc closes this"), "{text}");
        assert!(
            text.contains(&lesson_start(&app, index)),
            "the lesson's paragraphs first: {text}"
        );
        // Then the guided steps, step 1 expanded: on screen, or a few pages further down.
        let step1 = format!("▸ · Step 1: {}", app.content.labs[index].steps[0].title);
        let mut pages = 0;
        while !render(&app).contains(&step1) && pages < 5 {
            app.update(Msg::ScrollDown);
            pages += 1;
        }
        assert!(render(&app).contains(&step1), "{}", render(&app));
        for _ in 0..pages {
            app.update(Msg::ScrollUp);
        }
        // Esc closes the lesson and stays on the lab; Esc again goes home.
        app.update(Msg::Back);
        assert!(!app.labs[index].show_lesson);
        assert_eq!(app.screen, Screen::Lab(index));
        app.update(Msg::Back);
        assert_eq!(app.screen, Screen::Home);
        // The second visit opens to the lab; L still shows the lesson, paragraphs included.
        app.update(Msg::Open);
        assert!(
            !app.labs[index].show_lesson,
            "lab {index}: no lesson on the second visit"
        );
        app.update(Msg::ToggleLesson);
        let text = render(&app);
        assert!(
            text.contains(&lesson_start(&app, index)) && !text.contains("First visit"),
            "{text}"
        );
        app.update(Msg::ToggleLesson);
        app.update(Msg::Back);
        for _ in 0..index {
            app.update(Msg::Up);
        }
    }
}

#[test]
fn the_fleet_view_has_a_first_visit_of_its_own_at_its_first_step() {
    let mut app = app(100, 30);
    open_lab(&mut app, 0);
    app.update(Msg::ToggleLesson);
    assert!(!app.labs[0].show_lesson);
    app.update(Msg::NextPage);
    let screen = &app.labs[0];
    assert!(screen.show_lesson && screen.first_visit);
    let step = &app.content.labs[0].steps[screen.predict.step];
    assert_eq!(step.title, "The mistake at fleet scale");
    assert!(render(&app).contains("▸ · Step 4: The mistake at fleet scale"));
    // L closes it; back to one server and to the fleet again: no second opening.
    app.update(Msg::ToggleLesson);
    app.update(Msg::NextPage);
    app.update(Msg::NextPage);
    assert!(app.labs[0].later_page().is_some() && !app.labs[0].show_lesson);
}

/// Issue 26 item 7: the single server's first visit showed the lab's paragraphs; the fleet's
/// leads with its own first step, whole at 80x24, and `L` later shows everything again.
#[test]
fn the_fleet_views_first_visit_does_not_open_the_same_paragraphs_again() {
    let mut app = app(80, 24);
    open_lab(&mut app, 0);
    let opening = lesson_start(&app, 0);
    assert!(
        render(&app).contains(&opening),
        "the single server's first visit has them"
    );
    app.update(Msg::ToggleLesson);
    app.update(Msg::NextPage);
    let text = render(&app);
    assert!(text.contains("First visit"), "{text}");
    assert!(!text.contains(&opening), "the lab's paragraphs again:\n{text}");
    assert!(text.contains("Steps 1–3: one server (F)"), "{text}");
    assert!(text.contains("Step 4: The mistake at fleet scale"), "{text}");
    // The step's "do this" text is on screen to its end, and so is the key to its card.
    assert!(text.contains("      with a longer outage, to 330 s)."), "{text}");
    assert!(text.contains("p opens this step's prediction card."), "{text}");
    // Asked for later, the lesson is whole: paragraphs and every step.
    app.update(Msg::ToggleLesson);
    app.update(Msg::ToggleLesson);
    let asked = render(&app);
    assert!(asked.contains(&opening) && !asked.contains("First visit"), "{asked}");
}

#[test]
fn the_visit_survives_a_save_and_a_reload() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("progress.toml");
    let mut first = app(100, 30);
    first.use_progress(Some(path.clone()), progress::load(&path).expect("load"));
    open_lab(&mut first, 1);
    assert!(first.labs[1].show_lesson, "first visit");
    let saved = std::fs::read_to_string(&path).expect("the visit was saved at once");
    assert!(saved.contains("visited = [\"lab\"]"), "{saved}");

    // The next session reads the file: Lab 2 opens to the lab, Lab 3 still has its first visit.
    let mut next = app(100, 30);
    next.use_progress(Some(path.clone()), progress::load(&path).expect("reload"));
    open_lab(&mut next, 1);
    assert!(!next.labs[1].show_lesson, "second visit, in a new session");
    next.update(Msg::Back);
    next.update(Msg::Up);
    open_lab(&mut next, 2);
    assert!(
        next.labs[2].show_lesson,
        "Lab 3 was never opened: its first visit is still to come"
    );
}

#[test]
fn first_visit_lab1_100x30() {
    let mut app = app(100, 30);
    open_lab(&mut app, 0);
    insta::assert_snapshot!(render(&app));
}

#[test]
fn first_visit_lab1_80x24() {
    let mut app = app(80, 24);
    open_lab(&mut app, 0);
    insta::assert_snapshot!(render(&app));
}

/// Scrolled a page down at 80x24: step 1, expanded, below the lesson's paragraphs.
#[test]
fn first_visit_lab1_80x24_scrolled() {
    let mut app = app(80, 24);
    open_lab(&mut app, 0);
    app.update(Msg::ScrollDown);
    insta::assert_snapshot!(render(&app));
}

#[test]
fn first_visit_lab4_80x24() {
    let mut app = app(80, 24);
    open_lab(&mut app, 3);
    insta::assert_snapshot!(render(&app));
}

#[test]
fn first_visit_fleet_80x24() {
    let mut app = app(80, 24);
    open_lab(&mut app, 0);
    app.update(Msg::ToggleLesson);
    app.update(Msg::NextPage);
    insta::assert_snapshot!(render(&app));
}

#[test]
fn a_verdict_shows_its_run_where_the_open_lesson_was_and_the_lesson_comes_back() {
    // Lab 1's timeline and Lab 2's jitter chart share the right panel with the lesson.
    for (index, typed, drawn) in [(0, "503", "driver timeline"), (1, "64", "Jitter")] {
        let mut app = app(80, 24);
        open_lab(&mut app, index);
        assert!(render(&app).contains("Lesson · first visit"), "the lesson opened");
        predict(&mut app, typed);
        let text = render(&app);
        assert!(text.contains("Right"), "lab {index}: {text}");
        assert!(
            !text.contains("Lesson ·") && text.contains(drawn),
            "lab {index}: {text}"
        );
        // Enter: on to step 2, in the lesson again.
        app.update(Msg::Open);
        let text = render(&app);
        assert!(
            text.contains("Lesson ·") && text.contains("▸ · Step 2"),
            "lab {index}: {text}"
        );
    }
}

#[test]
fn a_verdict_closed_to_stay_on_its_step_leaves_its_run_in_view() {
    // Lab 4 at 80x24, the first visit's lesson open: a miss shows the chart it counted where
    // the lesson was; Esc (stay, look, try again) leaves that chart in view, L opens the lesson.
    let mut app = app(80, 24);
    open_lab(&mut app, 3);
    assert!(render(&app).contains("Lesson · first visit"), "the lesson opened");
    predict(&mut app, "900");
    let verdict = render(&app);
    assert!(
        verdict.contains("Not quite") && verdict.contains("goodput/s against offered/s"),
        "{verdict}"
    );
    app.update(Msg::Back);
    let text = render(&app);
    assert!(
        !text.contains("Lesson ·") && text.contains("goodput/s against offered/s"),
        "the chart stays: {text}"
    );
    app.update(Msg::ToggleLesson);
    assert!(render(&app).contains("Lesson ·"), "L opens the lesson");
}

#[test]
fn revealing_a_run_shows_it_where_the_open_lesson_was() {
    let mut app = app(80, 24);
    open_lab(&mut app, 1);
    assert!(render(&app).contains("Lesson · first visit"), "the lesson opened");
    app.update(Msg::Reveal);
    let text = render(&app);
    assert!(!text.contains("Lesson ·") && text.contains("Jitter"), "{text}");
}

#[test]
fn a_verdict_left_by_changing_page_does_not_reopen_the_lesson_later() {
    // Lab 1's first visit: a verdict folds the lesson, F leaves the verdict for the fleet
    // page; the lesson closed there, a fleet verdict gone on from (Enter) leaves it closed:
    // the fold belonged to the verdict that F closed.
    let mut app = app(100, 30);
    open_lab(&mut app, 0);
    predict(&mut app, "200");
    assert!(app.labs[0].predict.observed.is_some() && !app.labs[0].show_lesson);
    app.update(Msg::NextPage);
    if app.labs[0].show_lesson {
        app.update(Msg::Back);
    }
    assert!(!app.labs[0].show_lesson);
    predict(&mut app, "1");
    assert!(app.labs[0].predict.observed.is_some(), "a fleet verdict");
    app.update(Msg::Open);
    assert!(!app.labs[0].show_lesson, "{}", render(&app));
}
