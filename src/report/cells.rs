//! Report rows as fields: each number a printer formats is a [`Field`] that names its metric,
//! so a row can be printed whole (the command line) or with some numbers hidden (the app,
//! while a check that asks for them is unanswered) from the same fields.
//!
//! The bug this prevents: the app used to hide a number by re-creating the printer's format
//! string and replacing that text in the printed row; when a printer's label or width
//! changed, the replace found nothing and the answer showed, silently. Here a hidden field
//! is left out by its metric name before the row is text, whatever its label or width.

/// One part of a report row: its text, and the metric it prints, if it prints one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The named number this text shows ([`crate::learning::metrics`]'s names); `None` for a label,
    /// padding or a number no check asks for.
    pub metric: Option<String>,
    pub text: String,
}

/// What hides a field: the placeholder standing in for `metric`'s number, or `None` to
/// show it. The app's hiding rule implements it; the command line hides nothing.
pub trait Mask {
    fn hidden(&self, metric: &str) -> Option<String>;
}

/// Hides nothing: the command line's reports.
pub struct ShowAll;

impl Mask for ShowAll {
    fn hidden(&self, _metric: &str) -> Option<String> {
        None
    }
}

/// One report row: fields joined with nothing between them (the printer writes its spaces).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row(Vec<Field>);

impl Row {
    /// A row of one unnamed text.
    pub fn of(text: impl Into<String>) -> Self {
        Row::default().text(text)
    }

    /// Appends text that prints no metric (a label, padding).
    #[must_use]
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.0.push(Field {
            metric: None,
            text: text.into(),
        });
        self
    }

    /// Appends `metric`'s number as printed (`text`, with the printer's width and unit).
    #[must_use]
    pub fn number(mut self, metric: impl Into<String>, text: impl Into<String>) -> Self {
        self.0.push(Field {
            metric: Some(metric.into()),
            text: text.into(),
        });
        self
    }

    pub fn fields(&self) -> &[Field] {
        &self.0
    }

    /// The row as the command line prints it: every number shown.
    pub fn line(&self) -> String {
        self.join(&ShowAll)
    }

    /// The row with the numbers `mask` hides replaced by its placeholder, padded to the
    /// number's width as the printer aligned it (right when its text starts with a space),
    /// so the columns after it stay where they are; a wider placeholder takes its own width.
    pub fn join(&self, mask: &impl Mask) -> String {
        self.0
            .iter()
            .map(|field| {
                let Some(hidden) = field.metric.as_deref().and_then(|metric| mask.hidden(metric)) else {
                    return field.text.clone();
                };
                let width = field.text.chars().count();
                if field.text.starts_with(' ') {
                    format!("{hidden:>width$}")
                } else {
                    format!("{hidden:<width$}")
                }
            })
            .collect()
    }

    /// [`Row::join`], fitted to `width` columns as [`fit_width`] does.
    pub fn fit(&self, width: usize, mask: &impl Mask) -> String {
        fit_width(self.join(mask), width)
    }
}

/// A printed line as it is when it fits; else without its alignment padding, then with
/// shorter labels, so that every number still shows at 80 columns (`calls= 6000` becomes
/// `calls=6000`, `p99 wait=` becomes `p99=`): a clipped `stuck=100.0` would read as 10.
///
/// It changes only spaces and the printers' own labels, after hiding: a placeholder
/// (`?s3`) holds neither a double space, `= `, nor a label, so fitting keeps it whole.
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
    use super::*;

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

    #[test]
    fn a_hidden_number_gives_way_to_its_placeholder_and_the_rest_prints_as_it_is() {
        let row = Row::of("calls=")
            .number("a.calls", "    6000")
            .text(" stuck=")
            .number("a.stuck", "20.0");
        assert_eq!(row.line(), "calls=    6000 stuck=20.0");
        struct Hide(&'static str, &'static str);
        impl Mask for Hide {
            fn hidden(&self, metric: &str) -> Option<String> {
                (metric == self.0).then(|| self.1.to_string())
            }
        }
        // Padded to the number's width, aligned as the printer aligned it: the rest stays put.
        assert_eq!(row.join(&Hide("a.calls", "?s2")), "calls=     ?s2 stuck=20.0");
        assert_eq!(row.join(&Hide("a.stuck", "?s2")), "calls=    6000 stuck=?s2 ");
        // A placeholder wider than the number takes its own width.
        assert_eq!(row.join(&Hide("a.stuck", "?s12345")), "calls=    6000 stuck=?s12345");
        assert_eq!(row.join(&ShowAll), row.line());
    }
}
