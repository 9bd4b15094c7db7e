//! The same abuse against every server of the labs (issue 27 item 5): each runs the one
//! accept loop, `live::http::serve_until`, so each must pass the same checks: a slowloris
//! head and an idle connection closed after the header timeout, half-closed clients
//! treated as the server's own `ANSWERS_HALF_CLOSED` says (answered, or closed at once
//! and never held), state-changing requests with a foreign Host or Origin refused with 403
//! while this machine's go through, and a request answered with more idle connections open
//! than the connection cap. Wall-clock margins (the 5 s header timeout), so it lives in
//! tests/slow. A new server joins by one line in `every_server`.
//!
//! Before the shared loop, `serve database` failed every part (no cap, no timeouts, its
//! admin switches open to any page), and the in-process servers held idle and slowloris
//! connections for as long as the client liked.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::StatusCode;
use resilience_lab::content::Content;
use resilience_lab::engine::fault::{FaultKind, FaultSchedule};
use resilience_lab::engine::fleet::FleetParams;
use resilience_lab::engine::overload::ServerPolicy;
use resilience_lab::engine::retry_chain::ChainConfig;
use resilience_lab::live;
use resilience_lab::live::fleet::database::{self, DatabaseSwitch};
use resilience_lab::live::fleet::recorder::Endpoint;
use resilience_lab::live::http::conn_guard::{HEADER_READ_TIMEOUT, MAX_CONNECTIONS};
use resilience_lab::live::http::loopback_guard::{FOREIGN_HOST, FOREIGN_ORIGIN};
use resilience_lab::live::retry::chain::LiveChain;
use resilience_lab::room::state::Room;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::{Instant, timeout};

use crate::health_abuse::{config, exchange, start, time_until_closed};

/// The most a server start may take.
const START: Duration = Duration::from_secs(10);
/// How long a half-closed client of a server that takes it for a hang-up may wait for the
/// close (an answer already on its way may still arrive first).
const HANG_UP_CLOSE: Duration = Duration::from_secs(1);

/// A server under test: where it listens, and what stops it (dropped at the test's end).
struct Running {
    name: &'static str,
    addr: SocketAddr,
    /// The server's own choice, read from its module (`ANSWERS_HALF_CLOSED`).
    answers_half_closed: bool,
    /// Kept alive while the server is tested: the stop senders, the chain, the child...
    _keep: Box<dyn std::any::Any + Send>,
}

type Starting = Pin<Box<dyn Future<Output = Running> + Send>>;

/// Every server of the labs, each started on port 0.
fn every_server() -> Vec<Starting> {
    vec![
        Box::pin(serve_health()),
        Box::pin(serve_database()),
        Box::pin(retry_hops()),
        Box::pin(breaker_dependency()),
        Box::pin(overload_service()),
        Box::pin(fleet_service()),
        Box::pin(budget_server()),
        Box::pin(room_server()),
    ]
}

async fn serve_health() -> Running {
    let child = start(&config(0.0, 3.0)).await;
    Running {
        name: "serve health",
        addr: child.addr(),
        answers_half_closed: live::health::server::ANSWERS_HALF_CLOSED,
        _keep: Box::new(child),
    }
}

/// The database on a port of its own, and what stops it.
async fn database_on_port_0() -> (SocketAddr, watch::Sender<bool>) {
    let listener = live::http::bind_loopback(0).await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, mut stopped) = watch::channel(false);
    tokio::spawn(database::serve(
        listener,
        Arc::new(DatabaseSwitch::default()),
        async move {
            let _ = stopped.wait_for(|s| *s).await;
        },
    ));
    (addr, stop)
}

async fn serve_database() -> Running {
    let (addr, stop) = database_on_port_0().await;
    Running {
        name: "serve database",
        addr,
        answers_half_closed: database::ANSWERS_HALF_CLOSED,
        _keep: Box::new(stop),
    }
}

