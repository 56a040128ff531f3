//! The one error type of the SDK, and how a failed attempt becomes one:
//! the low-level client's errors mapped to [`Error`] variants, and the
//! API's error body read tolerantly (`message` a string or an array of
//! strings, `statusCode` optional, the HTTP status and the raw body kept).

use std::fmt;

use progenitor_client::Error as LowError;
use reqwest::StatusCode;
use serde_json::Value;

use crate::api_key::ApiKey;
use crate::retry::{retry_after, Failure};

use crate::types::Transaction;
use crate::Violations;

/// Shorthand for `Result<T, crossborder::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How many bytes of an undecodable body [`Error::Decode`] keeps.
pub const BODY_PREFIX_LEN: usize = 512;

/// Everything that can go wrong, as variants a caller can match on.
///
/// No variant ever contains the API key: it is not part of any message, and
/// it is scrubbed from any text the server sends back.
///
/// ```
/// # async fn run(client: crossborder::Client) {
/// use crossborder::{Currency, Error};
///
/// match client.wallet().balance(Currency::Ngn).await {
///     Ok(balance) => println!("{balance}"),
///     Err(Error::InvalidApiKey { .. }) => eprintln!("check CROSSBORDER_API_KEY"),
///     Err(error) if error.is_not_found() => eprintln!("not found: {error}"),
///     Err(other) => eprintln!("{other}"),
/// }
/// # }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The client is misconfigured (missing or malformed API key, bad base
    /// URL, HTTP client that cannot be built). Raised before any request.
    #[error("configuration error: {0}")]
    Config(String),

    /// The request breaks the API's rules; nothing was sent. Every violation
    /// is listed at once, each with the wire name of its field.
    #[error("invalid request: {0}")]
    Validation(Violations),

    /// HTTP 403: the request reached the API without the `x-api-key` header.
    #[error("{message} (HTTP 403)")]
    MissingApiKeyHeader {
        /// The server's message (`API key header needed`).
        message: String,
    },

    /// HTTP 401 `Invalid api key`: the key is unknown or was revoked.
    #[error("{message} (HTTP 401)")]
    InvalidApiKey {
        /// The server's message (`Invalid api key`).
        message: String,
    },

    /// HTTP 401 with any other message: the key is valid but the business
    /// has not been granted API access.
    #[error("{message} (HTTP 401)")]
    ApiAccessNotGranted {
        /// The server's message (`not allowed to access this resource; contact support`).
        message: String,
    },

    /// HTTP 400 `Invalid currency: <code>`: the API does not support `code`.
    #[error("Invalid currency: {code} (HTTP 400)")]
    InvalidCurrency {
        /// The refused currency code, as the server echoed it.
        code: String,
    },

    /// Any other error answered by the API, with its error body. `message`
    /// is the body's `message`, or its items joined with `; ` when it is an
    /// array of strings; `status` is always the HTTP status. One exception
    /// is raised by the SDK itself:
    /// [`Payouts::get`](crate::Payouts::get) on a collection's reference is
    /// status 404 `Payout not found: ...` with an empty `body`.
    #[error("HTTP {status}: {message}")]
    Api {
        /// The HTTP status.
        status: u16,
        /// The `message` of the error body.
        message: String,
        /// The `path` of the error body, when present.
        path: Option<String>,
        /// The `timestamp` of the error body, when present.
        timestamp: Option<String>,
        /// The raw error body, as text (invalid UTF-8 replaced, the API key
        /// scrubbed).
        body: String,
    },

    /// The request could not be delivered or its answer could not be read
    /// (connection refused, DNS, TLS, connection reset).
    #[error("transport error: {0}")]
    Transport(#[source] reqwest::Error),

    /// The request or the connection timed out. A write may or may not have
    /// been applied: repeat it with the same idempotency key.
    #[error("request timed out: {0}")]
    Timeout(#[source] reqwest::Error),

    /// The server answered with a body that is not what the API documents
    /// (an HTML error page, an empty or truncated body, a value of the wrong
    /// type).
    #[error("could not decode the response{}: {message}", status_suffix(*status))]
    Decode {
        /// The HTTP status of the response (the SDK always sets it: the
        /// server answered).
        status: Option<u16>,
        /// What was wrong with the body.
        message: String,
        /// The first bytes of the body (up to [`BODY_PREFIX_LEN`]), as text.
        body_prefix: String,
    },

    /// The server answered with the API's success body, but without a field
    /// the API documents (openapi/crossborder.yaml marks it `required`):
    /// the request was applied, and its answer cannot be read whole.
    #[error("the response (HTTP {status}) lacks the documented field `{field}`")]
    MissingField {
        /// The HTTP status of the response.
        status: u16,
        /// The wire name of the missing field (`fee`, `validUntil`).
        field: String,
        /// The raw body, as text (invalid UTF-8 replaced, the API key
        /// scrubbed).
        body: String,
    },

    /// A sandbox operation was called with a production (`live_`) key;
    /// nothing was sent.
    #[error(
        "sandbox operations need a staging (`test_`) API key; this client uses a production key"
    )]
    SandboxOnly,

    /// A transaction did not reach a terminal status before the deadline.
    #[error("transaction {} did not settle in time; last status {}", last.payment_reference, last.status)]
    WaitTimeout {
        /// The last state read.
        last: Box<Transaction>,
    },

    /// A business was not decided (`APPROVED` or `REJECTED`) before the
    /// deadline; it may still be under review.
    #[error("business {} was not decided in time; last status {}", last.id, last.status)]
    DecisionTimeout {
        /// The last state read.
        last: Box<crate::types::Business>,
    },

    /// A value could not be turned into a request (an internal conversion
    /// of the low-level client failed); nothing was sent.
    #[error("invalid request: {message}")]
    InvalidRequest {
        /// What could not be converted.
        message: String,
    },

    /// The payout carries the rate key of a quote that has expired
    /// ([`Quote::valid_until`](crate::Quote::valid_until)); nothing was sent.
    /// Get a new quote. If an earlier attempt of this payout failed without
    /// an answer, read its outcome with `payouts().get(session_id)` first.
    #[error("the quote's rateKey {rate_key} expired at {expired_at}; get a new quote (nothing was sent)")]
    QuoteExpired {
        /// The expired rate key.
        rate_key: String,
        /// When it expired, RFC 3339.
        expired_at: String,
    },

    /// [`Payouts::create_or_get`](crate::Payouts::create_or_get) found no
    /// payout under the session id, and the request's quote has expired, so
    /// it was not sent: nothing was paid. Get a new quote and build the
    /// payout from it under the same session id
    /// ([`PayoutRequest::from_quote_with_session_id`](crate::PayoutRequest::from_quote_with_session_id)).
    #[error("no payout {session_id} was made, and its quote's rateKey {rate_key} expired at {expired_at}: get a new quote and send the payout from it under the same session id {session_id} (nothing was sent)")]
    QuoteExpiredUnpaid {
        /// The session id read.
        session_id: String,
        /// The expired rate key.
        rate_key: String,
        /// When it expired, RFC 3339.
        expired_at: String,
    },

    /// The account resolved to a name other than the payout's `accountName`
    /// (compared with [`names_match`](crate::rules::payout::names_match));
    /// the payout was not sent.
    #[error("account {account_number} is in the name of {resolved:?}, not {expected:?}; the payout was not sent")]
    RecipientMismatch {
        /// The account number resolved.
        account_number: String,
        /// The payout's `accountName`.
        expected: String,
        /// The name `POST /api/resolve-bank` returned.
        resolved: String,
    },
}

