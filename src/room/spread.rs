//! The spread of a room's answers to one check, as bins a person reads at a glance from the
//! back of a room: the one binning rule for the projector's histogram (`tui::view::room`)
//! and the lines `class host` prints at a reveal.

use crate::learning::quiz::trim_number;

/// One bin of the spread: its range as read aloud, how many answers fell in it, and whether
/// it overlaps the measured value's tolerance band (after the reveal).
#[derive(Clone, Debug, PartialEq)]
pub struct SpreadBin {
    /// `60 to 64`: from the lower edge up to (not including) the next bin's.
    pub label: String,
    pub count: usize,
    pub holds_measured: bool,
}

/// Bins a person reads at a glance: a width of 1, 2, 2.5 or 5 times a power of ten, the
/// first edge a multiple of it, at most `most` bins covering `lo` to `hi`.
fn nice_bins(lo: f64, hi: f64, most: usize) -> (f64, f64, usize) {
    let raw = ((hi - lo) / most as f64).max(1e-9);
    let magnitude = 10f64.powf(raw.log10().floor());
    let mut candidates = [1.0, 2.0, 2.5, 5.0, 10.0, 20.0].into_iter().map(|m| m * magnitude);
    let mut step = candidates.next().unwrap_or(1.0);
    let fits = |step: f64| (((hi - (lo / step).floor() * step) / step + 1e-9).floor() as usize) < most;
    while !fits(step) {
        step = candidates.next().unwrap_or(step * 2.0);
    }
    let first = (lo / step).floor() * step;
    let bins = ((hi - first) / step + 1e-9).floor() as usize + 1;
    (first, step, bins.clamp(1, most))
}

/// `values` in at most `most` bins, the band `(below, above)` (the measured value plus or
/// minus its tolerance) kept in range and marked. Empty when no one has answered.
pub fn spread_bins(values: &[f64], band: Option<(f64, f64)>, most: usize) -> Vec<SpreadBin> {
    if values.is_empty() {
        return Vec::new();
    }
    let mut lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let mut hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if let Some((below, above)) = band {
        lo = lo.min(below);
        hi = hi.max(above);
    }
    let (lo, step, bins) = nice_bins(lo, hi, most.max(1));
    let mut counts = vec![0usize; bins];
    for value in values {
        let at = (((value - lo) / step + 1e-9).floor().max(0.0) as usize).min(bins - 1);
        counts[at] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, count)| {
            let from = lo + step * i as f64;
            let to = from + step;
            SpreadBin {
                label: format!("{} to {}", trim_number(from), trim_number(to)),
                count,
                holds_measured: band.is_some_and(|(below, above)| from <= above + 1e-9 && to >= below - 1e-9),
            }
        })
        .collect()
}

/// A bar's length in columns: `count` of the fullest bin's `most`, in `room` columns, never
/// empty for a bin that has an answer.
pub fn bar_columns(count: usize, most: usize, room: usize) -> usize {
    (count * room).div_ceil(most.max(1)).min(room)
}

/// The spread as plain lines for a terminal (`class host`), `  60 to 64  ████ 12`, the
/// measured value's bins marked in words, not only in style.
pub fn spread_lines(values: &[f64], band: Option<(f64, f64)>, unit: &str, bins_most: usize) -> Vec<String> {
    let bins = spread_bins(values, band, bins_most);
    if bins.is_empty() {
        return vec!["  no answers".to_string()];
    }
    let label_width = bins.iter().map(|b| b.label.chars().count()).max().unwrap_or(0);
    let most = bins.iter().map(|b| b.count).max().unwrap_or(1);
    let mut lines = vec![format!("  {:>label_width$}  answers ({})", "", unit.trim())];
    lines.extend(bins.iter().map(|bin| {
        let bar = "█".repeat(bar_columns(bin.count, most, 30));
        let mark = if bin.holds_measured { " <- measured" } else { "" };
        format!("  {:>label_width$}  {bar} {}{mark}", bin.label, bin.count)
    }));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_fall_in_round_bins_and_the_measured_bins_are_marked() {
        let bins = spread_bins(&[60.0, 62.0, 64.0, 16.0, 64.0], Some((63.0, 65.0)), 8);
        assert!(bins.iter().all(|b| !b.label.contains('.')), "{bins:?}");
        assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), 5);
        let marked: Vec<&str> = bins
            .iter()
            .filter(|b| b.holds_measured)
            .map(|b| b.label.as_str())
            .collect();
        assert_eq!(marked, ["60 to 70"], "{bins:?}");
        let lines = spread_lines(&[60.0, 62.0, 64.0, 16.0, 64.0], Some((63.0, 65.0)), "attempts", 8);
        assert!(lines[0].ends_with("answers (attempts)"), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("60 to 70") && l.ends_with("4 <- measured")),
            "{lines:?}"
        );
        assert_eq!(spread_lines(&[], None, "", 8), ["  no answers"]);
    }

    #[test]
    fn a_bar_has_at_least_one_column_for_one_answer() {
        assert_eq!(bar_columns(1, 30, 20), 1);
        assert_eq!(bar_columns(30, 30, 20), 20);
        assert_eq!(bar_columns(0, 30, 20), 0);
    }
}
