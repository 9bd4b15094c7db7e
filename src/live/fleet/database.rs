//! The fleet lab's shared database: `resilience-lab serve database`.
//!
//! `GET /query` answers `200 ok` (after the set latency when slow) or `503 down` at once
//! when down; `POST /admin/up`, `/admin/down` and `/admin/slow?ms=N` switch it. The fleet
//! runner flips it on the scenario's schedule; a learner can flip it with curl.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use tokio::net::TcpListener;

use crate::engine::fleet::Database;
use crate::live::http::{self, TextBody};

/// The database's state, shared by every connection.
#[derive(Debug, Default)]
pub struct DatabaseSwitch {
    down: AtomicBool,
    latency_ms: AtomicU64,
}

impl DatabaseSwitch {
    pub fn set(&self, state: Database) {
        let (down, latency_ms) = match state {
            Database::Up => (false, 0),
            Database::Slow { latency_ms } => (false, latency_ms),
            Database::Down => (true, 0),
        };
        self.latency_ms.store(latency_ms, Ordering::SeqCst);
        self.down.store(down, Ordering::SeqCst);
    }

    pub fn get(&self) -> Database {
        match (self.down.load(Ordering::SeqCst), self.latency_ms.load(Ordering::SeqCst)) {
            (true, _) => Database::Down,
            (false, 0) => Database::Up,
            (false, latency_ms) => Database::Slow { latency_ms },
        }
    }
}

/// The admin path that sets `state`, as the runner and curl send it.
pub fn admin_path(state: Database) -> String {
    match state {
        Database::Up => "/admin/up".to_string(),
        Database::Down => "/admin/down".to_string(),
        Database::Slow { latency_ms } => format!("/admin/slow?ms={latency_ms}"),
    }
}

/// `ms=N` in a query string, if N is a whole number of milliseconds up to a minute.
fn latency_of(query: Option<&str>) -> Option<u64> {
    let value = query?.split('&').find_map(|pair| pair.strip_prefix("ms="))?;
    value.parse::<u64>().ok().filter(|&ms| ms <= 60_000)
}

async fn handle(switch: Arc<DatabaseSwitch>, request: Request<Incoming>) -> Response<TextBody> {
    let reply = |code: StatusCode, body: &str| http::text(code, format!("{body}\n"));
    match (request.method(), request.uri().path()) {
        (&Method::GET, "/query") => match switch.get() {
            Database::Down => reply(StatusCode::SERVICE_UNAVAILABLE, "down"),
            Database::Up => reply(StatusCode::OK, "ok"),
            Database::Slow { latency_ms } => {
                tokio::time::sleep(Duration::from_millis(latency_ms)).await;
                reply(StatusCode::OK, "ok")
            }
        },
        (&Method::POST, "/admin/up") => {
            switch.set(Database::Up);
            reply(StatusCode::OK, "database up")
        }
        (&Method::POST, "/admin/down") => {
            switch.set(Database::Down);
            reply(StatusCode::OK, "database down")
        }
        (&Method::POST, "/admin/slow") => match latency_of(request.uri().query()) {
            Some(latency_ms) => {
                switch.set(Database::Slow { latency_ms });
                reply(StatusCode::OK, &format!("database slow: {latency_ms} ms"))
            }
            None => reply(
                StatusCode::BAD_REQUEST,
                "allowed: /admin/slow?ms=N with N from 0 to 60000",
            ),
        },
        _ => reply(StatusCode::NOT_FOUND, "not found"),
    }
}

/// `serve database` answers half-closed clients (`nc -N`, a learner's `curl` in a script):
/// its answers are instant or a fixed `/admin/slow` delay, and nothing in Lab 4 counts the
/// database's work after a replica's check has given up.
pub const ANSWERS_HALF_CLOSED: bool = true;

/// Serves the database on `listener` until `stop` completes, then drains for up to a second.
pub async fn serve(listener: TcpListener, switch: Arc<DatabaseSwitch>, stop: impl Future<Output = ()>) {
    let service = hyper::service::service_fn(move |request| {
        let switch = Arc::clone(&switch);
        async move { Ok::<_, Infallible>(handle(switch, request).await) }
    });
    let graceful = http::serve_until(
        listener,
        service,
        stop,
        http::ConnLimits::for_this_process(ANSWERS_HALF_CLOSED),
    )
    .await;
    http::drain(graceful, Duration::from_secs(1)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switch_reads_back_and_admin_paths_name_the_latency() {
        let switch = DatabaseSwitch::default();
        assert_eq!(switch.get(), Database::Up);
        switch.set(Database::Slow { latency_ms: 250 });
        assert_eq!(switch.get(), Database::Slow { latency_ms: 250 });
        switch.set(Database::Down);
        assert_eq!(switch.get(), Database::Down);
        assert_eq!(admin_path(Database::Slow { latency_ms: 250 }), "/admin/slow?ms=250");
        assert_eq!(latency_of(Some("ms=250")), Some(250));
        assert_eq!(latency_of(Some("ms=99999")), None);
        assert_eq!(latency_of(None), None);
    }
}
