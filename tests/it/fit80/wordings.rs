//! The last named leftovers at 80x24 and in the footers: the note that Lab 1's steps go on
//! in the fleet view has its own keys;
//! Lab 1 live's Next panel follows the step; Lab 4's throttle panel says it is off (and whose
//! counts it shows live); a slider's help gives way whole; Lab 1 live keeps a waiting check's
//! status whole beside a long phase; a long fleet verdict keeps its last line.

use crate::common::render;
use resilience_lab::live::run::Probe;
use resilience_lab::tui::app::App;
use resilience_lab::tui::frame::view::params::shorter_wordings;
use resilience_lab::tui::keys::{self, Context};
use resilience_lab::tui::labs::health::HealthLab;
use resilience_lab::tui::msg::Msg;

fn app(width: u16, height: u16) -> App {
    crate::common::visited_app(width, height)
}

fn footer(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_string()
}

/// Lab 1 (sim or live) at step 3, the single server's last: `]` marks it done and says the
/// steps go on in the fleet view.
fn lab1_step3_done(live: bool) -> App {
    let mut app = app(80, 24);
    app.update(Msg::Open);
    if live {
        app.update(Msg::ToggleMode);
    }
    app.update(Msg::NextStep);
    app.update(Msg::NextStep);
    app.update(Msg::NextStep);
    app
}

#[test]
fn the_steps_go_on_elsewhere_note_lists_the_keys_it_takes() {
    for live in [false, true] {
        let mut app = lab1_step3_done(live);
        let screen = render(&app);
        assert!(screen.contains("Step 3 done"), "{screen}");
        assert_eq!(app.context(), Context::Note);
        assert!(
            footer(&screen).contains("Enter close") && footer(&screen).contains("F go there"),
            "{screen}"
        );
        assert!(!footer(&screen).contains("next step"), "Enter does not go on: {screen}");
        // Enter closes it, on the same step.
        app.update(Msg::Open);
        assert_eq!(app.context(), Context::Lab);
        assert_eq!(app.labs[0].predict.step, 2);
    }
    // F from the note goes to the fleet view, as its footer says.
    let mut app = lab1_step3_done(false);
    let f = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('F'),
        crossterm::event::KeyModifiers::NONE,
    );
    assert_eq!(keys::msg_for(Context::Note, &f), Some(Msg::NextPage));
    app.update(Msg::NextPage);
    assert!(app.labs[0].later_page().is_some());
}

#[test]
fn lab1_live_next_panel_follows_the_step_before_a_start() {
    for (width, height) in [(80, 24), (100, 30)] {
        let mut app = app(width, height);
        app.update(Msg::Open);
        app.update(Msg::ToggleMode);
        let step1 = render(&app);
        assert!(step1.contains("p predicts what /readyz answers"), "{step1}");
        app.update(Msg::NextStep);
        let step2 = render(&app);
        assert!(step2.contains("p predicts /readyz after SIGTERM"), "{step2}");
        assert!(
            !step2.contains("answers after the"),
            "step 2's check is after SIGTERM: {step2}"
        );
        // Off the check's settings the simulation scores it: no probe is promised.
        app.update(Msg::Step(1));
        let moved = render(&app);
        assert!(moved.contains("simulation scores it"), "{moved}");
    }
}

/// Lab 4 on its outcomes view (`v`), live if `live`, with policy throttle if `throttle`.
fn lab4_outcomes(live: bool, throttle: bool) -> String {
    let mut app = app(80, 24);
    for msg in [Msg::Down, Msg::Down, Msg::Down, Msg::Open] {
        app.update(msg);
    }
    if live {
        app.update(Msg::ToggleMode);
    }
    app.update(Msg::Live(resilience_lab::tui::msg::LiveMsg::ToggleView));
    // Step 1's check hides the sim's run until it is answered or revealed.
    app.update(Msg::Reveal);
    if throttle {
        for _ in 0..4 {
            app.update(Msg::NextSlider);
        }
        app.update(Msg::SliderMax);
    }
    render(&app)
}

