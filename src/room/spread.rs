//! The spread of a room's answers to one check, as bins a person reads at a glance from the
//! back of a room: the one binning rule for the projector's histogram (`tui::view::room`)
//! and the lines `class host` prints.
//!
//! Three rules keep it readable whatever a room types: the chart is never narrower than a
//! hundredth of the values' size (one answer, or ten equal ones, still make a bin of some
//! width); an answer far out of the rest (`1e300` calls) is counted off the chart rather
//! than squeezing every other answer into one bin; and after the reveal only the bin that
//! holds the measured value is marked measured, the others the band reaches are marked
//! within tolerance.

use crate::learning::quiz::trim_number;
use crate::room::session::RevealRecord;

/// The words beside the bin holding the measured value.
pub const MEASURED_MARK: &str = " <- measured";
/// The words beside another bin the tolerance band reaches.
pub const WITHIN_MARK: &str = " <- within tolerance";
/// Columns of the fullest bin's bar in the host's terminal.
const HOST_BAR_COLUMNS: usize = 30;
/// How far from the middle of the answers the chart reaches, in the answers' own spread.
const CHART_REACH: f64 = 10.0;

/// What the reveal lays over the spread: the measured value and its tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredBand {
    pub value: f64,
    pub tolerance: f64,
}

impl MeasuredBand {
    /// The reveal's value, if its run produced one.
    pub fn of(reveal: &RevealRecord) -> Option<MeasuredBand> {
        reveal.value.map(|value| MeasuredBand {
            value,
            tolerance: reveal.tolerance,
        })
    }

    fn band(self) -> (f64, f64) {
        (self.value - self.tolerance, self.value + self.tolerance)
    }
}

/// How a bin relates to the measured value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinMark {
    None,
    WithinTolerance,
    Measured,
}

impl BinMark {
    /// The words after the bar.
    pub fn words(self) -> &'static str {
        match self {
            BinMark::None => "",
            BinMark::WithinTolerance => WITHIN_MARK,
            BinMark::Measured => MEASURED_MARK,
        }
    }
}

/// One bin of the spread: its range as read aloud, how many answers fell in it, its mark.
#[derive(Clone, Debug, PartialEq)]
pub struct SpreadBin {
    /// `60 to 64`: from the lower edge up to (not including) the next bin's.
    pub label: String,
    pub count: usize,
    pub mark: BinMark,
}

/// The bins, and the answers too far out to draw (below and above the chart).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spread {
    pub bins: Vec<SpreadBin>,
    pub below: usize,
    pub above: usize,
}

