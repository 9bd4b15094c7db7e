//! The fleet view drawn alone (ratatui's TestBackend, not through the App) at 100x30 and
//! 80x24, and read without colour: every state and series keeps its own glyph.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use resilience_lab::engine::fleet::{FleetParams, FleetRun, FleetScenario, simulate};
use resilience_lab::tui::labs::fleet::charts::{FleetView, draw};
use resilience_lab::tui::theme::Theme;
use resilience_lab::tui::theme::ThemeName;

fn screen(run: &FleetRun, width: u16, height: u16, theme: Theme) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    let view = FleetView {
        run,
        mode: "sim",
        until_s: None,
        masked: &resilience_lab::learning::reveal::Masked::default(),
    };
    terminal
        .draw(|frame| draw(frame, frame.area(), &view, &theme))
        .expect("draw");
    terminal.backend().to_string()
}

fn liveness_run() -> FleetRun {
    simulate(&FleetParams::scenario(FleetScenario::LivenessChecksDb))
}

#[test]
fn fleet_liveness_checks_db_100x30() {
    insta::assert_snapshot!(screen(&liveness_run(), 100, 30, Theme::new(ThemeName::Dark, true)));
}

#[test]
fn fleet_liveness_checks_db_80x24() {
    insta::assert_snapshot!(screen(&liveness_run(), 80, 24, Theme::new(ThemeName::Dark, true)));
}

#[test]
fn fleet_rolling_restart_80x24() {
    let run = simulate(&FleetParams::scenario(FleetScenario::RollingRestart));
    insta::assert_snapshot!(screen(&run, 80, 24, Theme::new(ThemeName::Dark, true)));
}

#[test]
fn without_colour_the_states_and_series_still_differ_by_glyph() {
    let text = screen(&liveness_run(), 100, 30, Theme::new(ThemeName::Dark, false));
    let rows: Vec<&str> = text.lines().collect();
    let row = |name: &str| rows.iter().find(|l| l.contains(name)).copied().unwrap_or_default();
    // Replica 0: ready (█), then stopping (▄), starting again (▒), back-off (·).
    for glyph in ["█", "▄", "▒", "·"] {
        assert!(row("fleet-0").contains(glyph), "{glyph} in {:?}", row("fleet-0"));
    }
    assert!(row("endpoints").contains('0') && row("endpoints").contains('3'));
    assert!(row("database").contains('█') && row("database").contains('▁'));
    // The chart shows ok (o), degraded (d) and refused (r) requests.
    let chart: String = rows
        .iter()
        .skip_while(|l| !l.contains("requests/s"))
        .skip(1)
        .copied()
        .collect();
    for glyph in ['o', 'd', 'r'] {
        assert!(chart.contains(glyph), "{glyph} in the chart:\n{text}");
    }
    assert!(text.contains("restarts 12 (first 61.0 s)"), "{text}");
}
