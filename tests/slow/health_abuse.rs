//! Lab 1's server under abuse, on 127.0.0.1: a stderr nobody reads, slowloris and idle
//! connections, more connections than the file limit, half-closed clients and admin
//! requests from a foreign page. Each test fails on the server before these were fixed.
//! Every server binds port 0; every wait is bounded.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use resilience_lab::engine::health::HealthConfig;
use resilience_lab::live::health::child::{HealthChild, Stream, parse_listening, serve_args};
use resilience_lab::live::health::log_queue::dropped_line;
use resilience_lab::live::http::GetOutcome;
use resilience_lab::live::http::conn_guard::{HEADER_READ_TIMEOUT, cut_line};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, ChildStderr, Command};
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};

const BIN: &str = env!("CARGO_BIN_EXE_resilience-lab");
/// The most any single step below may take before the test fails instead of hanging.
const STEP: Duration = Duration::from_secs(10);

pub(crate) fn config(deregister_s: f64, grace_s: f64) -> HealthConfig {
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

pub(crate) async fn start(config: &HealthConfig) -> HealthChild {
    timeout(STEP, HealthChild::start_program(Path::new(BIN), config, 0))
        .await
        .expect("server starts in time")
        .expect("server starts")
}

#[tokio::test]
async fn slowloris_connections_are_cut_at_shutdown_and_reported() {
    let mut server = start(&config(0.0, 8.0)).await;
    let mut lines = server.take_lines().expect("lines");
    let mut slow = Vec::new();
    for _ in 0..200 {
        let mut stream = TcpStream::connect(server.addr()).await.expect("connect");
        stream
            .write_all(b"GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            .await
            .expect("half a request head");
        slow.push(stream);
    }
    // An idle keep-alive connection too: it must close without being counted.
    let idle = TcpStream::connect(server.addr()).await.expect("connect");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sigterm_at = Instant::now();
    server.sigterm().expect("SIGTERM");
    let mut seen = Vec::new();
    let exited_at = loop {
        let line = timeout(STEP, lines.recv())
            .await
            .expect("a line in time")
            .expect("lines");
        if line.stream == Stream::Stdout {
            seen.push(line.line.clone());
            if line.line == "drained, exiting" {
                break line.at;
            }
        }
    };
    assert!(
        exited_at - sigterm_at < Duration::from_secs(2),
        "slow clients held the shutdown {:?} (grace period 8 s)",
        exited_at - sigterm_at
    );
    assert!(
        seen.contains(&cut_line(200)),
        "no report of the 200 cut connections in {seen:?}"
    );
    assert_eq!(timeout(STEP, server.wait_exit()).await.expect("exit").expect("code"), 0);
    drop((slow, idle));
}

/// Reads until the peer closes; the time it took.
pub(crate) async fn time_until_closed(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0u8; 1024];
    timeout(limit, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return started.elapsed(),
                Ok(_) => {}
            }
        }
    })
    .await
    .ok()
}

