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

/// `at` as RFC 3339 text, for messages.
pub(crate) fn rfc3339_text(at: SystemTime) -> String {
    time::OffsetDateTime::from(at)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|_| format!("{} ms after the epoch", to_ms(at)))
}

/// `#[serde(with)]` for a [`SystemTime`] as RFC 3339 text.
pub(crate) mod rfc3339 {
    use std::time::SystemTime;

    use serde::Serializer;

    pub(crate) fn serialize<S: Serializer>(
        at: &SystemTime,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let at = time::OffsetDateTime::from(*at);
        let text = at
            .format(&time::format_description::well_known::Rfc3339)
            .map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&text)
    }
}
