//! Sends one operation: the retry loop, its tracing span, and the mapping of
//! the low-level client's errors to [`Error`].

use std::future::Future;
use std::time::{Duration, Instant};

use progenitor_client::{Error as LowError, ResponseValue};
use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::Value;
use tracing::Instrument;

use crate::api_key::ApiKey;
use crate::error::{body_prefix, Error};
use crate::retry::{
    is_retryable_status, parse_retry_after, Idempotency, RetryDecision, RetryPolicy,
};

/// What the executor needs to know about an operation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Operation {
    /// The operation id of the OpenAPI document (`getQuote`).
    pub id: &'static str,
    /// The HTTP method, for the span.
    pub method: &'static str,
    /// Whether it may be repeated.
    pub idempotency: Idempotency,
}

impl Operation {
    /// A read (`GET`).
    pub const fn get(id: &'static str) -> Operation {
        Operation {
            id,
            method: "GET",
            idempotency: Idempotency::Read,
        }
    }

    /// A write with the given method.
    pub const fn write(id: &'static str, method: &'static str) -> Operation {
        Operation {
            id,
            method,
            idempotency: Idempotency::Write,
        }
    }
}

/// A failed attempt, with what the retry decision needs.
#[derive(Debug)]
pub(crate) struct Failure {
    pub error: Error,
    /// The request provably never reached the server (connect error).
    pub not_sent: bool,
    pub status: Option<StatusCode>,
    pub retry_after: Option<Duration>,
}

impl Failure {
    fn plain(error: Error) -> Failure {
        Failure {
            error,
            not_sent: false,
            status: None,
            retry_after: None,
        }
    }
}

/// Decides what to do after failed attempt number `attempt` (1-based).
pub(crate) fn decide(
    policy: &RetryPolicy,
    idempotency: Idempotency,
    failure: &Failure,
    attempt: u32,
) -> RetryDecision {
    if attempt >= policy.attempts() {
        return RetryDecision::Stop;
    }
    if failure.not_sent {
        // Nothing reached the server: repeating the identical request is
        // safe for reads and writes alike.
        return RetryDecision::Backoff;
    }
    match (idempotency, failure.status) {
        (Idempotency::Read, Some(status)) if is_retryable_status(status) => {
            match failure.retry_after {
                Some(wait) if wait <= policy.max_wait() => RetryDecision::After(wait),
                Some(_) => RetryDecision::Stop,
                None => RetryDecision::Backoff,
            }
        }
        _ => RetryDecision::Stop,
    }
}

/// Runs `send` under `policy`, in a span named after the operation.
///
/// `send` builds and sends the request anew for each attempt, always from
/// the same values, so a retried write carries the same body.
pub(crate) async fn execute<T, E, F, Fut>(
    key: &ApiKey,
    policy: &RetryPolicy,
    operation: Operation,
    mut send: F,
) -> Result<ResponseValue<T>, Error>
where
    E: serde::Serialize,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<ResponseValue<T>, LowError<E>>>,
{
    let span = tracing::info_span!(
        "crossborder.request",
        operation = operation.id,
        http.method = operation.method,
        http.status = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        attempts = tracing::field::Empty,
    );
    async move {
        let started = Instant::now();
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let failure = match send().await {
                Ok(value) => {
                    record(started, attempt, Some(value.status()));
                    return Ok(value);
                }
                Err(error) => map_error(error, key).await,
            };
            let wait = match decide(policy, operation.idempotency, &failure, attempt) {
                RetryDecision::Stop => {
                    record(started, attempt, failure.status);
                    tracing::debug!(error = %failure.error, "request failed");
                    return Err(failure.error);
                }
                RetryDecision::Backoff => policy.backoff(attempt - 1),
                RetryDecision::After(wait) => wait,
            };
            tracing::debug!(
                attempt,
                wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                status = failure.status.map(|s| s.as_u16()),
                error = %failure.error,
                "retrying"
            );
            tokio::time::sleep(wait).await;
        }
    }
    .instrument(span)
    .await
}

