//! Python's way of printing floats, for outputs that must match the Atlas byte for byte.
//!
//! Rust's `{}` already prints the shortest string that reads back as the same `f64`, as
//! Python's `repr` does; the differences are the trailing `.0` on whole numbers, the
//! switch to exponent notation outside [1e-4, 1e16), and the two-digit exponent.

/// `repr(x)` for a finite Python float.
pub fn float_repr(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let magnitude = x.abs();
    if (1e-4..1e16).contains(&magnitude) {
        let plain = format!("{x}");
        if plain.contains('.') { plain } else { plain + ".0" }
    } else {
        // Rust writes `1e-5` and `1.5e16`; Python writes `1e-05` and `1.5e+16`.
        let rust = format!("{x:e}");
        let (mantissa, exponent) = rust.split_once('e').unwrap_or((rust.as_str(), "0"));
        let exponent: i32 = exponent.parse().unwrap_or(0);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    }
}

/// `round(x, digits)` as Python computes it: correctly rounded on the exact binary value.
pub fn round_to(x: f64, digits: usize) -> f64 {
    // Rust's fixed-precision formatting is exact and rounds half to even, as CPython's
    // `round` does; reading the decimal back gives the same float Python returns.
    format!("{x:.digits$}").parse().unwrap_or(x)
}

/// Python's `f"{x:W.1%}"`: multiply by 100 (a float multiply, as CPython does), then fix.
pub fn percent(x: f64, width: usize, digits: usize) -> String {
    let number_width = width.saturating_sub(1);
    format!("{:>number_width$.digits$}%", x * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_matches_python_for_common_values() {
        assert_eq!(float_repr(1.0), "1.0");
        assert_eq!(float_repr(0.05), "0.05");
        assert_eq!(float_repr(0.3), "0.3");
        assert_eq!(float_repr(0.00001), "1e-05");
        assert_eq!(float_repr(2.5e16), "2.5e+16");
        assert_eq!(float_repr(0.0), "0.0");
    }

    #[test]
    fn round_and_percent_match_python() {
        assert_eq!(round_to(0.031_59, 3), 0.032);
        assert_eq!(round_to(0.0625, 3), 0.062);
        assert_eq!(percent(0.782, 6, 1), " 78.2%");
        assert_eq!(percent(1.0, 6, 1), "100.0%");
    }
}
