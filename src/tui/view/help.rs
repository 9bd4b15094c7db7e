//! The help overlay: every key of the current screen, from the key table, plus the mouse.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::tui::app::{App, Screen};
use crate::tui::keys::{self, Context};
use crate::tui::msg::Msg;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let context = app.screen_context();
    // A page's own context (a live screen's, the fleet's): its keys first, then the lab screen's.
    let live = app.live_context_ignoring_help().filter(|_| context == Context::Lab);
    let mut rows = live.map(keys::help_rows).unwrap_or_default();
    // The reveal key is listed while it would change the screen (the footer's rule).
    let revealing = match app.screen {
        Screen::Lab(index) => app.labs[index].reveal_offered(&app.content.labs[index], &app.progress),
        _ => false,
    };
    let takes_reveal = |msg: Msg| msg != Msg::Reveal || revealing;
    // One rule for every page's context: the lab screen's rows but other labs' live keys and
    // the rows the page's context lists itself (the fleet's m, s and F; a live screen's m, s).
    if let (Context::Lab, Screen::Lab(index)) = (context, app.screen) {
        let lab = &app.content.labs[index];
        let listed_live = |msg: Msg| live.is_some_and(|live| keys::lists_own_row(live, msg));
        rows.extend(keys::help_rows_if(context, |msg| {
            crate::tui::labs::lab_takes(lab, msg) && takes_reveal(msg) && !listed_live(msg)
        }));
    } else {
        rows.extend(keys::help_rows(context));
    }
    // A question's answer keys are its own letters (a to d for four choices), not the table's a–e.
    if context == Context::QuizChoice {
        for row in &mut rows {
            row.0 = keys::for_choices(row.0, app.quiz.choices());
        }
    }
    for row in keys::help_rows(Context::Help) {
        // Ctrl+C is in both tables: list it once.
        if !rows.contains(&row) {
            rows.push(row);
        }
    }
    let mouse: &[(&str, &str)] = match context {
        Context::Lab => &[
            ("click", "focus a slider; on its bar, set it"),
            ("drag", "slide the focused slider"),
            ("wheel", "focus over sliders, scroll elsewhere"),
        ],
        Context::Book => &[
            ("click", "open a chapter"),
            ("wheel", "select over the list, scroll over the text"),
        ],
        Context::Home => &[("click", "open an entry"), ("wheel", "move the selection")],
        // Said where the learner looks for keys: the drill can be steered from a second terminal.
        Context::OncallDrill | Context::OncallLiveDrill => &[
            ("wheel", "scroll"),
            (
                "facilitator",
                "can run `resilience-lab oncall --gm` in a second terminal",
            ),
        ],
        _ => &[("wheel", "scroll")],
    };
    // `F` names the page it switches to, as the lab file titles it (the table says "the
    // lab's next page": it names no lab).
    let next_page = match app.screen {
        Screen::Lab(index) => {
            let (lab, screen) = (&app.content.labs[index], &app.labs[index]);
            (lab.pages.len() > 1).then(|| &lab.pages[(screen.showing_page + 1) % lab.pages.len()].title)
        }
        _ => None,
    };
    let f_label = keys::key_label(Msg::NextPage);
    let rows: Vec<(&str, String)> = rows
        .into_iter()
        .chain(mouse.iter().copied())
        .map(|(key, help)| match next_page {
            Some(title) if Some(key) == f_label => (key, help.replace("the lab's next page", title)),
            _ => (key, help.to_string()),
        })
        .collect();
    let key_width = rows.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    let mut lines: Vec<Line> = rows
        .iter()
        .map(|(key, help)| {
            Line::from(vec![
                Span::styled(format!(" {key:>key_width$}  "), theme.key()),
                Span::raw(help.as_str()),
            ])
        })
        .collect();
    lines.insert(0, Line::from(""));
    // On a lab screen the focused slider's help, whole: the parameter panel says it in fewer
    // words when its rows run short (`before the container is …` at 80 columns).
    if let (Context::Lab, Screen::Lab(index)) = (context, app.screen) {
        let sliders = app.labs[index].showing_sliders();
        if let Some(slider) = sliders.sliders.get(sliders.focus) {
            let keys_width = lines.iter().map(Line::width).max().unwrap_or(0).max(40);
            let width = keys_width.min(usize::from(area.width.saturating_sub(4)));
            let whole = Line::from(vec![
                Span::styled(format!(" {}: ", slider.spec.label), theme.key()),
                Span::raw(slider.spec.help.trim().to_string()),
            ]);
            let mut top = crate::wrap::wrap_line(whole, width, 1);
            top.push(Line::from(""));
            lines.splice(1..1, top);
        }
    }
    let title = live.unwrap_or(context).title();
    let height = fit(lines.len() as u16 + 3, area.height);
    // Taller than the screen (Lab 1 live at 80x24): it scrolls, and says so.
    let visible = height.saturating_sub(2);
    let overflow = (lines.len() as u16).saturating_sub(visible);
    let scroll = app.help_scroll.min(overflow);
    let closes = if overflow > 0 {
        format!(" ↑↓ scroll {}/{} · ? or Esc closes ", scroll + 1, overflow + 1)
    } else {
        " ? or Esc closes ".to_string()
    };
    // Wide enough for the widest row with a space each side inside the borders, and for
    // both titles between the corners; the worst case of the scroll counter sets the bottom.
    let widest_closes = format!(" ↑↓ scroll {0}/{0} · ? or Esc closes ", overflow + 1);
    let rows_w = lines.iter().map(Line::width).max().unwrap_or(0) + 4;
    let titles_w = title.chars().count().max(widest_closes.chars().count()) + 2;
    let width = fit_width(rows_w.max(titles_w) as u16, area.width);
    let popup = crate::tui::layout::centred(area, width, height);
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .scroll((scroll, 0))
        .block(
            Block::bordered()
                .title(Span::styled(title, theme.accent()))
                .title_bottom(Line::from(closes).right_aligned())
                .border_style(theme.border()),
        )
        .render(popup, buf);
}

/// `wanted` cells of an overlay on a screen `room` cells across: at most the screen, and
/// the whole screen where one cell would be left over (a stray column of the screen below
/// beside the border reads as the overlay's own, cut).
fn fit(wanted: u16, room: u16) -> u16 {
    if wanted + 1 >= room { room } else { wanted }
}

/// The narrowest strip of the screen below worth leaving beside the overlay: in a narrower
/// one only fragments of its panels show, their borders beside the overlay's (`│s3  │`,
/// `┘────┘` at 80x24), read as stray pieces of the overlay.
const SIDE_MIN: u16 = 10;

/// The overlay's width: [`fit`], and the whole screen where either side would keep a strip
/// narrower than [`SIDE_MIN`], so the overlay covers it.
fn fit_width(wanted: u16, room: u16) -> u16 {
    if wanted + 2 * SIDE_MIN > room {
        room
    } else {
        fit(wanted, room)
    }
}

#[cfg(test)]
mod tests {
    use super::fit_width;

    #[test]
    fn an_overlay_covers_a_strip_too_narrow_to_read_beside_it() {
        // Lab 3's keys at 80 columns: 71 wide left 4 and 5 columns of cut panels.
        assert_eq!(fit_width(71, 80), 80);
        assert_eq!(fit_width(71, 100), 71, "15 columns a side read as the screen below");
        assert_eq!(fit_width(60, 80), 60);
        assert_eq!(fit_width(90, 80), 80);
    }
}