/// Whether a failed request took effect on the server, as far as the client
/// can tell: [`Error::outcome`].
///
/// It tells what to do after a write (a payout, a collection, a simulated
/// funding) failed: give up, repeat it with the same idempotency key
/// (`sessionId`, `paymentReference`), or read its state.
///
/// ```
/// # async fn run(client: crossborder::Client, payout: crossborder::PayoutRequest) -> crossborder::Result<()> {
/// use crossborder::Outcome;
///
/// let mut repeats = 0;
/// loop {
///     match client.payouts().create(&payout).await {
///         Ok(receipt) => break println!("paid: {}", receipt.session_id),
///         // The same request, so the same sessionId: the service pays once.
///         Err(error) if error.outcome() == Outcome::MayHaveBeenApplied && repeats < 5 => {
///             repeats += 1;
///         }
///         Err(error) => return Err(error),
///     }
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The request had no effect. Either it was never sent: refused by the
    /// SDK's own checks ([`Error::Validation`], [`Error::QuoteExpired`],
    /// [`Error::RecipientMismatch`], [`Error::SandboxOnly`],
    /// [`Error::InvalidRequest`]), by its configuration ([`Error::Config`]),
    /// or by a connect error (connection refused, DNS, TLS handshake, connect
    /// timeout), which comes before any byte of the request is written. Or it
    /// was answered with a 4xx status, by the API or by a proxy on the way:
    /// a refusal, so nothing was done. Repeating it unchanged gets the same
    /// refusal, except after a connect error.
    NotApplied,
    /// The client cannot tell: the request may have been sent, and no answer
    /// says what became of it. A timeout after connecting, a connection reset
    /// or closed after the request was written, a 5xx status (a 502, 503 or
    /// 504 may come from a proxy that did or did not pass the request on),
    /// or any other answer that is not a success or a 4xx. Repeat the write
    /// with the same idempotency key, which the service applies at most once,
    /// or read its state (`payouts().get(session_id)`).
    MayHaveBeenApplied,
    /// The server accepted the request (a 2xx answer) and the failure came
    /// after: a success body that could not be decoded ([`Error::Decode`]
    /// with a 2xx status), or a wait that ran out on a transaction or a
    /// business that exists ([`Error::WaitTimeout`],
    /// [`Error::DecisionTimeout`]). Do not repeat it; read its state.
    Applied,
}

