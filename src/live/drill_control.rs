//! The on-call drill's control endpoint, for a facilitator in a second terminal
//! (`resilience-lab oncall --gm`): the learner's app serves it on 127.0.0.1, port 0, through
//! the labs' one accept loop, and writes where it is to a file beside the progress file.
//!
//! Two routes, both behind a random token sent as the `x-drill-token` header: `GET /view`
//! (the facilitator's view of the drill as JSON) and `POST /command` (a JSON
//! [`FacilitatorCommand`]). The token keeps another local user's process from reading the
//! hidden incident or steering the drill: the port is open to every process on the machine,
//! the locator file only to its owner (mode 0600). State-changing requests also pass the
//! accept loop's loopback rule (Host and Origin name this machine), so a web page cannot
//! post to it either.
//!
//! The server never touches the drill: it hands commands to the app over a channel and
//! serves the last view the app published, so the drill stays the app's alone.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::engine::oncall::{FacilitatorCommand, FacilitatorView};
use crate::live::http::{self, TextBody};

/// The header that carries the drill's token.
pub const TOKEN_HEADER: &str = "x-drill-token";
/// The locator file's name, beside the progress file.
pub const LOCATOR_FILE: &str = "oncall-gm.json";
/// A command is a few dozen bytes; anything much longer is not one.
pub const COMMAND_MAX_BYTES: usize = 4_096;
/// The answer to a request without the drill's token.
pub const WRONG_TOKEN: &str = "refused: wrong or missing drill token";
/// How long a facilitator's request waits for the learner's app: it is on this machine, so
/// a longer silence means it has gone.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);

/// The last view the app published, which `GET /view` serves.
pub type SharedView = Arc<Mutex<Option<FacilitatorView>>>;

/// Where a drill's endpoint is: written by the learner's app, read by `oncall --gm`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrillLocator {
    pub port: u16,
    pub token: String,
    /// The learner's app, so that a file a crashed run left behind is known for stale.
    pub pid: u32,
}

/// Why no drill was found through a locator file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocateError {
    /// No file: no drill is running for this progress file.
    Missing(PathBuf),
    /// A file whose app has gone (a crash, a kill): ignored, not trusted.
    Stale(PathBuf),
    /// A file that is not a locator.
    Unreadable(PathBuf, String),
}

impl std::fmt::Display for LocateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocateError::Missing(path) => write!(
                f,
                "no drill found: {} does not exist (start `resilience-lab oncall` first, with the same --progress)",
                path.display()
            ),
            LocateError::Stale(path) => write!(
                f,
                "no drill found: {} was left by an app that is no longer running (start `resilience-lab oncall` again)",
                path.display()
            ),
            LocateError::Unreadable(path, why) => {
                write!(f, "no drill found: {} is not a drill's locator ({why})", path.display())
            }
        }
    }
}

/// The locator file for the progress file `progress_file`.
pub fn locator_path(progress_file: &Path) -> PathBuf {
    progress_file.parent().unwrap_or(Path::new(".")).join(LOCATOR_FILE)
}

/// A fresh token: 128 random bits as hex.
pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Writes `locator` to `path`, readable by its owner only, whole or not at all (a
/// facilitator reading it mid-write sees the old file or none).
pub fn write_locator(path: &Path, locator: &DrillLocator) -> io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_string(locator).map_err(io::Error::other)?;
    let partial = path.with_extension(format!("json.{}", locator.pid));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&partial)?;
    file.write_all(text.as_bytes())?;
    drop(file);
    std::fs::rename(&partial, path)
}

/// Removes `path` if it is still `token`'s: a newer drill's file stays.
pub fn remove_locator(path: &Path, token: &str) {
    let ours = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_json::from_str::<DrillLocator>(&text).ok())
        .is_some_and(|found| found.token == token);
    if ours {
        let _ = std::fs::remove_file(path);
    }
}

