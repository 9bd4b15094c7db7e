//! Lab 2's charts at 80x24 without colour: what the p-curve's legend and value axis say.

use crate::common::{render, visited_app};
use resilience_lab::tui::msg::Msg;

/// Lab 2 at 80x24, every step revealed (`x`), so the p-curve draws A, B and C; its rows.
fn p_curve_rows() -> Vec<String> {
    let mut app = visited_app(80, 24);
    app.update(Msg::Down);
    app.update(Msg::Open);
    for step in 0..app.content.labs[1].steps.len() {
        app.labs[1].revealed.insert(step);
    }
    let screen = render(&app);
    let rows: Vec<String> = screen.lines().map(str::to_string).collect();
    let top = rows
        .iter()
        .position(|row| row.contains("attempts/action vs p"))
        .unwrap_or_else(|| panic!("the p-curve:\n{screen}"));
    rows[top..].to_vec()
}

/// The legend's sample of A is the braille A is drawn in, and the value axis labels only
/// rows whose value it is: B's 4 attempts were drawn on a row labelled 10, and the legend's
/// `━ A` matched no line on screen (issue 26, a new user's trial).
#[test]
fn the_p_curves_legend_and_value_axis_read_as_drawn() {
    let rows = p_curve_rows();
    let text = rows.join("\n");
    assert!(rows[0].contains("⠒ A • B ▄ C"), "{text}");
    let axis = rows.iter().position(|row| row.contains('└')).expect("the p axis");
    let labelled: Vec<&str> = rows[1..axis]
        .iter()
        .filter_map(|row| row.split("││").nth(1)?.split('│').next())
        .map(str::trim)
        .filter(|label| !label.is_empty())
        .collect();
    assert_eq!(labelled, ["100", "1"], "{text}");
}
