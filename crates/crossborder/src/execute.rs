//! Sends one operation: the attempt loop and its tracing span. Whether to
//! try again is [`crate::retry`]'s decision, and what a failed attempt
//! means is [`crate::error`]'s.

use std::future::Future;
use std::time::Instant;

use progenitor_client::{Error as LowError, ResponseValue};
use reqwest::StatusCode;
use tracing::instrument::Instrumented;
use tracing::Instrument;

use crate::api_key::ApiKey;
use crate::error::{map_error, Error};
use crate::retry::{decide, Idempotency, RetryDecision, RetryPolicy};

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

/// Runs `send` under `policy`, in a span named after the operation.
///
/// `send` builds and sends the request anew for each attempt, always from
/// the same values, so a retried write carries the same body.
///
/// The attempt loop is the only state machine: an `async fn` here would
/// wrap the instrumented loop in another, and every call would move the
/// whole of it once more (the futures of a call run to kilobytes, and the
/// copies showed in `crossborder-bench calls` under callgrind). Inlined
/// into each operation for the same reason: built in place, its future is
/// not returned and then copied (the compiler stopped inlining it on its
/// own once it read the span's state, and a copy per call came back).
#[inline]
pub(crate) fn execute<'a, T, E, F, Fut>(
    key: &'a ApiKey,
    policy: &'a RetryPolicy,
    max_response_bytes: u64,
    operation: Operation,
    mut send: F,
) -> Instrumented<impl Future<Output = Result<ResponseValue<T>, Error>> + 'a>
where
    T: 'a,
    E: serde::Serialize + 'a,
    F: FnMut() -> Fut + 'a,
    Fut: Future<Output = Result<ResponseValue<T>, LowError<E>>> + 'a,
{
    let span = tracing::info_span!(
        "crossborder.request",
        operation = operation.id,
        http.method = operation.method,
        http.status = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        attempts = tracing::field::Empty,
    );
    // A span nobody listens to is disabled and keeps no fields: the clock
    // is read for `duration_ms` only when a subscriber will see it.
    let timed = !span.is_disabled();
    async move {
        let started = timed.then(Instant::now);
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let failure = match send().await {
                Ok(value) => {
                    record(started, attempt, Some(value.status()));
                    return Ok(value);
                }
                Err(error) => {
                    map_error(error, key.expose_secret(), max_response_bytes, operation.id).await
                }
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
}

fn record(started: Option<Instant>, attempts: u32, status: Option<StatusCode>) {
    let Some(started) = started else {
        return;
    };
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
