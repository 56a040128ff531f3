//! Reading a JSON request body: a JSON content type and a size limit, or a
//! clear 4xx, so nothing a client sends can make axum answer with its own
//! plain-text rejections. [`crate::http::body`] parses what this reads.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, StatusCode};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::http::error::ApiError;

/// Refuses a body that does not say it is JSON: 400 `Content-Type must be
/// application/json; got <type>` (or `; none was sent`). `application/json`
/// with any parameters (`; charset=utf-8`) and the `application/*+json`
/// types are JSON. A service that only parses JSON it is told is JSON would
/// read such a body as empty; accepting it here would let a client that
/// forgets the header pass in the sandbox and fail in production
/// (ASSUMPTIONS B40).
pub(crate) fn require_json_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(ApiError::bad_request(
            "Content-Type must be application/json; none was sent",
        ));
    };
    let text = String::from_utf8_lossy(value.as_bytes());
    let media_type = text.split(';').next().unwrap_or_default().trim();
    let lower = media_type.to_ascii_lowercase();
    let json = lower == "application/json"
        || (lower.starts_with("application/") && lower.ends_with("+json"));
    if json {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "Content-Type must be application/json; got {}",
            shown(media_type)
        )))
    }
}

/// At most 100 characters of a value the client sent, for a message.
fn shown(text: &str) -> String {
    const MAX: usize = 100;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

/// Reads a whole request body, refusing more than `limit` bytes with 413
/// (at once when `Content-Length` says so), and a client that stops sending
/// for `idle` with 408 `Request body stalled: no data for <n> ms`, so a
/// body shorter than its declared length never holds a request open for
/// ever.
pub(crate) async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
    idle: Duration,
) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::too_large(limit));
    }
    let mut body = Limited::new(body, limit);
    let mut whole = Vec::new();
    loop {
        let frame = match tokio::time::timeout(idle, body.frame()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => return Ok(Bytes::from(whole)),
            Err(_) => {
                return Err(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("Request body stalled: no data for {} ms", idle.as_millis()),
                ))
            }
        };
        match frame {
            Ok(frame) => {
                if let Ok(data) = frame.into_data() {
                    whole.extend_from_slice(&data);
                }
            }
            Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
                return Err(ApiError::too_large(limit))
            }
            Err(error) => {
                return Err(ApiError::bad_request(format!(
                    "Could not read the request body: {error}"
                )))
            }
        }
    }
}

/// How deeply a request body may nest objects and arrays: the top-level
/// object is level 1. The deepest body of the spec nests 3 levels
/// (`documents.cac.url`). [`crate::http::body`]'s one pass stops there, so no
/// body costs more than a bounded stack and time (ASSUMPTIONS B40).
pub(crate) const MAX_JSON_DEPTH: usize = 32;

/// 400 for a body nested deeper than [`MAX_JSON_DEPTH`].
pub(crate) fn too_deep() -> ApiError {
    ApiError::bad_request(format!(
        "Request body is nested deeper than {MAX_JSON_DEPTH} levels"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_json_content_types_are_read() {
        let headers = |value: Option<&str>| {
            let mut headers = HeaderMap::new();
            if let Some(value) = value {
                headers.insert(header::CONTENT_TYPE, value.parse().unwrap());
            }
            headers
        };
        for accepted in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/problem+json",
        ] {
            assert!(
                require_json_content_type(&headers(Some(accepted))).is_ok(),
                "{accepted}"
            );
        }
        for (sent, message) in [
            (None, "Content-Type must be application/json; none was sent"),
            (
                Some("text/plain; charset=utf-8"),
                "Content-Type must be application/json; got text/plain",
            ),
            (
                Some("application/x-www-form-urlencoded"),
                "Content-Type must be application/json; got application/x-www-form-urlencoded",
            ),
            (
                Some("json"),
                "Content-Type must be application/json; got json",
            ),
        ] {
            let Err(error) = require_json_content_type(&headers(sent)) else {
                panic!("{sent:?} accepted");
            };
            assert_eq!(error.status(), axum::http::StatusCode::BAD_REQUEST);
            assert_eq!(error.message(), message);
        }
        let long = format!("text/{}", "x".repeat(200));
        let Err(error) = require_json_content_type(&headers(Some(&long))) else {
            panic!("accepted");
        };
        assert_eq!(
            error.message(),
            format!(
                "Content-Type must be application/json; got text/{}...",
                "x".repeat(95)
            )
        );
    }
}
