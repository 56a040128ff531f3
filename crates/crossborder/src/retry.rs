//! When and how a failed request is sent again: the rules are on
//! [`RetryPolicy`], the one public item of this module.

use std::time::Duration;

use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::StatusCode;

/// How many times, and how far apart, a request is attempted.
///
/// The default makes at most 3 attempts, waiting a random time between zero
/// and `200 ms * 2^n` (capped at 5 s) before retry `n` (full jitter);
/// [`RetryPolicy::none`] turns retries off. Set it with
/// [`ClientBuilder::retry_policy`](crate::ClientBuilder::retry_policy).
///
/// Which failures are retried depends on what a repeated request could do:
///
/// * **Reads** (`GET`) are retried on a connect error and on HTTP 429, 502,
///   503 and 504, honouring a `Retry-After` header given in seconds. A
///   `Retry-After` longer than the policy's maximum wait is not waited for:
///   the error is returned.
/// * **Writes** (`POST`, `PUT`, `PATCH`), and above all those that move money
///   (payouts, collections, simulated funding), are retried **only** when the
///   request provably never reached the server: a connect error, raised before
///   any byte of the request was sent. The retry sends the very same body, so
///   a payout keeps its `sessionId` and a collection its `paymentReference`.
///   A timeout, a reset connection or any HTTP status (even 429 or 503) is
///   returned to the caller; repeating the call with the same id is then safe,
///   as the service treats it as an idempotency key.
///   [`Error::outcome`](crate::Error::outcome) tells whether the write may
///   have been applied.
///
/// ```
/// use std::time::Duration;
/// use crossborder::RetryPolicy;
///
/// let policy = RetryPolicy::default()
///     .max_attempts(5)
///     .base_delay(Duration::from_millis(100))
///     .max_delay(Duration::from_secs(2));
/// assert_eq!(policy.attempts(), 5);
/// assert_eq!(RetryPolicy::none().attempts(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    max_attempts: u32,
    base_delay: Duration,
    max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// No retries: every request is sent once.
    pub fn none() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// Sets the total number of attempts, the first one included (at least 1).
    pub fn max_attempts(mut self, attempts: u32) -> RetryPolicy {
        self.max_attempts = attempts.max(1);
        self
    }

    /// Sets the delay the backoff starts from.
    pub fn base_delay(mut self, delay: Duration) -> RetryPolicy {
        self.base_delay = delay;
        self
    }

    /// Sets the longest wait between two attempts. A `Retry-After` longer
    /// than this is not waited for: the error is returned instead.
    pub fn max_delay(mut self, delay: Duration) -> RetryPolicy {
        self.max_delay = delay;
        self
    }

    /// The total number of attempts, the first one included.
    pub fn attempts(&self) -> u32 {
        self.max_attempts
    }

    /// The longest wait between two attempts.
    pub fn max_wait(&self) -> Duration {
        self.max_delay
    }

    /// The wait before retry number `retry` (0 for the first retry): a random
    /// duration between zero and `min(max_delay, base_delay * 2^retry)`.
    pub(crate) fn backoff(&self, retry: u32) -> Duration {
        let ceiling = exponential(self.base_delay, retry).min(self.max_delay);
        full_jitter(ceiling)
    }
}

/// `base * 2^exponent`, saturating.
pub(crate) fn exponential(base: Duration, exponent: u32) -> Duration {
    let factor = 1u32.checked_shl(exponent.min(31)).unwrap_or(u32::MAX);
    base.checked_mul(factor).unwrap_or(Duration::MAX)
}

/// A uniformly random duration in `[0, ceiling]`.
pub(crate) fn full_jitter(ceiling: Duration) -> Duration {
    let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
    Duration::from_nanos(fastrand::u64(0..=nanos))
}

/// Whether an operation may be repeated when its outcome is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Idempotency {
    /// A read: repeating it changes nothing.
    Read,
    /// A write: repeated only when it provably never reached the server.
    Write,
}

/// What the retry loop does after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RetryDecision {
    /// Return the error.
    Stop,
    /// Retry after the policy's backoff.
    Backoff,
    /// Retry after the server's `Retry-After`.
    After(Duration),
}

/// Statuses a read is retried on.
pub(crate) fn is_retryable_status(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::TOO_MANY_REQUESTS
            | StatusCode::BAD_GATEWAY
            | StatusCode::SERVICE_UNAVAILABLE
            | StatusCode::GATEWAY_TIMEOUT
    )
}

