//! The room's HTTP server: the participants' page, their answers and a joined app's steps.
//!
//! It serves through the labs' one accept loop ([`http::serve_until`], in [`start`] and
//! nowhere else), so the loop's limits and timeouts are the room's too. It has no route
//! that opens, reveals or closes a check: those are the host's controls, methods of the
//! room its own process calls. Every write must carry the room's code and come from the
//! room's own page (`Origin`) or from no browser at all, with a Host that names the room.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::live::http::{self, TextBody};
use crate::room::SharedRoom;
use crate::room::page::{self, Visitor};
use crate::room::rules::{self, BODY_MAX_BYTES};
use crate::room::state::{WriteRefusal, unix_ms};

/// An answer the room took, for the host's log line.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrival {
    pub name: String,
    pub check: String,
    /// Participants whose answer to this check counts, this one included.
    pub counted: usize,
}

/// Where the room is reached: the origins its page may be served from.
#[derive(Clone, Debug)]
pub struct Reach {
    /// `http://HOST:PORT` for each address the room answers at.
    pub origins: Vec<String>,
    /// Bound to every interface (`--lan` with 0.0.0.0): any IP literal at the port is the
    /// room (a DNS-rebound name still is not).
    pub any_ip_port: Option<u16>,
}

impl Reach {
    /// The origins of a room bound at `addr`: the loopback names for 127.0.0.1.
    pub fn of(addr: SocketAddr) -> Reach {
        let port = addr.port();
        if addr.ip().is_unspecified() {
            return Reach {
                origins: vec![format!("http://127.0.0.1:{port}"), format!("http://localhost:{port}")],
                any_ip_port: Some(port),
            };
        }
        let mut origins = vec![format!("http://{addr}")];
        if addr.ip().is_loopback() {
            origins.push(format!("http://localhost:{port}"));
        }
        Reach {
            origins,
            any_ip_port: None,
        }
    }

    /// Whether a write with these headers comes from the room's page or a non-browser client.
    fn allows(&self, origin: Option<&str>, host: Option<&str>) -> bool {
        let mut allowed = self.origins.clone();
        if let (Some(port), Some(host)) = (self.any_ip_port, host)
            && let Ok(addr) = host.parse::<SocketAddr>()
            && addr.port() == port
        {
            allowed.push(format!("http://{host}"));
        }
        rules::origin_allowed(origin, host, &allowed)
    }
}

/// A running room server.
pub struct RoomServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::sync::Arc<http::Connections>>,
}

impl RoomServer {
    /// Stops accepting, then waits up to `deadline` for open connections to finish.
    pub async fn stop(mut self, deadline: Duration) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Ok(graceful) = self.task.await {
            let _ = http::drain(graceful, deadline).await;
        }
    }
}

/// The room answers half-closed clients: nothing it does for a participant is counted
/// once they have gone, and a scripted `nc -N` answer should see its reply.
pub const ANSWERS_HALF_CLOSED: bool = true;

/// The 403 body of a write from anywhere but the room's own page or a non-browser client.
pub const FOREIGN_WRITE: &str = "refused: writes come only from the room's own page";

/// The accept loop's write rule for the room: [`Reach::allows`], on every state-changing
/// method (a `--lan` room is reached at a LAN address, which the loopback rule refuses).
fn write_guard(reach: Reach) -> http::WriteGuard {
    http::WriteGuard::Own(std::sync::Arc::new(move |headers: &hyper::HeaderMap| {
        let text = |name| headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok());
        if reach.allows(text(header::ORIGIN), text(header::HOST)) {
            Ok(())
        } else {
            Err(FOREIGN_WRITE)
        }
    }))
}

/// Serves `room` on `listener`; each answer taken goes to `arrivals` when given.
pub fn start(room: SharedRoom, listener: TcpListener, arrivals: Option<mpsc::UnboundedSender<Arrival>>) -> RoomServer {
    let addr = listener
        .local_addr()
        .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)));
    let reach = Reach::of(addr);
    let limits = http::ConnLimits::for_this_process(ANSWERS_HALF_CLOSED).with_writes(write_guard(reach));
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let room = room.clone();
        let arrivals = arrivals.clone();
        async move { Ok::<_, Infallible>(respond(request, &room, arrivals.as_ref()).await) }
    });
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let task = tokio::spawn(http::serve_until(
        listener,
        service,
        async {
            let _ = stop_rx.await;
        },
        limits,
    ));
    RoomServer {
        addr,
        stop: Some(stop_tx),
        task,
    }
}

