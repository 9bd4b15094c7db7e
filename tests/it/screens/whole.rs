//! Whole-screen snapshots of the terminal app (TestBackend + insta) at 100x30 and 80x24.
//!
//! Colour is off so that a snapshot is the text a learner reads; the theme's roles are
//! covered by the views using them.

use crate::common::{render, visited_app as app};
use resilience_lab::content::QuestionKind;
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::{LiveMsg, Msg};

/// The app at `width`x`height` after `msgs`.
fn screen(width: u16, height: u16, msgs: &[Msg]) -> String {
    let mut app = app(width, height);
    for msg in msgs {
        app.update(*msg);
    }
    render(&app)
}

const LAB2: &[Msg] = &[Msg::Down, Msg::Open];
const LAB3: &[Msg] = &[Msg::Down, Msg::Down, Msg::Open];
const LAB4: &[Msg] = &[Msg::Down, Msg::Down, Msg::Down, Msg::Open];

/// Step 1's check is unanswered, so its run waits for a prediction: at 80x24 the screen as
/// opened (the run hidden), at 100x30 with `x` pressed (the run shown, as before predicting).
#[test]
fn lab4_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[LAB4, &[Msg::Reveal]].concat()));
}

#[test]
fn lab4_80x24() {
    insta::assert_snapshot!(screen(80, 24, LAB4));
}

/// `x` at 80x24: the queue's length and its wait each on its own axis, side by side under
/// the curves (on one grid of four rows neither read).
#[test]
fn lab4_revealed_80x24() {
    insta::assert_snapshot!(screen(80, 24, &[LAB4, &[Msg::Reveal]].concat()));
}

/// Step 5 revealed: its run at its check's settings (200 workers, X's pool of 40), in the
/// bulkhead view its check counts, as its verdict shows it (before it, the view waits for
/// step 5: it works out its answer).
#[test]
fn lab4_bulkhead_80x24() {
    let keys = [
        LAB4,
        &[Msg::NextStep, Msg::NextStep, Msg::NextStep, Msg::NextStep, Msg::Reveal],
    ]
    .concat();
    insta::assert_snapshot!(screen(80, 24, &keys));
}

/// Step 8 revealed, then `v` three times: the metastable model its check is scored on,
/// drawn in the app (the step needs no shell).
const LAB4_METASTABLE: &[Msg] = &[
    Msg::NextStep,
    Msg::NextStep,
    Msg::NextStep,
    Msg::NextStep,
    Msg::NextStep,
    Msg::NextStep,
    Msg::NextStep,
    Msg::Reveal,
    Msg::Live(LiveMsg::ToggleView),
    Msg::Live(LiveMsg::ToggleView),
    Msg::Live(LiveMsg::ToggleView),
];

#[test]
fn lab4_metastable_80x24() {
    let text = screen(80, 24, &[LAB4, LAB4_METASTABLE].concat());
    assert!(text.contains("metastable: database load"), "{text}");
    assert!(text.contains("back: never"), "the model's run is drawn:\n{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn lab4_metastable_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[LAB4, LAB4_METASTABLE].concat()));
}

/// Before step 8 is predicted, the metastable view waits for it: it draws step 8's answer.
#[test]
fn lab4_metastable_waits_for_step_8() {
    let keys = [LAB4, &[Msg::Reveal], &[Msg::Live(LiveMsg::ToggleView); 3]].concat();
    let text = screen(80, 24, &keys);
    assert!(text.contains("hidden until step 8 is predicted"), "{text}");
    assert!(!text.contains("back: never"), "{text}");
}

#[test]
fn home_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[]));
}

#[test]
fn home_80x24() {
    insta::assert_snapshot!(screen(80, 24, &[]));
}

/// Revealed (`x`); `lab2_80x24` is the screen as opened, its run hidden until predicted.
#[test]
fn lab2_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[LAB2, &[Msg::Reveal]].concat()));
}

#[test]
fn lab2_80x24() {
    insta::assert_snapshot!(screen(80, 24, LAB2));
}

#[test]
fn lab3_100x30() {
    insta::assert_snapshot!(screen(100, 30, LAB3));
}

#[test]
fn lab3_80x24() {
    insta::assert_snapshot!(screen(80, 24, LAB3));
}

/// Revealed (`x`); `lab1_80x24` is the screen as opened, its run hidden until predicted.
#[test]
fn lab1_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[Msg::Open, Msg::Reveal]));
}

