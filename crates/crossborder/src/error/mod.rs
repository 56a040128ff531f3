//! The one error type of the SDK ([`Error`], whether a failed write may have
//! been applied: [`Outcome`]) and the violations of a request refused before
//! sending.
//!
//! Every operation returns [`Error`], whose variants a caller can match on:
//! client-side [`Error::Validation`] (all violations at once, nothing sent),
//! the documented authentication and currency errors, other API errors with
//! their raw body, transport failures and timeouts, [`Error::Decode`] for a
//! body that is not what the API documents (an HTML error page, an empty or
//! truncated body), and [`Error::ResponseTooLarge`] for a body over
//! [`ClientBuilder::max_response_bytes`](crate::ClientBuilder::max_response_bytes)
//! (1 MiB by default), of which no more than the limit is ever read.
//!
//! After a failed write, [`Error::outcome`] tells whether it may have taken
//! effect ([`Outcome`]):
//!
//! * [`Outcome::NotApplied`]: never sent (the SDK's own checks, the
//!   configuration, a connect error such as a refused connection), or
//!   answered with a 4xx status: nothing happened.
//! * [`Outcome::MayHaveBeenApplied`]: a timeout, a connection reset or
//!   closed after the request was written, a 5xx status (502 and 503 may
//!   come from a proxy that did or did not pass the request on), a 2xx
//!   whose body is not the API's (a captive portal's HTML page, an empty
//!   body): repeat it with the same `sessionId` or `paymentReference`, which
//!   the service applies at most once, or read its state.
//! * [`Outcome::Applied`]: a wait that ran out on something that exists:
//!   read its state.
//!
//! Which failures the client retries by itself is on
//! [`RetryPolicy`](crate::RetryPolicy).

// How a failed response becomes an `Error` (the API's error body read
// tolerantly, the status and the raw body kept) is in `body.rs`.

use std::fmt;

mod body;

pub(crate) use body::{map_error, redact};

use crate::types::Transaction;

/// Each problem of a request refused before sending ([`Error::Validation`]):
/// the wire field, a matchable [`Rule`] and a message.
pub use crossborder_core::{Rule, Violation, Violations};

