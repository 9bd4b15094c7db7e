//! A one-line slider bar: `├━━━━━●──────┤`, readable without colour.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::tui::theme::Theme;

pub struct SliderBar {
    /// Knob position, 0 (min) to 1 (max).
    fraction: f64,
    theme: Theme,
}

impl SliderBar {
    pub fn new(fraction: f64, theme: Theme) -> Self {
        Self { fraction, theme }
    }

    /// The column of the knob within a bar `width` cells wide.
    pub fn knob_column(fraction: f64, width: u16) -> u16 {
        (fraction.clamp(0.0, 1.0) * f64::from(width.saturating_sub(1))).round() as u16
    }
}

impl Widget for SliderBar {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let knob = Self::knob_column(self.fraction, area.width);
        for offset in 0..area.width {
            let (symbol, style) = match offset.cmp(&knob) {
                std::cmp::Ordering::Less => ("━", self.theme.accent()),
                std::cmp::Ordering::Equal => ("●", self.theme.key()),
                std::cmp::Ordering::Greater => ("─", self.theme.dim()),
            };
            buf[(area.x + offset, area.y)].set_symbol(symbol).set_style(style);
        }
    }
}
