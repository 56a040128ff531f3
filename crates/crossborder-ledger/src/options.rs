//! How a dispatcher runs: its lease, its concurrency, how it follows
//! accepted payouts.

use std::time::Duration;

/// Intervals between reads of an accepted payout until it settles: the
/// first after `initial`, each next one `factor` times longer, at most `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    /// The first interval.
    pub initial: Duration,
    /// The longest interval.
    pub max: Duration,
    /// How much each interval grows (at least 1).
    pub factor: u32,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff {
            initial: Duration::from_millis(500),
            max: Duration::from_secs(60),
            factor: 2,
        }
    }
}

impl Backoff {
    /// The interval before read number `attempt` (0 for the first).
    pub fn interval(&self, attempt: u32) -> Duration {
        let factor = self.factor.max(1);
        let mut interval = self.initial;
        for _ in 0..attempt {
            interval = interval.saturating_mul(factor);
            if interval >= self.max {
                return self.max;
            }
        }
        interval.min(self.max)
    }
}

/// A dispatcher's settings.
///
/// ```
/// use std::time::Duration;
/// use crossborder_ledger::DispatchOptions;
///
/// let options = DispatchOptions::new("worker-1").lease(Duration::from_secs(10)).concurrency(8);
/// assert_eq!(options.dispatcher_id, "worker-1");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct DispatchOptions {
    /// How long a claimed payout stays this dispatcher's without a word
    /// from it; after that, another dispatcher (PostgreSQL) takes it over,
    /// reading it first. Longer than any one request with its retries.
    pub lease: Duration,
    /// How many payouts are in flight at once.
    pub concurrency: usize,
    /// How many payouts a dispatcher holds claimed at once: those in
    /// flight and those claimed ahead, durably `sending` and waiting for a
    /// free slot (at least [`concurrency`](DispatchOptions::concurrency),
    /// its default). A larger window claims in fewer, larger transactions,
    /// so a slot is refilled without waiting for a commit; a dispatcher
    /// that dies leaves up to this many payouts `sending`, each read by its
    /// session id before it is sent again. A payout claimed ahead is sent
    /// only while nine tenths of its lease are left; otherwise it is left
    /// to the next claim, which reads it first.
    pub window: usize,
    /// How accepted payouts are followed until they settle.
    pub poll: Backoff,
    /// The wait before another try after an error that says nothing about
    /// the payout (the service unreachable, a 5xx while reading).
    pub retry: Backoff,
    /// How many such errors in a row, on one payout, end a run with
    /// [`LedgerError::Api`](crate::LedgerError::Api) (the payout stays as it
    /// is for the next run).
    pub max_errors: u32,
    /// This dispatcher's name in leases and in each payout's history.
    pub dispatcher_id: String,
}

impl DispatchOptions {
    /// The defaults (lease 30 s, 8 at once), named `dispatcher_id`.
    pub fn new(dispatcher_id: impl Into<String>) -> DispatchOptions {
        DispatchOptions {
            dispatcher_id: dispatcher_id.into(),
            ..DispatchOptions::default()
        }
    }

    /// Sets [`lease`](DispatchOptions::lease).
    pub fn lease(mut self, lease: Duration) -> DispatchOptions {
        self.lease = lease;
        self
    }

    /// Sets [`concurrency`](DispatchOptions::concurrency) (at least 1).
    pub fn concurrency(mut self, concurrency: usize) -> DispatchOptions {
        self.concurrency = concurrency.max(1);
        self
    }

    /// Sets [`window`](DispatchOptions::window) (at least the concurrency
    /// when the dispatcher runs).
    pub fn window(mut self, window: usize) -> DispatchOptions {
        self.window = window;
        self
    }

    /// Sets [`poll`](DispatchOptions::poll).
    pub fn poll(mut self, poll: Backoff) -> DispatchOptions {
        self.poll = poll;
        self
    }

    /// Sets [`retry`](DispatchOptions::retry).
    pub fn retry(mut self, retry: Backoff) -> DispatchOptions {
        self.retry = retry;
        self
    }
}

impl Default for DispatchOptions {
    /// Lease 30 s, 8 payouts at once (and claimed at once), polling from 0.5 s to 60 s, retries
    /// from 0.5 s to 30 s, 10 errors in a row; named after the host's
    /// process id and a random suffix.
    fn default() -> DispatchOptions {
        DispatchOptions {
            lease: Duration::from_secs(30),
            concurrency: 8,
            // Claim no more than is sent at once.
            window: 0,
            poll: Backoff::default(),
            retry: Backoff {
                max: Duration::from_secs(30),
                ..Backoff::default()
            },
            max_errors: 10,
            dispatcher_id: format!(
                "pid{}-{}",
                std::process::id(),
                &uuid::Uuid::new_v4().simple().to_string()[..8]
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_by_its_factor_up_to_its_max() {
        let backoff = Backoff {
            initial: Duration::from_millis(100),
            max: Duration::from_millis(500),
            factor: 2,
        };
        let intervals: Vec<u128> = (0..5).map(|n| backoff.interval(n).as_millis()).collect();
        assert_eq!(intervals, [100, 200, 400, 500, 500]);
        assert_eq!(backoff.interval(u32::MAX), Duration::from_millis(500));
    }
}
