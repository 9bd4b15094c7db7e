//! No screen shows the answer of a check the learner has not answered yet: not the current
//! step's (its run is hidden whole) and not another step's, whose check may be scored at the
//! very settings on screen (Lab 2's step 2 asks for row C of step 1's run).
//!
//! For every lab and every guided step (the fleet view's too), at 100x30 and 80x24, with the
//! sliders at the step's check settings: first with every check unanswered, then with the
//! earlier steps answered and the previous step's verdict open, then with it closed. On each
//! screen, no unanswered check may have its answer drawn as the views draw that number in
//! its own run or one setting away (a setting the number does not depend on gives it away
//! just the same), nor the chart that draws it in its own run.

use crate::common::{predict, render, visited_app};
use resilience_lab::content::params::{self, Values};
use resilience_lab::content::question::CheckSettings;
use resilience_lab::content::{LabFile, LabId, Question};
use resilience_lab::engine::health;
use resilience_lab::learning::metrics;
use resilience_lab::learning::reveal;
use resilience_lab::learning::reveal::step_check;
use resilience_lab::tui::app::App;
use resilience_lab::tui::frame::first_visit::step_page;
use resilience_lab::tui::labs::page::{OpenVerdict, PageCtx};
use resilience_lab::tui::msg::{LiveMsg, Msg};

const SIZES: [(u16, u16); 2] = [(100, 30), (80, 24)];

/// The screen with the spaces after each `=` closed up (`sick=   44` reads `sick=44`), the
/// way the forms below are written.
fn squeezed(screen: &str) -> String {
    let mut out = String::with_capacity(screen.len());
    let mut after_equals = false;
    for c in screen.chars() {
        if after_equals && c == ' ' {
            continue;
        }
        after_equals = c == '=';
        out.push(c);
    }
    out
}

/// The check's answer at its own settings (at `on_screen` for a check on screen). Each run
/// is kept by the settings it ran at: the screens below ask for the same few many times, and
/// a run is a pure function of its lab, check and settings.
fn answer(lab: &LabFile, check: &Question, on_screen: &[(String, f64)]) -> Option<f64> {
    thread_local! {
        static KNOWN: std::cell::RefCell<std::collections::HashMap<String, Option<f64>>> = Default::default();
    }
    let key = match check.settings.as_ref().and_then(CheckSettings::fixed) {
        Some(_) => format!("{}/{}", lab.id, check.id),
        // `{:?}` of an f64 is its shortest exact form: equal keys are equal settings.
        None => format!("{}/{}/{on_screen:?}", lab.id, check.id),
    };
    if let Some(known) = KNOWN.with(|known| known.borrow().get(&key).copied()) {
        return known;
    }
    let run = metrics::check_run(lab, check, on_screen);
    let value = check.metric.as_deref().and_then(|metric| metrics::lookup(&run, metric));
    KNOWN.with(|known| known.borrow_mut().insert(key, value));
    value
}

