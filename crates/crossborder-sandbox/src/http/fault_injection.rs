//! The step of every answer that injects request faults (see [`crate::faults`]):
//! each `/v1` request made with a known key draws once from its business's
//! request stream; a refused request never reaches its handler, an applied
//! write reaches it and its answer is replaced (or its connection closed).
//! The changed response carries [`InjectedFault`] for the request log and
//! the control API's request list.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::faults::{FaultKind, InjectedFault, ANSWER_HOLD, RETRY_AFTER_SECS};
use crate::http::error::ApiError;
use crate::store::account::BusinessId;
use crate::store::state::AppState;

/// Draws a request fault for a request of `owner` (a `/v1` request with a
/// known key) and injects it; `serve` answers the request when it is
/// served.
pub(crate) async fn inject(
    state: &AppState,
    owner: Option<BusinessId>,
    request: Request,
    serve: impl AsyncFnOnce(Request) -> Response,
) -> Response {
    let Some(owner) = owner else {
        return serve(request).await;
    };
    let method = request.method().clone();
    let write = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
    let Some(kind) = state.faults().draw_request(owner, write) else {
        return serve(request).await;
    };
    let mut target = format!("{method} {}", request.uri().path());
    let (response, applied) = match kind {
        FaultKind::WriteApplied502
        | FaultKind::WriteApplied504
        | FaultKind::WriteAppliedClose
        | FaultKind::WriteAppliedHeld => {
            let served = serve(request).await;
            let status = served.status();
            // The object the lost answer named, so that a test can tell
            // which write it was.
            let body = axum::body::to_bytes(served.into_body(), ANSWER_READ_LIMIT)
                .await
                .unwrap_or_default();
            if let Some(named) = named_object(&body) {
                target = format!("{target} ({named})");
            }
            let applied = if status.is_success() {
                format!("applied, answered {}; the answer was lost", status.as_u16())
            } else {
                format!(
                    "served, answered {} (nothing applied); the answer was lost",
                    status.as_u16()
                )
            };
            if kind == FaultKind::WriteAppliedHeld {
                // Recorded before the hold, so that the fault is listed while
                // the client waits.
                state
                    .faults()
                    .record(owner, state.now(), kind, target, applied);
                tokio::time::sleep(ANSWER_HOLD).await;
                let mut response =
                    ApiError::new(StatusCode::GATEWAY_TIMEOUT, "Gateway Timeout").into_response();
                response.extensions_mut().insert(InjectedFault(kind));
                return response;
            }
            (faulted(kind), applied)
        }
        _ => (faulted(kind), "refused before it was served".to_owned()),
    };
    state
        .faults()
        .record(owner, state.now(), kind, target, applied);
    let mut response = response;
    response.extensions_mut().insert(InjectedFault(kind));
    response
}

/// The most of a lost answer read to find the object it names (the API's
/// answers to writes are small).
const ANSWER_READ_LIMIT: usize = 1024 * 1024;

/// `sessionId <id>`, `paymentReference <ref>` or `businessId <id>`: the
/// first the answer names, at its top level or in its `data`.
fn named_object(body: &[u8]) -> Option<String> {
    let answer: serde_json::Value = serde_json::from_slice(body).ok()?;
    ["sessionId", "paymentReference", "businessId"]
        .into_iter()
        .find_map(|name| {
            let value = answer.get(name).or_else(|| answer.get("data")?.get(name))?;
            Some(format!("{name} {}", value.as_str()?))
        })
}

/// The answer the client gets instead.
fn faulted(kind: FaultKind) -> Response {
    match kind {
        FaultKind::WriteApplied502 | FaultKind::Read502 => {
            ApiError::new(StatusCode::BAD_GATEWAY, "Bad Gateway").into_response()
        }
        FaultKind::WriteApplied504 => {
            ApiError::new(StatusCode::GATEWAY_TIMEOUT, "Gateway Timeout").into_response()
        }
        FaultKind::WriteRefused503 | FaultKind::Read503 => {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "Service Unavailable").into_response()
        }
        FaultKind::WriteRefused429 | FaultKind::Read429 => {
            let mut response =
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, "Too Many Requests").into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
            response
        }
        // A body that fails before its first byte: the server closes the
        // connection without writing an answer.
        _ => {
            let failing = futures_util::stream::once(async {
                Err::<bytes::Bytes, _>(std::io::Error::new(
                    std::io::ErrorKind::ConnectionAborted,
                    "connection closed by the sandbox's fault injection",
                ))
            });
            Response::new(Body::from_stream(failing))
        }
    }
}
