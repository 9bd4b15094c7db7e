//! The parameter panel: one row per slider (label, value with unit), the focused slider's
//! bar under its row, and its range and help line at the bottom.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::layout;
use crate::tui::view::lab::LabView;
use crate::tui::widgets::slider_bar::SliderBar;

pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    let (theme, state) = (view.theme, view.screen);
    let block = Block::bordered().title(" Parameters ").border_style(theme.border());
    let inner = block.inner(area);
    block.render(area, buf);
    let geometry = layout::rows(inner, state.sliders.len(), state.focus);
    for (index, (slider, row)) in state.sliders.iter().zip(&geometry.labels).enumerate() {
        let focused = index == state.focus;
        let pointer = if focused { "▸ " } else { "  " };
        let value = slider.display();
        let room = (row.width as usize).saturating_sub(pointer.len() + value.chars().count() + 2);
        let mut label: String = slider.spec.label.chars().take(room).collect();
        if label.chars().count() < slider.spec.label.chars().count() {
            label.pop();
            label.push('…');
        }
        let gap = (row.width as usize).saturating_sub(2 + label.chars().count() + value.chars().count() + 1);
        let style = if focused { theme.selected() } else { theme.text() };
        Line::from(format!("{pointer}{label}{}{value} ", " ".repeat(gap)))
            .style(style)
            .render(*row, buf);
    }
    let Some(slider) = state.sliders.get(state.focus) else {
        return;
    };
    if let Some(bar) = geometry.bar {
        SliderBar::new(slider.fraction(), theme).render(bar, buf);
    }
    let spec = &slider.spec;
    let plain = |value: f64| format!("{value:.decimals$}", decimals = spec.decimals());
    let unit = if spec.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", spec.unit)
    };
    let range = format!(
        "{} to {}{unit}, step {}, default {}",
        plain(spec.min),
        plain(spec.max),
        plain(spec.step),
        plain(spec.default)
    );
    // The help first: on a short terminal the range is what gets cut.
    Paragraph::new(vec![
        Line::from(spec.help.as_str()),
        Line::from(Span::styled(range, theme.dim())),
    ])
    .wrap(Wrap { trim: true })
    .render(geometry.help, buf);
}