/// How the views draw `check`'s answer `value`: the number as written, or (`chart:`) a mark
/// of the chart that draws it, which gives it away only in the run the check is scored on.
/// Every metric a lab's check names has its forms here, or says why it has none.
fn drawn_forms(lab: &LabFile, check: &Question, value: f64, values: &[(String, f64)]) -> Vec<String> {
    let metric = check.metric.as_deref().unwrap_or_default();
    let requests = metric.strip_prefix("fleet.requests.");
    match metric {
        // After `=` in a row, or a bar's label on its own (`4.00` is also the end of `64.00`).
        m if m.starts_with("retry.") && m.ends_with(".db_attempts_per_action") => {
            vec![format!("={value:.2}"), format!(" {value:.2}"), format!("█{value:.2}")]
        }
        "retry.c.success_ratio" => vec![format!("success={:.1}%", value * 100.0)],
        // The jitter chart's ceiling line, which it leaves out and names the step instead.
        "retry.jitter.attempt_4_ceiling_s" => ["─ ceiling ─", "─ ceiling ┐", "─ cap ─", "─ cap ┐"]
            .map(|legend| format!("chart:{legend}"))
            .to_vec(),
        // No view draws the five-layer chain (the rows stay at three layers): its verdict only.
        "retry.five_layers.db_attempts_per_action" => Vec::new(),
        "breaker.with_breaker.sick_calls" => vec![format!("sick={value:.0} ")],
        "breaker.timeout_only.stuck" => vec![format!("stuck={value:.1}"), format!("peak {value:.1}")],
        "breaker.with_breaker.p99_wait_ms" => vec![format!("wait={value:.0} ms"), format!("p99={value:.0} ms")],
        "breaker.with_breaker.degraded" => vec![format!("degraded={value:.0}"), format!("degr={value:.0}")],
        "breaker.with_breaker.first_open_s" => vec![format!("t={value:.2}s")],
        m if m.starts_with("health.readyz_") => {
            let run = health::simulate_driver(&params::health_config(lab, values), 18080);
            (0..run.probes.len())
                .filter(|&index| metrics::health_probe_metric(&run, index).as_deref() == Some(m))
                .map(|index| format!("t={:6.2} s  {}", run.probes[index].t_s, run.probes[index].line()))
                .collect()
        }
        // The fleet drawing's bands are a column (several seconds) wide, coarser than any
        // check's tolerance; its exact numbers are its totals line and its RST column.
        "fleet.restarts" => vec![format!("restarts {value:.0} ")],
        "fleet.first_restart_s" => vec![format!("first {value:.1} s")],
        "fleet.no_ready_endpoint_s" => vec![format!("endpoint {value:.1} s")],
        _ if requests.is_some() => vec![
            format!("{} {value:.0}", requests.unwrap_or_default()),
            "chart:RST".to_string(),
        ],
        "overload.queue_wait_at_2_s" => vec![format!("wait at 2 s {value:.2} s")],
        "overload.queue_len_at_2_s" => vec!["chart:w wait s".to_string()],
        "overload.max_queue_len" => vec![format!("queue max {value:.0}"), "chart:w wait s".to_string()],
        "overload.refused_share_steady" => {
            let offered = values.value("offered_per_s").unwrap_or_default();
            vec![format!("refused {:.0}", value * offered), "chart:r refused".to_string()]
        }
        "overload.bulkhead.free_for_rest" => {
            vec![
                format!("left for the rest: {value:.0}"),
                "chart:X held by X".to_string(),
            ]
        }
        "overload.hang.x_busy_end" => vec![format!("X holds {value:.0} ")],
        "overload.throttle_probability" => vec!["chart:p = max".to_string()],
        // No view of the app draws the metastable model (its step sends the learner to the CLI).
        "overload.metastable.db_load_end_per_s" => Vec::new(),
        other => panic!("{}: no drawn form for metric {other}: add one", lab.id),
    }
}

fn lab_index(app: &App, id: LabId) -> usize {
    app.content.labs.iter().position(|lab| lab.lab == id).expect("lab")
}

