//! RFC 3339 timestamps in UTC, as every time field and error of the API
//! carries them (`2026-11-21T12:00:00.000Z`): the generated client's
//! `Timestamp` writes them, so `validUntil` and every other time field of
//! the sandbox are written one way.

use std::time::SystemTime;

use crossborder_api::timestamp::Timestamp;

/// Formats `time` as RFC 3339 in UTC with millisecond precision.
///
/// The sandbox's manual clock can be moved anywhere, so every instant
/// formats: one before the Unix epoch is formatted as it is, and one outside
/// the years 0000 to 9999 (which RFC 3339 cannot write) is clamped to the
/// nearest end of that range.
pub(crate) fn rfc3339(time: SystemTime) -> String {
    Timestamp::from(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let leap_day = UNIX_EPOCH + Duration::from_millis(951_782_400_123);
        assert_eq!(rfc3339(leap_day), "2000-02-29T00:00:00.123Z");
        let later = UNIX_EPOCH + Duration::from_secs(1_795_262_400);
        assert_eq!(rfc3339(later), "2026-11-21T12:00:00.000Z");
        let end_of_year = UNIX_EPOCH + Duration::from_secs(1_704_067_199);
        assert_eq!(rfc3339(end_of_year), "2023-12-31T23:59:59.000Z");
    }

    #[test]
    fn every_instant_formats() {
        let before_epoch = UNIX_EPOCH - Duration::from_millis(86_400_000 + 500);
        assert_eq!(rfc3339(before_epoch), "1969-12-30T23:59:59.500Z");
        let far = UNIX_EPOCH + Duration::from_secs(400_000_000_000);
        assert_eq!(rfc3339(far), "9999-12-31T23:59:59.999Z");
        if let Some(ancient) = UNIX_EPOCH.checked_sub(Duration::from_secs(100_000_000_000)) {
            assert_eq!(rfc3339(ancient), "0000-01-01T00:00:00.000Z");
        }
    }
}