#[test]
fn help_overlay_on_lab3_100x30() {
    let mut msgs = LAB3.to_vec();
    msgs.push(Msg::ToggleHelp);
    insta::assert_snapshot!(screen(100, 30, &msgs));
}

/// A live screen's help: its own `s` and `m` first, and the lab screen's `m/s` row, which
/// would say the same again, left out.
#[test]
fn help_overlay_on_lab3_live_100x30() {
    let mut msgs = LAB3.to_vec();
    msgs.extend([Msg::ToggleMode, Msg::ToggleHelp]);
    let text = screen(100, 30, &msgs);
    assert!(text.contains("back to the simulation"), "{text}");
    assert!(!text.contains("sim or live; live: s starts"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn too_small() {
    let text = screen(79, 24, LAB3);
    assert!(text.contains("terminal too small: needs 80x24, have 79x24"), "{text}");
    insta::assert_snapshot!(screen(60, 10, &[]));
}

#[test]
fn resizing_to_too_small_and_back_redraws_the_lab() {
    let mut app = app(100, 30);
    for msg in LAB3 {
        app.update(*msg);
    }
    app.update(Msg::Resize(50, 12));
    assert!(render(&app).contains("terminal too small: needs 80x24, have 50x12"));
    app.update(Msg::Resize(100, 30));
    // Its 44 calls to the sick dependency are step 2's answer, and its 2911 calls work out
    // step 5's: masked until predicted there.
    assert!(render(&app).contains("with breaker  sent=  ?s2 to sick=  ?s2"));
}

// The learning screens: quiz, book, lesson with the chapter, predictions.

const QUIZ: &[Msg] = &[Msg::Down, Msg::Down, Msg::Down, Msg::Down, Msg::Down, Msg::Open];

/// The app on the quiz's first question, with a seed whose first question is a choice.
fn quiz_on_a_choice(width: u16, height: u16) -> App {
    let mut app = app(width, height);
    for msg in QUIZ {
        app.update(*msg);
    }
    for seed in 1..100 {
        app.quiz.seed = seed;
        app.update(Msg::Open);
        if app.quiz.asked[0].question.kind == QuestionKind::Choice {
            return app;
        }
        app.quiz.reset();
    }
    panic!("no seed under 100 starts with a choice question");
}

/// A wrong letter for the question showing.
fn wrong_answer(app: &App) -> Msg {
    let asked = &app.quiz.asked[app.quiz.current];
    let right = asked.right_letter().expect("a choice question");
    Msg::Answer(if right == 'a' { 1 } else { 0 })
}

#[test]
fn home_with_progress_100x30() {
    let mut app = app(100, 30);
    app.progress.mark_step("retry", "Layered retries");
    app.progress.record_answer("retry-predict-layered", Some("retry"), true);
    // A bank question missed in the quiz: the quiz's row counts it, the lab's check above it does not.
    app.progress.record_answer("retry-three-layers", None, false);
    app.progress.mark_step("health", "Warm-up");
    insta::assert_snapshot!(render(&app));
}

#[test]
fn quiz_setup_100x30() {
    insta::assert_snapshot!(screen(100, 30, QUIZ));
}

#[test]
fn quiz_question_choice_100x30() {
    insta::assert_snapshot!(render(&quiz_on_a_choice(100, 30)));
}

/// The quiz after a wrong answer to its first question.
fn quiz_feedback(width: u16, height: u16) -> App {
    let mut app = quiz_on_a_choice(width, height);
    app.update(wrong_answer(&app));
    app
}

/// Stopped after one: the review shows the score and the missed question.
fn quiz_review(width: u16, height: u16) -> App {
    let mut app = quiz_feedback(width, height);
    app.update(Msg::Open);
    app.update(Msg::Back);
    app
}

#[test]
fn quiz_feedback_100x30() {
    insta::assert_snapshot!(render(&quiz_feedback(100, 30)));
}

#[test]
fn quiz_review_100x30() {
    insta::assert_snapshot!(render(&quiz_review(100, 30)));
}

#[test]
fn quiz_question_80x24() {
    insta::assert_snapshot!(render(&quiz_on_a_choice(80, 24)));
}

#[test]
fn book_100x30() {
    insta::assert_snapshot!(screen(
        100,
        30,
        &[
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Open,
            Msg::NextItem,
            Msg::NextItem,
            Msg::NextItem,
            Msg::Open
        ]
    ));
}

#[test]
fn book_80x24() {
    insta::assert_snapshot!(screen(
        80,
        24,
        &[
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Open
        ]
    ));
}

#[test]
fn lab2_lesson_with_chapter_100x30() {
    insta::assert_snapshot!(screen(100, 30, &[Msg::Down, Msg::Open, Msg::ToggleLesson]));
}

#[test]
fn lab2_prediction_prompt_100x30() {
    insta::assert_snapshot!(screen(
        100,
        30,
        &[Msg::Down, Msg::Open, Msg::Predict, Msg::Type('6'), Msg::Type('4')]
    ));
}

#[test]
fn lab2_prediction_observed_100x30() {
    insta::assert_snapshot!(screen(
        100,
        30,
        &[
            Msg::Down,
            Msg::Open,
            Msg::Predict,
            Msg::Type('1'),
            Msg::Type('2'),
            Msg::Open
        ]
    ));
}

/// Lab 1 live in a state built by hand (no child): warm-up, ready, a /work request,
/// SIGTERM, the listener closed, then, if `exited`, the refusals and the exit.
fn lab1_live(width: u16, height: u16, exited: bool) -> App {
    use resilience_lab::live::health::child::Stream;
    use resilience_lab::live::http::GetOutcome;
    use resilience_lab::live::run::{HealthEvent as Report, Probe};

    let mut app = app(width, height);
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    crate::common::show_live::<HealthLab>(&mut app, 0, |live| {
        live.apply(crate::common::lab1_started(4242));
        live.apply_line(0.0, Stream::Stdout, "listening on 127.0.0.1:18080");
        let answered = |code: u16, body: &str| GetOutcome::Answered {
            code,
            body: format!("{body}\n"),
        };
        let rounds = if exited { 30 } else { 14 };
        for round in 0..rounds {
            let at_s = round as f64 * 0.5;
            if round == 8 {
                live.apply(Report::WorkSent);
                live.apply_line(at_s, Stream::Stderr, "GET /work");
            }
            if round == 12 {
                live.apply(Report::SigtermSent);
            }
            if round == 14 {
                live.apply_line(at_s, Stream::Stdout, "stopped listening");
            }
            let (livez, readyz) = match round {
                0..4 => (answered(200, "alive"), answered(503, "not ready: warming up")),
                4..12 => (answered(200, "alive"), answered(200, "ready")),
                12..14 => (answered(200, "alive"), answered(503, "not ready: draining")),
                _ => (GetOutcome::Refused, GetOutcome::Refused),
            };
            for (probe, outcome) in [(Probe::Livez, livez), (Probe::Readyz, readyz)] {
                live.apply(Report::Probe {
                    round,
                    at_s,
                    probe,
                    outcome,
                });
            }
            if round == 11 && exited {
                live.apply(Report::WorkDone(answered(200, "done")));
            }
        }
        if exited {
            live.apply_line(7.5, Stream::Stdout, "drained, exiting");
            live.apply(Report::Exited(0));
            live.apply(Report::ProbesStopped);
        } else {
            live.apply_line(7.0, Stream::Stdout, "stopped listening");
        }
    });
    app
}

// ---- Live views, in states built by hand (no sockets) ----

use resilience_lab::engine::brownout::{self, BrownoutParams};
use resilience_lab::engine::fault::FaultKind;
use resilience_lab::live::breaker::brownout::{CallerSample, LiveSample};
use resilience_lab::live::retry::chain::ChainSnapshot;
use resilience_lab::tui::labs::breaker::BreakerLab;
use resilience_lab::tui::labs::breaker::live::{BreakerLive, BreakerSeries};
use resilience_lab::tui::labs::health::HealthLab;
use resilience_lab::tui::labs::retry::RetryLab;
use resilience_lab::tui::labs::retry::live::{RetrySeries, RetryView, rate_point};

/// Lab 3 in live mode with the first `seconds` of the Atlas's run as if measured: the sim's
/// per-second numbers stand in for the samples, so the snapshot is deterministic.
fn lab3_live(width: u16, height: u16, seconds: usize, finished: bool) -> App {
    lab3_live_with(width, height, seconds, finished, |_| {})
}

/// [`lab3_live`], its live part then as `tweak` leaves it.
fn lab3_live_with(
    width: u16,
    height: u16,
    seconds: usize,
    finished: bool,
    tweak: impl FnOnce(&mut BreakerLive),
) -> App {
    let mut app = app(width, height);
    for msg in LAB3 {
        app.update(*msg);
    }
    app.update(Msg::ToggleMode);
    let params = BrownoutParams::default();
    let sim = brownout::compare(&params);
    let mut series = BreakerSeries::new(params.clone(), FaultKind::Hang);
    for second in 0..seconds {
        let caller = |run: &brownout::CallerRun, breaker: bool| {
            let stats = run.per_second[second].clone();
            let waits_s = (0..stats.calls)
                .map(|i| {
                    if i < stats.degraded - stats.failed_fast {
                        0.2
                    } else {
                        0.04
                    }
                })
                .collect();
            CallerSample {
                in_flight: stats.waiting.round() as u64,
                breaker: breaker.then(|| brownout::state_at(&run.transitions, second as f64 + 1.0)),
                stats,
                waits_s,
            }
        };
        series.push(LiveSample {
            second,
            sick: params.is_sick(second as f64 + 0.5),
            timeout_only: caller(&sim.timeout_only, false),
            with_breaker: caller(&sim.with_breaker, true),
        });
    }
    if finished {
        series.measured = Some(sim);
        series.running = false;
    }
    crate::common::show_live::<BreakerLab>(&mut app, 2, |live| {
        live.series = Some(series);
        tweak(live);
    });
    app
}

/// A run where `b` took over from the schedule ends saying so: its live rows followed the hand,
/// not the window the simulation's rows played.
#[test]
fn a_lab3_live_run_that_b_overrode_says_so_when_it_finishes() {
    use resilience_lab::engine::fault::ManualOverride;
    let plain = render(&lab3_live(80, 24, 60, true));
    assert!(plain.contains("live rows measured, sim rows below"), "{plain}");
    let overridden = render(&lab3_live_with(80, 24, 60, true, |live| {
        live.manual = Some(ManualOverride::Sick);
    }));
    assert!(
        overridden.contains("b overrode hang 10–40 s: live rows differ from sim"),
        "{overridden}"
    );
}

#[test]
fn lab1_live_draining_100x30() {
    insta::assert_snapshot!(render(&lab1_live(100, 30, false)));
}

#[test]
fn lab1_live_exited_80x24() {
    insta::assert_snapshot!(render(&lab1_live(80, 24, true)));
}

#[test]
fn lab3_live_running_100x30() {
    insta::assert_snapshot!(render(&lab3_live(100, 30, 25, false)));
}

/// Without colour the brownout is marked on the time axis, not dotted in the plot: the dots
/// buried the calls/s line and the to-sick `•` line among them.
#[test]
fn lab3_live_no_colour_marks_the_brownout_on_the_axis_not_in_the_plot() {
    for (width, height) in [(100, 30), (80, 24)] {
        let text = render(&lab3_live(width, height, 60, true));
        let rows: Vec<&str> = text.lines().collect();
        let plot_top = rows
            .iter()
            .position(|row| row.contains("calls •sick"))
            .expect("the calls chart's legend");
        let axis = plot_top
            + rows[plot_top..]
                .iter()
                .position(|row| row.contains('└'))
                .expect("the time axis");
        for row in &rows[plot_top + 1..axis] {
            // Past the parameter panel: the two charts.
            let charts: String = row.chars().skip(usize::from(width) * 2 / 5).collect();
            assert!(!charts.contains('·'), "no dots in the plot: {row}\n{text}");
        }
        // The with-breaker caller's to-sick line reads at the bottom, in the window.
        assert!(rows[axis - 1].contains("••••"), "{text}");
        // Both charts mark the window's seconds, 10 s to 40 s of 60 s: half the plot.
        let marks = rows[axis].matches('═').count();
        assert!(marks >= 16, "{}\n{text}", rows[axis]);
    }
}

#[test]
fn lab3_live_finished_80x24() {
    insta::assert_snapshot!(render(&lab3_live(80, 24, 60, true)));
}

fn counters(received: [u64; 3], started: u64, ok: u64) -> ChainSnapshot {
    ChainSnapshot {
        received: received.to_vec(),
        actions_started: started,
        actions_done: started,
        actions_ok: ok,
        db_failed: received[2] - ok,
        // Every action is finished here, its attempts reported back.
        db_attempts_of_finished: received[2],
        ..ChainSnapshot::default()
    }
}

/// Lab 2 in live mode: a counting run at p = 1, 4 x 4 x 4, 12 s in, 10 actions a second, as
/// `tweak` leaves it.
fn lab2_live_counting(width: u16, height: u16, tweak: impl FnOnce(&mut RetrySeries)) -> App {
    let mut app = app(width, height);
    for msg in LAB2 {
        app.update(*msg);
    }
    app.update(Msg::ToggleMode);
    let mut series = RetrySeries {
        view: RetryView::Counting,
        policy_label: "A 4×4×4".into(),
        attempts: vec![4, 4, 4],
        p: 1.0,
        actions: 2_000,
        ..RetrySeries::default()
    };
    let mut before = counters([0, 0, 0], 0, 0);
    for second in 1..=12u64 {
        // 100 actions/s: wide enough rates to need the short labels at 80 columns.
        let now = counters([400 * second, 1_600 * second, 6_400 * second], 100 * second, 0);
        series.points.push(rate_point(&before, &now, second as f64, 1.0));
        before = now;
    }
    series.latest = before;
    series.latest_s = 12.0;
    tweak(&mut series);
    crate::common::show_live::<RetryLab>(&mut app, 1, |live| live.series = Some(series));
    app
}

#[test]
fn lab2_live_counting_100x30() {
    insta::assert_snapshot!(render(&lab2_live_counting(100, 30, |_| {})));
}

#[test]
fn lab2_live_counting_80x24() {
    insta::assert_snapshot!(render(&lab2_live_counting(80, 24, |_| {})));
}

/// The metastable view: healthy 240 actions/s, a trigger at 5 s, and goodput that stays down.
fn lab2_live_metastable(width: u16, height: u16) -> App {
    let mut app = app(width, height);
    for msg in LAB2 {
        app.update(*msg);
    }
    app.update(Msg::ToggleMode);
    app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::ToggleView));
    let mut series = RetrySeries {
        view: RetryView::Metastable,
        policy_label: "A".into(),
        attempts: vec![4, 4, 4],
        triggers: vec![(5.0, 15.0)],
        ..RetrySeries::default()
    };
    let mut before = counters([0, 0, 0], 0, 0);
    for second in 1..=25u64 {
        let (db, ok) = if second <= 5 { (240, 240) } else { (400, 3) };
        let now = ChainSnapshot {
            db_in_flight: if second <= 5 { 4 } else { 350 },
            ..counters(
                [
                    before.received[0] + 240,
                    before.received[1] + db / 2,
                    before.received[2] + db,
                ],
                before.actions_started + 240,
                before.actions_ok + ok,
            )
        };
        series.points.push(rate_point(&before, &now, second as f64, 1.0));
        before = now;
    }
    series.latest = before;
    series.latest_s = 25.0;
    // `v` left the live part in its metastable view: the page handed over is in it too.
    crate::common::show_live::<RetryLab>(&mut app, 1, |live| {
        live.view = RetryView::Metastable;
        live.series = Some(series);
    });
    assert!(app.labs[1].live_showing());
    app
}

#[test]
fn lab2_live_metastable_100x30() {
    insta::assert_snapshot!(render(&lab2_live_metastable(100, 30)));
}

#[test]
fn lab2_live_metastable_80x24() {
    insta::assert_snapshot!(render(&lab2_live_metastable(80, 24)));
}

// Every screen at 80x24, the advertised minimum: nothing cut (issue 11).

#[test]
fn lab1_80x24() {
    insta::assert_snapshot!(screen(80, 24, &[Msg::Open]));
}

/// The probe period in sim says that only the live screen uses it.
#[test]
fn lab1_probe_period_in_sim_80x24() {
    let mut msgs = vec![Msg::Open];
    msgs.extend([Msg::NextSlider; 4]);
    let text = screen(80, 24, &msgs);
    assert!(text.contains("In sim this changes nothing"), "{text}");
    insta::assert_snapshot!(text);
}

/// Lab 1 live's help is taller than 24 rows: it scrolls down to Ctrl+C.
#[test]
fn help_overlay_on_lab1_live_80x24_scrolls() {
    let mut app = lab1_live(80, 24, true);
    app.update(Msg::ToggleHelp);
    let top = render(&app);
    assert!(top.contains("↑↓ scroll"), "{top}");
    for _ in 0..30 {
        app.update(Msg::Down);
    }
    let bottom = render(&app);
    assert!(bottom.contains("Ctrl+C"), "{bottom}");
    insta::assert_snapshot!("help_overlay_on_lab1_live_80x24_top", top);
    insta::assert_snapshot!("help_overlay_on_lab1_live_80x24_bottom", bottom);
}

/// The counting run at p = 1 ended, with its result (64 attempts per action, none ok).
fn finished_at_p_1(series: &mut RetrySeries) {
    series.finished = true;
    series.result = Some(resilience_lab::engine::retry::ScenarioResult {
        params: resilience_lab::engine::retry::ScenarioParams {
            p: 1.0,
            attempts: vec![4, 4, 4],
            budget: 0.0,
            actions: 2_000,
            seed: 42,
        },
        db_attempts: 128_000,
        db_attempts_per_action: 64.0,
        successes: 0,
        success_ratio: 0.0,
        sends_per_layer: vec![8_000, 32_000, 128_000],
    });
}

#[test]
fn lab2_live_counting_finished_80x24() {
    let app = lab2_live_counting(80, 24, |series| {
        finished_at_p_1(series);
    });
    let text = render(&app);
    assert!(text.contains("success 0.0%"), "success as on the sim screen: {text}");
    insta::assert_snapshot!(text);
}

#[test]
fn a_live_counting_run_over_in_under_a_second_says_so_and_its_axis_fits_it() {
    let app = lab2_live_counting(80, 24, |series| {
        // Two points, the last partial: the run ended at 0.8 s.
        for (point, t_s) in series.points.iter_mut().zip([0.5, 0.8]) {
            point.t_s = t_s;
        }
        series.points.truncate(2);
        series.latest_s = 0.8;
        finished_at_p_1(series);
    });
    let text = render(&app);
    assert!(text.contains("finished in 0.8 s"), "{text}");
    let axes: Vec<&str> = text.lines().filter(|line| line.contains("     0    ")).collect();
    assert!(
        axes.iter().any(|line| line.contains("0.8 s")) && !text.contains("10 s"),
        "the time axis ends where the run did: {text}"
    );
}

#[test]
fn lab3_live_running_80x24() {
    let text = render(&lab3_live(80, 24, 25, false));
    assert!(
        text.contains("sim  with breaker") || text.contains("sim with breaker"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

/// Minimum calls above the window: the app gives the command line's reason.
#[test]
fn lab3_min_calls_above_the_window_80x24() {
    let mut msgs = LAB3.to_vec();
    msgs.extend([Msg::NextSlider; 7]);
    msgs.push(Msg::SliderMax);
    let text = screen(80, 24, &msgs);
    // Both reasons whole at 80 columns: the Results line with its two numbers, and the
    // note under the sliders to its full stop.
    assert!(text.contains("min calls 200 > the 20-call window"), "{text}");
    assert!(text.contains("can never open."), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn quiz_setup_80x24() {
    insta::assert_snapshot!(screen(80, 24, QUIZ));
}

#[test]
fn home_with_a_long_notice_80x24() {
    let mut app = app(80, 24);
    app.status = Some(
        "progress file /home/learner/.local/share/resilience-lab/progress.json could not be read \
         (expected value at line 1 column 1); it was moved to /home/learner/.local/share/resilience-lab/\
         progress.json.bad and progress starts afresh"
            .to_string(),
    );
    let text = render(&app);
    assert!(text.contains("starts afresh"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn keys_do_nothing_while_the_terminal_is_too_small() {
    let mut app = app(60, 10);
    assert!(!app.update(Msg::Open));
    assert!(!app.update(Msg::ToggleHelp));
    assert_eq!(app.screen, resilience_lab::tui::app::Screen::Home);
    assert!(!app.show_help);
    app.update(Msg::Resize(80, 24));
    assert!(app.update(Msg::Open));
}

/// Lab 3 live after `b` healed the dependency, with the slow fault: the status names the
/// override instead of the schedule, and the sim rows (a hang model) say they do not apply.
#[test]
fn lab3_live_healed_by_hand_with_a_slow_fault_80x24() {
    let app = lab3_live_with(80, 24, 25, false, |live| {
        live.manual = Some(resilience_lab::engine::fault::ManualOverride::Healthy);
        live.fault = FaultKind::Slow;
    });
    let text = render(&app);
    assert!(text.contains("healed by hand · b brown out"), "{text}");
    assert!(!text.contains("hang 10–40 s · healed"), "{text}");
    assert!(text.contains("sim rows model a hang; live is slow"), "{text}");
    assert!(
        !text.contains("sim  with breaker") && !text.contains("sim with breaker"),
        "{text}"
    );
}

/// The book's code blocks: no fences, a gutter on every row, wrapped rows included.
#[test]
fn book_code_blocks_keep_their_gutter_80x24() {
    let mut app = app(80, 24);
    // Home lists five labs, the quiz, then the book.
    for msg in [
        Msg::Down,
        Msg::Down,
        Msg::Down,
        Msg::Down,
        Msg::Down,
        Msg::Down,
        Msg::Open,
    ] {
        app.update(msg);
    }
    // Scroll a line at a time until both headless code blocks are on screen, wherever the
    // introduction's length puts them (a bounded walk: the chapter is a few hundred rows).
    let both_on_screen =
        |text: &str| text.contains("▏ resilience-lab run health --sim") && text.contains("real server process");
    let mut text = render(&app);
    for _ in 0..600 {
        if both_on_screen(&text) {
            break;
        }
        app.update(Msg::Down);
        text = render(&app);
    }
    assert!(both_on_screen(&text), "{text}");
    assert!(!text.contains("```"), "{text}");
    let wrapped_code_rows_without_gutter = text
        .lines()
        .filter(|row| row.contains("real server process") && !row.contains('▏'))
        .count();
    assert_eq!(wrapped_code_rows_without_gutter, 0, "{text}");
}

#[test]
fn quiz_feedback_80x24() {
    insta::assert_snapshot!(render(&quiz_feedback(80, 24)));
}

#[test]
fn quiz_review_80x24() {
    insta::assert_snapshot!(render(&quiz_review(80, 24)));
}

#[test]
fn lab2_lesson_with_chapter_80x24() {
    insta::assert_snapshot!(screen(80, 24, &[Msg::Down, Msg::Open, Msg::ToggleLesson]));
}

#[test]
fn help_overlay_on_lab3_80x24() {
    let mut msgs = LAB3.to_vec();
    msgs.push(Msg::ToggleHelp);
    insta::assert_snapshot!(screen(80, 24, &msgs));
}

/// At 80x24 the book's text panel is 48 columns, and the drill chapter's alerts and levers
/// tables cut their names mid-word (`Dependenc`, `yBreakerN`, a trial found): they are lists
/// now, whose names read whole, and `w` gives any chapter the whole width (the chapter list
/// hides; choosing a chapter brings it back).
#[test]
fn the_drill_chapters_names_read_whole_and_w_gives_the_text_the_width_80x24() {
    let oncall = resilience_lab::content::book::chapters()
        .iter()
        .position(|chapter| chapter.file == "oncall.md")
        .expect("the drill's chapter is listed");
    let mut app = app(80, 24);
    for msg in [Msg::Down; 6].into_iter().chain([Msg::Open]) {
        app.update(msg);
    }
    for _ in 0..oncall {
        app.update(Msg::NextItem);
    }
    app.update(Msg::Open);
    // Down a line at a time until `name` is on screen (bounded: a few hundred rows).
    let scroll_to = |app: &mut App, name: &str| {
        for _ in 0..800 {
            if render(app).contains(name) {
                return true;
            }
            app.update(Msg::Down);
        }
        false
    };
    for name in [
        "DependencyBreakerNotClosed",
        "DependencyCallsRejected",
        "DEP.retries=restore",
    ] {
        app.book.scroll = 0;
        assert!(scroll_to(&mut app, name), "{name} whole: {}", render(&app));
    }
    let narrow = render(&app);
    assert!(narrow.contains("Chapters"), "{narrow}");
    assert!(
        narrow.lines().next().is_some_and(|title| title.contains("w wide")),
        "the title names the key: {narrow}"
    );
    app.update(Msg::ToggleWide);
    let wide = render(&app);
    assert!(!wide.contains("Chapters"), "the list hides: {wide}");
    assert!(wide.contains("w chapters"), "and says how it comes back: {wide}");
    let text_box = wide.lines().nth(1).expect("the box's top border");
    assert!(
        text_box.starts_with("\"┌ On call for checkout-api"),
        "the text box starts at the left: {wide}"
    );
    app.update(Msg::NextItem);
    assert!(render(&app).contains("Chapters"), "choosing a chapter shows the list");
}
