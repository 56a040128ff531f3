//! One line per request, as Prism prints them, for a developer watching
//! what their integration sends: method, path, status, milliseconds and the
//! API key masked. The binaries print the lines; the library only hands
//! them to the callback given in
//! [`SandboxConfig::with_request_log`](crate::SandboxConfig::with_request_log).

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use crossborder_api::API_KEY_HEADER;

/// A request the sandbox answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestLine {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The status answered.
    pub status: u16,
    /// Time from the request's arrival to the response's head.
    pub elapsed: Duration,
    /// The `x-api-key` header, masked (see [`mask_key`]); `None` when absent.
    pub key: Option<String>,
    /// The fault injected into it (see [`crate::faults`]), if any.
    pub fault: Option<crate::faults::FaultKind>,
}

impl fmt::Display for RequestLine {
    /// `POST /v1/api/payout 200 0.4ms key=test_…_key`, and
    /// ` fault=write_applied_502` after a faulted request.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {:.1}ms key={}",
            self.method,
            self.path,
            self.status,
            self.elapsed.as_secs_f64() * 1000.0,
            self.key.as_deref().unwrap_or("-")
        )?;
        match self.fault {
            Some(kind) => write!(f, " fault={kind}"),
            None => Ok(()),
        }
    }
}

/// A key as a log may show it: the environment prefix (`test_`, `live_`)
/// and the last four characters, so a developer can tell their keys apart
/// and nobody can use one read from a terminal.
///
/// ```
/// use crossborder_sandbox::mask_key;
///
/// assert_eq!(mask_key("test_sk_9b1e4f0c2d7a48e6"), "test_…48e6");
/// assert_eq!(mask_key("live_sandbox_key"), "live_…_key");
/// assert_eq!(mask_key("short"), "…");
/// assert_eq!(mask_key("unknown_prefix_key_1234"), "…1234");
/// ```
pub fn mask_key(key: &str) -> String {
    let prefix = ["test_", "live_"]
        .into_iter()
        .find(|prefix| key.starts_with(prefix))
        .unwrap_or("");
    let chars: Vec<char> = key.chars().collect();
    // Too short to show anything without showing most of it.
    if chars.len() < prefix.len() + 8 {
        return format!("{prefix}…");
    }
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{prefix}…{tail}")
}

/// The callback that receives each line.
#[derive(Clone)]
pub struct RequestLog(pub(crate) Arc<dyn Fn(&RequestLine) + Send + Sync>);

impl RequestLog {
    /// A log handing each line to `sink`.
    pub fn new(sink: impl Fn(&RequestLine) + Send + Sync + 'static) -> RequestLog {
        RequestLog(Arc::new(sink))
    }
}

impl fmt::Debug for RequestLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RequestLog(..)")
    }
}

/// The middleware, installed only when a log is configured: times the
/// request and reports it once answered.
pub(crate) async fn log(State(sink): State<RequestLog>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().to_string();
    let path = request.uri().path().to_owned();
    let key = request
        .headers()
        .get(API_KEY_HEADER)
        .map(|value| mask_key(&String::from_utf8_lossy(value.as_bytes())));
    let response = next.run(request).await;
    (sink.0)(&RequestLine {
        method,
        path,
        status: response.status().as_u16(),
        elapsed: started.elapsed(),
        key,
        fault: response
            .extensions()
            .get::<crate::faults::InjectedFault>()
            .map(|crate::faults::InjectedFault(kind)| *kind),
    });
    response
}
