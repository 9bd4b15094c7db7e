//! Legends and summary lines that give way on a narrow panel instead of being cut at its
//! border: a legend's items (a glyph and its word) flow onto more lines, never split
//! between a glyph and its word; a line of counts drops whole counts from its end.

use ratatui::text::{Line, Span};

/// One legend item: its spans (a glyph and its word), and a lead (a separator such as
/// `│ db `) drawn before it only where it does not start a line.
#[derive(Clone, Debug, Default)]
pub struct Item<'a> {
    pub lead: Vec<Span<'a>>,
    pub spans: Vec<Span<'a>>,
}

impl<'a> Item<'a> {
    pub fn new(spans: Vec<Span<'a>>) -> Self {
        Item {
            lead: Vec::new(),
            spans,
        }
    }

    fn width(spans: &[Span<'_>]) -> usize {
        spans.iter().map(Span::width).sum()
    }
}

/// `items` on as few lines of `width` columns as they fill, `gap` spaces between two items
/// on a line; an item wider than a line gets a line of its own (and is cut there alone).
pub fn flow<'a>(items: &[Item<'a>], width: usize, gap: usize) -> Vec<Line<'a>> {
    let mut lines: Vec<Line<'a>> = Vec::new();
    let mut row: Vec<Span<'a>> = Vec::new();
    let mut used = 0;
    for item in items {
        let own = Item::width(&item.spans);
        let joined = gap + Item::width(&item.lead) + own;
        if !row.is_empty() && used + joined > width {
            lines.push(Line::from(std::mem::take(&mut row)));
            used = 0;
        }
        if row.is_empty() {
            row.extend(item.spans.iter().cloned());
            used = own;
        } else {
            row.push(Span::raw(" ".repeat(gap)));
            row.extend(item.lead.iter().cloned());
            row.extend(item.spans.iter().cloned());
            used += joined;
        }
    }
    if !row.is_empty() {
        lines.push(Line::from(row));
    }
    lines
}

/// How many lines [`flow`] needs.
pub fn rows(items: &[Item<'_>], width: usize, gap: usize) -> usize {
    flow(items, width, gap).len()
}

/// `parts` joined into one line of at most `width` columns: two spaces between them where
/// all fit so, else one, and then only the parts that fit whole, from the first.
pub fn fit_parts(parts: &[String], width: usize) -> String {
    let spaced = parts.join("  ");
    if spaced.chars().count() <= width {
        return spaced;
    }
    let mut line = String::new();
    for part in parts {
        let extra = part.chars().count() + usize::from(!line.is_empty());
        if line.chars().count() + extra > width {
            break;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(part);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(words: &[&str]) -> Vec<Item<'static>> {
        words
            .iter()
            .map(|w| Item::new(vec![Span::raw(w.to_string())]))
            .collect()
    }

    #[test]
    fn items_flow_whole_onto_new_lines() {
        let lines = flow(&items(&["a one", "b two", "c three"]), 11, 1);
        let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["a one b two", "c three"]);
        assert_eq!(rows(&items(&["a one", "b two", "c three"]), 80, 2), 1);
    }

    #[test]
    fn a_lead_shows_only_after_another_item() {
        let mut list = items(&["x ok", "y up"]);
        list[1].lead = vec![Span::raw("│ ")];
        let text = |width| -> Vec<String> { flow(&list, width, 1).iter().map(ToString::to_string).collect() };
        assert_eq!(text(20), ["x ok │ y up"]);
        assert_eq!(text(6), ["x ok", "y up"]);
    }

    #[test]
    fn counts_drop_whole_from_the_end() {
        let parts: Vec<String> = ["ok 2700", "degraded 340", "refused 2860"].map(String::from).to_vec();
        assert_eq!(fit_parts(&parts, 80), "ok 2700  degraded 340  refused 2860");
        assert_eq!(fit_parts(&parts, 33), "ok 2700 degraded 340 refused 2860");
        assert_eq!(fit_parts(&parts, 30), "ok 2700 degraded 340");
    }
}
