//! `x` is one key on every page, by one rule of the frame: it shows the current step's run,
//! the one its verdict would show (at its check's own settings where the sliders do not
//! stand at them), titled so, until a slider moves; the footer offers it while it would
//! change the screen. Lab 1's fleet showed the sliders' run at step 7, another scenario
//! than the one its check asks about.

use crate::common::{render, visited_app};
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::{FleetMsg, Msg};

fn run(mut app: App, msgs: &[Msg]) -> App {
    for msg in msgs {
        app.update(*msg);
    }
    app
}

fn footer(screen: &str) -> &str {
    screen.lines().last().unwrap_or_default()
}

/// Lab 1's fleet page at step 7 (readiness on the database), its sliders as they start
/// (liveness-checks-db).
fn fleet_step7(width: u16, height: u16) -> App {
    run(
        visited_app(width, height),
        &[Msg::Open, Msg::NextPage, Msg::NextStep, Msg::NextStep, Msg::NextStep],
    )
}

/// Lab 4 at step 3 (the age cap's queue), its sliders as they start (fifo).
fn lab4_step3(width: u16, height: u16) -> App {
    run(
        visited_app(width, height),
        &[Msg::Down, Msg::Down, Msg::Down, Msg::Open, Msg::NextStep, Msg::NextStep],
    )
}

#[test]
fn x_on_the_fleet_shows_the_steps_run_at_its_checks_settings_until_a_slider_moves() {
    for (width, height) in [(80, 24), (100, 30)] {
        let mut app = fleet_step7(width, height);
        let before = render(&app);
        assert!(
            before.contains("hidden until you predict (p) or reveal (x)"),
            "{before}"
        );
        assert!(footer(&before).contains("x reveal"), "{before}");
        app.update(Msg::Reveal);
        let after = render(&app);
        assert!(
            after.contains("Fleet at the check's settings: readiness-checks-db"),
            "step 7's run at {width}x{height}: {after}"
        );
        assert!(after.contains("refused 530"), "{after}");
        assert!(after.contains("liveness-checks-db"), "the sliders stay: {after}");
        assert!(
            !footer(&after).contains("x reveal"),
            "x has shown all it shows: {after}"
        );
        // A slider moved: the sliders' run, and `x` shows the step's again.
        app.update(Msg::Fleet(FleetMsg::Roll));
        let moved = render(&app);
        assert!(!moved.contains("Fleet at the check's settings"), "{moved}");
        assert!(footer(&moved).contains("x reveal"), "{moved}");
        app.update(Msg::Reveal);
        let again = render(&app);
        assert!(again.contains("Fleet at the check's settings"), "{again}");
    }
}

#[test]
fn x_on_lab4_shows_the_steps_run_at_its_checks_settings_until_a_slider_moves() {
    for (width, height) in [(80, 24), (100, 30)] {
        let mut app = lab4_step3(width, height);
        let before = render(&app);
        assert!(footer(&before).contains("x reveal"), "{before}");
        app.update(Msg::Reveal);
        let after = render(&app);
        assert!(
            after.contains(" Results · check's settings "),
            "{width}x{height}: {after}"
        );
        assert!(after.contains("· age-cap ·"), "the check's policy: {after}");
        assert!(!footer(&after).contains("x reveal"), "{after}");
        app.update(Msg::Step(1));
        let moved = render(&app);
        assert!(!moved.contains("check's settings"), "{moved}");
        assert!(moved.contains("· fifo ·"), "the sliders' run: {moved}");
        assert!(footer(&moved).contains("x reveal"), "{moved}");
        app.update(Msg::Reveal);
        assert!(render(&app).contains(" Results · check's settings "));
    }
}

/// Where the sliders stand at the check's settings (Lab 4's step 1), their run is the
/// step's: `x` shows it as it is, titled as always, and leaves the footer.
#[test]
fn x_where_the_sliders_stand_at_the_checks_settings_shows_their_run() {
    let mut app = run(visited_app(100, 30), &[Msg::Down, Msg::Down, Msg::Down, Msg::Open]);
    app.update(Msg::Reveal);
    let after = render(&app);
    assert!(after.contains("┌ Results ─"), "{after}");
    assert!(!after.contains("check's settings"), "{after}");
    assert!(!footer(&after).contains("x reveal"), "{after}");
}
