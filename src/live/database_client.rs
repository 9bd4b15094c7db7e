//! How a `serve health` replica of the fleet lab asks the shared database.
//!
//! With `--database-port`, the health handlers that check the database (`/livez` with
//! `--liveness-checks-db`, `/readyz` with `--readiness-checks-db`) ask the real database
//! (`serve database`) instead of reading the pretend flag, and `GET /api`, the fleet's
//! client request, does its work and then queries the database: `ok`, or when the query
//! fails a fallback (`degraded`) or an error, as `--on-db-down` says.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::{Request, Response, StatusCode};

use crate::engine::fleet::OnDbDown;
use crate::engine::health::HealthConfig;
use crate::live::http::{self, PooledClient, TextBody};

/// The longest a query may take before it counts as failed: a bound, not a lesson (the
/// platform's probe timeout is far shorter and decides first).
const QUERY_TIMEOUT: Duration = Duration::from_secs(30);
/// The path the fleet's load asks for.
pub const API_PATH: &str = "/api";

/// A replica's connection to the shared database.
pub struct DatabaseClient {
    addr: SocketAddr,
    on_down: OnDbDown,
    /// How long `GET /api` works besides its query.
    api_work: Duration,
    client: PooledClient,
}

impl DatabaseClient {
    pub fn new(port: u16, on_down: OnDbDown, api_work: Duration) -> Self {
        Self {
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            on_down,
            api_work,
            client: http::pooled_client(),
        }
    }

    /// One query: true when the database answered 200.
    pub async fn up(&self) -> bool {
        let Ok(request) = Request::get(format!("http://{}/query", self.addr)).body(Empty::<Bytes>::new()) else {
            return false;
        };
        let answer = async {
            let response = self.client.request(request).await.ok()?;
            let ok = response.status() == StatusCode::OK;
            response.into_body().collect().await.ok()?;
            Some(ok)
        };
        matches!(tokio::time::timeout(QUERY_TIMEOUT, answer).await, Ok(Some(true)))
    }

    /// `GET /api`: the database query, then the work with its answer or the fallback; an
    /// error at once when the design fails instead (a fast failure).
    pub async fn api(&self) -> Response<TextBody> {
        let up = self.up().await;
        if !up && self.on_down == OnDbDown::Fail {
            return http::text(StatusCode::SERVICE_UNAVAILABLE, "failed: database\n");
        }
        tokio::time::sleep(self.api_work).await;
        http::text(StatusCode::OK, if up { "ok\n" } else { "degraded\n" })
    }
}

/// Whether the handler of `path` asks the database under `config`.
pub fn checks_database(config: &HealthConfig, path: &str) -> bool {
    match path {
        "/livez" => config.liveness_checks_db,
        "/readyz" => config.readiness_checks_db,
        _ => false,
    }
}
