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

/// [`atlas_percentile`] of a list given as distinct values with how often each occurs,
/// without building the list: a brownout run's waits take only three values (no wait, the
/// healthy latency, the timeout), however many calls it makes.
pub fn atlas_percentile_counted(counted: &[(f64, u64)], q: f64) -> f64 {
    let mut buckets: Vec<(f64, u64)> = counted.iter().copied().filter(|(_, count)| *count > 0).collect();
    buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
    let len: u64 = buckets.iter().map(|(_, count)| count).sum();
    if len == 0 {
        return 0.0;
    }
    let rank = (len as f64 * q) as u64;
    let index = rank.checked_sub(1).map_or(len - 1, |index| index.min(len - 1));
    let mut seen = 0;
    for (value, count) in &buckets {
        seen += count;
        if index < seen {
            return *value;
        }
    }
    buckets.last().map_or(0.0, |(value, _)| *value)
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

    #[test]
    fn counted_values_give_the_same_percentile_as_the_list() {
        let counted = [(0.2, 30), (0.0, 5), (0.04, 65)];
        let mut list: Vec<f64> = counted
            .iter()
            .flat_map(|(v, n)| std::iter::repeat_n(*v, *n as usize))
            .collect();
        list.sort_by(f64::total_cmp);
        for q in [0.0, 0.01, 0.05, 0.5, 0.65, 0.7, 0.71, 0.99, 1.0] {
            assert_eq!(
                atlas_percentile_counted(&counted, q),
                atlas_percentile(&list, q),
                "q = {q}"
            );
        }
        assert_eq!(atlas_percentile_counted(&[(1.0, 1)], 0.99), 1.0);
        assert_eq!(atlas_percentile_counted(&[], 0.99), 0.0);
    }
}