/// Whether process `pid` is running (or exists as another user's, which also is not stale).
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Reads the locator at `path`; a file whose app is gone is [`LocateError::Stale`].
pub fn read_locator(path: &Path) -> Result<DrillLocator, LocateError> {
    let bytes = match crate::user_file::read(path, 4_096) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(LocateError::Missing(path.to_path_buf())),
        Err(refusal) => return Err(LocateError::Unreadable(path.to_path_buf(), refusal.line())),
    };
    let locator: DrillLocator =
        serde_json::from_slice(&bytes).map_err(|err| LocateError::Unreadable(path.to_path_buf(), err.to_string()))?;
    if !process_alive(locator.pid) {
        return Err(LocateError::Stale(path.to_path_buf()));
    }
    Ok(locator)
}

/// A running control endpoint.
pub struct DrillControl {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Arc<http::Connections>>>,
}

impl DrillControl {
    /// Stops accepting now; open connections end with their requests (the app does not
    /// wait for them: it is closing the drill, not a lesson about draining).
    pub fn stop_now(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.take();
    }

    /// Stops accepting, then waits up to `deadline` for open connections (tests).
    pub async fn stop(mut self, deadline: Duration) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take()
            && let Ok(open) = task.await
        {
            let _ = http::drain(open, deadline).await;
        }
    }
}

impl Drop for DrillControl {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// Answers half-closed clients: a facilitator's `curl` that closes its side still reads the answer.
const ANSWERS_HALF_CLOSED: bool = true;

/// Serves the drill's control routes on `listener` behind `token`: `view` is served, and
/// each command taken goes to `commands`.
pub fn start(
    listener: TcpListener,
    token: String,
    view: SharedView,
    commands: mpsc::UnboundedSender<FacilitatorCommand>,
) -> DrillControl {
    let addr = listener
        .local_addr()
        .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)));
    let token = Arc::new(token);
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let token = token.clone();
        let view = view.clone();
        let commands = commands.clone();
        async move { Ok::<_, Infallible>(respond(request, &token, &view, &commands).await) }
    });
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let task = tokio::spawn(http::serve_until(
        listener,
        service,
        async {
            let _ = stop_rx.await;
        },
        http::ConnLimits::for_this_process(ANSWERS_HALF_CLOSED),
    ));
    DrillControl {
        addr,
        stop: Some(stop_tx),
        task: Some(task),
    }
}

/// Compares the whole token whatever the first difference, so timing does not tell how
/// much of a guess was right.
fn token_matches(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len() && given.iter().zip(expected).fold(0u8, |diff, (a, b)| diff | (a ^ b)) == 0
}

fn json_response(text: String) -> Response<TextBody> {
    let mut response = http::text(StatusCode::OK, text);
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

async fn respond(
    request: Request<Incoming>,
    token: &str,
    view: &SharedView,
    commands: &mpsc::UnboundedSender<FacilitatorCommand>,
) -> Response<TextBody> {
    let given = request
        .headers()
        .get(TOKEN_HEADER)
        .map(HeaderValue::as_bytes)
        .unwrap_or_default();
    if !token_matches(given, token.as_bytes()) {
        return http::text(StatusCode::FORBIDDEN, format!("{WRONG_TOKEN}\n"));
    }
    match (request.method(), request.uri().path()) {
        (&Method::GET, "/view") => {
            let shown = view.lock().ok().and_then(|v| v.clone());
            match shown.and_then(|v| serde_json::to_string(&v).ok()) {
                Some(text) => json_response(text),
                None => http::text(StatusCode::SERVICE_UNAVAILABLE, "no drill on screen yet\n"),
            }
        }
        (&Method::POST, "/command") => {
            let body = match Limited::new(request.into_body(), COMMAND_MAX_BYTES).collect().await {
                Ok(body) => body.to_bytes(),
                Err(_) => {
                    return http::text(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        format!("a command is at most {COMMAND_MAX_BYTES} bytes\n"),
                    );
                }
            };
            match serde_json::from_slice::<FacilitatorCommand>(&body) {
                Ok(command) => match commands.send(command) {
                    Ok(()) => http::text(StatusCode::ACCEPTED, "taken: the drill applies it at its next tick\n"),
                    Err(_) => http::text(StatusCode::GONE, "the drill has closed\n"),
                },
                Err(err) => http::text(
                    StatusCode::BAD_REQUEST,
                    format!("not a command ({err}); allowed: {{\"do\":\"add_fault\",...}}, call_owner, end\n"),
                ),
            }
        }
        _ => http::text(StatusCode::NOT_FOUND, "routes: GET /view, POST /command\n"),
    }
}

/// Why a facilitator's request did not get its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControlError {
    /// Nothing answered at the address, or not in time: the drill has gone.
    Unreachable(String),
    /// The endpoint answered, with a refusal (a wrong token, a bad command).
    Refused { code: u16, line: String },
}

