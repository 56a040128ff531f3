//! When a payout settles: at once (the default), only when the control API
//! (or the console, or [`SandboxHandle`](crate::SandboxHandle)) completes or
//! fails it, or on its own after a delay on the sandbox's clock.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How the sandbox settles a payout it has accepted.
///
/// Parsed from `instant`, `manual` or a duration such as `500ms`, `30s`,
/// `2m` or `1h` (the form of `--payout-settlement` and of
/// `PUT /_sandbox/settings`), and written back the same way.
///
/// ```
/// use std::time::Duration;
/// use crossborder_sandbox::PayoutSettlement;
///
/// assert_eq!("manual".parse(), Ok(PayoutSettlement::Manual));
/// assert_eq!("30s".parse(), Ok(PayoutSettlement::After(Duration::from_secs(30))));
/// assert_eq!(PayoutSettlement::After(Duration::from_secs(120)).to_string(), "2m");
/// assert!("soon".parse::<PayoutSettlement>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PayoutSettlement {
    /// Settled when accepted: `COMPLETED`, or `FAILED` and refunded for the
    /// failing account `0000000000`.
    #[default]
    Instant,
    /// `PENDING` until completed or failed through the control API.
    Manual,
    /// `PENDING` for this long on the sandbox's clock, then settled as
    /// [`Instant`](PayoutSettlement::Instant) would have settled it.
    After(Duration),
}

/// Why a text is not a settlement setting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("must be instant, manual or a duration such as 30s, 500ms, 2m or 1h; got {0:?}")]
pub struct SettlementError(String);

/// The longest delay accepted: a year, so that any instant plus the delay
/// stays a time the clock can hold.
const MAX_DELAY: Duration = Duration::from_secs(366 * 24 * 60 * 60);

impl FromStr for PayoutSettlement {
    type Err = SettlementError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let refused = || SettlementError(text.to_owned());
        match text.trim() {
            "instant" => return Ok(PayoutSettlement::Instant),
            "manual" => return Ok(PayoutSettlement::Manual),
            _ => {}
        }
        let trimmed = text.trim();
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        let (number, unit) = trimmed.split_at(digits);
        let number: u64 = number.parse().map_err(|_| refused())?;
        let millis_per_unit: u64 = match unit {
            "ms" => 1,
            "s" => 1_000,
            "m" => 60_000,
            "h" => 3_600_000,
            _ => return Err(refused()),
        };
        let delay = number
            .checked_mul(millis_per_unit)
            .map(Duration::from_millis)
            .filter(|delay| !delay.is_zero() && *delay <= MAX_DELAY)
            .ok_or_else(refused)?;
        Ok(PayoutSettlement::After(delay))
    }
}

impl fmt::Display for PayoutSettlement {
    /// `instant`, `manual`, or the delay in the largest unit that writes it
    /// whole (`2m`, `90s`, `1500ms`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayoutSettlement::Instant => f.write_str("instant"),
            PayoutSettlement::Manual => f.write_str("manual"),
            PayoutSettlement::After(delay) => {
                let millis = delay.as_millis();
                let (count, unit) = [(3_600_000, "h"), (60_000, "m"), (1_000, "s")]
                    .into_iter()
                    .find(|(size, _)| millis % size == 0)
                    .map_or((millis, "ms"), |(size, unit)| (millis / size, unit));
                write!(f, "{count}{unit}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_and_write_back() {
        for (text, setting) in [
            ("instant", PayoutSettlement::Instant),
            ("manual", PayoutSettlement::Manual),
            (
                "1500ms",
                PayoutSettlement::After(Duration::from_millis(1500)),
            ),
            ("90s", PayoutSettlement::After(Duration::from_secs(90))),
            ("2m", PayoutSettlement::After(Duration::from_secs(120))),
            ("1h", PayoutSettlement::After(Duration::from_secs(3600))),
        ] {
            assert_eq!(text.parse(), Ok(setting), "{text}");
            assert_eq!(setting.to_string(), text);
        }
        assert_eq!(
            "60s".parse::<PayoutSettlement>().map(|s| s.to_string()),
            Ok("1m".to_owned())
        );
        for refused in [
            "", "0s", "s", "30", "30 s", "-5s", "1.5s", "9000h", "Manual",
        ] {
            let error = refused.parse::<PayoutSettlement>().unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "must be instant, manual or a duration such as 30s, 500ms, 2m or 1h; got {refused:?}"
                )
            );
        }
    }
}