#[tokio::test]
async fn silent_and_idle_connections_are_closed_after_the_header_timeout() {
    let mut server = start(&config(0.0, 3.0)).await;
    let mut silent = TcpStream::connect(server.addr()).await.expect("connect");
    let mut idle = TcpStream::connect(server.addr()).await.expect("connect");
    idle.write_all(b"GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .expect("request");
    let limit = HEADER_READ_TIMEOUT + Duration::from_secs(3);
    let (silent_after, idle_after) = tokio::join!(
        time_until_closed(&mut silent, limit),
        time_until_closed(&mut idle, limit)
    );
    for (what, after) in [("silent", silent_after), ("idle", idle_after)] {
        let after = after.unwrap_or_else(|| panic!("the {what} connection was still open after {limit:?}"));
        assert!(
            after >= HEADER_READ_TIMEOUT - Duration::from_millis(500),
            "the {what} connection closed after only {after:?}"
        );
    }
    assert_eq!(server.shutdown(STEP).await.expect("shutdown"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_get_through_when_clients_open_more_connections_than_the_file_limit() {
    // 200 descriptors: the server caps itself at 136 connections.
    let mut server = start_raw(&config(0.0, 3.0), Some(200)).await;
    let mut hogs = Vec::new();
    for _ in 0..400 {
        // A server stuck at its file limit leaves connects hanging in a full backlog.
        let hog = timeout(Duration::from_secs(5), TcpStream::connect(server.addr)).await;
        hogs.push(hog.expect("connected within 5 s").expect("connect"));
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..5 {
        let probe = timeout(
            Duration::from_secs(3),
            resilience_lab::live::http::get_once(server.addr, "/livez"),
        )
        .await
        .expect("the probe was answered within 3 s");
        assert_eq!(probe.code(), 200, "{probe:?}");
    }
    drop(hogs);
    server.sigterm();
    let lines = server.rest_of_stdout().await;
    assert_eq!(lines.last().map(|(line, _)| line.as_str()), Some("drained, exiting"));
    assert_eq!(server.exit_code().await, 0);
}

/// Sends `request` as raw bytes, shuts the sending side if asked, and reads the reply.
pub(crate) async fn exchange(addr: SocketAddr, request: &str, half_close: bool) -> String {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("request");
    if half_close {
        stream.shutdown().await.expect("shut the sending side");
    }
    let mut reply = Vec::new();
    let _ = timeout(Duration::from_secs(2), stream.read_to_end(&mut reply)).await;
    String::from_utf8_lossy(&reply).into_owned()
}

#[tokio::test]
async fn a_client_that_half_closes_after_its_request_gets_the_answer() {
    let mut server = start(&config(0.0, 3.0)).await;
    let request = "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let mut empty = 0;
    for _ in 0..200 {
        let reply = exchange(server.addr(), request, true).await;
        if !(reply.starts_with("HTTP/1.1 200") && reply.ends_with("alive\n")) {
            empty += 1;
        }
    }
    assert_eq!(empty, 0, "{empty} of 200 half-closed clients got no answer");
    assert_eq!(server.shutdown(STEP).await.expect("shutdown"), 0);
}

#[tokio::test]
async fn a_foreign_host_or_origin_cannot_flip_the_database() {
    let mut server = start(&config(0.0, 3.0)).await;
    let post = |host: &str, origin: Option<&str>| {
        let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
        format!(
            "POST /admin/database/down HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Length: 0\r\nConnection: close\r\n\r\n"
        )
    };
    let port = server.port();
    for (host, origin) in [
        ("evil.example".to_string(), None),
        (format!("evil.example:{port}"), None),
        (format!("127.0.0.1:{port}"), Some("http://evil.example")),
        (format!("127.0.0.1:{port}"), Some("null")),
    ] {
        let reply = exchange(server.addr(), &post(&host, origin), false).await;
        assert!(
            reply.starts_with("HTTP/1.1 403"),
            "Host {host}, Origin {origin:?}: {reply}"
        );
    }
    // Nothing was flipped: readiness (which checks the database here) still passes.
    assert_eq!(server.probe("/readyz").await.code(), 200);
    let reply = exchange(
        server.addr(),
        &post(&format!("localhost:{port}"), Some(&format!("http://127.0.0.1:{port}"))),
        false,
    )
    .await;
    assert!(
        reply.starts_with("HTTP/1.1 200") && reply.ends_with("database down\n"),
        "{reply}"
    );
    assert_eq!(server.set_database(true).await, answered_up());
    assert_eq!(server.shutdown(STEP).await.expect("shutdown"), 0);
}

fn answered_up() -> GetOutcome {
    GetOutcome::Answered {
        code: 200,
        body: "database up\n".into(),
    }
}

/// A pipe whose buffer is already full and whose read end is never read: every write to
/// it blocks, as to a terminal paused with Ctrl-S. Returns (read end, write end).
fn full_pipe() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: pipe writes two new descriptors into the array it is given.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just created and are owned here alone.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // SAFETY: fcntl and write on a descriptor this function owns.
    unsafe {
        let flags = libc::fcntl(fds[1], libc::F_GETFL);
        libc::fcntl(fds[1], libc::F_SETFL, flags | libc::O_NONBLOCK);
        let chunk = [b'x'; 4096];
        while libc::write(fds[1], chunk.as_ptr().cast(), chunk.len()) > 0 {}
        // Blocking again for the child, which would block on its first byte.
        libc::fcntl(fds[1], libc::F_SETFL, flags);
    }
    (read, write)
}

#[tokio::test]
async fn a_stdout_nobody_reads_does_not_hold_sigterm_past_the_grace_deadline() {
    // Issue 27 item 6: the lifecycle lines blocked on stdout, so SIGTERM never finished.
    let grace_s = 1.0;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("addr")
        .port();
    let (_read_end, write_end) = full_pipe();
    let mut child = Command::new(BIN)
        .args(serve_args(&config(0.0, grace_s), port))
        .stdin(Stdio::null())
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("server starts");
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let answered = timeout(STEP, async {
        loop {
            if resilience_lab::live::http::get_once(addr, "/livez").await.code() == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(answered.is_ok(), "/livez was not answered with stdout blocked");
    let pid = child.id().expect("running") as libc::pid_t;
    let signalled = Instant::now();
    // SAFETY: kill with a pid this test spawned and has not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let waited = timeout(STEP, child.wait()).await;
    let took = signalled.elapsed();
    assert!(
        waited.is_ok(),
        "still running {STEP:?} after SIGTERM with stdout blocked"
    );
    // The grace period, the last lines' 100 ms, and room for a loaded machine.
    let limit = Duration::from_secs_f64(grace_s) + Duration::from_millis(900);
    assert!(took <= limit, "SIGTERM took {took:?}, past {limit:?}");
}
