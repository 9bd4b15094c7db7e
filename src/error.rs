//! The one error type that means "the user asked for something not allowed".
//!
//! `main` prints it on one line and exits with code 2; every other error exits with 1.

/// Bad input: the message names what was wrong and what is allowed.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
