//! A hostile HTTP server on 127.0.0.1: it reads each request whole (and
//! records it), then answers the same bad way every time: a body that is
//! not what the API documents, a body cut short, a slow drip that never
//! ends, a reset or a silent close.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

use crate::http1;

/// How long a drip goes on at most if the client never gives up (it
/// always should: its timeout is far shorter).
const DRIP_LIMIT: Duration = Duration::from_secs(60);

/// How the server answers every request.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A complete response: status, `Content-Type` (none if `None`) and
    /// body, with its `Content-Length`.
    Full {
        /// The status code.
        status: u16,
        /// The `Content-Type`, if any.
        content_type: Option<&'static str>,
        /// The body.
        body: Vec<u8>,
    },
    /// These bytes, verbatim (a whole response), then the connection
    /// closes.
    Raw(Vec<u8>),
    /// A status and a `Content-Length` of `declared`, then only `body`,
    /// then the connection closes.
    Cut {
        /// The status code.
        status: u16,
        /// The length the head promises.
        declared: usize,
        /// What is actually sent.
        body: Vec<u8>,
    },
    /// A 200 JSON head with chunked encoding, then one byte of body every
    /// `every`, never ending.
    DripBody {
        /// The pause between bytes.
        every: Duration,
    },
    /// The status line one byte every `every`, the head never finished.
    DripHead {
        /// The pause between bytes.
        every: Duration,
    },
    /// The connection reset (TCP RST) once the request is read.
    Reset,
    /// The connection closed without a byte once the request is read.
    Close,
}

/// One request the server read.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The method.
    pub method: String,
    /// The request target (path and query).
    pub target: String,
    /// The headers.
    pub headers: http1::Headers,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

/// A running hostile server; dropping it stops it.
pub struct HostileServer {
    addr: SocketAddr,
    recorded: Arc<Mutex<Vec<Recorded>>>,
    task: JoinHandle<()>,
}

impl HostileServer {
    /// Starts a server on a free loopback port that answers every request
    /// with `answer`.
    pub async fn start(answer: Answer) -> HostileServer {
        let (listener, addr) = crossborder_testkit::loopback_listener("the hostile server").await;
        let recorded: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let log = recorded.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let answer = answer.clone();
                let log = log.clone();
                tokio::spawn(async move {
                    let _ = serve(stream, &answer, &log).await;
                });
            }
        });
        HostileServer {
            addr,
            recorded,
            task,
        }
    }

    /// `http://127.0.0.1:PORT/v1`, the base URL an SDK client is given.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Every request read so far.
    pub fn recorded(&self) -> Vec<Recorded> {
        self.recorded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for HostileServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(
    mut stream: TcpStream,
    answer: &Answer,
    log: &Mutex<Vec<Recorded>>,
) -> std::io::Result<()> {
    let Some(request) = read_request(&mut stream).await else {
        return Ok(());
    };
    log.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(request);
    match answer {
        Answer::Full {
            status,
            content_type,
            body,
        } => {
            let mut head = format!("HTTP/1.1 {status} Hostile\r\nConnection: close\r\n");
            if let Some(content_type) = content_type {
                head.push_str(&format!("Content-Type: {content_type}\r\n"));
            }
            head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(body).await?;
            stream.shutdown().await
        }
        Answer::Raw(bytes) => {
            stream.write_all(bytes).await?;
            stream.shutdown().await
        }
        Answer::Cut {
            status,
            declared,
            body,
        } => {
            let head = format!(
                "HTTP/1.1 {status} Hostile\r\nConnection: close\r\n\
                 Content-Type: application/json\r\nContent-Length: {declared}\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(body).await?;
            stream.shutdown().await
        }
        Answer::DripBody { every } => {
            stream
                .write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
                      Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n",
                )
                .await?;
            drip(&mut stream, *every, b"1\r\n \r\n").await
        }
        Answer::DripHead { every } => {
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " {
                stream.write_all(&[*byte]).await?;
                tokio::time::sleep(*every).await;
            }
            drip(&mut stream, *every, b"z").await
        }
        Answer::Reset => {
            stream.set_zero_linger()?;
            drop(stream);
            Ok(())
        }
        Answer::Close => stream.shutdown().await,
    }
}

/// Writes `piece` every `every` until the client leaves (or
/// [`DRIP_LIMIT`]).
async fn drip(stream: &mut TcpStream, every: Duration, piece: &[u8]) -> std::io::Result<()> {
    let started = tokio::time::Instant::now();
    while started.elapsed() < DRIP_LIMIT {
        tokio::time::sleep(every).await;
        stream.write_all(piece).await?;
    }
    Ok(())
}

/// Reads one request: the head, then a body by `Content-Length` or chunked
/// encoding. `None` if the client closed first or sent what cannot be read.
async fn read_request(stream: &mut TcpStream) -> Option<Recorded> {
    let head = http1::read_head(stream).await.ok()?;
    let mut request_line = head.start_line.split(' ');
    let method = request_line.next().unwrap_or_default().to_owned();
    let target = request_line.next().unwrap_or_default().to_owned();
    let body = if let Some(length) = head.headers.get("content-length") {
        let length: usize = length.parse().unwrap_or(0);
        http1::read_sized(stream, head.rest, length).await.ok()?
    } else if head.is_chunked() {
        http1::read_chunked(stream, head.rest).await.ok()?
    } else {
        Vec::new()
    };
    Some(Recorded {
        method,
        target,
        headers: head.headers,
        body,
    })
}
