//! The breaker's state over time as a coloured band: closed green, open red, half-open yellow.
//!
//! Each state also has its own glyph (`▁` closed, `█` open, `▄` half-open), so the band
//! reads under `NO_COLOR` too.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::engine::breaker::{BreakerState, Transition};
use crate::engine::brownout::state_at;
use crate::tui::theme::Theme;

pub struct StateBand<'a> {
    transitions: &'a [Transition],
    duration_s: f64,
    theme: Theme,
}

impl<'a> StateBand<'a> {
    pub fn new(transitions: &'a [Transition], duration_s: f64, theme: Theme) -> Self {
        Self {
            transitions,
            duration_s,
            theme,
        }
    }

    /// The glyph and style of a state.
    pub fn look(state: BreakerState, theme: Theme) -> (&'static str, Style) {
        match state {
            BreakerState::Closed => ("▁", theme.closed()),
            BreakerState::Open => ("█", theme.open()),
            BreakerState::HalfOpen => ("▄", theme.half_open()),
        }
    }
}

impl Widget for StateBand<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let seconds_per_cell = self.duration_s / f64::from(area.width);
        for offset in 0..area.width {
            // A cell shows the rarest state within its time span, so a 0.2 s half-open
            // between two opens is not lost at 2 s per cell.
            let start_s = f64::from(offset) * seconds_per_cell;
            let end_s = start_s + seconds_per_cell;
            let mut state = state_at(self.transitions, start_s);
            for transition in self.transitions.iter().filter(|t| t.t_s > start_s && t.t_s < end_s) {
                state = rarer(state, transition.to);
            }
            let (symbol, style) = Self::look(state, self.theme);
            for row in area.top()..area.bottom() {
                buf[(area.x + offset, row)].set_symbol(symbol).set_style(style);
            }
        }
    }
}

/// Half-open lasts the least (a few trial calls), then open, then closed.
fn rarer(a: BreakerState, b: BreakerState) -> BreakerState {
    let rank = |s| match s {
        BreakerState::Closed => 0,
        BreakerState::Open => 1,
        BreakerState::HalfOpen => 2,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// Any state over time as one cell per time span: `changes` are (t_s, state) in time
/// order, each holding until the next; a cell shows the state of highest `rank` seen in
/// its span (so a short stay is not lost), None before the first change.
pub fn band_cells<S: Copy>(
    changes: &[(f64, S)],
    duration_s: f64,
    width: u16,
    rank: impl Fn(S) -> u8,
) -> Vec<Option<S>> {
    let seconds_per_cell = duration_s / f64::from(width.max(1));
    (0..width)
        .map(|offset| {
            let start_s = f64::from(offset) * seconds_per_cell;
            let end_s = start_s + seconds_per_cell;
            let mut shown = changes.iter().rev().find(|(t, _)| *t <= start_s).map(|&(_, s)| s);
            for &(_, state) in changes.iter().filter(|(t, _)| *t > start_s && *t < end_s) {
                shown = match shown {
                    Some(current) if rank(current) >= rank(state) => Some(current),
                    _ => Some(state),
                };
            }
            shown
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    #[test]
    fn each_cell_shows_the_rarest_state_of_its_span() {
        let transitions = [
            Transition {
                t_s: 4.0,
                from: BreakerState::Closed,
                to: BreakerState::Open,
            },
            Transition {
                t_s: 7.0,
                from: BreakerState::Open,
                to: BreakerState::HalfOpen,
            },
            Transition {
                t_s: 7.2,
                from: BreakerState::HalfOpen,
                to: BreakerState::Closed,
            },
        ];
        // 10 s over 5 cells: 2 s a cell; the 0.2 s half-open still shows in its cell.
        let mut buf = Buffer::empty(Rect::new(0, 0, 5, 2));
        StateBand::new(&transitions, 10.0, Theme::new(ThemeName::Dark, true)).render(buf.area, &mut buf);
        for y in 0..2 {
            let row: String = (0..5).map(|x| buf[(x, y)].symbol().to_string()).collect();
            assert_eq!(row, "▁▁█▄▁");
        }
    }
}
