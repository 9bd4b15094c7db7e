//! The parameter panel: one row per slider (label, value with unit), the focused slider's
//! bar under its row, and its range and help line at the bottom.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::frame::view::lab_view::LabView;
use crate::tui::layout;
use crate::tui::slider::Slider;
use crate::tui::theme::Theme;
use crate::tui::widgets::slider_bar::SliderBar;

/// The parameter panel of the page showing, with what its page notes of the focused slider.
pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    let sliders = view.screen.showing_sliders();
    let note = view
        .screen
        .showing_state()
        .and_then(|page| page.slider_note(&sliders.sliders, sliders.focus));
    render_sliders(
        " Parameters ",
        &sliders.sliders,
        sliders.focus,
        note,
        view.theme,
        area,
        buf,
    );
}

/// A panel of `sliders` titled `title`, `focus` the focused one's index in them, `note` what
/// the values mean on this screen that the help alone does not say.
pub fn render_sliders(
    title: &str,
    sliders: &[Slider],
    focus: usize,
    note: Option<String>,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let inner = Block::bordered().inner(area);
    let geometry = layout::rows(inner, sliders.len(), focus);
    // Sliders below (or above) the visible list: the title says which of how many is focused.
    let title = if geometry.labels.len() < sliders.len() {
        format!("{} {}/{} ", title.trim_end(), focus + 1, sliders.len())
    } else {
        title.to_string()
    };
    let block = Block::bordered().title(title).border_style(theme.border());
    block.render(area, buf);
    let shown = sliders.iter().enumerate().skip(geometry.first);
    for ((index, slider), row) in shown.zip(&geometry.labels) {
        let focused = index == focus;
        let pointer = if focused { "▸ " } else { "  " };
        let value = slider.display();
        // In columns: the pointer `▸ ` is two columns but four bytes.
        let room = (row.width as usize).saturating_sub(pointer.chars().count() + value.chars().count() + 2);
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
    let range = if spec.choices.is_empty() {
        format!(
            "{} to {}{unit}, step {}, default {}",
            plain(spec.min),
            plain(spec.max),
            plain(spec.step),
            plain(spec.default)
        )
    } else {
        format!("{}; default {}", spec.choices.join(", "), spec.display(spec.default))
    };
    // A note on what the values do here comes first, then the help, then the range. Where
    // they do not all fit, the range gives way, then the help takes its longest wording that
    // fits (whole sentences, then shorter cuts ending cleanly): no word is cut at the bottom.
    let area = geometry.help;
    let rows = |lines: &[Line<'static>]| {
        Paragraph::new(lines.to_vec())
            .wrap(Wrap { trim: true })
            .line_count(area.width.max(1))
    };
    let mut lines = Vec::new();
    if let Some(note) = note {
        lines.push(Line::from(Span::styled(note, theme.accent())));
    }
    let mut all = lines.clone();
    all.push(Line::from(spec.help.clone()));
    all.push(Line::from(Span::styled(range, theme.dim())));
    if rows(&all) <= usize::from(area.height) {
        lines = all;
    } else if let Some(help) = shorter_wordings(&spec.help).into_iter().find(|help| {
        let mut with = lines.clone();
        with.push(Line::from(help.clone()));
        rows(&with) <= usize::from(area.height)
    }) {
        lines.push(Line::from(help));
    }
    Paragraph::new(lines).wrap(Wrap { trim: true }).render(area, buf);
}

/// The ways of saying a slider's `help` in fewer words, longest first, each ending cleanly:
/// the whole text; its first sentences; its first sentence without a closing aside in
/// brackets, or up to its first `;`; a list cut after one of its items, with `…`; then as many
/// whole words as fit, with `…`. Never a word cut in two.
pub fn shorter_wordings(help: &str) -> Vec<String> {
    let help = help.trim();
    let mut ways = vec![help.to_string()];
    // Whole sentences from the start.
    let ends: Vec<usize> = help.match_indices(". ").map(|(at, _)| at + 1).collect();
    ways.extend(ends.iter().rev().map(|end| help[..*end].to_string()));
    let first = ends.first().map_or(help, |end| &help[..*end]);
    let body = first.trim_end_matches('.');
    // The first sentence without a closing aside: "X (how it works)." says "X.".
    if body.ends_with(')')
        && let Some(open) = body.rfind(" (")
    {
        ways.push(format!("{}.", &body[..open]));
    }
    if let Some(semicolon) = body.find("; ") {
        ways.push(format!("{}.", &body[..semicolon]));
    }
    // A list cut after an item: the commas outside brackets, the last first.
    let mut depth = 0i32;
    let mut commas = Vec::new();
    for (at, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => commas.push(at),
            _ => {}
        }
    }
    ways.extend(commas.iter().rev().map(|at| format!("{}, …", &body[..*at])));
    // Whole words, the last first.
    let words: Vec<&str> = body.split(' ').collect();
    ways.extend(
        (1..words.len())
            .rev()
            .map(|count| format!("{} …", words[..count].join(" ").trim_end_matches([',', ';', ':']))),
    );
    ways.dedup();
    ways
}
