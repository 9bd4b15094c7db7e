//! The frame's parameter panel says which slider of how many is focused whenever not all of
//! them fit (Lab 5's at 80x24 had sliders below the visible list and did not say so), on
//! every lab page; a panel that shows them all keeps its plain title. A help the panel says
//! in fewer words at 80 columns reads whole in the help overlay (`?`).

use crate::common::{render, visited_app};
use resilience_lab::tui::msg::Msg;

/// The top border row of the parameter panel: the row where `┌ Parameters` starts.
fn params_title(width: u16, height: u16, lab: usize) -> String {
    let mut app = visited_app(width, height);
    for _ in 0..lab {
        app.update(Msg::Down);
    }
    app.update(Msg::Open);
    let text = render(&app);
    text.lines()
        .find(|row| row.contains("┌ Parameters"))
        .unwrap_or_else(|| panic!("a parameter panel:\n{text}"))
        .to_string()
}

#[test]
fn the_parameter_panel_counts_its_sliders_when_some_are_out_of_view() {
    let lab5 = params_title(80, 24, 4);
    assert!(lab5.contains("┌ Parameters 1/"), "{lab5}");
    // Lab 1's first page shows its six sliders whole at 100x30.
    let lab1 = params_title(100, 30, 0);
    assert!(lab1.contains("┌ Parameters ─"), "{lab1}");
}

/// Lab 1's fleet at 80x24, the startup failure threshold focused: the panel ends its help at a
/// whole word (`before the container is …`); `?` shows it whole.
#[test]
fn a_slider_help_cut_short_reads_whole_in_the_help_overlay() {
    let mut app = visited_app(80, 24);
    app.update(Msg::Open);
    app.update(Msg::NextPage);
    // The tenth fleet slider: scenario, replicas, the two db flags, the db state and window,
    // the startup probe's period, then its threshold.
    let text = loop {
        app.update(Msg::NextSlider);
        let text = render(&app);
        if text.contains("▸ Startup failure threshold") {
            break text;
        }
        assert!(!text.contains("Fleet parameters 21/21"), "no such slider:\n{text}");
    };
    assert!(
        !text.contains("before the container is restarted."),
        "cut in the panel: {text}"
    );
    app.update(Msg::ToggleHelp);
    let help = render(&app);
    let joined: String = help
        .lines()
        .map(|row| row.trim_matches(['"', '│', ' ']).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        joined.contains("Startup failure threshold: Failed startup probes in a row before the container is restarted."),
        "{help}"
    );
}