async fn retry_hops() -> Running {
    let chain = LiveChain::start(ChainConfig::counting(3, 0.0, 1)).await.expect("chain");
    Running {
        name: "retry hops (front end)",
        addr: chain.addrs()[0],
        answers_half_closed: live::retry::chain::ANSWERS_HALF_CLOSED,
        _keep: Box::new(chain),
    }
}

async fn breaker_dependency() -> Running {
    // A schedule whose fault never comes: the dependency stays healthy.
    let (faults, schedule) = watch::channel(FaultSchedule::window(FaultKind::Errors, 1e9, 1e9 + 1.0));
    let dependency =
        live::breaker::dependency::DependencyServer::start(Instant::now(), Duration::from_millis(1), schedule)
            .await
            .expect("dependency");
    Running {
        name: "breaker dependency",
        addr: dependency.addr,
        answers_half_closed: live::breaker::dependency::ANSWERS_HALF_CLOSED,
        _keep: Box::new((dependency, faults)),
    }
}

async fn overload_service() -> Running {
    let server = live::overload::server::LiveServer::start(4, Duration::from_millis(1), ServerPolicy::default())
        .await
        .expect("overload server");
    Running {
        name: "overload service",
        addr: server.addr,
        answers_half_closed: live::overload::server::ANSWERS_HALF_CLOSED,
        _keep: Box::new(server),
    }
}

