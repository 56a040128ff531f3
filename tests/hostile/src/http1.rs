//! Reading one HTTP/1.1 message off a socket, for both ends of the hostile
//! suite: the raw client ([`crate::raw`]) reads answers with it and the
//! hostile server ([`crate::server`]) reads requests. Only the start line
//! differs between the two; the head, `Content-Length` and chunked bodies
//! are read the same way. Errors are text, for a test's failure message.

use tokio::io::{AsyncRead, AsyncReadExt};

/// A message's head: its first line, its headers and what was read past it.
#[derive(Debug)]
pub struct Head {
    /// The request or status line.
    pub start_line: String,
    /// The headers.
    pub headers: Headers,
    /// The bytes read after the blank line: the start of the body.
    pub rest: Vec<u8>,
}

impl Head {
    /// Whether the body is sent with chunked encoding.
    pub fn is_chunked(&self) -> bool {
        self.headers
            .get("transfer-encoding")
            .is_some_and(|value| value.contains("chunked"))
    }
}

/// A message's headers, names lowercased, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl Headers {
    /// The first header called `name` (lowercase).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Reads up to the blank line that ends the head. `Err` if the connection
/// closes first (saying what had come) or cannot be read.
pub async fn read_head<R: AsyncRead + Unpin>(reader: &mut R) -> Result<Head, String> {
    let mut buffer = Vec::new();
    let head_end = loop {
        if let Some(end) = find(&buffer, b"\r\n\r\n") {
            break end;
        }
        if read_more(reader, &mut buffer).await? == 0 {
            return Err(format!(
                "the connection closed before a complete head ({} bytes: {:?})",
                buffer.len(),
                String::from_utf8_lossy(&buffer)
            ));
        }
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let start_line = lines.next().unwrap_or_default().to_owned();
    let headers = Headers(
        lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect(),
    );
    Ok(Head {
        start_line,
        headers,
        rest: buffer[head_end + 4..].to_vec(),
    })
}

/// Reads a body of `length` bytes, `rest` being its start. `Err` if the
/// connection closes before it is complete.
pub async fn read_sized<R: AsyncRead + Unpin>(
    reader: &mut R,
    mut rest: Vec<u8>,
    length: usize,
) -> Result<Vec<u8>, String> {
    while rest.len() < length {
        if read_more(reader, &mut rest).await? == 0 {
            return Err(format!("body cut at {} of {length} bytes", rest.len()));
        }
    }
    rest.truncate(length);
    Ok(rest)
}

/// Reads a chunked body up to its last (empty) chunk, `rest` being its
/// start, and returns it de-chunked.
pub async fn read_chunked<R: AsyncRead + Unpin>(
    reader: &mut R,
    mut rest: Vec<u8>,
) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line_end = loop {
            if let Some(end) = find(&rest, b"\r\n") {
                break end;
            }
            if read_more(reader, &mut rest).await? == 0 {
                return Err("chunked body cut in a size line".to_owned());
            }
        };
        let line = String::from_utf8_lossy(&rest[..line_end]).into_owned();
        let size = usize::from_str_radix(line.split(';').next().unwrap_or_default().trim(), 16)
            .map_err(|_| format!("bad chunk size {line:?}"))?;
        rest.drain(..line_end + 2);
        if size == 0 {
            return Ok(body);
        }
        while rest.len() < size + 2 {
            if read_more(reader, &mut rest).await? == 0 {
                return Err("chunked body cut in a chunk".to_owned());
            }
        }
        body.extend_from_slice(&rest[..size]);
        rest.drain(..size + 2);
    }
}

/// Reads what the socket has into `buffer`; `Ok(0)` at the end of the
/// stream.
pub async fn read_more<R: AsyncRead + Unpin>(
    reader: &mut R,
    buffer: &mut Vec<u8>,
) -> Result<usize, String> {
    let mut chunk = [0u8; 16 * 1024];
    let read = reader
        .read(&mut chunk)
        .await
        .map_err(|error| format!("read: {error}"))?;
    buffer.extend_from_slice(&chunk[..read]);
    Ok(read)
}

/// Where `needle` first occurs in `haystack`.
pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