async fn respond(
    request: Request<Incoming>,
    room: &SharedRoom,
    arrivals: Option<&mpsc::UnboundedSender<Arrival>>,
) -> Response<TextBody> {
    let path = request.uri().path().to_string();
    let query = request.uri().query().unwrap_or_default().to_string();
    match (request.method().clone(), path.as_str()) {
        (Method::GET, "/") => page_response(room, &rules::form_fields(&query)),
        (Method::POST, "/answer" | "/step") => {
            // A write from a foreign page never gets here: the accept loop's guard
            // ([`write_guard`]) answers it 403 before this handler is called.
            let body = match read_body(request).await {
                Ok(body) => body,
                Err(response) => return response,
            };
            let fields = rules::form_fields(&body);
            if path == "/step" {
                step_response(room, &fields)
            } else {
                answer_response(room, &fields, arrivals)
            }
        }
        (Method::POST, _) => plain(
            StatusCode::FORBIDDEN,
            "refused: a room is opened, revealed and closed from the host's app only\n",
        ),
        (Method::GET, _) => plain(StatusCode::NOT_FOUND, "not found: the room's page is /\n"),
        _ => plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "the room takes GET / and POST /answer\n",
        ),
    }
}

/// The body as text, refused whole (413) past [`BODY_MAX_BYTES`].
async fn read_body(request: Request<Incoming>) -> Result<String, Response<TextBody>> {
    let too_large = || {
        plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("refused: a body of at most {BODY_MAX_BYTES} bytes\n"),
        )
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > BODY_MAX_BYTES) {
        return Err(too_large());
    }
    match Limited::new(request.into_body(), BODY_MAX_BYTES).collect().await {
        Ok(body) => Ok(String::from_utf8_lossy(&body.to_bytes()).into_owned()),
        Err(_) => Err(too_large()),
    }
}

fn field<'a>(fields: &'a std::collections::HashMap<String, String>, name: &str) -> &'a str {
    fields.get(name).map_or("", String::as_str)
}

fn page_response(room: &SharedRoom, fields: &std::collections::HashMap<String, String>) -> Response<TextBody> {
    let (name, code) = (field(fields, "name"), field(fields, "code"));
    let Ok(room) = room.lock() else {
        return plain(StatusCode::INTERNAL_SERVER_ERROR, "the room is unavailable\n");
    };
    if name.is_empty() && code.is_empty() {
        return html(StatusCode::OK, page::join_page(None));
    }
    if !rules::code_matches(&room.code, code) {
        let (_, line) = WriteRefusal::WrongCode.status_and_line();
        return html(StatusCode::FORBIDDEN, page::join_page(Some(&line)));
    }
    if rules::clean_name(name).is_none() {
        let (_, line) = WriteRefusal::NoName.status_and_line();
        return html(StatusCode::BAD_REQUEST, page::join_page(Some(&line)));
    }
    let visitor = Visitor { name, code };
    html(
        StatusCode::OK,
        page::room_page(&room, &visitor, None, field(fields, "change") == "1"),
    )
}

fn answer_response(
    room: &SharedRoom,
    fields: &std::collections::HashMap<String, String>,
    arrivals: Option<&mpsc::UnboundedSender<Arrival>>,
) -> Response<TextBody> {
    let (name, code, check) = (field(fields, "name"), field(fields, "code"), field(fields, "check"));
    let text_reply = field(fields, "reply") == "text";
    let Ok(mut room) = room.lock() else {
        return plain(StatusCode::INTERNAL_SERVER_ERROR, "the room is unavailable\n");
    };
    match room.answer(code, name, check, field(fields, "value"), unix_ms()) {
        Ok(value) => {
            let cleaned = rules::clean_name(name).unwrap_or_default();
            if let Some(arrivals) = arrivals {
                let _ = arrivals.send(Arrival {
                    name: cleaned.clone(),
                    check: check.to_string(),
                    counted: room.answers(check).len(),
                });
            }
            if text_reply {
                return plain(
                    StatusCode::OK,
                    format!("taken {}\n", crate::learning::quiz::trim_number(value)),
                );
            }
            // Post/Redirect/Get: a reload of the page after it does not send the answer again.
            let mut response = html(StatusCode::SEE_OTHER, String::new());
            let location = format!(
                "/?name={}&code={}",
                rules::percent_encode(&cleaned),
                rules::percent_encode(code.trim())
            );
            if let Ok(value) = HeaderValue::from_str(&location) {
                response.headers_mut().insert(header::LOCATION, value);
            }
            response
        }
        Err(refusal) => {
            let (code_number, line) = refusal.status_and_line();
            let status = StatusCode::from_u16(code_number).unwrap_or(StatusCode::BAD_REQUEST);
            let mut response = if text_reply || matches!(refusal, WriteRefusal::WrongCode | WriteRefusal::NoName) {
                plain(status, format!("{line}\n"))
            } else {
                let visitor = Visitor { name, code };
                html(status, page::room_page(&room, &visitor, Some(&line), true))
            };
            if let WriteRefusal::TooFast(ms) = refusal {
                // RFC 9110 section 10.2.3: Retry-After in whole seconds.
                if let Ok(value) = HeaderValue::from_str(&ms.div_ceil(1000).to_string()) {
                    response.headers_mut().insert(header::RETRY_AFTER, value);
                }
            }
            response
        }
    }
}