async fn fleet_service() -> Running {
    // One ready endpoint (the database stands in for a replica: any answer is an answer).
    let (backend, backend_stop) = database_on_port_0().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("addr")
        .port();
    let (view_tx, view) = watch::channel(vec![Endpoint {
        addr: Some(backend),
        ready: true,
    }]);
    let (stop, stopped) = watch::channel(false);
    tokio::spawn(live::fleet::service::serve(
        port,
        Arc::new(FleetParams::atlas()),
        view,
        stopped,
    ));
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    // The Service binds once it has seen the view.
    for _ in 0..200 {
        if TcpStream::connect(addr).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Running {
        name: "fleet Service",
        addr,
        answers_half_closed: live::fleet::service::ANSWERS_HALF_CLOSED,
        _keep: Box::new((stop, view_tx, backend_stop)),
    }
}

async fn budget_server() -> Running {
    // Lab 5's chain, API and payments all start through this one function.
    let served = live::budget::server::serve(|_request| async { live::http::text(StatusCode::OK, "ok\n") })
        .await
        .expect("Lab 5 server");
    Running {
        name: "Lab 5 server",
        addr: served.addr,
        answers_half_closed: live::budget::server::ANSWERS_HALF_CLOSED,
        _keep: Box::new(served),
    }
}

async fn room_server() -> Running {
    let content = Content::load(None).expect("the built-in labs load");
    let room = Arc::new(Mutex::new(Room::new(&content, None).expect("a room")));
    let listener = live::http::bind_loopback(0).await.expect("bind");
    let server = live::room_server::start(room, listener, None);
    Running {
        name: "room server",
        addr: server.addr,
        answers_half_closed: live::room_server::ANSWERS_HALF_CLOSED,
        _keep: Box::new(server),
    }
}

/// Whether a raw exchange got an HTTP answer.
fn answered(reply: &str) -> bool {
    reply.starts_with("HTTP/1.1 ")
}

/// What 50 half-closed clients saw: the number unanswered, and the longest close.
async fn half_closed_clients(addr: SocketAddr) -> (usize, Duration) {
    let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let (mut unanswered, mut longest) = (0, Duration::ZERO);
    for _ in 0..50 {
        let started = Instant::now();
        if !answered(&exchange(addr, request, true).await) {
            unanswered += 1;
        }
        longest = longest.max(started.elapsed());
    }
    (unanswered, longest)
}

/// Whether the accept loop's write guard refused the request (a handler's own 403, the
/// room's for its host-only routes, is another matter).
fn refused_by_the_guard(reply: &str) -> bool {
    let reasons = [FOREIGN_HOST, FOREIGN_ORIGIN, live::room_server::FOREIGN_WRITE];
    reply.starts_with("HTTP/1.1 403") && reasons.iter().any(|reason| reply.ends_with(&format!("{reason}\n")))
}

/// State-changing requests from a foreign page that got through (not 403), and from this
/// machine that were refused (403).
async fn writes(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let own = format!("127.0.0.1:{port}");
    let mut wrong = Vec::new();
    let cases = [
        ("evil.example".to_string(), None, true),
        (own.clone(), Some("http://evil.example"), true),
        (own.clone(), Some("null"), true),
        (own, None, false),
    ];
    for (host, origin, foreign) in cases {
        let origin_line = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
        for (method, path) in [
            ("POST", "/admin/down"),
            ("POST", "/admin/database/down"),
            ("DELETE", "/"),
        ] {
            let request = format!(
                "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{origin_line}Content-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let refused = refused_by_the_guard(&exchange(addr, &request, false).await);
            if refused != foreign {
                let verdict = if foreign { "let through" } else { "refused" };
                wrong.push(format!("{verdict}: {method} {path} Host {host} Origin {origin:?}"));
            }
        }
    }
    wrong
}

/// Slowloris, idle, half-closed and foreign-origin clients against one server; the problems found.
async fn abuse_without_hogs(server: &Running) -> Vec<String> {
    let name = server.name;
    let mut problems = Vec::new();
    let mut slow = TcpStream::connect(server.addr).await.expect("connect");
    slow.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .await
        .expect("half a head");
    let mut idle = TcpStream::connect(server.addr).await.expect("connect");
    let limit = HEADER_READ_TIMEOUT + Duration::from_secs(3);
    let (slow_after, idle_after, (unanswered, longest), wrong_writes) = tokio::join!(
        time_until_closed(&mut slow, limit),
        time_until_closed(&mut idle, limit),
        half_closed_clients(server.addr),
        writes(server.addr)
    );
    for (what, after) in [("slowloris", slow_after), ("idle", idle_after)] {
        if after.is_none() {
            problems.push(format!("{name}: the {what} connection was still open after {limit:?}"));
        }
    }
    if server.answers_half_closed && unanswered > 0 {
        problems.push(format!("{name}: {unanswered} of 50 half-closed clients got no answer"));
    }
    if !server.answers_half_closed && longest > HANG_UP_CLOSE {
        problems.push(format!(
            "{name}: a half-closed client (taken for a hang-up) was held {longest:?}"
        ));
    }
    if !wrong_writes.is_empty() {
        problems.push(format!("{name}: {wrong_writes:?}"));
    }
    problems
}

/// More idle connections than the cap, then a request: it must be answered.
async fn abuse_with_hogs(server: &Running) -> Vec<String> {
    let mut hogs = Vec::new();
    for _ in 0..MAX_CONNECTIONS + 64 {
        match timeout(Duration::from_secs(5), TcpStream::connect(server.addr)).await {
            Ok(Ok(hog)) => hogs.push(hog),
            _ => return vec![format!("{}: a connect hung past the cap", server.name)],
        }
    }
    let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let reply = timeout(Duration::from_secs(5), exchange(server.addr, request, false)).await;
    drop(hogs);
    match reply {
        Ok(reply) if answered(&reply) => Vec::new(),
        _ => vec![format!(
            "{}: no answer with {} idle connections open",
            server.name,
            MAX_CONNECTIONS + 64
        )],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_server_survives_the_same_abuse() {
    let mut servers = Vec::new();
    for starting in every_server() {
        servers.push(timeout(START, starting).await.expect("server starts in time"));
    }
    // The slow part (waiting out the header timeout) runs on all servers at once.
    let mut problems: Vec<String> = futures::future::join_all(servers.iter().map(abuse_without_hogs))
        .await
        .into_iter()
        .flatten()
        .collect();
    for server in &servers {
        problems.extend(abuse_with_hogs(server).await);
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
