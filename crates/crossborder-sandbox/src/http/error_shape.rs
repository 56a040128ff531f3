//! The step of every answer that gives every error response the API's
//! error shape, a handler's panic included.

use std::panic::AssertUnwindSafe;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use crossborder_api::types::{ErrorRequest, ErrorResponse};
use futures_util::FutureExt;

use crate::http::error::{ApiError, PendingError};
use crate::store::state::AppState;
use crate::timestamp::rfc3339;

/// Writes every 4xx and 5xx response of `serve` in the API's error shape,
/// with the timestamp, the request path and the request's method and URL
/// (path and query). Headers of the original response (such as `Allow` on
/// a 405) are kept. A handler that panics is answered 500 `Internal server
/// error` in the same shape, and the server goes on.
pub(crate) async fn envelope(
    state: &AppState,
    request: Request,
    serve: impl AsyncFnOnce(Request) -> Response,
) -> Response {
    // Reference-counted copies: the error body's strings are built only
    // when there is an error, not on every request.
    let method = request.method().clone();
    let uri = request.uri().clone();

    let response = match AssertUnwindSafe(serve(request)).catch_unwind().await {
        Ok(response) => response,
        Err(_) => {
            tracing::error!(%method, path = uri.path(), "a handler panicked");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    };
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }

    let (mut parts, _body) = response.into_parts();
    let error = match parts.extensions.remove::<PendingError>() {
        Some(PendingError(error)) => error,
        None => ApiError::new(status, default_message(status)),
    };
    let body = ErrorResponse {
        status_code: i64::from(error.status.as_u16()),
        message: error.message,
        timestamp: Some(rfc3339(state.now())),
        path: Some(uri.path().to_owned()),
        request: Some(ErrorRequest {
            method: method.to_string(),
            url: uri
                .path_and_query()
                .map_or_else(|| uri.path().to_owned(), |pq| pq.as_str().to_owned()),
        }),
        errors: error.errors,
    };
    let json = serde_json::to_vec(&body)
        .unwrap_or_else(|_| br#"{"statusCode":500,"message":"Internal server error"}"#.to_vec());
    parts.status = error.status;
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(json))
}

/// The message of an error response that did not come from an
/// [`ApiError`].
fn default_message(status: StatusCode) -> String {
    match status {
        StatusCode::NOT_FOUND => "Route not found".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => "Method not allowed".to_owned(),
        StatusCode::INTERNAL_SERVER_ERROR => "Internal server error".to_owned(),
        other => other
            .canonical_reason()
            .unwrap_or("Request failed")
            .to_owned(),
    }
}