fn step_response(room: &SharedRoom, fields: &std::collections::HashMap<String, String>) -> Response<TextBody> {
    let Ok(step) = field(fields, "step").parse::<u32>() else {
        return plain(StatusCode::BAD_REQUEST, "step: a whole number from 1\n");
    };
    let Ok(mut room) = room.lock() else {
        return plain(StatusCode::INTERNAL_SERVER_ERROR, "the room is unavailable\n");
    };
    match room.step(
        field(fields, "code"),
        field(fields, "name"),
        field(fields, "lab"),
        step,
        unix_ms(),
    ) {
        Ok(()) => plain(StatusCode::OK, "taken\n"),
        Err(refusal) => {
            let (code, line) = refusal.status_and_line();
            plain(
                StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST),
                format!("{line}\n"),
            )
        }
    }
}

/// Headers every answer of the room carries: never cached (a phone's back button must not
/// show a stale question), no sniffing, no framing, no script, forms to this page only.
fn guarded(mut response: Response<TextBody>, content_type: &'static str) -> Response<TextBody> {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    response
}

fn plain(code: StatusCode, body: impl Into<Bytes>) -> Response<TextBody> {
    guarded(http::text(code, body), "text/plain; charset=utf-8")
}

fn html(code: StatusCode, body: String) -> Response<TextBody> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = code;
    guarded(response, "text/html; charset=utf-8")
}

/// What a participant's client saw when it sent a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent {
    /// The room answered: its status code and line (`taken 64`, or why not).
    Answered { code: u16, line: String },
    /// The host could not be reached: the write was not sent and may be sent again.
    Unreachable(String),
}

/// POSTs `form` (already encoded) to `path` on the room at `addr`, as a participant's app
/// does: no Origin (it is no browser), the room's address as Host, a text reply.
pub async fn send_form(addr: SocketAddr, path: &str, form: &str) -> Sent {
    use hyper_util::rt::TokioIo;
    let stream = match tokio::time::timeout(Duration::from_secs(3), tokio::net::TcpStream::connect(addr)).await {
        Ok(Ok(stream)) => stream,
        Ok(Err(err)) => return Sent::Unreachable(err.to_string()),
        Err(_) => return Sent::Unreachable("no answer to connect in 3 s".to_string()),
    };
    let (mut sender, connection) = match hyper::client::conn::http1::handshake(TokioIo::new(stream)).await {
        Ok(pair) => pair,
        Err(err) => return Sent::Unreachable(err.to_string()),
    };
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::HOST, addr.to_string())
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Full::new(Bytes::from(format!("{form}&reply=text"))));
    let Ok(request) = request else {
        return Sent::Unreachable(format!("{path}: not a path"));
    };
    let exchange = async {
        let response = sender.send_request(request).await.map_err(|err| err.to_string())?;
        let code = response.status().as_u16();
        let body = response.into_body().collect().await.map_err(|err| err.to_string())?;
        Ok::<_, String>(Sent::Answered {
            code,
            line: String::from_utf8_lossy(&body.to_bytes()).trim().to_string(),
        })
    };
    match tokio::time::timeout(Duration::from_secs(5), exchange).await {
        Ok(Ok(sent)) => sent,
        Ok(Err(err)) => Sent::Unreachable(err),
        Err(_) => Sent::Unreachable("no answer in 5 s".to_string()),
    }
}

/// The form of an answer: what the page's form sends.
pub fn answer_form(code: &str, name: &str, check: &str, value: &str) -> String {
    format!(
        "name={}&code={}&check={}&value={}",
        rules::percent_encode(name),
        rules::percent_encode(code),
        rules::percent_encode(check),
        rules::percent_encode(value)
    )
}

