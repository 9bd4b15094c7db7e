//! The one legend of hidden numbers on the lab screen. A masked number shows as its
//! placeholder (`?s2`, [`reveal::placeholder`]) in whatever panel drew it; rather than each
//! view explaining it (most have no room, and some did not, so `to sick=(step 2)` went
//! unexplained), the frame looks at what was drawn and, when any placeholder is on screen,
//! writes one legend line on the Results panel's bottom border, at its right end.
//!
//! Looking at the drawn cells, not at the hiding rule, is what makes "whenever one shows"
//! exact: a masked number that no panel draws (the lesson covers the charts) needs no legend.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::learning::reveal;
use crate::tui::theme::Theme;

/// The text of row `y` of `area` as drawn in `buf`.
fn row_text(buf: &Buffer, area: Rect, y: u16) -> String {
    (area.left()..area.right()).map(|x| buf[(x, y)].symbol()).collect()
}

/// Whether any row of `area` shows a placeholder.
pub fn any_placeholder(buf: &Buffer, area: Rect) -> bool {
    (area.top()..area.bottom()).any(|y| reveal::shows_placeholder(&row_text(buf, area, y)))
}

/// Draws the legend on `results`'s bottom border when `area` shows a placeholder: the longest
/// of [`reveal::LEGENDS`] that fits in the border's free run at its right end (a border that
/// carries a note of its own keeps it), with one `─` left on either side.
pub fn render(results: Rect, area: Rect, theme: Theme, buf: &mut Buffer) {
    if results.height < 2 || results.width < 4 || !any_placeholder(buf, area) {
        return;
    }
    let y = results.bottom() - 1;
    // The free run: the `─` cells left of the bottom right corner.
    let corner_x = results.right() - 1;
    let free = (results.left() + 1..corner_x)
        .rev()
        .take_while(|x| buf[(*x, y)].symbol() == "─")
        .count();
    let Some(legend) = reveal::LEGENDS
        .iter()
        .map(|legend| format!(" {legend} "))
        .find(|text| text.chars().count() + 2 <= free)
    else {
        return;
    };
    let width = legend.chars().count() as u16;
    buf.set_string(corner_x - 1 - width, y, legend, theme.dim());
}
