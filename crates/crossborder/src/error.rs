//! The one error type of the SDK.

use std::fmt;

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
///     Err(Error::Api { status: 404, message, .. }) => eprintln!("not found: {message}"),
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
        /// The server's message (`Not allowed to access this resource; contact support`).
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

    /// A value could not be turned into a request (an internal conversion
    /// of the low-level client failed); nothing was sent.
    #[error("invalid request: {message}")]
    InvalidRequest {
        /// What could not be converted.
        message: String,
    },
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
            Error::Transport(error) | Error::Timeout(error) => error.status().map(|s| s.as_u16()),
            _ => None,
        }
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
}
