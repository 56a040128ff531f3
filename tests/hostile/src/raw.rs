//! HTTP/1.1 written byte by byte over a TCP socket.
//!
//! reqwest refuses to send most of what these tests need (a body that
//! disagrees with its `Content-Length`, a header that is not valid text),
//! so requests are written here as bytes and the answer is read back by a
//! small parser: the status line, the headers, and a body delimited by
//! `Content-Length`, chunked encoding or the end of the connection.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::http1;

/// How long one raw exchange may take before it counts as a hang. Generous:
/// the machine running the tests may be loaded.
pub const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(30);

/// A request as bytes, and what to do once they are written.
#[derive(Debug, Clone)]
pub struct RawRequest {
    /// Everything written to the socket, head and body.
    pub bytes: Vec<u8>,
    /// Shut the writing half after the bytes (the server then sees the end
    /// of the stream, as from a client that gave up part-way).
    pub half_close: bool,
}

/// Builds a request: the request line, `Host`, `Connection: close`, the
/// given headers in order, `Content-Length` of `body` unless a header of
/// that name is given, then `body`.
pub fn request(method: &str, target: &str, headers: &[(&str, &[u8])], body: &[u8]) -> RawRequest {
    let mut bytes =
        format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n")
            .into_bytes();
    let mut declared = false;
    for (name, value) in headers {
        declared |= name.eq_ignore_ascii_case("content-length")
            || name.eq_ignore_ascii_case("transfer-encoding");
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(b": ");
        bytes.extend_from_slice(value);
        bytes.extend_from_slice(b"\r\n");
    }
    let bodiless_read = body.is_empty() && matches!(method, "GET" | "HEAD");
    if !declared && !bodiless_read {
        bytes.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
    }
    bytes.extend_from_slice(b"\r\n");
    bytes.extend_from_slice(body);
    RawRequest {
        bytes,
        half_close: false,
    }
}

impl RawRequest {
    /// The same request, with the writing half shut after it is sent.
    pub fn half_closed(mut self) -> RawRequest {
        self.half_close = true;
        self
    }
}

/// An answer read from the socket.
#[derive(Debug, Clone)]
pub struct RawReply {
    /// The status code.
    pub status: u16,
    /// The headers.
    pub headers: http1::Headers,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl RawReply {
    /// The body as JSON, or `Null`.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The body as text (invalid UTF-8 replaced), for failure messages.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `request` to `addr` and reads the answer, within
/// [`EXCHANGE_TIMEOUT`]. The bytes are written while the answer is read,
/// so a server that answers before reading everything (a 413 on the
/// declared length) is heard. `Err` says what went wrong: no answer in
/// time, the connection closed without a status line, a malformed answer.
pub async fn exchange(addr: SocketAddr, request: &RawRequest) -> Result<RawReply, String> {
    exchange_within(addr, request, EXCHANGE_TIMEOUT).await
}

/// [`exchange`] with another time limit.
pub async fn exchange_within(
    addr: SocketAddr,
    request: &RawRequest,
    limit: Duration,
) -> Result<RawReply, String> {
    let stream = TcpStream::connect(addr)
        .await
        .map_err(|error| format!("connect: {error}"))?;
    let (mut reader, mut writer) = stream.into_split();
    let bytes = request.bytes.clone();
    let half_close = request.half_close;
    let write = tokio::spawn(async move {
        // The server may answer and close before everything is written.
        if writer.write_all(&bytes).await.is_ok() && half_close {
            let _ = writer.shutdown().await;
        }
        // Keep the writing half open until the answer is read (dropping it
        // would shut it).
        std::future::pending::<()>().await;
        drop(writer);
    });
    let read = tokio::time::timeout(limit, read_reply(&mut reader)).await;
    write.abort();
    match read {
        Ok(reply) => reply,
        Err(_) => Err(format!("no complete answer within {limit:?}")),
    }
}

async fn read_reply(reader: &mut tokio::net::tcp::OwnedReadHalf) -> Result<RawReply, String> {
    let head = http1::read_head(reader).await?;
    let status = head
        .start_line
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| format!("not a status line: {:?}", head.start_line))?;
    let body = if let Some(length) = head.headers.get("content-length") {
        let length: usize = length
            .parse()
            .map_err(|_| format!("bad Content-Length {length:?}"))?;
        http1::read_sized(reader, head.rest, length).await?
    } else if head.is_chunked() {
        http1::read_chunked(reader, head.rest).await?
    } else {
        let mut rest = head.rest;
        while http1::read_more(reader, &mut rest).await? > 0 {}
        rest
    };
    Ok(RawReply {
        status,
        headers: head.headers,
        body,
    })
}
