//! Drawing: `impl Widget for &App`, one file per screen region; a lab screen is drawn by the
//! frame's own view, from its [`LabView`] (the `&LabScreen` and what the app lends it).
//!
//! Views read the state and never change it; the layouts they use are pure functions of
//! the terminal size, so mouse hit tests in the screens ask the same functions (`tui/layout.rs`).

pub mod book;
pub mod facilitator;
pub mod footer;
pub mod help;
pub mod home;
pub mod legend;
pub mod oncall;
pub mod quiz;
pub mod room;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::tui::app::{App, Screen};
use crate::tui::frame;
use crate::tui::frame::view::LabView;
use crate::tui::layout::{is_too_small, too_small_message};

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
            Screen::Lab(index) => {
                let view = LabView {
                    screen: &self.labs[index],
                    lab: &self.content.labs[index],
                    number: index + 1,
                    theme: self.theme,
                    progress: &self.progress,
                    context: self.context(),
                };
                frame::view::render(&view, area, buf);
            }
            Screen::Quiz => quiz::render(self, area, buf),
            Screen::Book => book::render(self, area, buf),
            Screen::Oncall => {
                if let Some(screen) = &self.oncall {
                    oncall::render(screen, self.context(), self.theme, area, buf);
                }
            }
            Screen::Room => {
                if let Some(board) = self.room_host.as_ref().and_then(|host| host.screen.board()) {
                    room::render(&board, area, buf);
                }
            }
        }
        if self.show_help {
            // Above the bottom row: the footer stays in sight (at 80x24 the overlay's border
            // covered it, the one row that says where the learner is and what keys do).
            let above_footer = Rect::new(area.x, area.y, area.width, area.height.saturating_sub(1));
            help::render(self, above_footer, buf);
        }
    }
}
