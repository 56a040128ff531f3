//! The listener's limits, so a hostile or broken client cannot hold the
//! sandbox: a request head over [`MAX_HEAD_BYTES`] is answered `431` in the
//! API's error shape; a head not complete within
//! [`SandboxConfig::head_timeout`](crate::SandboxConfig::head_timeout) (10 s by default) closes the connection;
//! at most [`SandboxConfig::max_connections`](crate::SandboxConfig::max_connections) connections are served at
//! once, and one over it is answered `503` and closed at once, so clients
//! that trickle their heads cannot starve the others.
//!
//! The accept loop serves each connection with hyper's HTTP/1 server
//! (axum's `serve` has none of these settings).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::StatusCode;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, Semaphore};

use crate::http::error::ApiError;

/// The largest request head answered normally: the request line and every
/// header (name, value and separators), 16 KiB as common gateways allow.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// hyper's read buffer: a head that does not fit is answered `431` by hyper
/// itself, with an empty body, and the connection closed. Between
/// [`MAX_HEAD_BYTES`] and this, the `431` is the API's error body.
pub const HEAD_BUFFER_BYTES: usize = 64 * 1024;

/// The answer to a connection over the limit: the API's error shape, sent
/// without reading the request (there is no path to echo).
const REFUSED: &str = "{\"statusCode\":503,\"message\":\"Too many connections; try again later\"}";

/// `431` in the API's error shape for a head over [`MAX_HEAD_BYTES`];
/// otherwise the request goes on to `next`.
pub(crate) async fn head_size(request: Request, next: Next) -> Response {
    if head_bytes(&request) > MAX_HEAD_BYTES {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "Request header fields too large: the request head is over {MAX_HEAD_BYTES} bytes"
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// The size of the head as sent: `METHOD URI HTTP/1.1\r\n` and
/// `name: value\r\n` per header, and the final `\r\n`.
fn head_bytes(request: &Request) -> usize {
    let line = request.method().as_str().len() + displayed_len(request.uri()) + 12;
    let headers: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    line + headers + 2
}

/// The length of `value` as displayed, counted without building it.
fn displayed_len(value: &impl std::fmt::Display) -> usize {
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to `Count` cannot fail.
    let _ = std::fmt::write(&mut count, format_args!("{value}"));
    count.0
}

/// The limits of [`serve`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub head_timeout: Duration,
    pub max_connections: usize,
}

/// Serves `app` on `listener` until `stopped`, then lets open connections
/// finish their requests for at most `grace`.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stopped: oneshot::Receiver<()>,
    grace: Duration,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        .max_buf_size(HEAD_BUFFER_BYTES);
    let service = TowerToHyperService::new(app);
    tokio::pin!(stopped);
    loop {
        let stream = tokio::select! {
            _ = &mut stopped => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of file descriptors, mostly: wait instead of spinning.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let connection =
            graceful.watch(http.serve_connection(TokioIo::new(stream), service.clone()));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection ended with an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(grace, graceful.shutdown()).await;
}

/// Answers a connection over the limit `503` and closes it; a client that
/// does not read is dropped after a second.
async fn refuse(mut stream: TcpStream) {
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{REFUSED}",
        REFUSED.len()
    );
    let write = async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}
