//! The parameter panel: one row per slider (label, value with unit), the focused slider's
//! bar under its row, and its range and help line at the bottom.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::layout;
use crate::tui::slider::Slider;
use crate::tui::theme::Theme;
use crate::tui::view::lab::LabView;
use crate::tui::widgets::slider_bar::SliderBar;

pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    render_sliders(
        " Parameters ",
        &view.screen.sliders,
        view.screen.focus,
        view.theme,
        area,
        buf,
    );
}

/// A panel of `sliders` titled `title`, `focus` the focused one's index in them.
pub fn render_sliders(title: &str, sliders: &[Slider], focus: usize, theme: Theme, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered().title(title).border_style(theme.border());
    let inner = block.inner(area);
    block.render(area, buf);
    let geometry = layout::rows(inner, sliders.len(), focus);
    for (index, (slider, row)) in sliders.iter().zip(&geometry.labels).enumerate() {
        let focused = index == focus;
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
    let Some(slider) = sliders.get(focus) else {
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
