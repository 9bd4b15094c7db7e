//! The home screen: the labs, the quiz, the book and the on-call drill, one entry each.

use ratatui::layout::{Position, Rect};

use crate::tui::layout;
use crate::tui::msg::Msg;

/// The home screen's entries after the labs.
pub const EXTRA_ENTRIES: [(&str, &str); 3] = [
    ("Quiz", "Concepts, worked arithmetic and interview drills."),
    ("Book", "The chapters behind each lab, readable here."),
    (
        "On-call",
        "checkout-api under load, one hidden incident, the Atlas's levers.",
    ),
];

/// What a message on the home screen asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HomeOutcome {
    Unchanged,
    Changed,
    /// Open entry `index`: a lab, then the extra entries.
    Open(usize),
}

/// The home screen's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HomeScreen {
    /// Selected entry: the labs, then Quiz and Book.
    pub selected: usize,
}

impl HomeScreen {
    /// Applies `msg` to a list of `entries` drawn in `area`.
    pub fn update(&mut self, msg: Msg, entries: usize, area: Rect) -> HomeOutcome {
        let before = self.selected;
        match msg {
            Msg::Up => self.selected = self.selected.saturating_sub(1),
            Msg::Down => self.selected = (self.selected + 1).min(entries - 1),
            Msg::Open => return HomeOutcome::Open(self.selected),
            Msg::Click(x, y) => {
                if let Some(entry) = layout::home_entry_at(area, entries, Position::new(x, y)) {
                    self.selected = entry;
                    return HomeOutcome::Open(entry);
                }
            }
            Msg::Wheel(_, _, down) => {
                let step = if down { Msg::Down } else { Msg::Up };
                return self.update(step, entries, area);
            }
            _ => {}
        }
        if before == self.selected {
            HomeOutcome::Unchanged
        } else {
            HomeOutcome::Changed
        }
    }
}