fn record(started: Instant, attempts: u32, status: Option<StatusCode>) {
    let span = tracing::Span::current();
    if let Some(status) = status {
        span.record("http.status", status.as_u16());
    }
    span.record(
        "duration_ms",
        u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    );
    span.record("attempts", attempts);
}

/// The only status whose body the generated operations (and the
/// hand-written upload) decode: the success status of every operation of the
/// spec. Error statuses are never decoded by the low-level client (checked
/// by `crates/crossborder-api/tests/error_statuses.rs`), so a body that does
/// not decode came with this status.
const DECODED_STATUS: u16 = 200;

/// Maps an error of the low-level client, reading the body of an unexpected
/// response.
pub(crate) async fn map_error<E: serde::Serialize>(error: LowError<E>, key: &ApiKey) -> Failure {
    match error {
        LowError::InvalidRequest(message) | LowError::Custom(message) => {
            Failure::plain(Error::InvalidRequest {
                message: key.redact(&message),
            })
        }
        LowError::CommunicationError(error) => transport_failure(error),
        LowError::InvalidUpgrade(error) => Failure::plain(Error::Transport(error)),
        LowError::ResponseBodyError(error) => {
            let status = error.status();
            let mut failure = transport_failure(error);
            failure.not_sent = false;
            failure.status = status;
            failure
        }
        // No generated operation declares an error response (the xtask
        // gives progenitor only the 2xx ones), so error statuses arrive as
        // `UnexpectedResponse`; this arm only keeps the mapping total.
        LowError::ErrorResponse(value) => {
            let status = value.status();
            let retry_after = retry_after(value.headers());
            let body = serde_json::to_vec(value.as_ref()).unwrap_or_default();
            Failure {
                error: api_error(status, &body, key),
                not_sent: false,
                status: Some(status),
                retry_after,
            }
        }
        LowError::InvalidResponsePayload(body, error) => Failure::plain(Error::Decode {
            status: Some(DECODED_STATUS),
            message: key.redact(&error.to_string()),
            body_prefix: key.redact(&body_prefix(&body)),
        }),
        LowError::UnexpectedResponse(response) => {
            let status = response.status();
            let retry_after = retry_after(response.headers());
            let error = match response.bytes().await {
                Ok(body) if status.is_success() => Error::Decode {
                    status: Some(status.as_u16()),
                    message: format!("unexpected success status {status}"),
                    body_prefix: key.redact(&body_prefix(&body)),
                },
                Ok(body) => api_error(status, &body, key),
                Err(error) if error.is_timeout() => Error::Timeout(error),
                Err(error) => Error::Transport(error),
            };
            Failure {
                error,
                not_sent: false,
                status: Some(status),
                retry_after,
            }
        }
    }
}

fn transport_failure(error: reqwest::Error) -> Failure {
    if error.is_builder() {
        return Failure::plain(Error::Config(format!(
            "the request could not be built: {error}"
        )));
    }
    let not_sent = error.is_connect();
    let error = if error.is_timeout() {
        Error::Timeout(error)
    } else {
        Error::Transport(error)
    };
    Failure {
        error,
        not_sent,
        status: None,
        retry_after: None,
    }
}

fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    parse_retry_after(headers.get(RETRY_AFTER)?.to_str().ok()?)
}

/// The documented error body, read tolerantly (see [`read_error_body`]).
#[derive(Debug, PartialEq, Eq)]
struct WireError {
    message: String,
    path: Option<String>,
    timestamp: Option<String>,
}

/// Reads an error body: a JSON object whose `message` is a string, or an
/// array of strings (as NestJS validation errors send it), joined with
/// `; `. `statusCode` is not needed (the status is the HTTP response's);
/// `path` and `timestamp` are kept when they are strings. Anything else is
/// described in the `Err`.
fn read_error_body(body: &[u8]) -> Result<WireError, String> {
    let value: Value = serde_json::from_slice(body).map_err(|error| error.to_string())?;
    let Value::Object(object) = value else {
        return Err("the body is not a JSON object".to_owned());
    };
    let message = match object.get("message") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str())
            .collect::<Option<Vec<_>>>()
            .ok_or("`message` is an array with an item that is not a string")?
            .join("; "),
        Some(_) => return Err("`message` is neither a string nor an array of strings".to_owned()),
        None => return Err("the body has no `message`".to_owned()),
    };
    let text = |name: &str| object.get(name).and_then(Value::as_str).map(str::to_owned);
    Ok(WireError {
        message,
        path: text("path"),
        timestamp: text("timestamp"),
    })
}

