//! The sandbox's clock, which tests can move forward.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

/// Where the sandbox reads the current time: quote expiry, payment
/// instruction validity, business timestamps and error timestamps.
///
/// A clock is shared: clones see the same time, so a test can keep a clone,
/// hand another to [`SandboxConfig`](crate::SandboxConfig) and move time
/// forward with [`Clock::advance`] (for example past a quote's expiry)
/// without sleeping.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use crossborder_sandbox::Clock;
///
/// let clock = Clock::manual(UNIX_EPOCH);
/// clock.advance(Duration::from_secs(301));
/// assert_eq!(clock.now(), UNIX_EPOCH + Duration::from_secs(301));
/// ```
#[derive(Debug, Clone)]
pub struct Clock(Arc<Mutex<Source>>);

#[derive(Debug)]
enum Source {
    /// The system time plus an offset added by [`Clock::advance`].
    System { offset: Duration },
    /// A fixed time that moves only with [`Clock::advance`].
    Manual { now: SystemTime },
}

impl Clock {
    /// The system clock (the default). [`Clock::advance`] still works: it
    /// adds an offset to the system time.
    pub fn system() -> Clock {
        Clock(Arc::new(Mutex::new(Source::System {
            offset: Duration::ZERO,
        })))
    }

    /// A clock frozen at `start`, moved only by [`Clock::advance`].
    pub fn manual(start: SystemTime) -> Clock {
        Clock(Arc::new(Mutex::new(Source::Manual { now: start })))
    }

    /// The current time.
    pub fn now(&self) -> SystemTime {
        match &*self.0.lock().unwrap_or_else(PoisonError::into_inner) {
            Source::System { offset } => SystemTime::now() + *offset,
            Source::Manual { now } => *now,
        }
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        match &mut *self.0.lock().unwrap_or_else(PoisonError::into_inner) {
            Source::System { offset } => *offset += by,
            Source::Manual { now } => *now += by,
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_clock_advances_by_an_offset() {
        let clock = Clock::system();
        let before = SystemTime::now();
        clock.advance(Duration::from_secs(3600));
        assert!(clock.now() >= before + Duration::from_secs(3600));
        let shared = clock.clone();
        shared.advance(Duration::from_secs(3600));
        assert!(clock.now() >= before + Duration::from_secs(7200));
    }
}
