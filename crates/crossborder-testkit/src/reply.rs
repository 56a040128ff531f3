//! A raw answer, and the check of the API's documented error body.

use serde_json::{json, Value};

/// A raw answer: status, headers, the body parsed as JSON (`Null` when it
/// is not JSON) and its text.
#[derive(Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    /// The body parsed as JSON, or `Null`.
    pub body: Value,
    /// The body as text (invalid UTF-8 replaced).
    pub text: String,
    /// The body as received.
    pub bytes: Vec<u8>,
}

impl Reply {
    /// Asserts that the body's text has each of `parts` exactly as written
    /// (how a number is written on the wire: `"fee":0.5,`).
    ///
    /// # Panics
    ///
    /// When a part is missing, with the whole body in the message.
    pub fn assert_written(&self, parts: &[&str]) {
        for part in parts {
            assert!(self.text.contains(part), "{part} is not in {}", self.text);
        }
    }
}

/// Reads `response` whole.
///
/// # Panics
///
/// When the body cannot be read.
pub async fn read_reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = match response.bytes().await {
        Ok(bytes) => bytes.to_vec(),
        Err(error) => panic!("the body is not read: {error}"),
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        text,
        bytes,
    }
}

/// Checks the documented error body of `reply` to `method` `url` (below
/// `/v1`, with its query): the status, `statusCode`, `message`, an RFC 3339
/// UTC `timestamp` with milliseconds, `path` (without the query) and
/// `request {method, url}`.
///
/// # Panics
///
/// When any of them differs, with the whole body in the message.
pub fn assert_error_body(reply: &Reply, status: u16, message: &str, method: &str, url: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    let body = &reply.body;
    assert_eq!(body["statusCode"], json!(status), "{}", reply.text);
    assert_eq!(body["message"], json!(message), "{}", reply.text);
    let path = url.split('?').next().unwrap_or(url);
    assert_eq!(body["path"], json!(format!("/v1{path}")), "{}", reply.text);
    assert_eq!(body["request"]["method"], json!(method), "{}", reply.text);
    assert_eq!(
        body["request"]["url"],
        json!(format!("/v1{url}")),
        "{}",
        reply.text
    );
    let timestamp = body["timestamp"].as_str().unwrap_or_default();
    let bytes = timestamp.as_bytes();
    assert!(
        bytes.len() == 24 && bytes[10] == b'T' && bytes[19] == b'.' && bytes[23] == b'Z',
        "timestamp {timestamp:?}: {}",
        reply.text
    );
}