impl std::fmt::Display for ControlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ControlError::Unreachable(why) => write!(f, "the drill does not answer ({why})"),
            ControlError::Refused { code, line } => write!(f, "the drill refused ({code}): {line}"),
        }
    }
}

/// One request to the endpoint at `addr` with the token, on a fresh connection.
async fn exchange(
    addr: SocketAddr,
    method: Method,
    path: &str,
    token: &str,
    body: Vec<u8>,
) -> Result<String, ControlError> {
    use hyper_util::rt::TokioIo;
    let unreachable = |err: String| ControlError::Unreachable(err);
    let talk = async {
        let stream = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| unreachable(e.to_string()))?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| unreachable(e.to_string()))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, addr.to_string())
            .header(TOKEN_HEADER, token)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| unreachable(e.to_string()))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| unreachable(e.to_string()))?;
        let code = response.status().as_u16();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| unreachable(e.to_string()))?
            .to_bytes();
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        if (200..300).contains(&code) {
            Ok(text)
        } else {
            Err(ControlError::Refused { code, line: text })
        }
    };
    match tokio::time::timeout(REQUEST_TIMEOUT, talk).await {
        Ok(result) => result,
        Err(_) => Err(unreachable(format!("no answer in {} s", REQUEST_TIMEOUT.as_secs()))),
    }
}

/// The facilitator's view of the drill at `addr`.
pub async fn fetch_view(addr: SocketAddr, token: &str) -> Result<FacilitatorView, ControlError> {
    let text = exchange(addr, Method::GET, "/view", token, Vec::new()).await?;
    serde_json::from_str(&text).map_err(|err| ControlError::Refused {
        code: 200,
        line: format!("not a drill's view: {err}"),
    })
}

/// Sends `command` to the drill at `addr`.
pub async fn send_command(addr: SocketAddr, token: &str, command: &FacilitatorCommand) -> Result<(), ControlError> {
    let body = serde_json::to_vec(command).map_err(|err| ControlError::Unreachable(err.to_string()))?;
    exchange(addr, Method::POST, "/command", token, body).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_must_match_whole() {
        assert!(token_matches(b"abc", b"abc"));
        assert!(!token_matches(b"abd", b"abc"));
        assert!(!token_matches(b"ab", b"abc"));
        assert!(!token_matches(b"", b"abc"));
        assert_eq!(new_token().len(), 32);
        assert_ne!(new_token(), new_token());
    }

    #[test]
    fn a_locator_left_by_a_gone_process_is_stale_and_a_live_one_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = locator_path(&dir.path().join("progress.toml"));
        assert_eq!(read_locator(&path), Err(LocateError::Missing(path.clone())));
        let ours = DrillLocator {
            port: 4_000,
            token: "t".into(),
            pid: std::process::id(),
        };
        write_locator(&path, &ours).unwrap();
        assert_eq!(read_locator(&path), Ok(ours.clone()));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the token is for its owner only");
        // A pid above the kernel's limit (4194304 at most) belongs to no process.
        let gone = DrillLocator {
            pid: 99_999_999,
            ..ours.clone()
        };
        write_locator(&path, &gone).unwrap();
        assert_eq!(read_locator(&path), Err(LocateError::Stale(path.clone())));
        remove_locator(&path, "another drill's token");
        assert!(path.exists(), "another drill's file stays");
        remove_locator(&path, "t");
        assert!(!path.exists());
    }
}
