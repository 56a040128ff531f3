//! Polling until a state is final: a transaction settling, a business
//! being decided.

use std::future::Future;
use std::time::{Duration, Instant};

use crate::error::Error;

/// The deadline used when `timeout` is too large to add to the current
/// time (such as [`Duration::MAX`]): about 30 years, so in practice the
/// wait ends only at a terminal status.
const FAR_FUTURE: Duration = Duration::from_secs(30 * 365 * 86_400);

/// `start + span`, or [`FAR_FUTURE`] from `start` when that cannot be
/// represented (a span of [`Duration::MAX`]); never panics.
pub(crate) fn after(start: Instant, span: Duration) -> Instant {
    start
        .checked_add(span)
        .or_else(|| start.checked_add(FAR_FUTURE))
        .unwrap_or(start)
}

/// How [`Collections::wait_until_settled`](crate::Collections::wait_until_settled)
/// and [`Businesses::wait_for_decision`](crate::Businesses::wait_for_decision)
/// poll: the first wait, how it grows, its cap, and the overall deadline.
///
/// ```
/// use std::time::Duration;
/// use crossborder::WaitOptions;
///
/// let options = WaitOptions::default()
///     .timeout(Duration::from_secs(120))
///     .initial_interval(Duration::from_millis(500));
/// assert_eq!(options.timeout, Duration::from_secs(120));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitOptions {
    /// How long to keep polling before giving up with
    /// [`Error::WaitTimeout`](crate::Error::WaitTimeout). Default 5 minutes.
    /// A value too large to add to the current time (such as
    /// [`Duration::MAX`]) means about 30 years: no deadline in practice.
    pub timeout: Duration,
    /// The wait after the first read. Default 1 s; at least
    /// [`WaitOptions::MIN_POLL_INTERVAL`].
    pub initial_interval: Duration,
    /// The longest wait between two reads; each wait doubles up to it.
    /// Default 15 s; at least [`WaitOptions::MIN_POLL_INTERVAL`].
    pub max_interval: Duration,
}

impl Default for WaitOptions {
    fn default() -> Self {
        WaitOptions {
            timeout: Duration::from_secs(300),
            initial_interval: Duration::from_secs(1),
            max_interval: Duration::from_secs(15),
        }
    }
}

impl WaitOptions {
    /// The shortest wait between two reads, whatever the options say, so a zero
    /// interval never turns polling into a busy loop.
    pub const MIN_POLL_INTERVAL: Duration = Duration::from_millis(10);

    /// Sets the overall deadline.
    pub fn timeout(mut self, timeout: Duration) -> WaitOptions {
        self.timeout = timeout;
        self
    }

    /// Sets the first wait.
    pub fn initial_interval(mut self, interval: Duration) -> WaitOptions {
        self.initial_interval = interval;
        self
    }

    /// Sets the longest wait.
    pub fn max_interval(mut self, interval: Duration) -> WaitOptions {
        self.max_interval = interval;
        self
    }

    /// The deadline of a wait that starts at `now` (never panics).
    pub(crate) fn deadline(&self, now: Instant) -> Instant {
        after(now, self.timeout)
    }

    /// The wait after the first read: `initial_interval`, at least
    /// [`WaitOptions::MIN_POLL_INTERVAL`].
    pub(crate) fn first_interval(&self) -> Duration {
        self.initial_interval.max(WaitOptions::MIN_POLL_INTERVAL)
    }

    /// The wait after `interval`: doubled, capped at `max_interval`, at
    /// least [`WaitOptions::MIN_POLL_INTERVAL`].
    pub(crate) fn next_interval(&self, interval: Duration) -> Duration {
        interval
            .saturating_mul(2)
            .min(self.max_interval)
            .max(WaitOptions::MIN_POLL_INTERVAL)
    }
}

/// How a poll ended without reaching a final state.
pub(crate) enum PollEnd<T> {
    /// The deadline passed; the last state read.
    Timeout(T),
    /// An error that polling cannot get past (or a transient one at the
    /// deadline, with nothing read before it).
    Failed(Error),
}

impl<T> PollEnd<T> {
    /// The error to return: `timeout` builds it from the last state read.
    pub(crate) fn into_error(self, timeout: impl FnOnce(Box<T>) -> Error) -> Error {
        match self {
            PollEnd::Timeout(last) => timeout(Box::new(last)),
            PollEnd::Failed(error) => error,
        }
    }
}

/// Reads with `read` until `done` holds, waiting between reads as `options`
/// says. A transient failure of one read (transport error, timeout, HTTP
/// 429 or 5xx, after the client's own retries) does not end the wait.
pub(crate) async fn poll<T, F, Fut>(
    options: WaitOptions,
    what: &str,
    mut read: F,
    done: impl Fn(&T) -> bool,
) -> Result<T, PollEnd<T>>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Error>>,
{
    let deadline = options.deadline(Instant::now());
    let mut interval = options.first_interval();
    let mut last: Option<T> = None;
    loop {
        let wait_ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX);
        match read().await {
            Ok(state) if done(&state) => return Ok(state),
            Ok(state) => {
                if Instant::now() >= deadline {
                    return Err(PollEnd::Timeout(state));
                }
                tracing::debug!(what, wait_ms, "not final yet");
                last = Some(state);
            }
            Err(error) if is_transient(&error) => {
                if Instant::now() >= deadline {
                    return Err(match last {
                        Some(last) => PollEnd::Timeout(last),
                        None => PollEnd::Failed(error),
                    });
                }
                tracing::debug!(what, error = %error, wait_ms, "transient error while polling");
            }
            Err(error) => return Err(PollEnd::Failed(error)),
        }
        let left = deadline.saturating_duration_since(Instant::now());
        tokio::time::sleep(interval.min(left)).await;
        interval = options.next_interval(interval);
    }
}

/// Whether polling may go on after `error`: a transport failure, a timeout,
/// HTTP 429 or a server error (5xx). Anything else (authentication, an
/// unknown reference, an undecodable answer) would fail again.
fn is_transient(error: &Error) -> bool {
    matches!(error, Error::Transport(_) | Error::Timeout(_))
        || error
            .status()
            .is_some_and(|status| status == 429 || status >= 500)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_timeout_does_not_panic() {
        let now = Instant::now();
        let deadline = WaitOptions::default().timeout(Duration::MAX).deadline(now);
        assert!(deadline >= now + Duration::from_secs(365 * 86_400));
        let deadline = WaitOptions::default()
            .timeout(Duration::from_secs(2))
            .deadline(now);
        assert_eq!(deadline, now + Duration::from_secs(2));
    }

    #[test]
    fn intervals_never_drop_below_the_minimum() {
        let options = WaitOptions::default()
            .initial_interval(Duration::ZERO)
            .max_interval(Duration::ZERO);
        assert_eq!(options.first_interval(), WaitOptions::MIN_POLL_INTERVAL);
        assert_eq!(
            options.next_interval(Duration::ZERO),
            WaitOptions::MIN_POLL_INTERVAL
        );
        let options = WaitOptions::default();
        assert_eq!(options.first_interval(), Duration::from_secs(1));
        assert_eq!(
            options.next_interval(Duration::from_secs(1)),
            Duration::from_secs(2)
        );
        assert_eq!(
            options.next_interval(Duration::from_secs(10)),
            Duration::from_secs(15)
        );
        assert_eq!(
            options.next_interval(Duration::MAX),
            Duration::from_secs(15)
        );
    }
}