impl Spread {
    /// `2 answers off the chart (below 0, above 5000)`, or nothing when all are drawn.
    pub fn off_chart_line(&self, lo: f64, hi: f64) -> Option<String> {
        let off = self.below + self.above;
        (off > 0).then(|| {
            let noun = if off == 1 { "answer" } else { "answers" };
            format!(
                "{off} {noun} off the chart ({} below {}, {} above {})",
                self.below,
                trim_number(lo),
                self.above,
                trim_number(hi)
            )
        })
    }
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

/// The range the chart draws: the answers' middle half, reached out [`CHART_REACH`] times
/// its width (or the values' size, when the answers agree), and the measured band.
fn chart_range(values: &[f64], measured: Option<MeasuredBand>) -> (f64, f64) {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    let at = |share: f64| sorted[((sorted.len() - 1) as f64 * share).round() as usize];
    let (q1, middle, q3) = (at(0.25), at(0.5), at(0.75));
    let scale = (q3 - q1).max(middle.abs() * 0.5).max(1e-6);
    let (mut lo, mut hi) = (
        sorted[0].max(middle - CHART_REACH * scale),
        sorted[sorted.len() - 1].min(middle + CHART_REACH * scale),
    );
    if let Some((below, above)) = measured.map(MeasuredBand::band) {
        lo = lo.min(below);
        hi = hi.max(above);
    }
    // Never narrower than a hundredth of the values' size, nor than a label's four decimals
    // can tell apart: equal answers make a bin of width.
    let least = (lo.abs().max(hi.abs()) * 0.01).max(0.01);
    if hi - lo < least {
        hi = lo + least;
    }
    (lo, hi)
}

/// `values` in at most `most` bins (with `measured` after the reveal); empty bins when no
/// one has answered. Also gives the chart's range, for the off-chart line.
pub fn spread_bins(values: &[f64], measured: Option<MeasuredBand>, most: usize) -> (Spread, f64, f64) {
    if values.iter().all(|v| !v.is_finite()) {
        return (Spread::default(), 0.0, 0.0);
    }
    let (lo, hi) = chart_range(values, measured);
    let (first, step, bins) = nice_bins(lo, hi, most.max(1));
    let last = first + step * bins as f64;
    let mut spread = Spread::default();
    let mut counts = vec![0usize; bins];
    for &value in values.iter().filter(|v| v.is_finite()) {
        if value < lo {
            spread.below += 1;
        } else if value > hi {
            spread.above += 1;
        } else {
            let at = (((value - first) / step + 1e-9).floor().max(0.0) as usize).min(bins - 1);
            counts[at] += 1;
        }
    }
    spread.bins = counts
        .into_iter()
        .enumerate()
        .map(|(i, count)| {
            let from = first + step * i as f64;
            let to = from + step;
            let is_last = i + 1 == bins;
            let mark = match measured {
                Some(m) if m.value >= from && (m.value < to || is_last && m.value <= last) => BinMark::Measured,
                Some(m) if from <= m.band().1 + 1e-9 && to >= m.band().0 - 1e-9 => BinMark::WithinTolerance,
                _ => BinMark::None,
            };
            SpreadBin {
                label: format!("{} to {}", trim_number(from), trim_number(to)),
                count,
                mark,
            }
        })
        .collect();
    (spread, lo, hi)
}

/// A bar's length in columns: `count` of the fullest bin's `most`, in `room` columns, never
/// empty for a bin that has an answer.
pub fn bar_columns(count: usize, most: usize, room: usize) -> usize {
    (count * room).div_ceil(most.max(1)).min(room)
}

/// The spread as plain lines for a terminal (`class host`), `  60 to 64  ████ 12`, the marks
/// in words, not only in style.
pub fn spread_lines(values: &[f64], measured: Option<MeasuredBand>, unit: &str, bins_most: usize) -> Vec<String> {
    let (spread, lo, hi) = spread_bins(values, measured, bins_most);
    if spread.bins.is_empty() {
        return vec!["  no answers".to_string()];
    }
    let label_width = spread.bins.iter().map(|b| b.label.chars().count()).max().unwrap_or(0);
    let most = spread.bins.iter().map(|b| b.count).max().unwrap_or(1);
    let mut lines = vec![format!("  {:>label_width$}  answers ({})", "", unit.trim())];
    lines.extend(spread.bins.iter().map(|bin| {
        let bar = "█".repeat(bar_columns(bin.count, most, HOST_BAR_COLUMNS));
        format!("  {:>label_width$}  {bar} {}{}", bin.label, bin.count, bin.mark.words())
    }));
    lines.extend(spread.off_chart_line(lo, hi).map(|line| format!("  {line}")));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(value: f64, tolerance: f64) -> Option<MeasuredBand> {
        Some(MeasuredBand { value, tolerance })
    }

    #[test]
    fn answers_fall_in_round_bins_and_only_the_measured_bin_says_measured() {
        let values = [60.0, 62.0, 64.0, 16.0, 64.0];
        let (spread, _, _) = spread_bins(&values, at(64.0, 1.0), 8);
        assert!(spread.bins.iter().all(|b| !b.label.contains('.')), "{spread:?}");
        assert_eq!(spread.bins.iter().map(|b| b.count).sum::<usize>(), 5);
        let measured: Vec<&str> = spread
            .bins
            .iter()
            .filter(|b| b.mark == BinMark::Measured)
            .map(|b| b.label.as_str())
            .collect();
        assert_eq!(measured, ["60 to 70"], "{spread:?}");
        let lines = spread_lines(&values, at(64.0, 1.0), "attempts", 8);
        assert!(lines[0].ends_with("answers (attempts)"), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("60 to 70") && l.ends_with("4 <- measured")),
            "{lines:?}"
        );
        assert_eq!(spread_lines(&[], None, "", 8), ["  no answers"]);
    }

    /// A reviewer's reveal of 44 within 10 marked all five bins measured.
    #[test]
    fn a_wide_band_marks_one_bin_measured_and_the_rest_within() {
        let values = [30.0, 38.0, 44.0, 50.0, 52.0];
        let (spread, _, _) = spread_bins(&values, at(44.0, 10.0), 8);
        let marks: Vec<BinMark> = spread.bins.iter().map(|b| b.mark).collect();
        assert_eq!(
            marks.iter().filter(|m| **m == BinMark::Measured).count(),
            1,
            "{spread:?}"
        );
        assert!(marks.contains(&BinMark::WithinTolerance), "{spread:?}");
    }

    /// One answer, or equal ones, made a bin `40 to 40`.
    #[test]
    fn equal_answers_make_a_bin_with_a_width() {
        for values in [vec![40.0], vec![40.0; 10], vec![0.0, 0.0], vec![0.2]] {
            let (spread, _, _) = spread_bins(&values, None, 8);
            for bin in &spread.bins {
                let (from, to) = bin.label.split_once(" to ").expect("a range");
                assert_ne!(from, to, "{values:?}: {spread:?}");
            }
            assert_eq!(
                spread.bins.iter().map(|b| b.count).sum::<usize>(),
                values.len(),
                "{values:?}"
            );
        }
    }

    /// `1e300` and `-1e300` had squeezed every honest answer into one bin with 300-digit labels.
    #[test]
    fn an_absurd_answer_is_counted_off_the_chart() {
        let values = [1e300, -1e300, 20.0, 40.0, 44.0, 60.0, 100.0];
        let lines = spread_lines(&values, at(44.0, 10.0), "calls", 8);
        assert!(lines.iter().all(|l| l.chars().count() < 80), "{lines:#?}");
        assert!(
            lines
                .last()
                .is_some_and(|l| l.contains("2 answers off the chart (1 below")),
            "{lines:#?}"
        );
        let (spread, _, _) = spread_bins(&values, at(44.0, 10.0), 8);
        assert_eq!(spread.bins.iter().map(|b| b.count).sum::<usize>(), 5);
        assert!(spread.bins.len() > 2, "{spread:?}");
    }

    #[test]
    fn a_bar_has_at_least_one_column_for_one_answer() {
        assert_eq!(bar_columns(1, 30, 20), 1);
        assert_eq!(bar_columns(30, 30, 20), 20);
        assert_eq!(bar_columns(0, 30, 20), 0);
    }
}
