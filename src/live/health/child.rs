//! Lab 1's server as a real child process: the same binary run as `serve health`.
//!
//! [`HealthChild`] is the handle the headless driver and the TUI share: start it, read
//! its output lines, probe it, send it SIGTERM, flip its database, wait for its exit
//! code, and shut it down (SIGTERM, wait with a deadline, kill, reap). No child outlives
//! its parent: it is killed on drop and gets `PR_SET_PDEATHSIG` SIGTERM at birth.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, bail, eyre};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, ChildStderr, Command};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::engine::health::HealthConfig;
use crate::error::UsageError;
use crate::live::health::server::{DATABASE_DOWN_PATH, DATABASE_UP_PATH};
use crate::live::http::{self, GetOutcome};

/// How long the child may take to print its `listening on` line.
const START_TIMEOUT: Duration = Duration::from_secs(5);
/// Lines buffered for a reader that falls behind; beyond this, lines are dropped rather
/// than letting a full pipe stall the server.
const LINE_BUFFER: usize = 1024;

/// Which of the child's streams a line came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// The server's lifecycle lines (`listening on ...`, `stopped listening`, ...).
    Stdout,
    /// One line per request (`GET /livez`), or an error.
    Stderr,
}

/// One line of the child's output and when it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildLine {
    pub stream: Stream,
    pub line: String,
    pub at: Instant,
}

/// A running `resilience-lab serve health` child process.
#[derive(Debug)]
pub struct HealthChild {
    child: Child,
    /// Read once at spawn: `Child::id` forgets it after the child is reaped.
    pid: u32,
    addr: SocketAddr,
    /// When the `listening on` line arrived: time zero of the Atlas's driver schedule.
    listening_at: Instant,
    lines: Option<mpsc::Receiver<ChildLine>>,
    /// The exit code once reaped, so that `wait_exit` and `shutdown` can be called again.
    exit_code: Option<i32>,
}

/// The `serve health` arguments that reproduce `config` on `port`.
pub fn serve_args(config: &HealthConfig, port: u16) -> Vec<String> {
    let mut args: Vec<String> = vec!["serve".into(), "health".into(), "--port".into(), port.to_string()];
    for (flag, value) in [
        ("--warmup-s", config.warmup_s),
        ("--deregister-s", config.deregister_s),
        ("--grace-s", config.grace_s),
        ("--work-s", config.work_s),
    ] {
        // `{}` on f64 prints the shortest text that parses back to the same value.
        args.extend([flag.to_string(), value.to_string()]);
    }
    if config.liveness_checks_db {
        args.push("--liveness-checks-db".into());
    }
    if config.readiness_checks_db {
        args.push("--readiness-checks-db".into());
    }
    args
}

/// Whether 127.0.0.1:`port` can be bound now (port 0 always can).
pub fn port_is_free(port: u16) -> bool {
    std::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).is_ok()
}

/// The first port from `port` upwards (at most 100 tried) that can be bound now, to
/// offer when the chosen one is taken.
pub fn next_free_port(port: u16) -> Option<u16> {
    (0..100u16)
        .filter_map(|step| port.checked_add(step))
        .find(|&candidate| candidate != 0 && port_is_free(candidate))
}

/// The usage error for a port that is taken.
pub fn port_in_use(port: u16) -> UsageError {
    let hint = next_free_port(port).map_or(String::new(), |free| format!(" (e.g. --port {free})"));
    UsageError(format!(
        "port {port} on 127.0.0.1 is already in use; choose another with --port{hint}"
    ))
}

impl HealthChild {
    /// Starts the server from this very binary (`std::env::current_exe()`).
    pub async fn start(config: &HealthConfig, port: u16) -> Result<Self> {
        let program = std::env::current_exe().wrap_err("finding this program to start the health server")?;
        Self::start_program(&program, config, port).await
    }

    /// Starts `program serve health ...` and waits for its `listening on` line. A port in
    /// use comes back as a [`UsageError`] naming the port and `--port`.
    pub async fn start_program(program: &Path, config: &HealthConfig, port: u16) -> Result<Self> {
        Self::start_with_args(program, serve_args(config, port), port).await
    }