/// The app on `id`'s screen, on the page of step `step`, at that step.
fn open_at(width: u16, height: u16, id: LabId, step: usize) -> App {
    let mut app = visited_app(width, height);
    let index = lab_index(&app, id);
    for _ in 0..index {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    go_to(&mut app, index, step);
    app
}

/// Shows the page of `step` and makes it the current step.
fn go_to(app: &mut App, index: usize, step: usize) {
    let lab = app.content.labs[index].clone();
    let fleet_page = step_page(&lab, step) == 1;
    if app.labs[index].later_page().is_some() != fleet_page {
        app.update(Msg::NextPage);
    }
    app.labs[index].predict.step = step;
}

/// Moves every slider (the fleet's too) that `own` names to its value, and reruns.
fn set_sliders(app: &mut App, index: usize, own: &[(String, f64)]) {
    let lab = app.content.labs[index].clone();
    let screen = &mut app.labs[index];
    for slider in screen.pages.iter_mut().flat_map(|page| page.sliders.iter_mut()) {
        if let Some(value) = own.value(&slider.spec.name) {
            slider.set_value(value);
        }
    }
    screen.sliders_set(&lab);
    app.settle();
}

/// Every slider's value, the fleet's too.
fn slider_values(app: &App, index: usize) -> Vec<(String, f64)> {
    let screen = &app.labs[index];
    screen
        .pages
        .iter()
        .flat_map(|page| &page.sliders)
        .map(|slider| (slider.spec.name.clone(), slider.value()))
        .collect()
}

/// The values of the run on screen: an open verdict's own settings when it shows its run,
/// else the sliders'.
fn shown_values(app: &App, index: usize) -> Vec<(String, f64)> {
    let lab = &app.content.labs[index];
    let screen = &app.labs[index];
    let verdict = screen.predict.observed.as_ref().and_then(|observed| {
        let verdict = OpenVerdict {
            check_id: &observed.check_id,
            scored_live: observed.live,
        };
        let shows_own = screen.showing_state().is_some_and(|page| page.shows_check_run(verdict));
        let check = lab.checks.iter().find(|check| check.id == observed.check_id)?;
        shows_own.then(|| check.settings.as_ref().and_then(CheckSettings::fixed))?
    });
    verdict.map_or_else(|| slider_values(app, index), <[_]>::to_vec)
}

/// The check's own settings, or the sliders' values for a check on screen (or none).
fn settings_of(app: &App, index: usize, check: &Question) -> Vec<(String, f64)> {
    match check.settings.as_ref().and_then(CheckSettings::fixed) {
        Some(own) => own.to_vec(),
        None => slider_values(app, index),
    }
}

/// The answers on screen of the unanswered checks the run on screen is scored on.
fn giveaways(app: &App, index: usize) -> Vec<String> {
    let lab = &app.content.labs[index];
    let shown = shown_values(app, index);
    let screen = squeezed(&render(app));
    let mut found = Vec::new();
    for step in 0..lab.steps.len() {
        let Some(check) = step_check(lab, step) else { continue };
        if reveal::answered(&app.progress, lab, &check.id) || app.labs[index].revealed.contains(step) {
            continue;
        }
        let own = check.settings.as_ref().and_then(CheckSettings::fixed);
        let differing = own.map_or(0, |own| {
            own.iter()
                .filter(|(name, value)| shown.value(name).is_some_and(|v| (v - value).abs() >= 1e-9))
                .count()
        });
        let Some(value) = answer(lab, &check, &shown) else {
            continue;
        };
        for form in drawn_forms(lab, &check, value, &shown) {
            // A number is a give-away in the check's run and one setting away from it (the
            // setting it does not depend on); a chart's mark in the check's own run.
            let (form, applies) = match form.strip_prefix("chart:") {
                Some(mark) => (mark.to_string(), differing == 0),
                None => (form, differing <= 1),
            };
            if applies && screen.contains(&squeezed(&form)) {
                found.push(format!("step {} ({}): {form:?}", step + 1, check.id));
            }
        }
    }
    found
}

/// Lab 4's views by the titles of their charts (a chart waiting for a prediction keeps its
/// title): the curves, the outcomes, the bulkhead, the metastable model.
const OVERLOAD_VIEWS: [&str; 4] = [
    " goodput/s against offered/s ",
    " per second ",
    " bulkhead: the pool's slots ",
    " metastable: database load ",
];

/// `v` on Lab 4's page, handed to the page itself: a verdict or a prompt may be open, which
/// would take the key on its way through the screen.
fn next_overload_view(app: &mut App, index: usize) {
    let lab = &app.content.labs[index];
    let step = app.labs[index].current_step(lab);
    let screen = &mut app.labs[index];
    let ctx = PageCtx {
        lab,
        step,
        events: None,
    };
    screen.page_states[0].key(Msg::Live(LiveMsg::ToggleView), &ctx, &mut screen.pages[0].sliders);
}

/// Renders the screen in each of Lab 4's views but the metastable model's (they draw
/// different numbers; four steps of `v` leave the view as it was) and collects what gives
/// an answer away, saying where.
fn check_screen(app: &mut App, index: usize, what: &str, failures: &mut Vec<String>) {
    let overload = app.labs[index].id == LabId::Overload;
    for _ in 0..if overload { OVERLOAD_VIEWS.len() } else { 1 } {
        let text = render(app);
        let view = OVERLOAD_VIEWS.iter().find(|title| text.contains(*title));
        let found = if view == OVERLOAD_VIEWS.last() {
            Vec::new()
        } else {
            giveaways(app, index)
        };
        if overload {
            next_overload_view(app, index);
        }
        for found in found {
            let (width, height) = (app.area.width, app.area.height);
            failures.push(format!(
                "{}: {what}, {view:?} at {width}x{height}: {found}",
                app.content.labs[index].id
            ));
        }
    }
}

/// The typed form of a number the input takes.
fn typed(value: f64) -> String {
    let text = format!("{value:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Predicts step `step`'s check with its answer, leaving the verdict open.
fn predict_right(app: &mut App, index: usize, step: usize) {
    let lab = app.content.labs[index].clone();
    let Some(check) = step_check(&lab, step) else { return };
    go_to(app, index, step);
    let value = answer(&lab, &check, &settings_of(app, index, &check)).expect("the check's run has its metric");
    app.update(Msg::Predict);
    for c in typed(value).chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
    assert!(
        app.labs[index].predict.observed.is_some(),
        "{} step {}: the verdict opens",
        lab.id,
        step + 1
    );
}

/// Moves the sliders to step `step`'s check settings (if it has fixed ones).
fn sliders_at_step(app: &mut App, index: usize, step: usize) {
    let lab = app.content.labs[index].clone();
    if let Some(own) = step_check(&lab, step).and_then(|check| check.settings.clone())
        && let Some(own) = own.fixed()
    {
        set_sliders(app, index, own);
    }
}

/// Moves every slider (the fleet's too) back to its default, and reruns.
fn sliders_at_defaults(app: &mut App, index: usize) {
    let screen = &app.labs[index];
    let defaults: Vec<(String, f64)> = screen
        .pages
        .iter()
        .flat_map(|page| &page.sliders)
        .map(|slider| (slider.spec.name.clone(), slider.spec.default))
        .collect();
    set_sliders(app, index, &defaults);
}

/// Every step's screens, in two walks per size. The first keeps every check unanswered and
/// visits each step at its check's settings. The second answers the steps in order: after
/// each answer, with its verdict open, then at the next step with the sliders at their
/// defaults and at that step's check settings. Each walk is one app, and the sliders go back
/// to their defaults before the next step, so every screen is the one a learner who opened
/// the lab and answered the earlier steps would see, and each answer is run once (not once
/// per later step: these walks were the slowest tests of the suite).
fn every_step_of(id: LabId) -> Vec<String> {
    let mut failures = Vec::new();
    for (width, height) in SIZES {
        let mut app = open_at(width, height, id, 0);
        let index = lab_index(&app, id);
        let steps = app.content.lab(id).steps.len();
        for step in 0..steps {
            sliders_at_defaults(&mut app, index);
            go_to(&mut app, index, step);
            sliders_at_step(&mut app, index, step);
            check_screen(&mut app, index, &format!("step {} unanswered", step + 1), &mut failures);
        }
        let mut app = open_at(width, height, id, 0);
        for step in 1..steps {
            predict_right(&mut app, index, step - 1);
            if app.labs[index].predict.observed.is_some() {
                let what = format!("step {} verdict open", step);
                check_screen(&mut app, index, &what, &mut failures);
                app.update(Msg::Back);
            }
            go_to(&mut app, index, step);
            check_screen(
                &mut app,
                index,
                &format!("step {} sliders at defaults", step + 1),
                &mut failures,
            );
            sliders_at_step(&mut app, index, step);
            check_screen(
                &mut app,
                index,
                &format!("step {} after steps 1-{step} answered", step + 1),
                &mut failures,
            );
            sliders_at_defaults(&mut app, index);
        }
    }
    failures
}

fn assert_none(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} give-aways:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn no_step_of_lab_1_shows_an_unanswered_answer() {
    assert_none(every_step_of(LabId::Health));
}

#[test]
fn no_step_of_lab_2_shows_an_unanswered_answer() {
    assert_none(every_step_of(LabId::Retry));
}

#[test]
fn no_step_of_lab_3_shows_an_unanswered_answer() {
    assert_none(every_step_of(LabId::Breaker));
}

#[test]
fn no_step_of_lab_4_shows_an_unanswered_answer() {
    assert_none(every_step_of(LabId::Overload));
}

// The five cases of review 5, each as a learner reaches it.

#[test]
fn lab_2_step_1s_verdict_masks_rows_b_and_c_for_steps_2_and_3() {
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Retry, 0);
        predict(&mut app, "64");
        let screen = render(&app);
        assert!(screen.contains("64.00"), "its own answer shows: {screen}");
        assert!(!screen.contains("1.11") && screen.contains("?s3"), "{screen}");
        assert!(
            !squeezed(&screen).contains("=4.00") && screen.contains("?s2"),
            "{screen}"
        );
        // Answered, steps 2's and 3's numbers show (their verdicts, then their run).
        app.update(Msg::Open);
        predict(&mut app, "4");
        assert!(squeezed(&render(&app)).contains("=4.00"), "{}", render(&app));
        app.update(Msg::Open);
        predict(&mut app, "1.1");
        assert!(render(&app).contains("1.11"), "{}", render(&app));
    }
}

#[test]
fn lab_2s_jitter_ceiling_waits_for_its_step() {
    for (width, height) in SIZES {
        // Step 1 answered, step 6 (the ceiling before attempt 4) not yet: neither the chart's
        // ceiling line and axis (which end at the cap) nor the sleeps drawn under it show.
        let mut app = open_at(width, height, LabId::Retry, 0);
        predict(&mut app, "64");
        let screen = render(&app);
        assert!(screen.contains("64.00"), "step 1's run shows: {screen}");
        assert!(!screen.contains("⠒ cap") && !screen.contains("⠒ ceiling"), "{screen}");
        assert!(screen.contains("full-jitter sleeps (s): ?s6"), "{screen}");
        assert!(
            screen.contains("┌ Full Jitter (s) ─") && screen.contains("hidden until step 6"),
            "{screen}"
        );
        let mut app = open_at(width, height, LabId::Retry, 5);
        predict(&mut app, "1.6");
        let screen = render(&app);
        assert!(screen.contains("⠒ c") && !screen.contains("?s6"), "{screen}");
        assert!(screen.contains("full-jitter sleeps (s): [0.032"), "{screen}");
    }
}

#[test]
fn lab_4_verdicts_mask_the_next_steps_wait_and_refusals() {
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Overload, 0);
        predict(&mut app, "1000");
        let screen = render(&app);
        assert!(
            !screen.contains("0.50 s") && screen.contains("wait at 2 s ?s2"),
            "{screen}"
        );
        let mut app = open_at(width, height, LabId::Overload, 2);
        predict(&mut app, "400");
        let screen = render(&app);
        assert!(!screen.contains("refused 500") && screen.contains("?s4"), "{screen}");
        // Nor its mean goodput: against the 2500/s offered it is the refused share, step 4's answer.
        assert!(
            !screen.contains("goodput 1990") && screen.contains("goodput ?s4/s"),
            "{screen}"
        );
    }
}

