//! Lab 1's server under abuse, on 127.0.0.1: a stderr nobody reads, slowloris and idle
//! connections, more connections than the file limit, half-closed clients and admin
//! requests from a foreign page. Each test fails on the server before these were fixed.
//! Every server binds port 0; every wait is bounded.

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use resilience_lab::engine::health::HealthConfig;
use resilience_lab::live::health_child::{parse_listening, serve_args};
use resilience_lab::live::log_queue::dropped_line;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, ChildStderr, Command};
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};

const BIN: &str = env!("CARGO_BIN_EXE_resilience-lab");
/// The most any single step below may take before the test fails instead of hanging.
const STEP: Duration = Duration::from_secs(10);

fn config(deregister_s: f64, grace_s: f64) -> HealthConfig {
    HealthConfig {
        warmup_s: 0.0,
        deregister_s,
        grace_s,
        work_s: 0.2,
        readiness_checks_db: true,
        ..HealthConfig::default()
    }
}

/// A server whose stderr is piped and never read, optionally with a lower open-file limit.
struct Raw {
    child: Child,
    addr: SocketAddr,
    stdout: mpsc::UnboundedReceiver<(String, Instant)>,
    /// Held open and never read: once the pipe's buffer is full, every write to it blocks.
    _stderr: ChildStderr,
}

async fn start_raw(config: &HealthConfig, file_limit: Option<u64>) -> Raw {
    let mut command = Command::new(BIN);
    command
        .args(serve_args(config, 0))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(limit) = file_limit {
        // SAFETY: runs in the forked child before exec and only calls setrlimit.
        unsafe {
            command.pre_exec(move || {
                let rlimit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &rlimit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = command.spawn().expect("server starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = timeout(STEP, lines.next_line())
        .await
        .expect("listening in time")
        .expect("stdout")
        .expect("a first line");
    let port = parse_listening(&first).expect("listening on 127.0.0.1:PORT");
    let (tx, stdout) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            let _ = tx.send((line, Instant::now()));
        }
    });
    Raw {
        _stderr: child.stderr.take().expect("stderr"),
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
        stdout,
    }
}

impl Raw {
    fn sigterm(&self) {
        let pid = self.child.id().expect("running") as libc::pid_t;
        // SAFETY: kill with a pid this test spawned and has not reaped.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    }

    /// Every stdout line until the server closes it, each with when it came.
    async fn rest_of_stdout(&mut self) -> Vec<(String, Instant)> {
        let mut lines = Vec::new();
        while let Some(line) = timeout(STEP, self.stdout.recv()).await.expect("stdout ends in time") {
            lines.push(line);
        }
        lines
    }

    async fn exit_code(&mut self) -> i32 {
        let status = timeout(STEP, self.child.wait())
            .await
            .expect("exits in time")
            .expect("status");
        status.code().expect("an exit code, not a signal")
    }
}

/// `count` GET /livez on one keep-alive connection, each answered within a second.
async fn livez_on_one_connection(addr: SocketAddr, count: u32) -> u32 {
    let stream = TcpStream::connect(addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    for i in 0..count {
        let request = hyper::Request::get("/livez")
            .header(hyper::header::HOST, addr.to_string())
            .body(Empty::<Bytes>::new())
            .expect("request");
        let answered = timeout(Duration::from_secs(1), async {
            let response = sender.send_request(request).await.expect("response");
            assert_eq!(response.status(), 200);
            response.into_body().collect().await.expect("body")
        })
        .await;
        assert!(
            answered.is_ok(),
            "request {i} on this connection got no answer within 1 s"
        );
    }
    count
}

/// Sends `requests` /livez over 4 connections with the server's stderr unread, then
/// SIGTERM: every request is answered, the drain is on time, the lost lines are reported.
async fn unread_stderr(requests: u32) {
    let mut server = start_raw(&config(0.0, 3.0), None).await;
    let per_connection = requests / 4;
    let loads: Vec<_> = (0..4)
        .map(|_| tokio::spawn(livez_on_one_connection(server.addr, per_connection)))
        .collect();
    let mut served = 0;
    for load in loads {
        served += load.await.expect("load task");
    }
    assert_eq!(served, per_connection * 4);
    let sigterm_at = Instant::now();
    server.sigterm();
    let lines = server.rest_of_stdout().await;
    let (last, at) = lines.last().expect("lines after SIGTERM").clone();
    assert_eq!(last, "drained, exiting");
    assert!(
        at - sigterm_at < Duration::from_secs(2),
        "drained {:?} after SIGTERM",
        at - sigterm_at
    );
    // 64 KiB of pipe holds about 6,000 lines and the queue 4,096: the rest were dropped.
    assert!(
        lines
            .iter()
            .any(|(line, _)| line.starts_with("request log: ") && line.contains(" dropped")),
        "no dropped-lines report in {lines:?}"
    );
    assert_ne!(
        lines.iter().find(|(l, _)| l.starts_with("request log")).unwrap().0,
        dropped_line(0)
    );
    assert_eq!(server.exit_code().await, 0);
}

/// The short version: 20,000 requests, over three times what used to fill the pipe and
/// stop the server (request 5,953).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stderr_nobody_reads_does_not_silence_livez_or_hold_sigterm() {
    unread_stderr(20_000).await;
}

/// The figure: 100,000 requests (about a minute on a loaded 2-core machine).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "long: run with --ignored"]
async fn a_stderr_nobody_reads_does_not_silence_100000_requests() {
    unread_stderr(100_000).await;
}
