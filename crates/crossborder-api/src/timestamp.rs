//! RFC 3339 date-times (spec schema `Timestamp`), used by the generated
//! client instead of a bare string where a client must compare the time with
//! its clock (`paymentInstruction[].validUntil`).
//!
//! Read and written here rather than with the `time` crate: the format is
//! fixed and small, and `time` (with `deranged`) was about 3 s of compile
//! work in every downstream crate's first build (`cargo build --timings`).
//! A test compares this reader with `time`'s on generated date-times.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::schema::impl_scalar_schema;

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
        let time = parse_rfc3339(text.as_bytes()).ok_or_else(error)?;
        Ok(Timestamp {
            text: text.to_owned(),
            time,
        })
    }
}

impl From<SystemTime> for Timestamp {
    /// Formats `time` in UTC with millisecond precision
    /// (`2026-11-21T12:00:00.000Z`). Every instant formats: one outside the
    /// years 0000 to 9999, which RFC 3339 cannot write, is clamped to the
    /// nearest end of that range.
    fn from(time: SystemTime) -> Timestamp {
        // Nanoseconds from the epoch; `None` when too far to count in i128
        // (far outside the range anyway).
        let nanos = match time.duration_since(UNIX_EPOCH) {
            Ok(after) => i128::try_from(after.as_nanos()).ok(),
            Err(before) => i128::try_from(before.duration().as_nanos())
                .ok()
                .map(|n| -n),
        };
        let text = match nanos {
            // Millisecond precision and a `Z`, the form of the API's samples.
            Some(nanos) if (FIRST_SECOND..=LAST_SECOND).contains(&nanos.div_euclid(NANOS)) => {
                let seconds = nanos.div_euclid(NANOS);
                let millis = nanos.rem_euclid(NANOS) / 1_000_000;
                let (day, second) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
                // In range: `day` fits in i64 and `second` is below 86,400.
                let (year, month, date) = civil_from_days(day as i64);
                format!(
                    "{year:04}-{month:02}-{date:02}T{:02}:{:02}:{:02}.{millis:03}Z",
                    second / 3600,
                    second / 60 % 60,
                    second % 60
                )
            }
            _ if time < UNIX_EPOCH => "0000-01-01T00:00:00.000Z".to_owned(),
            _ => "9999-12-31T23:59:59.999Z".to_owned(),
        };
        Timestamp { text, time }
    }
}

const NANOS: i128 = 1_000_000_000;
/// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds from the epoch:
/// the years RFC 3339 can write.
const FIRST_SECOND: i128 = -62_167_219_200;
const LAST_SECOND: i128 = 253_402_300_799;

/// The instant an RFC 3339 date-time names
/// (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`; `t`, `z` and a space
/// for the separator accepted as RFC 3339 allows), or `None`. A leap second
/// (`23:59:60` in UTC) reads as the last nanosecond before it.
fn parse_rfc3339(text: &[u8]) -> Option<SystemTime> {
    let number = |at: usize, len: usize| -> Option<i64> {
        text.get(at..at + len)?.iter().try_fold(0, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
        })
    };
    let is = |at: usize, expected: &[u8]| text.get(at).is_some_and(|c| expected.contains(c));
    let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
    let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
    let punctuated = is(4, b"-") && is(7, b"-") && is(10, b"Tt ") && is(13, b":") && is(16, b":");
    if !punctuated
        || !(1..=12).contains(&month)
        || !(1..=days_in_month(year, month)).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut at = 19;
    let mut nanos = 0;
    if is(at, b".") {
        at += 1;
        let start = at;
        while let Some(digit) = number(at, 1) {
            // Digits past the ninth are below a nanosecond.
            if at - start < 9 {
                nanos = nanos * 10 + digit;
            }
            at += 1;
        }
        let read = at - start;
        if read == 0 {
            return None;
        }
        nanos *= 10_i64.pow(9 - read.min(9) as u32);
    }
    let offset = if is(at, b"Zz") {
        at += 1;
        0
    } else {
        let sign = if is(at, b"+") {
            1
        } else if is(at, b"-") {
            -1
        } else {
            return None;
        };
        let (hours, minutes) = (number(at + 1, 2)?, number(at + 4, 2)?);
        if !is(at + 3, b":") || hours > 23 || minutes > 59 {
            return None;
        }
        at += 6;
        sign * (hours * 3600 + minutes * 60)
    };
    if at != text.len() {
        return None;
    }
    let mut seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    if second == 60 {
        // Only the last second of a UTC day can be a leap second.
        if seconds.rem_euclid(86_400) != 0 {
            return None;
        }
        seconds -= 1;
        nanos = 999_999_999;
    }
    // Within ±(10,000 years + a day): no overflow either way.
    let since_epoch = Duration::new(seconds.unsigned_abs(), 0);
    let whole = if seconds >= 0 {
        UNIX_EPOCH.checked_add(since_epoch)?
    } else {
        UNIX_EPOCH.checked_sub(since_epoch)?
    };
    whole.checked_add(Duration::from_nanos(nanos.unsigned_abs()))
}

fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date `days` after 1970-01-01 (the inverse of [`days_from_civil`]).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
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

impl_scalar_schema!(Timestamp, String, format = "date-time");

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader agrees with the `time` crate's RFC 3339 reader, and the
    /// writer with its calendar, on date-times spread over the years 0000
    /// to 9999, with offsets and fractions, and on texts both refuse.
    #[test]
    fn agrees_with_the_time_crate() {
        use time::format_description::well_known::Rfc3339;
        use time::{OffsetDateTime, UtcOffset};

        let theirs = |text: &str| {
            OffsetDateTime::parse(text, &Rfc3339)
                .ok()
                .map(SystemTime::from)
        };
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        let span = (LAST_SECOND - FIRST_SECOND + 1) as u64;
        let mut read = 0;
        for round in 0..20_000 {
            let seconds = next(span) as i64 + FIRST_SECOND as i64;
            // Whole seconds, milliseconds and nanoseconds.
            let nanos = [0, next(1000) * 1_000_000, next(1_000_000_000)][round % 3] as u32;
            let offset_minutes = next(2 * 1439 + 1) as i32 - 1439;
            let Some(at) = OffsetDateTime::from_unix_timestamp(seconds)
                .ok()
                .and_then(|at| at.replace_nanosecond(nanos).ok())
                .and_then(|at| {
                    at.checked_to_offset(UtcOffset::from_whole_seconds(offset_minutes * 60).ok()?)
                })
            else {
                continue;
            };
            let Ok(text) = at.format(&Rfc3339) else {
                continue;
            };
            let ours = text.parse::<Timestamp>().map(|stamp| stamp.time());
            assert_eq!(ours, Ok(SystemTime::from(at)), "{text}");
            let utc = at.to_offset(UtcOffset::UTC);
            let expected = format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                utc.year(),
                u8::from(utc.month()),
                utc.day(),
                utc.hour(),
                utc.minute(),
                utc.second(),
                utc.millisecond()
            );
            assert_eq!(Timestamp::from(SystemTime::from(at)).as_str(), expected);
            read += 1;
        }
        assert!(
            read > 19_000,
            "only {read} generated date-times were in range"
        );
        for text in [
            "2026-11-22T12:00:00Z",
            "2026-11-22t12:00:00z",
            "2026-11-22 12:00:00Z",
            "2026-11-22T12:00:00.5-03:30",
            "2026-11-22T12:00:00.123456789123Z",
            "2026-11-22T12:00:00-00:00",
            "2026-11-22T12:00:00+23:59",
            "2024-02-29T00:00:00Z",
            "2000-02-29T23:59:59.999Z",
            "2026-12-31T23:59:60Z",
            "2027-01-01T00:59:60+01:00",
            "0000-01-01T00:00:00+01:00",
            "9999-12-31T23:59:59.999999999Z",
            "2026-11-22T12:00:00.Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-00-10T00:00:00Z",
            "2026-13-10T00:00:00Z",
            "2026-11-00T00:00:00Z",
            "2026-11-22T24:00:00Z",
            "2026-11-22T12:60:00Z",
            "2026-11-22T12:00:61Z",
            "2026-11-22T12:00:00+24:00",
            "2026-11-22T12:00:00+01:60",
            "2026-11-22T12:00:00+0100",
            "2026-11-22T12:00:00",
            "2026-11-22T12:00:00Z ",
            "2026-11-22T12:00Z",
            "226-11-22T12:00:00Z",
            "+2026-11-22T12:00:00Z",
            "2026-11-22T12:00:00.-1Z",
            "",
        ] {
            assert_eq!(parse_rfc3339(text.as_bytes()), theirs(text), "{text:?}");
        }
    }

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