/// The message prefix of the 400 for an unsupported currency.
const INVALID_CURRENCY: &str = "Invalid currency: ";
/// The exact message of the 401 for an unknown key.
const INVALID_API_KEY: &str = "Invalid api key";

/// Maps an error status and its raw body to the matching variant. The
/// status is always the HTTP response's, whatever the body says.
pub(crate) fn api_error(status: StatusCode, body: &[u8], key: &ApiKey) -> Error {
    let wire = match read_error_body(body) {
        Ok(wire) => wire,
        Err(error) => {
            return Error::Decode {
                status: Some(status.as_u16()),
                message: if body.is_empty() {
                    format!("HTTP {status} with an empty body")
                } else {
                    format!(
                        "HTTP {status} with a body that is not an API error: {}",
                        key.redact(&error)
                    )
                },
                body_prefix: key.redact(&body_prefix(body)),
            }
        }
    };
    let message = key.redact(&wire.message);
    match status.as_u16() {
        403 => Error::MissingApiKeyHeader { message },
        401 if message == INVALID_API_KEY => Error::InvalidApiKey { message },
        401 => Error::ApiAccessNotGranted { message },
        400 if message.starts_with(INVALID_CURRENCY) => Error::InvalidCurrency {
            code: message[INVALID_CURRENCY.len()..].trim().to_owned(),
        },
        code => Error::Api {
            status: code,
            message,
            path: wire.path.map(|path| key.redact(&path)),
            timestamp: wire.timestamp,
            body: key.redact(&String::from_utf8_lossy(body)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> ApiKey {
        ApiKey::new("test_secret123").unwrap()
    }

    fn body(status: u16, message: &str) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "statusCode": status,
            "message": message,
            "timestamp": "2026-11-21T12:00:00.000Z",
            "path": "/v1/api/balance/NGN",
            "request": {"method": "GET", "url": "/v1/api/balance/NGN"}
        }))
        .unwrap()
    }

    #[test]
    fn error_table_rows() {
        let k = key();
        assert!(matches!(
            api_error(StatusCode::FORBIDDEN, &body(403, "API key header needed"), &k),
            Error::MissingApiKeyHeader { message } if message == "API key header needed"
        ));
        assert!(matches!(
            api_error(StatusCode::UNAUTHORIZED, &body(401, "Invalid api key"), &k),
            Error::InvalidApiKey { message } if message == "Invalid api key"
        ));
        let not_allowed = "Not allowed to access this resource; contact support";
        assert!(matches!(
            api_error(StatusCode::UNAUTHORIZED, &body(401, not_allowed), &k),
            Error::ApiAccessNotGranted { message } if message == not_allowed
        ));
        assert!(matches!(
            api_error(StatusCode::BAD_REQUEST, &body(400, "Invalid currency: ABC"), &k),
            Error::InvalidCurrency { code } if code == "ABC"
        ));
        match api_error(
            StatusCode::NOT_FOUND,
            &body(404, "Transaction not found: x"),
            &k,
        ) {
            Error::Api {
                status,
                message,
                path,
                timestamp,
                body,
            } => {
                assert_eq!(status, 404);
                assert_eq!(message, "Transaction not found: x");
                assert_eq!(path.as_deref(), Some("/v1/api/balance/NGN"));
                assert_eq!(timestamp.as_deref(), Some("2026-11-21T12:00:00.000Z"));
                assert!(body.contains("\"request\""));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn non_json_error_bodies_are_decode_errors() {
        let k = key();
        for raw in [
            &b"<html>502 Bad Gateway</html>"[..],
            b"",
            b"{\"message\":",
            b"{\"message\":7}",
        ] {
            match api_error(StatusCode::BAD_GATEWAY, raw, &k) {
                Error::Decode {
                    status,
                    body_prefix,
                    ..
                } => {
                    assert_eq!(status, Some(502));
                    assert_eq!(body_prefix.as_bytes(), raw);
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn error_bodies_are_read_tolerantly() {
        let k = key();
        // No statusCode: the status is the response's.
        assert!(matches!(
            api_error(StatusCode::UNAUTHORIZED, br#"{"message":"Invalid api key"}"#, &k),
            Error::InvalidApiKey { message } if message == "Invalid api key"
        ));
        // A statusCode that disagrees with the response does not matter.
        assert!(matches!(
            api_error(
                StatusCode::FORBIDDEN,
                &body(500, "API key header needed"),
                &k
            ),
            Error::MissingApiKeyHeader { .. }
        ));
        // NestJS validation errors: an array of messages.
        let raw = br#"{"statusCode":400,"message":["a","b"],"path":7}"#;
        match api_error(StatusCode::BAD_REQUEST, raw, &k) {
            Error::Api {
                status,
                message,
                path,
                body,
                ..
            } => {
                assert_eq!(status, 400);
                assert_eq!(message, "a; b");
                assert_eq!(path, None);
                assert_eq!(body.as_bytes(), raw);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            api_error(StatusCode::BAD_REQUEST, br#"{"message":["Invalid currency: ABC"]}"#, &k),
            Error::InvalidCurrency { code } if code == "ABC"
        ));
        for raw in [
            &br#"{"message":["a",1]}"#[..],
            br#"{"error":"Bad Request"}"#,
            br#"["message"]"#,
        ] {
            assert!(
                matches!(
                    api_error(StatusCode::BAD_REQUEST, raw, &k),
                    Error::Decode {
                        status: Some(400),
                        ..
                    }
                ),
                "{}",
                String::from_utf8_lossy(raw)
            );
        }
    }

    #[test]
    fn the_key_is_scrubbed_from_server_text() {
        let error = api_error(
            StatusCode::BAD_REQUEST,
            &body(400, "bad key test_secret123"),
            &key(),
        );
        let text = format!("{error} {error:?}");
        assert!(!text.contains("secret123"), "{text}");
    }

    fn failure(status: Option<u16>, not_sent: bool, retry_after: Option<Duration>) -> Failure {
        Failure {
            error: Error::SandboxOnly,
            not_sent,
            status: status.map(|s| StatusCode::from_u16(s).unwrap()),
            retry_after,
        }
    }

    #[test]
    fn decisions() {
        let policy = RetryPolicy::default();
        let read = Idempotency::Read;
        let write = Idempotency::Write;
        assert_eq!(
            decide(&policy, read, &failure(Some(503), false, None), 1),
            RetryDecision::Backoff
        );
        assert_eq!(
            decide(&policy, read, &failure(Some(503), false, None), 3),
            RetryDecision::Stop
        );
        assert_eq!(
            decide(&policy, read, &failure(Some(500), false, None), 1),
            RetryDecision::Stop
        );
        assert_eq!(
            decide(
                &policy,
                read,
                &failure(Some(429), false, Some(Duration::from_secs(1))),
                1
            ),
            RetryDecision::After(Duration::from_secs(1))
        );
        assert_eq!(
            decide(
                &policy,
                read,
                &failure(Some(429), false, Some(Duration::from_secs(60))),
                1
            ),
            RetryDecision::Stop
        );
        for status in [429, 500, 502, 503, 504] {
            assert_eq!(
                decide(&policy, write, &failure(Some(status), false, None), 1),
                RetryDecision::Stop
            );
        }
        assert_eq!(
            decide(&policy, write, &failure(None, false, None), 1),
            RetryDecision::Stop
        );
        assert_eq!(
            decide(&policy, write, &failure(None, true, None), 1),
            RetryDecision::Backoff
        );
        assert_eq!(
            decide(&RetryPolicy::none(), read, &failure(None, true, None), 1),
            RetryDecision::Stop
        );
    }
}
