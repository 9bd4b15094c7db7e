//! The health server's lifecycle lines (`listening on`, `stopped listening`, `drained,
//! exiting`), written off the server's own thread.
//!
//! A terminal paused with Ctrl-S, or a stdout pipe nobody reads, blocks a write for as long
//! as it likes; written from the runtime's thread, one such line held the drain and the
//! exit past the grace deadline (issue 27 item 6). So [`LifecycleOut::say`] only hands the
//! line to a writer thread of its own, and [`LifecycleOut::written_by`] waits for the
//! writes only until a deadline: at the deadline the process exits, its unwritten lines
//! with it, as a server killed at the end of its grace period would.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;

use tokio::time::Instant;

/// Lines that may wait for the writer; the server says at most six in a run.
const WAITING_LINES: usize = 64;
/// How often [`LifecycleOut::written_by`] looks whether the writer has caught up.
const POLL: Duration = Duration::from_millis(5);

/// The sending end: the server's thread never waits on it.
#[derive(Debug)]
pub struct LifecycleOut {
    lines: SyncSender<String>,
    sent: u64,
    written: Arc<AtomicU64>,
}

impl LifecycleOut {
    /// Starts the writer thread on `writer` (the process's stdout).
    ///
    /// A plain thread, not a runtime task: a write that blocks for ever blocks only it, and
    /// the process exits without waiting for it.
    pub fn start(writer: impl Write + Send + 'static) -> std::io::Result<Self> {
        let (lines, waiting) = sync_channel(WAITING_LINES);
        let written = Arc::new(AtomicU64::new(0));
        let done = Arc::clone(&written);
        std::thread::Builder::new()
            .name("lifecycle-out".into())
            .spawn(move || write_lines(&waiting, writer, &done))?;
        Ok(Self {
            lines,
            sent: 0,
            written,
        })
    }

    /// Queues one line without waiting (past [`WAITING_LINES`] unwritten lines it is lost).
    pub fn say(&mut self, line: &str) {
        if self.lines.try_send(line.to_string()).is_ok() {
            self.sent += 1;
        }
    }

    /// Waits until every line said so far is written, or until `deadline`; false if the
    /// deadline came first (a paused terminal, a pipe nobody reads).
    pub async fn written_by(&self, deadline: Instant) -> bool {
        loop {
            if self.written.load(Ordering::SeqCst) >= self.sent {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(POLL.min(deadline.saturating_duration_since(Instant::now()))).await;
        }
    }
}

/// The writer thread: each line written and flushed on its own, as the Python server's
/// `print(..., flush=True)`; a failed write (the reader went away) still counts as done.
fn write_lines(waiting: &Receiver<String>, mut writer: impl Write, written: &AtomicU64) {
    while let Ok(line) = waiting.recv() {
        let _ = writeln!(writer, "{line}").and_then(|()| writer.flush());
        written.fetch_add(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Condvar, Mutex};

    /// A writer that blocks until the test lets it go, then keeps what it was given.
    struct Gate {
        open: Arc<(Mutex<bool>, Condvar)>,
        kept: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Gate {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let (lock, opened) = &*self.open;
            let mut open = lock.lock().unwrap();
            while !*open {
                open = opened.wait(open).unwrap();
            }
            self.kept.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_blocked_stdout_holds_neither_say_nor_the_deadline() {
        let open = Arc::new((Mutex::new(false), Condvar::new()));
        let kept = Arc::new(Mutex::new(Vec::new()));
        let gate = Gate {
            open: Arc::clone(&open),
            kept: Arc::clone(&kept),
        };
        let mut out = LifecycleOut::start(gate).expect("writer thread");
        let started = Instant::now();
        out.say("listening on 127.0.0.1:1");
        out.say("stopped listening");
        assert!(!out.written_by(started + Duration::from_millis(100)).await);
        assert!(started.elapsed() < Duration::from_secs(1), "waited past the deadline");
        *open.0.lock().unwrap() = true;
        open.1.notify_all();
        assert!(out.written_by(Instant::now() + Duration::from_secs(5)).await);
        assert_eq!(
            String::from_utf8(kept.lock().unwrap().clone()).unwrap(),
            "listening on 127.0.0.1:1\nstopped listening\n"
        );
    }
}
