//! Lines a user review found cut at a panel's edge: Lab 3 live's "Live charts" note before a
//! run, and Lab 1's simulated timeline with a short grace period. Each now wraps inside its
//! panel and reads whole; no sockets, no child.

use crate::common::{render, visited_app};
use resilience_lab::tui::app::App;
use resilience_lab::tui::msg::Msg;

/// The app after `msgs`, from the home screen of a learner who has visited every lab.
fn after(width: u16, height: u16, msgs: &[Msg]) -> App {
    let mut app = visited_app(width, height);
    for msg in msgs {
        app.update(*msg);
    }
    app
}

/// The text inside the panel titled `title`, its rows joined by spaces, runs of spaces squeezed.
fn panel_text(app: &App, title: &str) -> String {
    let rows: Vec<Vec<char>> = render(app)
        .lines()
        .map(|row| row.trim_matches('"').chars().collect())
        .collect();
    let top = rows
        .iter()
        .position(|row| row.iter().collect::<String>().contains(title))
        .unwrap_or_else(|| panic!("no panel {title:?}"));
    let text: String = rows[top].iter().collect();
    let corner_at = text.find(&format!("┌ {title}")).expect("the panel's top left corner");
    let left = text[..corner_at].chars().count();
    let right = left
        + rows[top][left..]
            .iter()
            .position(|c| *c == '┐')
            .expect("top right corner");
    let mut inside = Vec::new();
    for row in &rows[top + 1..] {
        if row.get(left) == Some(&'└') {
            break;
        }
        inside.push(row[left + 1..right].iter().collect::<String>());
    }
    inside.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn lab3_live_charts_note_reads_whole_before_a_run() {
    for (width, height) in [(80, 24), (100, 30)] {
        let app = after(width, height, &[Msg::Down, Msg::Down, Msg::Open, Msg::ToggleMode]);
        let text = panel_text(&app, "Live charts");
        for sentence in [
            "Press s to start both callers against one dependency on 127.0.0.1.",
            "The charts fill in second by second, like the simulation's; the breaker sliders retune the \
             running breaker at once; b browns the dependency out now (or heals it); f picks how it fails.",
        ] {
            assert!(text.contains(sentence), "{width}x{height}: {text:?}\n{}", render(&app));
        }
    }
}

#[test]
fn lab1_timeline_keeps_the_grace_periods_whole_line() {
    for (width, height) in [(80, 24), (100, 30)] {
        // The grace period slider (Lab 1's third) at its least, 0.5 s: two requests are cut short.
        // Step 1's check hides the run until it is answered or revealed (x).
        let app = after(
            width,
            height,
            &[Msg::Open, Msg::Reveal, Msg::NextSlider, Msg::NextSlider, Msg::SliderMin],
        );
        let text = panel_text(&app, "Simulated driver timeline");
        assert!(
            text.contains("grace period over: abandoning 2 in-flight request(s)"),
            "{width}x{height}: {text:?}\n{}",
            render(&app)
        );
    }
}
