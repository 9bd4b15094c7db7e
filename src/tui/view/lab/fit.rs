//! A printed report line fitted to a panel's width without losing a number: the Atlas's
//! rows (`calls= 6000 to sick= 3000 ...`) are wider than an 80-column screen's panels, and
//! a row cut at the border would read `stuck=100.0` as `stuck=10`. Its own module because
//! the results panel and the labs' own panels (Lab 3 live, Lab 4) all draw such rows.

/// The Atlas's line as printed when it fits; else without its alignment padding, then with
/// shorter labels, so that every number still shows at 80 columns (`calls= 6000` becomes
/// `calls=6000`, `p99 wait=` becomes `p99=`): a clipped `stuck=100.0` would read as 10.
pub fn fit_width(line: String, width: usize) -> String {
    if line.chars().count() <= width {
        return line;
    }
    let mut squeezed = line.replace("  ", " ");
    while squeezed.contains("= ") {
        squeezed = squeezed.replace("= ", "=");
    }
    const SHORTER: [(&str, &str); 5] = [
        ("p99 wait=", "p99="),
        ("degraded=", "degr="),
        (" to sick=", " sick="),
        ("timeout only", "timeout"),
        ("with breaker", "breaker"),
    ];
    for (long, short) in SHORTER {
        if squeezed.chars().count() <= width {
            break;
        }
        squeezed = squeezed.replace(long, short);
    }
    squeezed
}

#[cfg(test)]
mod tests {
    use super::fit_width;

    #[test]
    fn every_number_survives_at_80_columns() {
        let line = "timeout only  calls=30000 to sick=15000 degraded=15000 p99 wait=200 ms stuck=100.0".to_string();
        let fitted = fit_width(line, 76);
        assert!(fitted.chars().count() <= 76, "{fitted}");
        for number in ["30000", "15000", "200", "100.0"] {
            assert!(fitted.contains(number), "{fitted}");
        }
        let short = "with breaker  calls= 2911".to_string();
        assert_eq!(
            fit_width(short.clone(), 80),
            short,
            "a line that fits is left as printed"
        );
    }
}
