//! Reading a failed response: the error body the API documents (read
//! tolerantly), the status, `Retry-After`, and what a failed attempt means
//! for a retry. The API key is redacted from everything kept.

use crossborder_api::response::{read_body, ReadError, TooLarge};
use progenitor_client::Error as LowError;
use reqwest::StatusCode;
use serde_json::Value;

use super::Error;
use crate::retry::retry_after;

/// A failed attempt of this SDK, with what the retry decision needs.
pub(crate) type Failure = crate::retry::Failure<Error>;

/// Replaces every occurrence of `secret` in `text` by `[redacted]`, for
/// text that came from elsewhere (a server's error body).
pub(crate) fn redact(secret: &str, text: &str) -> String {
    if secret.is_empty() || !text.contains(secret) {
        text.to_owned()
    } else {
        text.replace(secret, "[redacted]")
    }
}

/// The first [`Error::BODY_PREFIX_LEN`] bytes of `body` as text, cut on a character
/// boundary.
pub(crate) fn body_prefix(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(Error::BODY_PREFIX_LEN)]);
    let mut text = text.into_owned();
    // A multi-byte character cut in half decodes as U+FFFD at the very end.
    if body.len() > Error::BODY_PREFIX_LEN && text.ends_with('\u{FFFD}') {
        text.pop();
    }
    text
}

/// The only status whose body the generated operations decode: the success
/// status of every operation of the spec (another 2xx reaches the mapping
/// as an unexpected response, with its status). Error statuses are never
/// decoded by the low-level client (checked by
/// `crates/crossborder-api/tests/it/error_statuses.rs`), so a body that does
/// not decode came with this status. The hand-written upload accepts any
/// 2xx (ASSUMPTIONS B2) and hands back as unexpected a 2xx other than 200
/// whose body it cannot read, so the same holds for it.
const DECODED_STATUS: u16 = 200;

