//! Drawing: `impl Widget for &App`, one file per screen region.
//!
//! Views read the state and never change it; the layouts they use are pure functions of
//! the terminal size, so mouse hit tests in `app.rs` ask the same functions.

pub mod book;
pub mod breaker_live;
pub mod charts;
pub mod fleet;
pub mod footer;
pub mod health_live;
pub mod help;
pub mod home;
pub mod lab;
pub mod lesson;
pub mod params;
pub mod predict;
pub mod quiz;
pub mod results;
pub mod retry_live;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::tui::app::{App, Screen};

/// The smallest terminal the layouts are designed for.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// The message shown instead of a broken layout.
pub fn too_small_message(area: Rect) -> String {
    format!(
        "terminal too small: needs {MIN_WIDTH}x{MIN_HEIGHT}, have {}x{}",
        area.width, area.height
    )
}

pub fn is_too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if is_too_small(area) {
            let middle = Rect::new(area.x, area.y + area.height / 2, area.width, 1.min(area.height));
            Paragraph::new(Line::from(too_small_message(area)))
                .alignment(Alignment::Center)
                .render(middle, buf);
            return;
        }
        match self.screen {
            Screen::Home => home::render(self, area, buf),
            Screen::Lab(index) => lab::render(self, index, area, buf),
            Screen::Quiz => quiz::render(self, area, buf),
            Screen::Book => book::render(self, area, buf),
        }
        if self.show_help {
            help::render(self, area, buf);
        }
    }
}