/// The [`Outcome`] of an answer with `status` (none: no answer was read).
fn outcome_of_status(status: Option<u16>) -> Outcome {
    match status {
        Some(200..=299) => Outcome::Applied,
        Some(400..=499) => Outcome::NotApplied,
        _ => Outcome::MayHaveBeenApplied,
    }
}

fn status_suffix(status: Option<u16>) -> StatusSuffix {
    StatusSuffix(status)
}

struct StatusSuffix(Option<u16>);

impl fmt::Display for StatusSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(status) => write!(f, " (HTTP {status})"),
            None => Ok(()),
        }
    }
}

impl Error {
    /// The HTTP status the server answered with, when there was one.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::MissingApiKeyHeader { .. } => Some(403),
            Error::InvalidApiKey { .. } | Error::ApiAccessNotGranted { .. } => Some(401),
            Error::InvalidCurrency { .. } => Some(400),
            Error::Api { status, .. } => Some(*status),
            Error::Decode { status, .. } => *status,
            Error::MissingField { status, .. } => Some(*status),
            Error::Transport(error) | Error::Timeout(error) => error.status().map(|s| s.as_u16()),
            _ => None,
        }
    }

    /// Whether the request may have taken effect on the server, as far as
    /// the client can tell; see [`Outcome`] for the rule behind each answer.
    ///
    /// ```
    /// use crossborder::{Error, Outcome};
    ///
    /// let refused = Error::Api {
    ///     status: 409,
    ///     message: "sessionId already used for a different payout: s-1".into(),
    ///     path: None,
    ///     timestamp: None,
    ///     body: String::new(),
    /// };
    /// assert_eq!(refused.outcome(), Outcome::NotApplied);
    /// let bad_gateway = Error::Decode {
    ///     status: Some(502),
    ///     message: "HTTP 502 with a body that is not an API error".into(),
    ///     body_prefix: "<html>502 Bad Gateway</html>".into(),
    /// };
    /// assert_eq!(bad_gateway.outcome(), Outcome::MayHaveBeenApplied);
    /// ```
    pub fn outcome(&self) -> Outcome {
        match self {
            Error::Config(_)
            | Error::Validation(_)
            | Error::SandboxOnly
            | Error::InvalidRequest { .. }
            | Error::QuoteExpired { .. }
            | Error::QuoteExpiredUnpaid { .. }
            | Error::RecipientMismatch { .. } => Outcome::NotApplied,
            // An answer: its status says.
            Error::MissingApiKeyHeader { .. }
            | Error::InvalidApiKey { .. }
            | Error::ApiAccessNotGranted { .. }
            | Error::InvalidCurrency { .. }
            | Error::Api { .. }
            | Error::Decode { .. }
            | Error::MissingField { .. } => outcome_of_status(self.status()),
            // A connect error (refused, DNS, TLS handshake, connect
            // timeout) happens before any byte of the request is written.
            Error::Transport(error) | Error::Timeout(error) if error.is_connect() => {
                Outcome::NotApplied
            }
            Error::Transport(_) | Error::Timeout(_) => Outcome::MayHaveBeenApplied,
            Error::WaitTimeout { .. } | Error::DecisionTimeout { .. } => Outcome::Applied,
        }
    }

    /// True for the API's 404: what was asked for does not exist (an
    /// unknown payment reference or session id, business or document).
    /// A 404 page that is not the API's error body (a proxy's) is an
    /// [`Error::Decode`], for which this is false.
    ///
    /// ```
    /// # async fn run(client: crossborder::Client) -> crossborder::Result<()> {
    /// match client.payouts().get("settlement-2291").await {
    ///     Ok(payout) => println!("{}", payout.status),
    ///     Err(error) if error.is_not_found() => println!("never sent"),
    ///     Err(error) => return Err(error),
    /// }
    /// # Ok(()) }
    /// ```
    pub fn is_not_found(&self) -> bool {
        matches!(self, Error::Api { status: 404, .. })
    }

    /// The violations of a [`Error::Validation`].
    pub fn violations(&self) -> Option<&Violations> {
        match self {
            Error::Validation(violations) => Some(violations),
            _ => None,
        }
    }
}