#[test]
fn the_fleets_step_4_verdict_and_c_mask_later_steps() {
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Health, 3);
        predict(&mut app, "3");
        let screen = render(&app);
        assert!(screen.contains("restarts 3 "), "its own answer shows: {screen}");
        assert!(
            !screen.contains("first 61.0 s") && screen.contains("first ?s5"),
            "{screen}"
        );
        // `c` to step 7's scenario: its refused count waits for step 7.
        app.update(Msg::Back);
        go_to(&mut app, 0, 3);
        app.update(Msg::Reveal);
        app.update(Msg::Fleet(resilience_lab::tui::msg::FleetMsg::Scenario));
        let screen = render(&app);
        assert!(screen.contains("readiness-checks-db"), "{screen}");
        assert!(
            !screen.contains("refused 530") && screen.contains("refused ?s7"),
            "{screen}"
        );
    }
}

#[test]
fn lab_3_step_1_masks_steps_2_and_3() {
    for (width, height) in SIZES {
        let screen = squeezed(&render(&open_at(width, height, LabId::Breaker, 0)));
        assert!(!screen.contains("sick=44 ") && !screen.contains("10.29"), "{screen}");
        assert!(screen.contains("sick=?s2") && screen.contains("?s3"), "{screen}");
        assert!(screen.contains("timeout only"), "the rest of the run shows: {screen}");
    }
}

