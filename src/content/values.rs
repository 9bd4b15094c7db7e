//! A source of named parameter values (the sliders, a check's settings, the flags), on its
//! own so that every part of `content` can name it without importing the lab file.

/// A source of named values.
pub trait Values {
    /// The value named `name`, if this source gives one.
    fn value(&self, name: &str) -> Option<f64>;
}

/// No values: every parameter takes the lab file's default.
pub struct Defaults;

impl Values for Defaults {
    fn value(&self, _name: &str) -> Option<f64> {
        None
    }
}

/// Named values written out, e.g. a check's own settings: `[("p", 0.3)]`.
impl Values for [(&str, f64)] {
    fn value(&self, name: &str) -> Option<f64> {
        self.iter().find(|(key, _)| *key == name).map(|(_, value)| *value)
    }
}
