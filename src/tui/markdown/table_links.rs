//! Links inside a table of the book. The Markdown renderer fits a table to the screen by
//! wrapping its cells, and a narrow cell can split a link's target over its rows
//! (`(self-` above `check.md)`), so no single drawn line holds it. Here the drawn rows of one
//! table row are read back cell by cell and joined, so a split link is found whole, with
//! the piece of it on each drawn row (for the focus to mark every piece).

/// One cell of a table row, its drawn rows joined.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableCell {
    /// The cell's text, its rows' fragments joined without spaces: a link's target holds
    /// none, so one split at a space or inside a word reads back whole.
    pub text: String,
    /// Each drawn row's fragment: the row (in the chapter's lines), where it starts in
    /// `text` (in chars), and the fragment.
    fragments: Vec<(usize, usize, String)>,
}

impl TableCell {
    /// The pieces of `text`'s chars `start..start + len` on each drawn row, in order.
    pub fn pieces(&self, start: usize, len: usize) -> Vec<(usize, String)> {
        let end = start + len;
        self.fragments
            .iter()
            .filter_map(|(row, from, fragment)| {
                let to = from + fragment.chars().count();
                let (a, b) = (start.max(*from), end.min(to));
                (a < b).then(|| (*row, fragment.chars().skip(a - from).take(b - a).collect()))
            })
            .collect()
    }
}

/// The cells of the table row being read, one per column.
#[derive(Clone, Debug, Default)]
pub struct TableRows {
    cells: Vec<TableCell>,
}

/// Whether a drawn line belongs to a table (a border or a row of cells).
pub fn is_table_line(plain: &str) -> bool {
    plain.trim_start().starts_with(['┌', '│', '├', '└'])
}

impl TableRows {
    /// Reads drawn line `row`: a row of cells adds a fragment to each cell; a border (or a
    /// line outside any table) ends the table row read so far and returns its cells.
    pub fn push(&mut self, row: usize, plain: &str) -> Vec<TableCell> {
        let trimmed = plain.trim_start();
        if !trimmed.starts_with('│') {
            return self.finish();
        }
        let parts: Vec<&str> = trimmed.split('│').collect();
        // `│ a │ b │` splits into "", " a ", " b ", "": the cells are between the borders.
        let cells = parts.get(1..parts.len().saturating_sub(1)).unwrap_or_default();
        if self.cells.len() < cells.len() {
            self.cells.resize_with(cells.len(), TableCell::default);
        }
        for (cell, fragment) in self.cells.iter_mut().zip(cells) {
            let fragment = fragment.trim();
            if fragment.is_empty() {
                continue;
            }
            let from = cell.text.chars().count();
            cell.text.push_str(fragment);
            cell.fragments.push((row, from, fragment.to_string()));
        }
        Vec::new()
    }

    /// Ends the table row read so far and returns its cells.
    pub fn finish(&mut self) -> Vec<TableCell> {
        std::mem::take(&mut self.cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_split_over_a_cells_rows_reads_back_whole() {
        let mut table = TableRows::default();
        assert!(table.push(0, "┌────┬──────────┐").is_empty());
        table.push(1, "│ 1  │ (the     │");
        table.push(2, "│    │ self-    │");
        table.push(3, "│    │ check.md │");
        table.push(4, "│    │ )        │");
        let cells = table.push(5, "└────┴──────────┘");
        assert_eq!(cells.len(), 2);
        assert_eq!(cells[1].text, "(theself-check.md)");
        let start = cells[1].text.find("self-check.md").expect("found");
        assert_eq!(
            cells[1].pieces(start, "self-check.md".len()),
            [(2, "self-".to_string()), (3, "check.md".to_string())]
        );
        assert!(table.finish().is_empty(), "the border ended the row");
        assert!(is_table_line("  ├──┤") && !is_table_line("- a (b)"));
    }
}
