//! The home screen: the labs with their progress, then the quiz, the book and the drill.
//!
//! ```text
//!  resilience-lab                                       how a service survives ...
//! ┌ Labs ─────────────────────────────────────────────────────────────────────┐
//! │▸ Lab 1  Truthful health and ordered sh… 1/11 steps tried · 0/10 checks right │
//! │         Predict what /livez and /readyz answer while a server warms up, … │
//! │  Lab 2  ...                                                               │
//! │  Quiz   ...          answered 3 of 60, right at the last try 2 │
//! └───────────────────────────────────────────────────────────────────────────┘
//!  status line (a progress notice, a save that failed, or the selected entry's whole
//!  description when the list had to cut it)
//!  footer keys
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::app::App;
use crate::tui::layout;
use crate::tui::screens::home::EXTRA_ENTRIES;
use crate::tui::view::footer;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let [title, list, status, foot] = layout::home_regions(area);
    // The whole subtitle where it fits, else its first half. The labs are counted, so a new
    // lab needs no edit here.
    let name = " resilience-lab";
    let whole = format!(
        "  how a service survives its dependencies: {} labs, a drill, a quiz, a book",
        crate::words::count_in_words(app.content.labs.len())
    );
    let subtitle = if usize::from(title.width) >= name.len() + whole.chars().count() {
        whole
    } else {
        "  how a service survives its dependencies".to_string()
    };
    Line::from(vec![
        Span::styled(name, theme.accent()),
        Span::styled(subtitle, theme.dim()),
    ])
    .render(title, buf);
    Block::bordered()
        .title(" Labs ")
        .border_style(theme.border())
        .render(list, buf);
    let labs = app.content.labs.iter().enumerate().map(|(i, lab)| {
        (
            format!("Lab {}", i + 1),
            lab.title.as_str(),
            lab.objective.as_str(),
            app.home_marker(i),
            Some(app.progress.lab_summary_short(lab)),
        )
    });
    let labs_count = app.content.labs.len();
    let extras = EXTRA_ENTRIES
        .iter()
        .enumerate()
        .map(|(i, (name, text))| (name.to_string(), "", *text, app.home_marker(labs_count + i), None));
    let rects = layout::home_entry_rects(area, app.home_entries());
    let mut selected_cut = None;
    for (index, ((name, heading, text, marker, short), rect)) in labs.chain(extras).zip(rects).enumerate() {
        let selected = index == app.home.selected;
        let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(rect);
        let pointer = if selected { "▸ " } else { "  " };
        let style = if selected { theme.selected() } else { theme.text() };
        let mut left = format!("{pointer}{name:<6} {heading}");
        // A marker that would leave fewer than SHORTEST_HEADING letters of the title says
        // itself in fewer words.
        let title_room = (head.width as usize).saturating_sub(marker.chars().count() + 2 + 9);
        let marker = match short {
            Some(short) if title_room < SHORTEST_HEADING.min(heading.chars().count()) => short,
            _ => marker,
        };
        // A long marker ("..., 1 after a miss, 1 after x") takes what it needs from the heading,
        // which gives way with an ellipsis rather than run into it; one column stays between.
        let room = (head.width as usize).saturating_sub(marker.chars().count() + 2);
        if left.chars().count() > room {
            left = left.chars().take(room.saturating_sub(1)).collect::<String>() + "…";
        }
        let gap = (head.width as usize).saturating_sub(left.chars().count() + marker.chars().count() + 1);
        Line::from(format!("{left}{}{marker} ", " ".repeat(gap)))
            .style(style)
            .render(head, buf);
        // Indented under the heading, so wrapped lines stay aligned.
        let indent = 9.min(body.width);
        let body = Rect::new(body.x + indent, body.y, body.width - indent, body.height);
        let (shown, cut) = description_rows(text, body.width.into(), body.height.into());
        if selected && cut {
            selected_cut = Some(text);
        }
        Paragraph::new(shown.join("\n")).style(theme.dim()).render(body, buf);
    }
    // A notice, and any live run left going behind a lab screen: Esc keeps a run going
    // (a drain takes seconds to watch), so home says so.
    let mut notes: Vec<String> = app.status.iter().cloned().collect();
    for (index, screen) in app.labs.iter().enumerate() {
        if screen.live_running() {
            notes.push(format!(
                "Lab {}'s live run is still going: open it and press s to stop it (quitting stops it too)",
                index + 1
            ));
        }
    }
    let padded = Block::new().padding(ratatui::widgets::Padding::horizontal(1));
    if !notes.is_empty() {
        Paragraph::new(Span::styled(notes.join(" · "), theme.accent()))
            .wrap(Wrap { trim: true })
            .block(padded)
            .render(status, buf);
    } else if let Some(text) = selected_cut {
        // The list has a row for each entry's description at 24 rows: the selected one's,
        // cut there, reads whole below it (a trial found every lab's cut mid-sentence).
        Paragraph::new(text)
            .style(theme.dim())
            .wrap(Wrap { trim: true })
            .block(padded)
            .render(status, buf);
    }
    footer::render_keys(app.context(), app.theme, foot, buf);
}

/// Fewest letters of a lab's title worth keeping beside its progress on the home row.
const SHORTEST_HEADING: usize = 16;

/// The rows of a description in `rows` rows of `width` columns, wrapped at words, and whether
/// it was cut: a cut one ends with an ellipsis after its last whole word, not mid-word.
fn description_rows(text: &str, width: usize, rows: usize) -> (Vec<String>, bool) {
    let mut lines = crate::wrap::wrap_words(text, width);
    if lines.len() <= rows {
        return (lines, false);
    }
    lines.truncate(rows);
    if let Some(last) = lines.last_mut() {
        while last.chars().count() + 2 > width && last.contains(' ') {
            let cut_at = last.rfind(' ').unwrap_or(0);
            last.truncate(cut_at);
        }
        last.push_str(" …");
    }
    (lines, true)
}

#[cfg(test)]
mod tests {
    use super::description_rows;

    #[test]
    fn a_cut_description_ends_after_a_whole_word() {
        let (rows, cut) = description_rows("Count the attempts that layered retries cause, then bring", 30, 1);
        assert!(cut);
        assert_eq!(rows, ["Count the attempts that …"]);
        let (rows, cut) = description_rows("short text", 30, 1);
        assert_eq!((rows, cut), (vec!["short text".to_string()], false));
    }
}
