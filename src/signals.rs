//! The signals that end a headless live run (SIGINT, SIGTERM, SIGHUP), and the exit code a
//! shell expects after one: 128 + its number.

use std::process::ExitCode;

use tokio::signal::unix::{Signal, SignalKind, signal};

/// A signal that arrived, by name and number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrived {
    pub name: &'static str,
    pub number: i32,
}

impl Arrived {
    /// 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM.
    pub fn exit_code(self) -> ExitCode {
        ExitCode::from(u8::try_from(128 + self.number).unwrap_or(u8::MAX))
    }
}

/// Handlers for the three stopping signals; from registration on, none of them kills the process.
pub struct Stop {
    interrupt: Signal,
    terminate: Signal,
    hangup: Signal,
}

impl Stop {
    /// Registers the handlers; needs a tokio runtime.
    pub fn register() -> std::io::Result<Stop> {
        Ok(Stop {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
            hangup: signal(SignalKind::hangup())?,
        })
    }

    /// Waits for the first of them.
    pub async fn recv(&mut self) -> Arrived {
        tokio::select! {
            _ = self.interrupt.recv() => Arrived { name: "SIGINT", number: libc::SIGINT },
            _ = self.terminate.recv() => Arrived { name: "SIGTERM", number: libc::SIGTERM },
            _ = self.hangup.recv() => Arrived { name: "SIGHUP", number: libc::SIGHUP },
        }
    }
}