#[test]
fn lab4_throttle_panel_says_it_is_off_and_whose_counts_it_shows() {
    for live in [false, true] {
        let off = lab4_outcomes(live, false);
        assert!(off.contains("client-side throttle · off"), "{off}");
        assert!(off.contains("Off: the policy is fifo"), "{off}");
        assert!(!off.contains("(0 - 2 x 0)"), "no formula of zeros: {off}");
        assert!(off.contains("p = max(0,"), "what choosing it would do: {off}");
        let on = lab4_outcomes(live, true);
        assert!(on.contains("= ("), "the worked formula: {on}");
        assert!(!on.contains("Off: "), "{on}");
        assert_eq!(
            on.contains("client-side throttle · the sim's 30 s"),
            live,
            "live, the counts are the simulation's: {on}"
        );
    }
}

/// The rows of the parameters panel below its blank line, trimmed, on an 80x24 screen.
fn help_rows(screen: &str) -> Vec<String> {
    let rows: Vec<String> = screen
        .lines()
        .map(|line| {
            let line = line.trim_matches('"');
            let panel: String = line.chars().skip(1).take(32).collect();
            panel.trim().to_string()
        })
        .collect();
    let start = rows
        .iter()
        .rposition(String::is_empty)
        .expect("a blank row before the help");
    rows[start + 1..rows.len() - 2].to_vec()
}

#[test]
fn a_sliders_help_gives_way_whole_never_a_cut_word() {
    // Lab 4 live with Policy focused: the help is a list too long for its rows.
    let mut app = app(80, 24);
    for msg in [Msg::Down, Msg::Down, Msg::Down, Msg::Open, Msg::ToggleMode] {
        app.update(msg);
    }
    for _ in 0..4 {
        app.update(Msg::NextSlider);
    }
    let screen = render(&app);
    let help = help_rows(&screen).join(" ");
    assert!(help.starts_with("fifo (no shedding)"), "{screen}");
    assert!(
        help.ends_with('…') || help.ends_with('.'),
        "ends cleanly: {help:?}\n{screen}"
    );
    // The fleet view's scenario help at 80x24: its first sentence without the aside.
    let mut app = crate::common::visited_app(80, 24);
    app.update(Msg::Open);
    app.update(Msg::NextPage);
    let screen = render(&app);
    let help = help_rows(&screen).join(" ");
    assert_eq!(help, "The scenario the fleet starts from.", "{screen}");
}

#[test]
fn shorter_wordings_end_cleanly() {
    let ways = shorter_wordings("One two. Three (four, five).");
    assert_eq!(ways[0], "One two. Three (four, five).");
    assert_eq!(ways[1], "One two.");
    let list = shorter_wordings("fifo (no shedding), age-cap, lifo (newest first).");
    assert!(list.contains(&"fifo (no shedding), age-cap, …".to_string()), "{list:?}");
    assert!(
        !list.iter().any(|way| way.contains("shedding, ")),
        "no comma inside brackets: {list:?}"
    );
    for way in shorter_wordings("Requests per second the callers try; capacity is workers / service time.") {
        assert!(way.ends_with('.') || way.ends_with('…'), "{way:?}");
    }
    let aside = shorter_wordings("The scenario the fleet starts from (key c cycles it).");
    assert!(
        aside.contains(&"The scenario the fleet starts from.".to_string()),
        "{aside:?}"
    );
}

#[test]
fn lab1_live_keeps_a_waiting_checks_status_whole_beside_a_long_phase() {
    let mut app = app(80, 24);
    app.update(Msg::Open);
    app.update(Msg::ToggleMode);
    crate::common::show_live::<HealthLab>(&mut app, 0, |live| {
        live.apply(crate::common::lab1_started(4242));
        // Ready by the clock, but /readyz checks a database that is down.
        for (round, at_s) in [(0, 3.0), (1, 3.5)] {
            for (probe, code, body) in [
                (Probe::Livez, 200, "alive"),
                (Probe::Readyz, 503, "not ready: database down"),
            ] {
                live.apply(crate::common::lab1_probe(round, at_s, probe, code, body));
            }
        }
    });
    // Step 1's check while the server runs: its status asks for a restart and needs two rows.
    app.update(Msg::Predict);
    for c in "503".chars() {
        app.update(Msg::Type(c));
    }
    app.update(Msg::Open);
    let screen = render(&app);
    assert!(screen.contains("not ready: database down"), "{screen}");
    assert!(screen.contains("after the start decides"), "the status whole: {screen}");
    assert!(screen.contains("pid 4242"), "{screen}");
}

