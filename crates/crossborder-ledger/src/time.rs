//! Times as the database stores them (milliseconds since the Unix epoch)
//! and as JSON shows them (RFC 3339).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Now, in the database's unit.
pub(crate) fn now_ms() -> i64 {
    to_ms(SystemTime::now())
}

pub(crate) fn to_ms(at: SystemTime) -> i64 {
    at.duration_since(UNIX_EPOCH).map_or(0, |since| {
        i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
    })
}

pub(crate) fn from_ms(ms: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

pub(crate) fn duration_ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// `at` as the ledger writes a time (in its JSON, its messages and its
/// history): RFC 3339 in UTC to the millisecond, the database's unit,
/// always three digits. A time RFC 3339 cannot write reads as text
/// saying so, never a panic.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
///
/// let at = UNIX_EPOCH + Duration::from_millis(1_795_800_476_120);
/// assert_eq!(crossborder_ledger::rfc3339_text(at), "2026-11-27T17:27:56.120Z");
/// ```
pub fn rfc3339_text(at: SystemTime) -> String {
    match in_range(at) {
        Some(at) => humantime::format_rfc3339_millis(at).to_string(),
        None if at < UNIX_EPOCH => "before 1970-01-01T00:00:00Z".to_owned(),
        None => format!("{} ms after the epoch", to_ms(at)),
    }
}

/// The last millisecond RFC 3339 can write: 9999-12-31T23:59:59.999Z.
const LAST: Duration = Duration::from_millis(253_402_300_799_999);

/// `at` if RFC 3339 can write it (from the epoch to the year 9999, the
/// range humantime formats without panicking).
fn in_range(at: SystemTime) -> Option<SystemTime> {
    at.duration_since(UNIX_EPOCH)
        .ok()
        .filter(|since| *since <= LAST)
        .map(|_| at)
}

/// `#[serde(with)]` for a [`SystemTime`] as RFC 3339 text.
pub(crate) mod rfc3339 {
    use std::time::SystemTime;

    use serde::Serializer;

    pub(crate) fn serialize<S: Serializer>(
        at: &SystemTime,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match super::in_range(*at) {
            Some(at) => serializer.collect_str(&humantime::format_rfc3339_millis(at)),
            None => Err(serde::ser::Error::custom(format!(
                "{} is outside RFC 3339's years",
                super::rfc3339_text(*at)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Milliseconds always, in UTC, as the database keeps them; before
    /// the epoch (a corrupt value) reads as the epoch.
    #[test]
    fn times_are_rfc3339_in_utc_to_the_millisecond() {
        assert_eq!(
            rfc3339_text(from_ms(1_795_800_476_120)),
            "2026-11-27T17:27:56.120Z"
        );
        assert_eq!(rfc3339_text(from_ms(0)), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_text(from_ms(-5)), "1970-01-01T00:00:00.000Z");
        // A caller's deadline outside the years RFC 3339 writes: a text
        // anyway, never a panic.
        let before = UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(rfc3339_text(before), "before 1970-01-01T00:00:00Z");
        let after = UNIX_EPOCH + LAST + Duration::from_millis(1);
        assert_eq!(rfc3339_text(after), "253402300800000 ms after the epoch");
        assert_eq!(rfc3339_text(UNIX_EPOCH + LAST), "9999-12-31T23:59:59.999Z");
        assert!(serde_json::to_string(&Stamp(after)).is_err());
        let json = serde_json::to_string(&Stamp(from_ms(951_782_400_001))).unwrap();
        assert_eq!(json, "\"2000-02-29T00:00:00.001Z\"");
    }

    #[derive(serde::Serialize)]
    struct Stamp(#[serde(with = "rfc3339")] SystemTime);
}
