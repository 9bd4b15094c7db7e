//! The health server's request log, kept off the request path.
//!
//! Liveness must depend on the process alone: a terminal paused with Ctrl-S, or a stderr
//! pipe nobody reads, must not stop `/livez` from answering. So a handler never writes: it
//! hands its line to a bounded queue ([`LogQueue::push`], which never waits) and one
//! writer thread of its own does the blocking writes. When the queue is full the line is
//! dropped and counted; the server reports the count when it exits.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};

/// Lines the queue holds for a writer that is behind; beyond this, lines are dropped.
pub const QUEUE_LINES: usize = 4_096;
/// Lines the writer gathers into one write when several are waiting.
const BATCH_LINES: usize = 256;

/// The sending end, shared by every connection task.
#[derive(Clone, Debug)]
pub struct LogQueue {
    lines: SyncSender<String>,
    dropped: Arc<AtomicU64>,
}

impl LogQueue {
    /// Starts the writer thread on `writer` with room for `capacity` waiting lines.
    ///
    /// A plain thread, not a runtime task: a write that blocks for ever blocks only it,
    /// and the process exits without waiting for it.
    pub fn start(capacity: usize, writer: impl Write + Send + 'static) -> std::io::Result<Self> {
        let (lines, waiting) = sync_channel(capacity.max(1));
        let dropped = Arc::new(AtomicU64::new(0));
        let lost = Arc::clone(&dropped);
        std::thread::Builder::new()
            .name("request-log".into())
            .spawn(move || write_lines(&waiting, writer, &lost))?;
        Ok(Self { lines, dropped })
    }

    /// Queues one line without waiting; a full queue (or a dead writer) drops and counts it.
    pub fn push(&self, line: String) {
        match self.lines.try_send(line) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Lines lost so far: dropped at a full queue, or failed to write.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// The line the server prints on exit when its request log lost lines.
pub fn dropped_line(dropped: u64) -> String {
    format!("request log: {dropped} line(s) dropped (stderr was not being read fast enough)")
}

/// The writer thread: one write per batch of waiting lines, until every sender is gone.
fn write_lines(waiting: &Receiver<String>, mut writer: impl Write, lost: &AtomicU64) {
    let mut batch = String::new();
    while let Ok(first) = waiting.recv() {
        batch.clear();
        let mut count = 1u64;
        batch.push_str(&first);
        batch.push('\n');
        while count < BATCH_LINES as u64
            && let Ok(next) = waiting.try_recv()
        {
            batch.push_str(&next);
            batch.push('\n');
            count += 1;
        }
        if writer
            .write_all(batch.as_bytes())
            .and_then(|()| writer.flush())
            .is_err()
        {
            // A closed stderr is not the server's failure: the lines are lost, and counted.
            lost.fetch_add(count, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    /// A writer that blocks until the test lets it go, then keeps what it was given.
    struct Gate {
        open: Arc<(Mutex<bool>, std::sync::Condvar)>,
        written: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Gate {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let (lock, opened) = &*self.open;
            let mut open = lock.lock().unwrap();
            while !*open {
                open = opened.wait(open).unwrap();
            }
            self.written.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_blocked_writer_never_blocks_push_and_the_overflow_is_counted() {
        let open = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let written = Arc::new(Mutex::new(Vec::new()));
        let gate = Gate {
            open: Arc::clone(&open),
            written: Arc::clone(&written),
        };
        let queue = LogQueue::start(8, gate).expect("writer thread");
        let started = Instant::now();
        for i in 0..1_000 {
            queue.push(format!("GET /livez {i}"));
        }
        assert!(started.elapsed() < Duration::from_secs(2), "push waited on the writer");
        // The writer holds at most one batch in its hand and 8 lines wait in the queue.
        let dropped = queue.dropped();
        assert!(dropped >= 1_000 - 8 - BATCH_LINES as u64, "only {dropped} dropped");
        *open.0.lock().unwrap() = true;
        open.1.notify_all();
        drop(queue);
        let deadline = Instant::now() + Duration::from_secs(5);
        let expected = 1_000 - dropped as usize;
        loop {
            let lines = String::from_utf8(written.lock().unwrap().clone())
                .unwrap()
                .lines()
                .count();
            if lines == expected {
                break;
            }
            assert!(Instant::now() < deadline, "wrote {lines} lines, expected {expected}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn the_dropped_line_names_its_count() {
        assert!(dropped_line(7).starts_with("request log: 7 line(s) dropped"));
    }
}