#[test]
fn lab_1_step_1s_timeline_masks_step_2s_probe() {
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Health, 0);
        predict(&mut app, "503");
        app.update(Msg::Back);
        let screen = render(&app);
        assert!(
            screen.contains("t=  0.50 s  /readyz 503"),
            "its own answer shows: {screen}"
        );
        assert!(!screen.contains("t=  2.90 s  /readyz 503"), "{screen}");
        assert!(screen.contains("/readyz ?s2"), "{screen}");
    }
}

/// The column (in characters) where `word` starts in `row`.
fn column_of(row: &str, word: &str) -> Option<usize> {
    row.find(word).map(|at| row[..at].chars().count())
}

#[test]
fn lab_2s_columns_stay_aligned_around_a_placeholder() {
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Retry, 0);
        predict(&mut app, "64");
        let screen = render(&app);
        let rows: Vec<&str> = screen
            .lines()
            .filter(|row| row.contains("db attempts/action="))
            .collect();
        assert_eq!(rows.len(), 3, "rows A, B and C: {screen}");
        assert!(rows[1].contains("?s2") && rows[2].contains("?s3"), "{screen}");
        for word in ["p=", "db attempts/action=", "success="] {
            let columns: Vec<Option<usize>> = rows.iter().map(|row| column_of(row, word)).collect();
            assert!(
                columns[0].is_some() && columns.iter().all(|c| *c == columns[0]),
                "{word} at {columns:?}:\n{screen}"
            );
        }
    }
}

