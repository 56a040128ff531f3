//! Polling a transaction until it settles.

use std::time::Duration;

/// How [`Collections::wait_until_settled`](crate::Collections::wait_until_settled)
/// polls: the first wait, how it grows, its cap, and the overall deadline.
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
    pub timeout: Duration,
    /// The wait after the first read. Default 1 s.
    pub initial_interval: Duration,
    /// The longest wait between two reads; each wait doubles up to it.
    /// Default 15 s.
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

    /// The wait after `interval`: doubled, capped at `max_interval`.
    pub(crate) fn next_interval(&self, interval: Duration) -> Duration {
        interval.saturating_mul(2).min(self.max_interval)
    }
}
