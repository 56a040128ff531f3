//! A recording forwarder on 127.0.0.1 in front of Prism: it passes every
//! request and answer through unchanged and keeps, for each exchange, what
//! Prism said about it (the `sl-violations` header, or an error Prism
//! answered itself), so a test can fail on the exact request that broke the
//! spec.
//!
//! It also strips the `/v1` prefix: the spec's paths are relative to its
//! server URL, which ends in `/v1`, and Prism matches them without the
//! server's path. The SDK keeps a base URL ending in `/v1`, as a real one
//! does, and Prism forwards to `<sandbox>/v1` + the path.

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::forward;

/// The path prefix of the spec's server URLs.
pub const VERSION_PREFIX: &str = "/v1";

/// The header in which Prism lists the violations of an exchange.
pub const VIOLATIONS_HEADER: &str = "sl-violations";

/// The prefix of the `type` of every error Prism answers itself.
const PRISM_ERROR_TYPE: &str = "https://stoplight.io/prism/errors#";

/// How much of a body an [`Exchange`] keeps.
const KEPT_BODY: usize = 600;

/// One request through the recorder and its answer.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// The HTTP method.
    pub method: String,
    /// The path as Prism saw it (without `/v1`), with the query.
    pub path: String,
    /// The answer's status.
    pub status: u16,
    /// The answer's `content-type`.
    pub content_type: String,
    /// Prism's `sl-violations` header, parsed (an array of
    /// `{location, severity, code, message}`), when present.
    pub violations: Option<Value>,
    /// The start of the answer's body.
    pub body: String,
}

impl Exchange {
    /// True when Prism answered the request itself with one of its own
    /// errors (a request refused under `--errors`, a response violation
    /// under `--errors`, an unknown route) instead of the sandbox's answer.
    pub fn answered_by_prism(&self) -> bool {
        self.content_type.starts_with("application/problem+json")
            || self.body.contains(PRISM_ERROR_TYPE)
    }

    /// The violations in `request.*` or `response.*` (by the first element
    /// of their `location`).
    pub fn violations_of(&self, side: &str) -> Vec<Value> {
        self.violations
            .as_ref()
            .and_then(Value::as_array)
            .map(|all| {
                all.iter()
                    .filter(|v| v["location"][0].as_str() == Some(side))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What is wrong with this exchange for a request that keeps to the
    /// spec: any violation, or an answer Prism made up. `None` when clean.
    pub fn problem(&self) -> Option<String> {
        if self.violations.is_none() && !self.answered_by_prism() {
            return None;
        }
        Some(self.describe())
    }

    /// One paragraph: request, status, violations, body.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "{} {} -> {}",
            self.method.to_uppercase(),
            self.path,
            self.status
        );
        if let Some(violations) = &self.violations {
            text.push_str(&format!("\n  {VIOLATIONS_HEADER}: {violations}"));
        }
        if self.answered_by_prism() {
            text.push_str("\n  (answered by Prism itself, not by the sandbox)");
        }
        text.push_str(&format!("\n  body: {}", self.body));
        text
    }
}

/// The running recorder.
pub struct Recorder(forward::Forwarder<Vec<Exchange>>);

type Upstream = forward::Upstream<Vec<Exchange>>;

impl Recorder {
    /// Starts a recorder forwarding to `prism_origin` (`http://HOST:PORT`).
    pub async fn start(prism_origin: &str) -> Recorder {
        Recorder(forward::Forwarder::start(prism_origin, VERSION_PREFIX, record).await)
    }

    /// `http://127.0.0.1:PORT/v1`, the SDK's base URL.
    pub fn base_url(&self) -> &str {
        self.0.url()
    }

    /// Every exchange so far, in order.
    pub fn exchanges(&self) -> Vec<Exchange> {
        self.0.kept().clone()
    }

    /// How many exchanges so far.
    pub fn count(&self) -> usize {
        self.0.kept().len()
    }
}

async fn record(State(upstream): State<Upstream>, request: Request) -> Response {
    let request = match forward::incoming(request).await {
        Ok(request) => request,
        Err(refusal) => return refusal,
    };
    let Some(path) = request.path_and_query.strip_prefix(VERSION_PREFIX) else {
        return (
            StatusCode::NOT_FOUND,
            format!(
                "recorder: {} is outside {VERSION_PREFIX}",
                request.path_and_query
            ),
        )
            .into_response();
    };
    let path = path.to_owned();
    let url = format!("{}{path}", upstream.origin);
    let answer = match forward::send(&upstream.http, "Prism", url, &request).await {
        Ok(answer) => answer,
        Err(refusal) => return refusal,
    };
    let header = |name: &str| {
        answer
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    let violations = header(VIOLATIONS_HEADER)
        .map(|text| serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text)));
    let exchange = Exchange {
        method: request.method.as_str().to_owned(),
        path,
        status: answer.status.as_u16(),
        content_type: header("content-type").unwrap_or_default(),
        violations,
        body: String::from_utf8_lossy(&answer.body)
            .chars()
            .take(KEPT_BODY)
            .collect(),
    };
    upstream.kept().push(exchange);
    answer.into_response()
}