/// Shorthand for `Result<T, crossborder::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

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

    /// The server answered with a redirect (HTTP 3xx), which the SDK does
    /// not follow: a redirect to another host would take the API key there
    /// (and a 307 or 308 the request's body too). The base URL is likely
    /// wrong (`http` for `https`, a missing `/v1`, an old host): point it
    /// at [`location`](Error::Redirect::location) if that is the API's own
    /// host. ASSUMPTIONS D40.
    #[error("HTTP {status}: the server redirects to {}; the SDK does not follow redirects, so the API key stays with the base URL's host: check the base URL", location.as_deref().unwrap_or("no location"))]
    Redirect {
        /// The HTTP status (301, 302, 303, 307, 308, ...).
        status: u16,
        /// The answer's `Location` header as text (the API key scrubbed,
        /// control characters replaced), when it had one.
        location: Option<String>,
    },

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
        /// The first bytes of the body (up to [`Error::BODY_PREFIX_LEN`]), as text.
        body_prefix: String,
    },

    /// The answer's body is larger than
    /// [`ClientBuilder::max_response_bytes`](crate::ClientBuilder::max_response_bytes)
    /// (1 MiB by default): reading stopped at the limit, or did not start
    /// when the `Content-Length` said so. Nothing more than the limit was
    /// held in memory.
    #[error("the {operation} answer (HTTP {status}) is larger than the limit of {limit} bytes{}; reading stopped", content_length_suffix(*content_length))]
    ResponseTooLarge {
        /// The operation id of the OpenAPI document (`getBalance`).
        operation: &'static str,
        /// The HTTP status of the answer.
        status: u16,
        /// The limit, in bytes.
        limit: u64,
        /// The answer's `Content-Length`, when it had one.
        content_length: Option<u64>,
        /// The first bytes read (up to [`Error::BODY_PREFIX_LEN`]), as text;
        /// empty when the `Content-Length` refused the body before reading.
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
    /// ([`Quote::valid_until`](crate::types::Quote::valid_until)); nothing was sent.
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
    /// ([`PayoutRequest::from_quote_with_session_id`](crate::types::PayoutRequest::from_quote_with_session_id)).
    /// A durable store that keeps each session id's request unchanged
    /// (`crossborder-ledger`, which refuses a different request under a
    /// recorded session id) does not take such a payout again: record a
    /// converting payout there without a `rateKey`
    /// ([`PayoutRequest::validate_unquoted`](crate::types::PayoutRequest::validate_unquoted)),
    /// and its dispatcher quotes it before each send, under the same
    /// session id, only while the payout is provably unsent.
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
/// # async fn run(client: crossborder::Client, payout: crossborder::types::PayoutRequest) -> crossborder::Result<()> {
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
    /// or any other answer that is not a success or a 4xx. A 2xx whose body
    /// is not the API's answer ([`Error::Decode`] or
    /// [`Error::ResponseTooLarge`] with a 2xx status) is one too: an HTML
    /// page from a captive portal, or an empty body, may come from something
    /// between the client and the API that never passed the request on.
    /// Repeat the write with the same idempotency key, which the service
    /// applies at most once, or read its state (`payouts().get(session_id)`).
    MayHaveBeenApplied,
    /// The request was applied and the failure came after: the API's own
    /// success body that lacks a documented field ([`Error::MissingField`]),
    /// or a wait that ran out on a transaction or a business that exists
    /// ([`Error::WaitTimeout`], [`Error::DecisionTimeout`]). Do not repeat
    /// it; read its state.
    Applied,
}

/// The [`Outcome`] of an answer with `status` (none: no answer was read).
fn outcome_of_status(status: Option<u16>) -> Outcome {
    match status {
        Some(400..=499) => Outcome::NotApplied,
        _ => Outcome::MayHaveBeenApplied,
    }
}

fn content_length_suffix(length: Option<u64>) -> String {
    length.map_or_else(String::new, |length| format!(" (Content-Length: {length})"))
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
    /// How many bytes of an undecodable body [`Error::Decode`] keeps.
    pub const BODY_PREFIX_LEN: usize = crossborder_api::response::BODY_PREFIX_LEN;

    /// The HTTP status the server answered with, when there was one.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::MissingApiKeyHeader { .. } => Some(403),
            Error::InvalidApiKey { .. } | Error::ApiAccessNotGranted { .. } => Some(401),
            Error::InvalidCurrency { .. } => Some(400),
            Error::Api { status, .. } | Error::Redirect { status, .. } => Some(*status),
            Error::Decode { status, .. } => *status,
            Error::MissingField { status, .. } => Some(*status),
            Error::ResponseTooLarge { status, .. } => Some(*status),
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
            | Error::Redirect { .. }
            | Error::Decode { .. }
            | Error::ResponseTooLarge { .. } => outcome_of_status(self.status()),
            // The API's own answer (a JSON object of its shape) with a
            // documented field missing: the request was applied.
            Error::MissingField { .. } => Outcome::Applied,
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
    rule: crate::error::Rule,
    message: impl Into<String>,
) -> Error {
    let message = message.into();
    match Violations::from_vec(vec![crate::error::Violation::new(
        field,
        rule,
        message.clone(),
    )]) {
        Some(violations) => Error::Validation(violations),
        None => Error::InvalidRequest {
            message: format!("{field}: {message}"),
        },
    }
}

/// Violations found before sending are [`Error::Validation`], so `?` works
/// on the SDK's validating constructors in a function returning
/// [`Result`].
impl From<Violations> for Error {
    fn from(violations: Violations) -> Error {
        Error::Validation(violations)
    }
}
