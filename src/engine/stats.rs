//! Small statistics shared by the simulated and the live labs.

/// The Atlas's percentile: `sorted[int(len * q) - 1]`, with Python's negative index.
///
/// For 6,000 waits and q = 0.99 this is element 5,939. A run so short that
/// `int(len * q)` is 0 takes the last element, as Python's `waits[-1]` does; an empty
/// run has no percentile and gives 0.
pub fn atlas_percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (sorted.len() as f64 * q) as usize;
    match rank.checked_sub(1) {
        Some(index) => sorted[index.min(sorted.len() - 1)],
        None => sorted[sorted.len() - 1],
    }
}

/// Sorts a copy of `values` and takes [`atlas_percentile`].
pub fn percentile_of(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    atlas_percentile(&sorted, q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_the_atlas_index_rule() {
        let waits: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(atlas_percentile(&waits, 0.99), 99.0);
        assert_eq!(atlas_percentile(&waits, 0.5), 50.0);
        assert_eq!(atlas_percentile(&[7.0], 0.99), 7.0);
        assert_eq!(atlas_percentile(&[], 0.99), 0.0);
    }
}
