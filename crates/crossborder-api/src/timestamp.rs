//! RFC 3339 date-times (spec schema `Timestamp`), used by the generated
//! client instead of a bare string where a client must compare the time with
//! its clock (`paymentInstruction[].validUntil`).

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

/// Why a text is not an RFC 3339 date-time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTimestampError {
    input: String,
}

impl fmt::Display for ParseTimestampError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not an RFC 3339 date-time (such as 2026-11-22T12:00:00.000Z)",
            self.input
        )
    }
}

impl std::error::Error for ParseTimestampError {}

/// An RFC 3339 date-time: the text as the service wrote it, and the instant
/// it names.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use crossborder_api::timestamp::Timestamp;
///
/// let stamp: Timestamp = "2026-11-21T13:00:00+01:00".parse().unwrap();
/// assert_eq!(stamp.time(), UNIX_EPOCH + Duration::from_secs(1_795_262_400));
/// assert_eq!(stamp.as_str(), "2026-11-21T13:00:00+01:00");
/// assert_eq!(Timestamp::from(stamp.time()).as_str(), "2026-11-21T12:00:00.000Z");
/// assert!("tomorrow".parse::<Timestamp>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Timestamp {
    text: String,
    time: SystemTime,
}

impl Timestamp {
    /// The text as the service wrote it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The instant it names.
    pub fn time(&self) -> SystemTime {
        self.time
    }
}

impl FromStr for Timestamp {
    type Err = ParseTimestampError;

    fn from_str(text: &str) -> Result<Timestamp, ParseTimestampError> {
        let error = || ParseTimestampError {
            input: text.to_owned(),
        };
        let parsed = OffsetDateTime::parse(text, &Rfc3339).map_err(|_| error())?;
        Ok(Timestamp {
            text: text.to_owned(),
            time: SystemTime::from(parsed),
        })
    }
}

impl From<SystemTime> for Timestamp {
    /// Formats `time` in UTC with millisecond precision
    /// (`2026-11-21T12:00:00.000Z`). Every instant formats: one outside the
    /// years 0000 to 9999, which RFC 3339 cannot write, is clamped to the
    /// nearest end of that range.
    fn from(time: SystemTime) -> Timestamp {
        let instant = match time.duration_since(UNIX_EPOCH) {
            Ok(after) => Duration::try_from(after)
                .ok()
                .and_then(|after| OffsetDateTime::UNIX_EPOCH.checked_add(after)),
            Err(before) => Duration::try_from(before.duration())
                .ok()
                .and_then(|before| OffsetDateTime::UNIX_EPOCH.checked_sub(before)),
        };
        let text = match instant {
            // Millisecond precision and a `Z`, the form of the API's
            // samples; written without `time`'s format macro, whose
            // proc-macro crate every downstream build would compile.
            Some(instant) if (0..=9999).contains(&instant.year()) => format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                instant.year(),
                u8::from(instant.month()),
                instant.day(),
                instant.hour(),
                instant.minute(),
                instant.second(),
                instant.millisecond()
            ),
            _ if time < UNIX_EPOCH => "0000-01-01T00:00:00.000Z".to_owned(),
            _ => "9999-12-31T23:59:59.999Z".to_owned(),
        };
        Timestamp { text, time }
    }
}

impl fmt::Display for Timestamp {
    /// The text as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for Timestamp {
    fn schema_name() -> String {
        "Timestamp".to_string()
    }

    fn json_schema(_gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        schemars::schema::SchemaObject {
            instance_type: Some(schemars::schema::InstanceType::String.into()),
            format: Some("date-time".to_string()),
            ..Default::default()
        }
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes_and_refuses_other_text() {
        let at = UNIX_EPOCH + std::time::Duration::from_millis(951_782_400_123);
        let stamp = Timestamp::from(at);
        assert_eq!(stamp.as_str(), "2000-02-29T00:00:00.123Z");
        assert_eq!(stamp.as_str().parse::<Timestamp>(), Ok(stamp.clone()));
        assert_eq!(
            serde_json::from_str::<Timestamp>("\"2000-02-29T00:00:00.123Z\"").unwrap(),
            stamp
        );
        assert_eq!(
            serde_json::to_string(&stamp).unwrap(),
            "\"2000-02-29T00:00:00.123Z\""
        );
        let far = UNIX_EPOCH + std::time::Duration::from_secs(400_000_000_000);
        assert_eq!(Timestamp::from(far).as_str(), "9999-12-31T23:59:59.999Z");
        for text in ["", "2026-11-22", "2026-02-30T00:00:00Z", "22/11/2026 12:00"] {
            assert_eq!(
                text.parse::<Timestamp>().unwrap_err().to_string(),
                format!("{text:?} is not an RFC 3339 date-time (such as 2026-11-22T12:00:00.000Z)")
            );
        }
        let error = serde_json::from_str::<Timestamp>("\"soon\"").unwrap_err();
        assert!(
            error.to_string().starts_with("\"soon\" is not an RFC 3339"),
            "{error}"
        );
    }
}
