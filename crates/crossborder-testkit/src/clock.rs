//! The fixed instant every test clock starts at.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crossborder_sandbox::Clock;

/// 2026-11-21T12:00:00Z as seconds since the Unix epoch.
pub const START_UNIX_SECONDS: u64 = 1_795_262_400;

/// 2026-11-21T12:00:00Z: where every manual clock of the tests starts, so
/// timestamps, quote expiries and collection deadlines are the same on
/// every run.
pub fn start_instant() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(START_UNIX_SECONDS)
}

/// A sandbox clock that stands at [`start_instant`] and moves only when
/// the test calls [`Clock::advance`].
pub fn manual_clock() -> Clock {
    Clock::manual(start_instant())
}