/// The room's address in a URL the host printed (`http://127.0.0.1:PORT/`): an IP and a
/// port, `localhost` read as 127.0.0.1.
pub fn parse_room_url(url: &str) -> Result<SocketAddr, String> {
    let rest = url
        .trim()
        .strip_prefix("http://")
        .ok_or_else(|| format!("room URL {url:?}: it starts with http:// (as `class host` printed it)"))?;
    let authority = rest.split('/').next().unwrap_or_default();
    let authority = authority.replacen("localhost:", "127.0.0.1:", 1);
    authority
        .parse()
        .map_err(|_| format!("room URL {url:?}: http://IP:PORT, e.g. http://127.0.0.1:8080"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::room::state::Room;
    use std::sync::{Arc, Mutex};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const CHECK: &str = "retry-predict-layered";

    /// One raw HTTP/1.1 exchange: the status code and the whole answer.
    async fn exchange(addr: SocketAddr, raw: String) -> (u16, String) {
        let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        stream.write_all(raw.as_bytes()).await.expect("write");
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
        let text = String::from_utf8_lossy(&answer).into_owned();
        let code = text.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0);
        (code, text)
    }

    fn post(addr: SocketAddr, path: &str, origin: Option<&str>, body: &str) -> String {
        let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
        format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{origin}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    }

    #[tokio::test]
    async fn takes_the_pages_answers_and_refuses_every_other_write() {
        let content = Content::load(None).expect("the built-in labs load");
        let room: SharedRoom = Arc::new(Mutex::new(Room::new(&content, None).expect("a room")));
        let code = room.lock().expect("room").code.clone();
        room.lock().expect("room").open(CHECK, 0).expect("open");
        let listener = http::bind_loopback(0).await.expect("bind");
        let (tx, mut rx) = mpsc::unbounded_channel();
        let server = start(room.clone(), listener, Some(tx));
        let addr = server.addr;
        let own = format!("http://{addr}");
        let form = format!("name=ada&code={code}&check={CHECK}&value=64");

        let (status, answer) = exchange(addr, post(addr, "/answer", Some(&own), &form)).await;
        assert_eq!(status, 303, "{answer}");
        assert!(
            answer.contains(&format!("location: /?name=ada&code={code}")),
            "{answer}"
        );
        assert_eq!(rx.recv().await.map(|a| a.counted), Some(1));

        let foreign = exchange(addr, post(addr, "/answer", Some("http://evil.example"), &form)).await;
        assert_eq!(foreign.0, 403, "a foreign Origin: {}", foreign.1);
        let wrong = form.replace(&code, "WRONG1");
        let (status, text) = exchange(addr, post(addr, "/answer", Some(&own), &wrong)).await;
        assert_eq!(status, 403, "a wrong room code: {text}");
        let huge = format!("{form}&pad={}", "x".repeat(BODY_MAX_BYTES));
        assert_eq!(exchange(addr, post(addr, "/answer", Some(&own), &huge)).await.0, 413);
        for control in ["/reveal", "/open", "/close"] {
            let (status, text) = exchange(addr, post(addr, control, Some(&own), &format!("code={code}"))).await;
            assert_eq!(status, 403, "{control}: {text}");
        }
        let rebound = format!(
            "POST /answer HTTP/1.1\r\nHost: rebound.example\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
            form.len()
        );
        assert_eq!(exchange(addr, rebound).await.0, 403, "a DNS-rebound Host");
        assert!(!room.lock().expect("room").revealed(CHECK));
        assert_eq!(
            room.lock().expect("room").log().len(),
            1,
            "only the page's answer was taken"
        );

        let page = format!("GET /?name=%3Cb%3Eada&code={code} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        let (status, text) = exchange(addr, page).await;
        assert_eq!(status, 200);
        assert!(text.contains("&lt;b&gt;ada") && !text.contains("<b>ada"), "{text}");
        assert!(text.contains("content-security-policy: default-src 'none'"), "{text}");
        let form = answer_form(&code, "bob", CHECK, "8 attempts");
        assert_eq!(
            send_form(addr, "/answer", &form).await,
            Sent::Answered {
                code: 200,
                line: "taken 8".into()
            }
        );
        server.stop(Duration::from_secs(1)).await;
    }

    #[test]
    fn room_urls_are_an_ip_and_a_port() {
        assert_eq!(
            parse_room_url("http://localhost:8080/"),
            Ok(SocketAddr::from(([127, 0, 0, 1], 8080)))
        );
        assert!(parse_room_url("https://x").unwrap_err().contains("http://"));
        assert!(parse_room_url("http://example.org").is_err());
    }
}
