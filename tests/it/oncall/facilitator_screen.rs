//! The facilitator's screen (`oncall --gm`), whole, at 80x24 and 100x30: watching a drill
//! with a second fault, a hint and a lever; the second-fault picker; the owners' hints; the
//! end's confirmation; the drill ended. Under NO_COLOR no cell carries a colour.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use resilience_lab::engine::oncall::{
    DrillSetup, FacilitatorView, OncallDep, OncallLever, OncallPlay, builtin_incidents,
};
use resilience_lab::tui::msg::{FacilitatorMsg, Msg};
use resilience_lab::tui::screens::facilitator::FacilitatorScreen;
use resilience_lab::tui::theme::{Theme, ThemeName};

/// A drill of recommendations-hang, seed 1, 20 s past its onset: a second fault at the
/// onset, the owner called, recommendations switched off.
fn played(ended: bool) -> OncallPlay {
    let incidents = builtin_incidents().unwrap();
    let incident = incidents.iter().find(|i| i.name == "recommendations-hang").unwrap();
    let setup = DrillSetup::new(incident, 1);
    let mut play = OncallPlay::new(&setup);
    play.step(setup.onset_s as usize);
    let storm = incidents.iter().find(|i| i.name == "receipt-store-storm").unwrap();
    play.add_fault(storm, OncallDep::ReceiptStore).unwrap();
    play.step(10);
    play.add_hint(&setup.owner_hint().unwrap()).unwrap();
    play.step(5);
    play.pull(
        OncallLever::SwitchedOff(OncallDep::Recommendations, true),
        "p99 near 2 s, workers full",
        "workers free within seconds",
    )
    .unwrap();
    play.step(5);
    if ended {
        play.end_by_facilitator();
    }
    play
}

fn screen(ended: bool) -> FacilitatorScreen {
    let mut screen = FacilitatorScreen::new(builtin_incidents().unwrap(), "127.0.0.1:40000".to_string());
    let mut view = FacilitatorView::of(&played(ended));
    view.note = Some("hint sent at t=120 s".to_string());
    screen.status = view.note.clone();
    screen.show(view);
    screen
}

fn draw(screen: &FacilitatorScreen, theme: Theme, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| resilience_lab::tui::view::facilitator::render(screen, theme, frame.area(), frame.buffer_mut()))
        .unwrap();
    terminal
}

fn text(screen: &FacilitatorScreen, width: u16, height: u16) -> String {
    draw(screen, Theme::new(ThemeName::Dark, false), width, height)
        .backend()
        .to_string()
}

#[test]
fn watching_80x24() {
    insta::assert_snapshot!(text(&screen(false), 80, 24));
}

#[test]
fn watching_100x30() {
    insta::assert_snapshot!(text(&screen(false), 100, 30));
}

#[test]
fn second_fault_picker_80x24() {
    let mut screen = screen(false);
    screen.update(Msg::Facilitator(FacilitatorMsg::AddFault));
    screen.update(Msg::Down);
    screen.update(Msg::NextItem);
    insta::assert_snapshot!(text(&screen, 80, 24));
}

#[test]
fn owners_hints_100x30() {
    let mut screen = screen(false);
    screen.update(Msg::Facilitator(FacilitatorMsg::CallOwner));
    insta::assert_snapshot!(text(&screen, 100, 30));
}

#[test]
fn end_confirmation_80x24() {
    let mut screen = screen(false);
    screen.update(Msg::Facilitator(FacilitatorMsg::End));
    insta::assert_snapshot!(text(&screen, 80, 24));
}

#[test]
fn ended_100x30() {
    insta::assert_snapshot!(text(&screen(true), 100, 30));
}

fn colours(buffer: &Buffer) -> usize {
    buffer
        .content()
        .iter()
        .filter(|cell| cell.fg != ratatui::style::Color::Reset || cell.bg != ratatui::style::Color::Reset)
        .count()
}

#[test]
fn no_color_draws_the_same_text_without_a_colour() {
    let screen = screen(false);
    let plain = draw(&screen, Theme::new(ThemeName::Dark, false), 80, 24);
    let coloured = draw(&screen, Theme::new(ThemeName::Dark, true), 80, 24);
    assert_eq!(colours(plain.backend().buffer()), 0, "NO_COLOR: no cell has a colour");
    assert!(colours(coloured.backend().buffer()) > 0, "the dark theme has colours");
    assert_eq!(plain.backend().to_string(), coloured.backend().to_string());
    insta::assert_snapshot!(plain.backend().to_string());
}

/// A live drill's facilitator is told it is live (the header said "400 ms/s running", as of
/// a simulated clock); a view from an older build, without the field, reads as simulated.
#[test]
fn a_live_drill_says_live_in_the_facilitators_header() {
    let mut screen = FacilitatorScreen::new(builtin_incidents().unwrap(), "127.0.0.1:40000".to_string());
    let mut view = FacilitatorView::of(&played(false));
    view.live = true;
    view.speed_ms = 400;
    screen.show(view.clone());
    let shown = text(&screen, 100, 30);
    let header = shown.lines().next().unwrap_or_default();
    assert!(header.contains("400 ms/s   live on 127.0.0.1"), "{header}");
    let mut json = serde_json::to_value(&view).unwrap();
    json.as_object_mut().unwrap().remove("live");
    let older: FacilitatorView = serde_json::from_value(json).unwrap();
    assert!(!older.live);
}
