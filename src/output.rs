//! The process's standard output and error when whoever reads them may have gone away.
//!
//! `resilience-lab run health --live | head -1` closes the pipe after one line. Rust ignores
//! SIGPIPE, so the next write fails with EPIPE: `?` turned that into the run's error (exit 1
//! halfway through), and `eprintln!` of that error into a closed stderr panicked, whose hook
//! could not print either, and the process aborted (exit 134) with its live run unfinished.
//! Here a write to a reader that is gone succeeds and goes nowhere, so a command runs to its
//! end, stops its children as always, and exits with its own code.

use std::io::{ErrorKind, Write};

/// A writer that drops what it is given once its reader has gone (EPIPE), instead of failing.
/// Any other error still fails the write: a full disk is worth reporting.
pub struct ReaderMayLeave<W> {
    inner: W,
    /// Set by the first broken pipe: nothing written after it can reach anyone.
    reader_gone: bool,
}

impl<W: Write> ReaderMayLeave<W> {
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            reader_gone: false,
        }
    }

    /// Whether a write found the reader gone.
    pub fn reader_gone(&self) -> bool {
        self.reader_gone
    }

    fn absorb<T>(&mut self, result: std::io::Result<T>, gone: T) -> std::io::Result<T> {
        match result {
            Err(error) if error.kind() == ErrorKind::BrokenPipe => {
                self.reader_gone = true;
                Ok(gone)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for ReaderMayLeave<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.reader_gone {
            return Ok(bytes.len());
        }
        let result = self.inner.write(bytes);
        self.absorb(result, bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.reader_gone {
            return Ok(());
        }
        let result = self.inner.flush();
        self.absorb(result, ())
    }
}

/// One line to standard error, or nothing if it cannot be written: unlike `eprintln!`, a closed
/// stderr is no panic (the exit code says what happened either way).
pub fn error_line(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
    let _ = stderr.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes `room` bytes, then fails every write with `kind`.
    struct Closing {
        room: usize,
        kind: ErrorKind,
        taken: Vec<u8>,
    }

    impl Write for Closing {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if self.taken.len() + bytes.len() > self.room {
                return Err(self.kind.into());
            }
            self.taken.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_broken_pipe_is_swallowed_from_then_on() {
        let closing = Closing {
            room: 6,
            kind: ErrorKind::BrokenPipe,
            taken: Vec::new(),
        };
        let mut out = ReaderMayLeave::new(closing);
        writeln!(out, "first").expect("fits");
        assert!(!out.reader_gone());
        writeln!(out, "second").expect("a gone reader is no error");
        writeln!(out, "third").expect("nor later");
        out.flush().expect("flush too");
        assert!(out.reader_gone());
        assert_eq!(out.inner.taken, b"first\n");
    }

    #[test]
    fn other_errors_still_fail() {
        let closing = Closing {
            room: 0,
            kind: ErrorKind::StorageFull,
            taken: Vec::new(),
        };
        let mut out = ReaderMayLeave::new(closing);
        let error = writeln!(out, "x").expect_err("a full disk is reported");
        assert_eq!(error.kind(), ErrorKind::StorageFull);
        assert!(!out.reader_gone());
    }
}