#[test]
fn a_placeholder_on_screen_comes_with_the_one_legend_and_none_without() {
    for (width, height) in SIZES {
        // In the results' rows (Lab 3 step 1), and in the timeline only (Lab 1 after step 1's verdict).
        let lab3 = render(&open_at(width, height, LabId::Breaker, 0));
        let mut lab1 = open_at(width, height, LabId::Health, 0);
        predict(&mut lab1, "503");
        lab1.update(Msg::Back);
        let lab1 = render(&lab1);
        for screen in [lab3, lab1] {
            assert!(reveal::shows_placeholder(&screen), "{screen}");
            assert_eq!(screen.matches(reveal::LEGENDS[0]).count(), 1, "{screen}");
        }
        // Every step revealed: nothing stands in for a number, and no legend says so.
        let mut app = open_at(width, height, LabId::Breaker, 0);
        let index = lab_index(&app, LabId::Breaker);
        for step in 0..app.content.labs[index].steps.len() {
            app.labs[index].revealed.insert(step);
        }
        let screen = render(&app);
        assert!(
            !reveal::shows_placeholder(&screen) && !screen.contains("?sN"),
            "{screen}"
        );
    }
}

#[test]
fn lab_4s_bulkhead_view_waits_for_step_5_at_any_pool() {
    // The view draws pool - X's pool = free: at the defaults' 100 threads it works step 5's
    // 200 - 40 out before the learner predicts it.
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Overload, 0);
        let index = lab_index(&app, LabId::Overload);
        app.update(Msg::Reveal);
        while !render(&app).contains(OVERLOAD_VIEWS[2]) {
            next_overload_view(&mut app, index);
        }
        let screen = render(&app);
        assert!(!screen.contains("left for the rest"), "{screen}");
        assert!(!screen.contains("X's pool 40"), "{screen}");
        assert!(screen.contains("hidden until step 5 is predicted"), "{screen}");
        // Predicted (wrong, even), the view shows at the pool on screen.
        go_to(&mut app, index, 4);
        predict(&mut app, "60");
        app.update(Msg::Back);
        go_to(&mut app, index, 0);
        let screen = render(&app);
        assert!(screen.contains("left for the rest: 60"), "{screen}");
    }
}

#[test]
fn lab_3s_breaker_calls_wait_for_step_5() {
    // 6000 - (2911 - 44) = 3133, step 5's degraded answers, once step 2's 44 is known.
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Breaker, 0);
        let index = lab_index(&app, LabId::Breaker);
        let screen = squeezed(&render(&app));
        assert!(!screen.contains("2911"), "{screen}");
        assert!(screen.contains("sent=?s2"), "step 2 asks first: {screen}");
        assert!(screen.contains("sent=6000"), "the timeout sends every call: {screen}");
        go_to(&mut app, index, 4);
        predict(&mut app, "3000");
        app.update(Msg::Back);
        go_to(&mut app, index, 0);
        let screen = squeezed(&render(&app));
        assert!(!screen.contains("2911"), "step 2's 44 still waits: {screen}");
        go_to(&mut app, index, 1);
        predict(&mut app, "44");
        app.update(Msg::Back);
        go_to(&mut app, index, 0);
        let screen = squeezed(&render(&app));
        assert!(screen.contains("sent=2911"), "{screen}");
    }
}

#[test]
fn lab_3s_breaker_calls_wait_for_step_2_when_step_5_is_seen_first() {
    // Step 2 skipped, step 5 seen with x: its degraded 3133 shows, and 2911 calls beside it
    // would give step 2's 44 (2911 + 3133 - 6000).
    for (width, height) in SIZES {
        let mut app = open_at(width, height, LabId::Breaker, 4);
        app.update(Msg::Reveal);
        let screen = squeezed(&render(&app));
        assert!(screen.contains("degraded=3133"), "step 5's run is seen: {screen}");
        assert!(!screen.contains("2911"), "{screen}");
    }
}