/// The fleet view's step 7 answered wrong (1 refused request; the run refuses 530).
fn fleet_step7_wrong(width: u16, height: u16) -> App {
    let mut app = app(width, height);
    app.update(Msg::Open);
    app.update(Msg::NextPage);
    for _ in 0..3 {
        app.update(Msg::NextStep);
    }
    app.update(Msg::Predict);
    app.update(Msg::Type('1'));
    app.update(Msg::Open);
    app
}

#[test]
fn a_long_fleet_verdict_keeps_its_last_line_and_pgdn_shows_the_rest() {
    let mut app = fleet_step7_wrong(80, 24);
    let screen = render(&app);
    assert!(screen.contains("Step 7 of"), "{screen}");
    assert!(screen.contains("Saved as not right yet. Esc, then p tries"), "{screen}");
    assert!(screen.contains("PgDn: more"), "{screen}");
    assert!(
        !screen.contains("no answer"),
        "the explanation's end is below: {screen}"
    );
    app.update(Msg::ScrollDown);
    let end = render(&app);
    assert!(end.contains("no answer"), "PgDn shows the explanation's end: {end}");
    assert!(end.contains("Saved as not right yet. Esc, then p tries"), "{end}");
    app.update(Msg::ScrollUp);
    assert_eq!(render(&app), screen);
    // At 100x30 the card has room: no scrolling.
    let roomy = render(&fleet_step7_wrong(100, 30));
    assert!(roomy.contains("Saved as not right yet"), "{roomy}");
}

/// Every lab's first slider, focused as the lab opens at 80x24, shows its help under the list:
/// Lab 5's 40 sliders filled the panel and the focused one's description never appeared until
/// the list scrolled (a beginner's trial). Its first words are enough: the help may give way
/// to a shorter wording.
#[test]
fn the_focused_sliders_help_shows_under_a_long_list_at_80x24() {
    let labs = app(80, 24).content.labs.clone();
    for (index, lab) in labs.iter().enumerate() {
        let mut app = app(80, 24);
        for _ in 0..index {
            app.update(Msg::Down);
        }
        app.update(Msg::Open);
        let screen = render(&app);
        let first = &lab.page_parameters(0)[0];
        let words: Vec<&str> = first.help.split_whitespace().take(3).collect();
        let panel: String = screen
            .lines()
            .map(|row| row.split("││").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" ");
        let panel = panel.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            panel.contains(&words.join(" ")),
            "Lab {}: {:?} has no help on screen:\n{screen}",
            index + 1,
            first.label
        );
    }
}

/// Home's Lab 1 row at 80 columns after a check right after a miss and one right after x:
/// the progress says itself in fewer words rather than squeeze the title to three letters
/// ("Lab 1  Tru… 2/11 steps tried · 2/10 checks right, 1 after a miss, 1 after x").
#[test]
fn home_keeps_a_readable_title_beside_a_long_progress_line_at_80x24() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("progress.toml");
    let mut app = app(80, 24);
    app.use_progress(
        Some(path.clone()),
        resilience_lab::learning::progress::load(&path).expect("no file yet"),
    );
    app.update(Msg::Open);
    let predict = |app: &mut App, answer: &str| {
        app.update(Msg::Predict);
        for c in answer.chars() {
            app.update(Msg::Type(c));
        }
        app.update(Msg::Open);
        app.update(Msg::Back);
    };
    predict(&mut app, "200");
    predict(&mut app, "503");
    app.update(Msg::NextStep);
    app.update(Msg::Reveal);
    predict(&mut app, "503");
    app.update(Msg::Back);
    let screen = render(&app);
    let row = screen.lines().find(|row| row.contains("Lab 1")).unwrap_or_default();
    assert!(row.contains("1 after a miss, 1 after x"), "{screen}");
    assert!(row.contains("Truthful health"), "{row}");
}
