//! Passing one request on to an upstream server and its answer back,
//! unchanged but for the hop-by-hop headers: what the [`Recorder`] and the
//! [`Tamper`] share.
//!
//! [`Recorder`]: super::Recorder
//! [`Tamper`]: super::Tamper

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::Request;
use axum::handler::Handler;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use crossborder_contract_tests::LocalServer;

/// How long an upstream may take to answer one request.
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(60);

/// The largest request body passed on.
const MAX_BODY: usize = 64 * 1024 * 1024;

/// An HTTP client for forwarding.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(UPSTREAM_TIMEOUT)
        .build()
        .expect("the forwarding HTTP client builds")
}

/// Where a forwarder sends each request, and what it keeps of them
/// (`kept`): the axum state of the [`Recorder`] and the [`Tamper`].
///
/// [`Recorder`]: super::Recorder
/// [`Tamper`]: super::Tamper
pub struct Upstream<T> {
    /// `http://HOST:PORT`, without a trailing slash.
    pub origin: String,
    /// The forwarding client ([`client`]).
    pub http: reqwest::Client,
    /// What the forwarder keeps, shared with its [`Forwarder`].
    kept: Arc<Mutex<T>>,
}

// Not derived: that would ask `T: Clone`, and only the `Arc` is cloned.
impl<T> Clone for Upstream<T> {
    fn clone(&self) -> Self {
        Upstream {
            origin: self.origin.clone(),
            http: self.http.clone(),
            kept: self.kept.clone(),
        }
    }
}

impl<T> Upstream<T> {
    /// What the forwarder keeps, locked.
    pub fn kept(&self) -> MutexGuard<'_, T> {
        lock(&self.kept)
    }
}

/// A forwarder running on 127.0.0.1, and what its handler keeps: the
/// running [`Recorder`] and [`Tamper`] are each one.
///
/// [`Recorder`]: super::Recorder
/// [`Tamper`]: super::Tamper
pub struct Forwarder<T> {
    kept: Arc<Mutex<T>>,
    url: String,
    _server: LocalServer,
}

impl<T: Default + Send + 'static> Forwarder<T> {
    /// Serves `handler` for every request below `prefix`, as a forwarder
    /// to `origin` (`http://HOST:PORT`) that starts with `T::default()` kept.
    pub async fn start<H, X>(origin: &str, prefix: &str, handler: H) -> Forwarder<T>
    where
        H: Handler<X, Upstream<T>>,
        X: 'static,
    {
        let kept: Arc<Mutex<T>> = Arc::default();
        let upstream = Upstream {
            origin: origin.trim_end_matches('/').to_owned(),
            http: client(),
            kept: kept.clone(),
        };
        let app = Router::new().fallback(handler).with_state(upstream);
        let server = LocalServer::start(app).await;
        Forwarder {
            kept,
            url: server.url(prefix),
            _server: server,
        }
    }

    /// `http://127.0.0.1:PORT` and the prefix.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// What the handler keeps, locked.
    pub fn kept(&self) -> MutexGuard<'_, T> {
        lock(&self.kept)
    }
}

/// A handler that panicked mid-request leaves what it keeps as it was, so
/// the lock is taken all the same.
fn lock<T>(kept: &Mutex<T>) -> MutexGuard<'_, T> {
    kept.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A request as received.
pub struct Incoming {
    /// The method.
    pub method: Method,
    /// The path, with the query.
    pub path_and_query: String,
    /// The headers, without `host` and `content-length`.
    pub headers: HeaderMap,
    /// The whole body.
    pub body: Bytes,
}

/// An upstream's answer.
pub struct Answer {
    /// The status.
    pub status: StatusCode,
    /// The headers, without the hop-by-hop ones.
    pub headers: HeaderMap,
    /// The whole body.
    pub body: Bytes,
}

/// Reads `request` whole; an unreadable body is answered with a 502.
pub async fn incoming(request: Request) -> Result<Incoming, Response> {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, MAX_BODY)
        .await
        .map_err(|error| (StatusCode::BAD_GATEWAY, error.to_string()).into_response())?;
    let mut headers = parts.headers;
    headers.remove("host");
    headers.remove("content-length");
    Ok(Incoming {
        method: parts.method,
        path_and_query: parts
            .uri
            .path_and_query()
            .map_or("/", |path| path.as_str())
            .to_owned(),
        headers,
        body,
    })
}

/// Sends `request` to `url` and reads the answer whole; no answer is a 502
/// naming `upstream`.
pub async fn send(
    http: &reqwest::Client,
    upstream: &str,
    url: String,
    request: &Incoming,
) -> Result<Answer, Response> {
    let unreachable = |error: reqwest::Error| {
        (
            StatusCode::BAD_GATEWAY,
            format!("{upstream} did not answer: {error}"),
        )
            .into_response()
    };
    let answer = http
        .request(request.method.clone(), url)
        .headers(request.headers.clone())
        .body(request.body.clone())
        .send()
        .await
        .map_err(unreachable)?;
    let status = answer.status();
    let mut headers = HeaderMap::new();
    for (name, value) in answer.headers() {
        if !matches!(
            name.as_str(),
            "content-length" | "transfer-encoding" | "connection" | "keep-alive"
        ) {
            headers.append(name.clone(), value.clone());
        }
    }
    let body = answer.bytes().await.map_err(unreachable)?;
    Ok(Answer {
        status,
        headers,
        body,
    })
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        (self.status, self.headers, self.body).into_response()
    }
}
