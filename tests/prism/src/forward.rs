//! Passing one request on to an upstream server and its answer back,
//! unchanged but for the hop-by-hop headers: what the [`Recorder`] and the
//! [`Tamper`] share.
//!
//! [`Recorder`]: crate::Recorder
//! [`Tamper`]: crate::Tamper

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
/// (`state`): the axum state of the [`Recorder`] and the [`Tamper`].
///
/// [`Recorder`]: crate::Recorder
/// [`Tamper`]: crate::Tamper
#[derive(Clone)]
pub struct Upstream<T> {
    /// `http://HOST:PORT`, without a trailing slash.
    pub origin: String,
    /// The forwarding client ([`client`]).
    pub http: reqwest::Client,
    /// The forwarder's own state.
    pub state: T,
}

impl<T> Upstream<T> {
    /// Forwarding to `origin` (`http://HOST:PORT`) with `state`.
    pub fn new(origin: &str, state: T) -> Upstream<T> {
        Upstream {
            origin: origin.trim_end_matches('/').to_owned(),
            http: client(),
            state,
        }
    }
}

/// Serves `handler` for every request on 127.0.0.1, as a forwarder to
/// `origin` (`http://HOST:PORT`) that keeps `state`.
pub async fn serve<T, H, X>(origin: &str, state: T, handler: H) -> LocalServer
where
    T: Clone + Send + Sync + 'static,
    H: Handler<X, Upstream<T>>,
    X: 'static,
{
    let app = Router::new()
        .fallback(handler)
        .with_state(Upstream::new(origin, state));
    LocalServer::start(app).await
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