    /// Starts `program ARGS...`, any of its servers that prints `listening on 127.0.0.1:PORT`
    /// first (the fleet lab starts `serve health` with more flags, and `serve database`).
    pub async fn start_with_args(program: &Path, args: Vec<String>, port: u16) -> Result<Self> {
        let mut command = Command::new(PathBuf::from(program));
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group: a Ctrl-C at the terminal reaches only the parent,
            // which then stops the child in order (SIGTERM, deadline, kill) instead of
            // the child dying mid-request from the same SIGINT.
            .process_group(0)
            .kill_on_drop(true);
        let parent_pid = std::process::id();
        // SAFETY: the closure runs in the forked child before exec and only calls the
        // async-signal-safe prctl, getppid and _exit.
        unsafe {
            command.pre_exec(move || {
                // The death signal follows the thread that forked, not the process: call
                // `start` from an async task or `block_on` (tokio's worker threads live as
                // long as the runtime), never from `spawn_blocking`, whose threads retire
                // when idle and would take the child with them.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died before prctl took effect: then leave at once.
                if libc::getppid() as u32 != parent_pid {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
        let mut child = command
            .spawn()
            .wrap_err_with(|| format!("starting {} serve health", program.display()))?;
        let pid = child
            .id()
            .ok_or_else(|| eyre!("the health server exited before it started"))?;
        let stdout = child.stdout.take().ok_or_else(|| eyre!("the health server's stdout"))?;
        let stderr = child.stderr.take().ok_or_else(|| eyre!("the health server's stderr"))?;
        let mut stdout = BufReader::new(stdout).lines();

        let first = tokio::time::timeout(START_TIMEOUT, stdout.next_line()).await;
        let listening_at = Instant::now();
        let first = match first {
            Ok(Ok(Some(line))) => line,
            Ok(_) => return Err(Self::failed_start(child, stderr, port).await),
            Err(_) => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                bail!("the health server printed nothing within {START_TIMEOUT:?}");
            }
        };
        let Some(real_port) = parse_listening(&first) else {
            let _ = child.start_kill();
            let _ = child.wait().await;
            bail!("the health server's first line was {first:?}, not \"listening on 127.0.0.1:PORT\"");
        };

        let (tx, rx) = mpsc::channel(LINE_BUFFER);
        let _ = tx.try_send(ChildLine {
            stream: Stream::Stdout,
            line: first,
            at: listening_at,
        });
        tokio::spawn(forward(stdout, Stream::Stdout, tx.clone()));
        tokio::spawn(forward(BufReader::new(stderr).lines(), Stream::Stderr, tx));
        Ok(Self {
            child,
            pid,
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, real_port)),
            listening_at,
            lines: Some(rx),
            exit_code: None,
        })
    }

    /// The child exited before listening: its stderr says why; exit code 2 is a usage error.
    async fn failed_start(mut child: Child, stderr: ChildStderr, port: u16) -> color_eyre::Report {
        let status = tokio::time::timeout(START_TIMEOUT, child.wait()).await;
        let mut reason = String::new();
        let mut lines = BufReader::new(stderr).lines();
        while let Ok(Ok(Some(line))) = tokio::time::timeout(Duration::from_millis(500), lines.next_line()).await {
            if reason.is_empty() {
                reason = line.trim_start_matches("error: ").to_string();
            }
        }
        match status {
            Ok(Ok(status)) if status.code() == Some(2) && reason.contains("--port") => port_in_use(port).into(),
            Ok(Ok(status)) if status.code() == Some(2) => UsageError(reason).into(),
            Ok(Ok(status)) => eyre!("the health server exited ({status}) before listening: {reason}"),
            _ => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                eyre!("the health server neither listened nor exited: {reason}")
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// When the `listening on` line was read.
    pub fn listening_at(&self) -> Instant {
        self.listening_at
    }

    /// The child's output lines (stdout and stderr, the `listening on` line first); the
    /// receiver can be taken once. It closes when the child has closed both streams.
    pub fn take_lines(&mut self) -> Option<mpsc::Receiver<ChildLine>> {
        self.lines.take()
    }

    /// Sends SIGTERM, as the platform does to stop a pod. Does nothing once reaped.
    pub fn sigterm(&self) -> Result<()> {
        self.signal(libc::SIGTERM)
    }

    fn signal(&self, signal: libc::c_int) -> Result<()> {
        // Once reaped, the pid may belong to another process: never signal it.
        if self.exit_code.is_some() {
            return Ok(());
        }
        let pid = libc::pid_t::try_from(self.pid).wrap_err("the child's pid")?;
        // SAFETY: kill has no memory effects; the pid is our unreaped child.
        if unsafe { libc::kill(pid, signal) } != 0 {
            let err = std::io::Error::last_os_error();
            // ESRCH: it already exited (a zombie still accepts signals, so this is rare).
            if err.raw_os_error() != Some(libc::ESRCH) {
                return Err(err).wrap_err_with(|| format!("signalling the health server (pid {})", self.pid));
            }
        }
        Ok(())
    }

    /// Marks the pretend shared database down or up (`POST /admin/database/{down,up}`).
    pub async fn set_database(&self, up: bool) -> GetOutcome {
        http::post_once(self.addr, if up { DATABASE_UP_PATH } else { DATABASE_DOWN_PATH }).await
    }

    /// GETs `path` on a fresh connection, as `curl` does.
    pub async fn probe(&self, path: &str) -> GetOutcome {
        http::get_once(self.addr, path).await
    }

    /// Starts a `/work` request in the background; the task yields what it saw.
    pub fn send_work(&self) -> tokio::task::JoinHandle<GetOutcome> {
        let addr = self.addr;
        tokio::spawn(async move { http::get_once(addr, "/work").await })
    }

    /// Waits for the child to exit and reaps it; a death by signal N reads as 128 + N, as in a shell.
    pub async fn wait_exit(&mut self) -> Result<i32> {
        if let Some(code) = self.exit_code {
            return Ok(code);
        }
        let status = self.child.wait().await.wrap_err("waiting for the health server")?;
        let code = exit_code(status);
        self.exit_code = Some(code);
        Ok(code)
    }

    /// Ends the child on any path: SIGTERM, wait up to `deadline`, then SIGKILL; always reaps.
    /// Returns its exit code.
    pub async fn shutdown(&mut self, deadline: Duration) -> Result<i32> {
        if let Some(code) = self.exit_code {
            return Ok(code);
        }
        // If even SIGTERM cannot be sent, waiting is pointless: go straight to the kill.
        if self.sigterm().is_ok()
            && let Ok(code) = tokio::time::timeout(deadline, self.wait_exit()).await
        {
            return code;
        }
        self.child.start_kill().wrap_err("killing the health server")?;
        self.wait_exit().await
    }
}

/// The port in `listening on 127.0.0.1:PORT`.
pub fn parse_listening(line: &str) -> Option<u16> {
    line.strip_prefix("listening on 127.0.0.1:")?.trim().parse().ok()
}

fn exit_code(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(-1)
}

/// Copies lines from one of the child's streams into the channel until the stream ends.
/// A full channel drops the line instead of blocking: a stalled pipe would stall the server.
async fn forward<R: AsyncRead + Unpin>(
    mut lines: tokio::io::Lines<BufReader<R>>,
    stream: Stream,
    tx: mpsc::Sender<ChildLine>,
) {
    while let Ok(Some(line)) = lines.next_line().await {
        // Full or closed (nobody reads any more): keep draining the pipe all the same.
        let _ = tx.try_send(ChildLine {
            stream,
            line,
            at: Instant::now(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serve_args_round_trip_the_config() {
        let config = HealthConfig {
            warmup_s: 0.3,
            liveness_checks_db: true,
            ..HealthConfig::default()
        };
        let args = serve_args(&config, 0);
        assert_eq!(args[..4], ["serve", "health", "--port", "0"]);
        assert!(args.windows(2).any(|w| w == ["--warmup-s", "0.3"]));
        assert!(args.windows(2).any(|w| w == ["--grace-s", "10"]));
        assert!(args.contains(&"--liveness-checks-db".to_string()));
        assert!(!args.contains(&"--readiness-checks-db".to_string()));
    }

    #[test]
    fn listening_lines_give_the_port() {
        assert_eq!(parse_listening("listening on 127.0.0.1:18080"), Some(18080));
        assert_eq!(parse_listening("stopped listening"), None);
    }
}