/// Maps an error of the low-level client of `operation`, reading the body
/// of an unexpected response under `limit` bytes.
pub(crate) async fn map_error<E: serde::Serialize>(
    error: LowError<E>,
    key: &str,
    limit: u64,
    operation: &'static str,
) -> Failure {
    match error {
        LowError::InvalidRequest(message) | LowError::Custom(message) => {
            Failure::plain(Error::InvalidRequest {
                message: redact(key, &message),
            })
        }
        LowError::CommunicationError(error) => transport_failure(error),
        LowError::InvalidUpgrade(error) => Failure::plain(Error::Transport(error)),
        LowError::ResponseBodyError(error) => {
            if let Some(too_large) = crossborder_api::response::too_large(&error) {
                return too_large_failure(too_large, key, operation);
            }
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
        LowError::InvalidResponsePayload(body, error) => {
            Failure::plain(match missing_field(&body, &error) {
                Some(field) => Error::MissingField {
                    status: DECODED_STATUS,
                    field,
                    body: redact(key, &String::from_utf8_lossy(&body)),
                },
                None => Error::Decode {
                    status: Some(DECODED_STATUS),
                    message: redact(key, &error.to_string()),
                    body_prefix: redact(key, &body_prefix(&body)),
                },
            })
        }
        LowError::UnexpectedResponse(response) if response.status().is_redirection() => {
            // The client follows no redirect (`tls.rs`); the answer is not
            // read further.
            let status = response.status();
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .map(|value| redirect_location(key, value.as_bytes()));
            Failure {
                error: Error::Redirect {
                    status: status.as_u16(),
                    location,
                },
                not_sent: false,
                status: Some(status),
                retry_after: None,
            }
        }
        LowError::UnexpectedResponse(mut response) => {
            let status = response.status();
            let retry_after = retry_after(response.headers());
            let error = match read_body(&mut response, limit).await {
                Ok(body) if status.is_success() => Error::Decode {
                    status: Some(status.as_u16()),
                    message: format!("a {status} answer without the documented body"),
                    body_prefix: redact(key, &body_prefix(&body)),
                },
                Ok(body) => api_error(status, &body, key),
                Err(ReadError::TooLarge(too_large)) => too_large_error(&too_large, key, operation),
                Err(ReadError::Body(error)) if error.is_timeout() => Error::Timeout(error),
                Err(ReadError::Body(error)) => Error::Transport(error),
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

/// A `Location` header as one line of text: invalid UTF-8 and control
/// characters replaced, the API key scrubbed.
fn redirect_location(key: &str, bytes: &[u8]) -> String {
    let text: String = String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    redact(key, &text)
}

/// A body over the limit: its status decides retries as for any answer
/// with that status.
fn too_large_failure(too_large: &TooLarge, key: &str, operation: &'static str) -> Failure {
    Failure {
        error: too_large_error(too_large, key, operation),
        not_sent: false,
        status: StatusCode::from_u16(too_large.status).ok(),
        retry_after: None,
    }
}

fn too_large_error(too_large: &TooLarge, key: &str, operation: &'static str) -> Error {
    Error::ResponseTooLarge {
        operation,
        status: too_large.status,
        limit: too_large.limit,
        content_length: too_large.content_length,
        body_prefix: redact(key, &body_prefix(&too_large.prefix)),
    }
}

/// The field serde found missing when `error` is its "missing field"
/// error (`` missing field `fee` at line 1 column 80 ``; serde_json gives
/// no structured form of it) and `body` is a JSON object, the shape of
/// every answer of the API: anything else (an array whose items serde
/// read as fields, JSON too deep to read) is not an answer that lacks a
/// field but one of another shape, an [`Error::Decode`].
fn missing_field(body: &[u8], error: &serde_json::Error) -> Option<String> {
    if !error.is_data() || serde_json::from_slice::<serde_json::Map<String, Value>>(body).is_err() {
        return None;
    }
    let text = error.to_string();
    let rest = text.strip_prefix("missing field `")?;
    let end = rest.find('`')?;
    Some(rest[..end].to_owned())
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
pub(crate) fn api_error(status: StatusCode, body: &[u8], key: &str) -> Error {
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
                        redact(key, &error)
                    )
                },
                body_prefix: redact(key, &body_prefix(body)),
            }
        }
    };
    let message = redact(key, &wire.message);
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
            path: wire.path.map(|path| redact(key, &path)),
            timestamp: wire.timestamp,
            body: redact(key, &String::from_utf8_lossy(body)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::*;

    #[test]
    fn body_prefix_is_bounded() {
        let long = "é".repeat(1000);
        let prefix = body_prefix(long.as_bytes());
        assert!(prefix.len() <= Error::BODY_PREFIX_LEN);
        assert!(prefix.chars().all(|c| c == 'é'));
        assert_eq!(body_prefix(b""), "");
        assert_eq!(body_prefix(b"<html>"), "<html>");
    }

    #[test]
    fn status_of_variants() {
        assert_eq!(
            Error::InvalidApiKey {
                message: "Invalid api key".into()
            }
            .status(),
            Some(401)
        );
        let decode = Error::Decode {
            status: Some(502),
            message: "expected JSON".into(),
            body_prefix: "<html>".into(),
        };
        assert_eq!(decode.status(), Some(502));
        assert_eq!(
            decode.to_string(),
            "could not decode the response (HTTP 502): expected JSON"
        );
        assert_eq!(Error::SandboxOnly.status(), None);
    }

    fn key() -> &'static str {
        "test_secret123"
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

    /// Asserts that `error` is `expected`, field for field: `Error` has no
    /// `PartialEq` (some variants hold a `reqwest::Error`), and its `Debug`
    /// shows every field.
    fn assert_error_is(error: Error, expected: Error) {
        assert_eq!(format!("{error:?}"), format!("{expected:?}"));
    }

    #[test]
    fn error_table_rows() {
        let not_allowed = "not allowed to access this resource; contact support";
        let not_found = body(404, "Transaction not found: x");
        for (status, raw, expected) in [
            (
                StatusCode::FORBIDDEN,
                body(403, "API key header needed"),
                Error::MissingApiKeyHeader {
                    message: "API key header needed".into(),
                },
            ),
            (
                StatusCode::UNAUTHORIZED,
                body(401, "Invalid api key"),
                Error::InvalidApiKey {
                    message: "Invalid api key".into(),
                },
            ),
            (
                StatusCode::UNAUTHORIZED,
                body(401, not_allowed),
                Error::ApiAccessNotGranted {
                    message: not_allowed.into(),
                },
            ),
            (
                StatusCode::BAD_REQUEST,
                body(400, "Invalid currency: ABC"),
                Error::InvalidCurrency { code: "ABC".into() },
            ),
            (
                StatusCode::NOT_FOUND,
                not_found.clone(),
                Error::Api {
                    status: 404,
                    message: "Transaction not found: x".into(),
                    path: Some("/v1/api/balance/NGN".into()),
                    timestamp: Some("2026-11-21T12:00:00.000Z".into()),
                    body: String::from_utf8(not_found).unwrap(),
                },
            ),
        ] {
            assert_error_is(api_error(status, &raw, key()), expected);
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
            match api_error(StatusCode::BAD_GATEWAY, raw, k) {
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
            api_error(StatusCode::UNAUTHORIZED, br#"{"message":"Invalid api key"}"#, k),
            Error::InvalidApiKey { message } if message == "Invalid api key"
        ));
        // A statusCode that disagrees with the response does not matter.
        assert!(matches!(
            api_error(
                StatusCode::FORBIDDEN,
                &body(500, "API key header needed"),
                k
            ),
            Error::MissingApiKeyHeader { .. }
        ));
        // NestJS validation errors: an array of messages.
        let raw = br#"{"statusCode":400,"message":["a","b"],"path":7}"#;
        assert_error_is(
            api_error(StatusCode::BAD_REQUEST, raw, k),
            Error::Api {
                status: 400,
                message: "a; b".into(),
                path: None,
                timestamp: None,
                body: String::from_utf8_lossy(raw).into_owned(),
            },
        );
        assert!(matches!(
            api_error(StatusCode::BAD_REQUEST, br#"{"message":["Invalid currency: ABC"]}"#, k),
            Error::InvalidCurrency { code } if code == "ABC"
        ));
        for raw in [
            &br#"{"message":["a",1]}"#[..],
            br#"{"error":"Bad Request"}"#,
            br#"["message"]"#,
        ] {
            assert!(
                matches!(
                    api_error(StatusCode::BAD_REQUEST, raw, k),
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

    fn api(status: u16) -> Error {
        Error::Api {
            status,
            message: "m".into(),
            path: None,
            timestamp: None,
            body: String::new(),
        }
    }

    fn decode(status: Option<u16>) -> Error {
        Error::Decode {
            status,
            message: "m".into(),
            body_prefix: "<html>".into(),
        }
    }

    #[test]
    fn outcome_of_errors_raised_before_sending_is_not_applied() {
        let violations = Violations::from_vec(vec![crate::error::Violation::new(
            "amount",
            crate::error::Rule::Required,
            "is required",
        )])
        .unwrap();
        for error in [
            Error::Config("no key".into()),
            Error::Validation(violations),
            Error::SandboxOnly,
            Error::InvalidRequest {
                message: "m".into(),
            },
            Error::QuoteExpired {
                rate_key: "rk_1".into(),
                expired_at: "2026-11-21T12:00:00Z".into(),
            },
            Error::RecipientMismatch {
                account_number: "0123456789".into(),
                expected: "A".into(),
                resolved: "B".into(),
            },
        ] {
            assert_eq!(error.outcome(), Outcome::NotApplied, "{error:?}");
        }
    }

    #[test]
    fn outcome_of_a_4xx_answer_is_not_applied() {
        let k = key();
        for (status, message) in [
            (StatusCode::FORBIDDEN, "API key header needed"),
            (StatusCode::UNAUTHORIZED, "Invalid api key"),
            (StatusCode::UNAUTHORIZED, "Not allowed"),
            (StatusCode::BAD_REQUEST, "Invalid currency: ABC"),
            (StatusCode::BAD_REQUEST, "Insufficient balance"),
            (StatusCode::CONFLICT, "sessionId already used"),
            (StatusCode::TOO_MANY_REQUESTS, "slow down"),
        ] {
            let error = api_error(status, &body(status.as_u16(), message), k);
            assert_eq!(error.outcome(), Outcome::NotApplied, "{error:?}");
        }
        // A 4xx from something other than the API (a proxy's HTML page).
        assert_eq!(decode(Some(413)).outcome(), Outcome::NotApplied);
        assert_eq!(api(499).outcome(), Outcome::NotApplied);
    }

    #[test]
    fn outcome_of_a_5xx_answer_may_have_been_applied() {
        for status in [500, 502, 503, 504, 599] {
            assert_eq!(api(status).outcome(), Outcome::MayHaveBeenApplied);
            // A proxy's 502 or 503 page, which is not an API error body.
            assert_eq!(decode(Some(status)).outcome(), Outcome::MayHaveBeenApplied);
        }
        // Neither a success nor a refusal, or no status at all.
        assert_eq!(api(302).outcome(), Outcome::MayHaveBeenApplied);
        assert_eq!(decode(None).outcome(), Outcome::MayHaveBeenApplied);
    }

    #[test]
    fn outcome_of_a_2xx_without_the_apis_body_may_have_been_applied() {
        // A captive portal's HTML or an empty body behind a 200: nothing
        // proves the API saw the request.
        assert_eq!(decode(Some(200)).outcome(), Outcome::MayHaveBeenApplied);
        assert_eq!(decode(Some(201)).outcome(), Outcome::MayHaveBeenApplied);
        let too_large = |status| Error::ResponseTooLarge {
            operation: "initiatePayment",
            status,
            limit: 1024,
            content_length: None,
            body_prefix: "<html>".into(),
        };
        assert_eq!(too_large(200).outcome(), Outcome::MayHaveBeenApplied);
        assert_eq!(too_large(502).outcome(), Outcome::MayHaveBeenApplied);
        assert_eq!(too_large(400).outcome(), Outcome::NotApplied);
        // The API's own answer with a documented field missing: applied.
        let missing = Error::MissingField {
            status: 200,
            field: "fee".into(),
            body: "{}".into(),
        };
        assert_eq!(missing.outcome(), Outcome::Applied);
    }

    #[test]
    fn outcome_of_a_wait_that_ran_out_is_applied() {
        let wire: crossborder_api::types::Transaction = serde_json::from_value(serde_json::json!({
            "transactionId": "txn_1",
            "paymentReference": "s-1",
            "amount": 10,
            "toAmount": 10,
            "totalAmount": 10,
            "rate": 1,
            "fee": 0,
            "status": "PENDING",
            "fromCurrency": "NGN",
            "toCurrency": "NGN"
        }))
        .unwrap();
        let transaction = Transaction::from(wire);
        let waited = Error::WaitTimeout {
            last: Box::new(transaction),
        };
        assert_eq!(waited.outcome(), Outcome::Applied);
    }

    /// The error of a real request to `url` with a 300 ms timeout.
    async fn transport_error(url: String) -> Failure {
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_millis(300))
            .build()
            .unwrap();
        let error = http.post(url).body("{}").send().await.unwrap_err();
        transport_failure(error)
    }

    #[tokio::test]
    async fn outcome_of_a_refused_connection_is_not_applied_and_it_is_retried() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let failure = transport_error(format!("http://{addr}/v1/api/payout")).await;
        assert!(matches!(failure.error, Error::Transport(_)), "{failure:?}");
        assert_eq!(failure.error.outcome(), Outcome::NotApplied);
        assert!(failure.not_sent);
    }

    /// A name that never resolves: the connect timeout runs out before a
    /// connection exists, so nothing can have been sent.
    struct NeverResolves;

    impl reqwest::dns::Resolve for NeverResolves {
        fn resolve(&self, _: reqwest::dns::Name) -> reqwest::dns::Resolving {
            Box::pin(std::future::pending())
        }
    }

    #[tokio::test]
    async fn outcome_of_a_connect_timeout_is_not_applied_and_it_is_retried() {
        let http = reqwest::Client::builder()
            .dns_resolver(std::sync::Arc::new(NeverResolves))
            .connect_timeout(std::time::Duration::from_millis(100))
            .timeout(std::time::Duration::from_secs(5))
            .build()
            .unwrap();
        let error = http
            .post("http://api.crossborder.invalid/v1/api/payout")
            .body("{}")
            .send()
            .await
            .unwrap_err();
        let failure = transport_failure(error);
        assert!(matches!(failure.error, Error::Timeout(_)), "{failure:?}");
        assert_eq!(failure.error.outcome(), Outcome::NotApplied);
        assert!(failure.not_sent);
    }

    #[tokio::test]
    async fn outcome_of_a_timeout_after_connecting_may_have_been_applied() {
        // The kernel completes the handshake; nobody ever answers.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let failure = transport_error(format!("http://{addr}/v1/api/payout")).await;
        assert!(matches!(failure.error, Error::Timeout(_)), "{failure:?}");
        assert_eq!(failure.error.outcome(), Outcome::MayHaveBeenApplied);
        assert!(!failure.not_sent);
        drop(listener);
    }

    #[tokio::test]
    async fn outcome_of_a_connection_closed_after_sending_may_have_been_applied() {
        use std::io::Read;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            // Read the request, then close without answering.
            let mut request = Vec::new();
            let mut chunk = [0u8; 1024];
            while !request.ends_with(b"{}") {
                let read = stream.read(&mut chunk).unwrap();
                assert!(read > 0, "the request was not sent whole");
                request.extend_from_slice(&chunk[..read]);
            }
        });
        let failure = transport_error(format!("http://{addr}/v1/api/payout")).await;
        server.join().unwrap();
        assert!(matches!(failure.error, Error::Transport(_)), "{failure:?}");
        assert_eq!(failure.error.outcome(), Outcome::MayHaveBeenApplied);
        assert!(!failure.not_sent);
    }

    #[test]
    fn the_key_is_scrubbed_from_server_text() {
        let error = api_error(
            StatusCode::BAD_REQUEST,
            &body(400, "bad key test_secret123"),
            key(),
        );
        let text = format!("{error} {error:?}");
        assert!(!text.contains("secret123"), "{text}");
    }
}