/// A [`Error::Validation`] with a single violation.
pub(crate) fn violation(
    field: &'static str,
    rule: crate::Rule,
    message: impl Into<String>,
) -> Error {
    let message = message.into();
    match Violations::from_vec(vec![crate::Violation::new(field, rule, message.clone())]) {
        Some(violations) => Error::Validation(violations),
        None => Error::InvalidRequest {
            message: format!("{field}: {message}"),
        },
    }
}

/// The first [`BODY_PREFIX_LEN`] bytes of `body` as text, cut on a character
/// boundary.
pub(crate) fn body_prefix(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(BODY_PREFIX_LEN)]);
    let mut text = text.into_owned();
    // A multi-byte character cut in half decodes as U+FFFD at the very end.
    if body.len() > BODY_PREFIX_LEN && text.ends_with('\u{FFFD}') {
        text.pop();
    }
    text
}

/// The only status whose body the generated operations decode: the success
/// status of every operation of the spec (another 2xx reaches the mapping
/// as an unexpected response, with its status). Error statuses are never
/// decoded by the low-level client (checked by
/// `crates/crossborder-api/tests/error_statuses.rs`), so a body that does
/// not decode came with this status. The hand-written upload accepts any
/// 2xx (ASSUMPTIONS B2) and hands back as unexpected a 2xx other than 200
/// whose body it cannot read, so the same holds for it.
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
        LowError::InvalidResponsePayload(body, error) => {
            Failure::plain(match missing_field(&body, &error) {
                Some(field) => Error::MissingField {
                    status: DECODED_STATUS,
                    field,
                    body: key.redact(&String::from_utf8_lossy(&body)),
                },
                None => Error::Decode {
                    status: Some(DECODED_STATUS),
                    message: key.redact(&error.to_string()),
                    body_prefix: key.redact(&body_prefix(&body)),
                },
            })
        }
        LowError::UnexpectedResponse(response) => {
            let status = response.status();
            let retry_after = retry_after(response.headers());
            let error = match response.bytes().await {
                Ok(body) if status.is_success() => Error::Decode {
                    status: Some(status.as_u16()),
                    message: format!("a {status} answer without the documented body"),
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

/// Violations found before sending are [`Error::Validation`], so `?` works
/// on the SDK's validating constructors in a function returning
/// [`Result`](crate::Result).
impl From<Violations> for Error {
    fn from(violations: Violations) -> Error {
        Error::Validation(violations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_prefix_is_bounded() {
        let long = "é".repeat(1000);
        let prefix = body_prefix(long.as_bytes());
        assert!(prefix.len() <= BODY_PREFIX_LEN);
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
        let not_allowed = "not allowed to access this resource; contact support";
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
        let violations = Violations::from_vec(vec![crate::Violation::new(
            "amount",
            crate::Rule::Required,
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
            let error = api_error(status, &body(status.as_u16(), message), &k);
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
    fn outcome_of_a_failure_after_a_success_is_applied() {
        assert_eq!(decode(Some(200)).outcome(), Outcome::Applied);
        assert_eq!(decode(Some(201)).outcome(), Outcome::Applied);
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
            &key(),
        );
        let text = format!("{error} {error:?}");
        assert!(!text.contains("secret123"), "{text}");
    }
}
