//! A forwarder on 127.0.0.1 between Prism and the sandbox that passes
//! everything through unchanged, except that it can be told to replace the
//! body of the next answer. It lets the conformance test prove that Prism
//! would notice a sandbox answer that breaks the spec: the sandbox itself
//! never sends one.

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};

use super::forward;

/// The running forwarder.
pub struct Tamper(forward::Forwarder<Option<String>>);

/// Kept: the body that replaces the next answer's, if any.
type Upstream = forward::Upstream<Option<String>>;

impl Tamper {
    /// Starts a forwarder to `upstream_origin` (`http://HOST:PORT`); each
    /// request keeps its path.
    pub async fn start(upstream_origin: &str) -> Tamper {
        Tamper(forward::Forwarder::start(upstream_origin, "", pass).await)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> &str {
        self.0.url()
    }

    /// Replaces the body of the next answer with `body`, sent as JSON; the
    /// status and the other headers stay the upstream's.
    pub fn replace_next_body(&self, body: &str) {
        *self.0.kept() = Some(body.to_owned());
    }
}

async fn pass(State(upstream): State<Upstream>, request: Request) -> Response {
    let request = match forward::incoming(request).await {
        Ok(request) => request,
        Err(refusal) => return refusal,
    };
    let url = format!("{}{}", upstream.origin, request.path_and_query);
    let mut answer = match forward::send(&upstream.http, "the sandbox", url, &request).await {
        Ok(answer) => answer,
        Err(refusal) => return refusal,
    };
    let replacement = upstream.kept().take();
    if let Some(replacement) = replacement {
        answer
            .headers
            .insert("content-type", HeaderValue::from_static("application/json"));
        answer.body = Bytes::from(replacement);
    }
    answer.into_response()
}
