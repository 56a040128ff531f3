//! Bounded waits: until a transaction reaches a status, or until any read
//! says so.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use crossborder::{types::Transaction, types::TransactionStatus, Client};
use tokio::time::Instant;

/// How long [`wait_until`] sleeps between two reads.
const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// Why a wait ended without what it waited for.
#[derive(Debug)]
pub enum WaitError {
    /// The deadline passed; `last` says what the last read saw.
    TimedOut {
        /// How long the wait lasted.
        waited: Duration,
        /// The last state read, as text (the status, or the error).
        last: String,
    },
    /// A read failed in a way a later read cannot mend (not a 404 of a
    /// transaction that does not exist yet).
    Read(crossborder::Error),
}

impl fmt::Display for WaitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitError::TimedOut { waited, last } => {
                write!(f, "gave up after {waited:?}; the last read saw {last}")
            }
            WaitError::Read(error) => write!(f, "the read failed: {error}"),
        }
    }
}

impl std::error::Error for WaitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WaitError::Read(error) => Some(error),
            WaitError::TimedOut { .. } => None,
        }
    }
}

/// Reads the transaction `reference` (a collection's `paymentReference` or
/// a payout's `sessionId`, `GET /api/transaction/{reference}`) until its
/// status is `status`, and returns it; at most `within`.
///
/// A 404 (the transaction is not there yet) is read again; any other error
/// ends the wait at once. Unlike
/// [`Collections::wait_until_settled`](crossborder::Collections::wait_until_settled),
/// the status waited for need not be final (`PARTIALLY_PAID`).
///
/// # Errors
///
/// [`WaitError::TimedOut`] with the last status read when `within` passes
/// first; [`WaitError::Read`] for an error other than a 404.
pub async fn wait_for_status(
    client: &Client,
    reference: &str,
    status: TransactionStatus,
    within: Duration,
) -> Result<Transaction, WaitError> {
    wait_until(within, || async {
        match client.collections().get(reference).await {
            Ok(transaction) if transaction.status == status => Ok(Ok(transaction)),
            Ok(transaction) => Ok(Err(format!(
                "{} (waiting for {})",
                transaction.status.as_str(),
                status.as_str()
            ))),
            Err(crossborder::Error::Api { status: 404, .. }) => {
                Ok(Err(format!("no transaction {reference:?} (404)")))
            }
            Err(error) => Err(WaitError::Read(error)),
        }
    })
    .await
}

/// Calls `read` until it returns `Ok(Ok(value))`, and returns the value; at
/// most `within`, a few milliseconds between calls. `Ok(Err(seen))` means
/// "not yet" (`seen` says what was read, for the timeout's message); `Err`
/// ends the wait at once.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::time::Duration;
/// use crossborder_testkit::{wait_until, WaitError};
///
/// let mut reads = 0;
/// let third = wait_until(Duration::from_secs(5), || {
///     reads += 1;
///     let seen = reads;
///     async move { Ok::<_, WaitError>(if seen == 3 { Ok(seen) } else { Err(format!("read {seen}")) }) }
/// })
/// .await;
/// assert_eq!(third.unwrap(), 3);
/// # }
/// ```
///
/// # Errors
///
/// [`WaitError::TimedOut`] with the last `seen` when `within` passes
/// first; whatever `read` returns as `Err`.
pub async fn wait_until<T, F, Fut>(within: Duration, mut read: F) -> Result<T, WaitError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Result<T, String>, WaitError>>,
{
    let start = Instant::now();
    loop {
        let last = match read().await? {
            Ok(value) => return Ok(value),
            Err(seen) => seen,
        };
        let waited = start.elapsed();
        if waited >= within {
            return Err(WaitError::TimedOut { waited, last });
        }
        tokio::time::sleep(POLL_INTERVAL.min(within - waited)).await;
    }
}

/// Awaits `future` for at most `bound` and returns its output: a test's
/// wait for one event (a webhook handed over, a reconciler's next result)
/// that must come.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::time::Duration;
///
/// let answer = crossborder_testkit::within(Duration::from_secs(5), async { 42 }).await;
/// assert_eq!(answer, 42);
/// # }
/// ```
///
/// # Panics
///
/// When `bound` passes first.
pub async fn within<F: Future>(bound: Duration, future: F) -> F::Output {
    match tokio::time::timeout(bound, future).await {
        Ok(output) => output,
        Err(_) => panic!("nothing came within {bound:?}"),
    }
}
