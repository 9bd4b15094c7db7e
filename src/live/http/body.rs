//! What every lab server answers with: a whole plain-text body. Apart from `live::http` so
//! that the accept loop's guard (`conn_guard`) can answer 403 without importing its parent.

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Response, StatusCode};

/// The body every lab server answers with.
pub type TextBody = Full<Bytes>;

/// A plain-text response with a status code.
pub fn text(code: StatusCode, body: impl Into<Bytes>) -> Response<TextBody> {
    let mut response = Response::new(Full::new(body.into()));
    *response.status_mut() = code;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain"),
    );
    response
}