/// Reads `Retry-After` as a number of seconds (`"2"`, or `"0.05"` for tests
/// and servers that send fractions). HTTP dates are not used by this API.
///
/// A number of seconds too large for a [`Duration`] saturates to
/// [`Duration::MAX`]: longer than any policy's maximum wait, so the error is
/// returned rather than retried, as for any too long `Retry-After`. A
/// negative or non-numeric value is ignored (`None`). No header value can
/// make this panic.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let text = value.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    // Fractions go through Decimal, like every other number of this SDK.
    let seconds = rust_decimal::Decimal::from_str_exact(text).ok()?;
    if seconds.is_sign_negative() {
        return None;
    }
    let Ok(whole) = u64::try_from(seconds.trunc()) else {
        return Some(Duration::MAX);
    };
    // The fraction is below one, so its nanoseconds fit in a u32.
    let nanos = seconds
        .fract()
        .checked_mul(rust_decimal::Decimal::from(1_000_000_000u32))
        .and_then(|nanos| u32::try_from(nanos.trunc()).ok())
        .unwrap_or(0);
    Some(Duration::new(whole, nanos))
}

/// A failed attempt, with what the retry decision needs. Generic over the
/// error so that this module needs nothing of `error`, which builds it.
#[derive(Debug)]
pub(crate) struct Failure<E> {
    pub error: E,
    /// The request provably never reached the server (connect error).
    pub not_sent: bool,
    pub status: Option<StatusCode>,
    pub retry_after: Option<Duration>,
}

impl<E> Failure<E> {
    pub(crate) fn plain(error: E) -> Failure<E> {
        Failure {
            error,
            not_sent: false,
            status: None,
            retry_after: None,
        }
    }
}

/// Decides what to do after failed attempt number `attempt` (1-based).
pub(crate) fn decide<E>(
    policy: &RetryPolicy,
    idempotency: Idempotency,
    failure: &Failure<E>,
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

/// The wait a `Retry-After` header asks for, when it is in seconds.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    parse_retry_after(headers.get(RETRY_AFTER)?.to_str().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn backoff_stays_under_the_exponential_ceiling_and_the_cap() {
        let policy = RetryPolicy::default()
            .base_delay(Duration::from_millis(10))
            .max_delay(Duration::from_millis(50));
        for _ in 0..200 {
            assert!(policy.backoff(0) <= Duration::from_millis(10));
            assert!(policy.backoff(1) <= Duration::from_millis(20));
            assert!(policy.backoff(10) <= Duration::from_millis(50));
            assert!(policy.backoff(u32::MAX) <= Duration::from_millis(50));
        }
    }

    #[test]
    fn exponential_saturates() {
        assert_eq!(
            exponential(Duration::from_millis(200), 2),
            Duration::from_millis(800)
        );
        assert_eq!(exponential(Duration::MAX, 3), Duration::MAX);
    }

    #[test]
    fn retry_after_in_seconds() {
        assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after(" 0 "), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("0.25"), Some(Duration::from_millis(250)));
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("NaN"), None);
        assert_eq!(parse_retry_after("2.000000001"), Some(Duration::new(2, 1)));
    }

    #[test]
    fn absurd_retry_after_saturates_without_panicking() {
        assert_eq!(
            parse_retry_after("100000000000000000000000.5"),
            Some(Duration::MAX)
        );
        assert_eq!(
            parse_retry_after("18446744073709551616"),
            Some(Duration::MAX)
        );
        assert_eq!(
            parse_retry_after("18446744073709551615.999999999"),
            Some(Duration::MAX)
        );
        assert_eq!(
            parse_retry_after("79228162514264337593543950335"),
            Some(Duration::MAX)
        );
        assert_eq!(
            parse_retry_after("0.0000000000000000000000000001"),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn policy_limits() {
        assert_eq!(RetryPolicy::default().attempts(), 3);
        assert_eq!(RetryPolicy::default().max_attempts(0).attempts(), 1);
        assert_eq!(RetryPolicy::none().attempts(), 1);
        assert!(is_retryable_status(StatusCode::SERVICE_UNAVAILABLE));
        assert!(!is_retryable_status(StatusCode::INTERNAL_SERVER_ERROR));
    }

    fn failure(
        status: Option<u16>,
        not_sent: bool,
        retry_after: Option<Duration>,
    ) -> Failure<Error> {
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
