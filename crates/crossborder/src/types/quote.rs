//! Exchange quotes.

use crossborder_api::timestamp::Timestamp;
use crossborder_api::types as wire;
use crossborder_core::check_amount;
use rust_decimal::Decimal;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::types::Rail;
use crate::Currency;

/// What to quote: `amount` of `from` converted into `to`, optionally pinned
/// to a settlement rail.
///
/// ```
/// use crossborder::{Currency, Decimal, types::{QuoteRequest, Rail}};
///
/// let request = QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(10000, 2))
///     .rail(Rail::Swift);
/// assert_eq!(request.rail, Some(Rail::Swift));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuoteRequest {
    /// The currency converted from.
    pub from_currency: Currency,
    /// The currency converted into.
    pub to_currency: Currency,
    /// The amount of `from_currency` to convert.
    pub amount: Decimal,
    /// The settlement rail the quote is pinned to, if any.
    pub rail: Option<Rail>,
}

impl QuoteRequest {
    /// A quote for `amount` of `from` into `to`, on any rail.
    pub fn new(from: Currency, to: Currency, amount: Decimal) -> QuoteRequest {
        QuoteRequest {
            from_currency: from,
            to_currency: to,
            amount,
            rail: None,
        }
    }

    /// Pins the quote to a settlement rail.
    pub fn rail(mut self, rail: Rail) -> QuoteRequest {
        self.rail = Some(rail);
        self
    }

    /// Checks the amount with the API's shared amount rule
    /// ([`check_amount`](crate::rules::check_amount)): greater than zero,
    /// with no more decimal places than `from_currency` allows. The
    /// violation names the wire field `amount`.
    ///
    /// ```
    /// use crossborder::{Currency, Decimal, types::QuoteRequest};
    ///
    /// assert!(QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(10050, 2)).validate().is_ok());
    /// let zero = QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::ZERO);
    /// assert_eq!(zero.validate().unwrap_err().to_string(), "amount: must be greater than zero");
    /// let negative = QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(-1, 0));
    /// assert_eq!(negative.validate().unwrap_err().to_string(), "amount: must be greater than zero");
    /// let fraction = QuoteRequest::new(Currency::Ugx, Currency::Ngn, Decimal::new(15, 1));
    /// assert_eq!(
    ///     fraction.validate().unwrap_err().to_string(),
    ///     "amount: has more decimal places than UGX allows (0)"
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), crate::error::Violations> {
        check_amount("amount", self.amount, Some(self.from_currency))
            .map(|_| ())
            .map_err(Into::into)
    }
}

/// An exchange quote, with the `rate_key` to carry into a converting
/// collection or payout ([`PayoutRequest::from_quote`](crate::types::PayoutRequest::from_quote)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    /// The amount quoted, in `from_currency`, as requested.
    pub amount: Decimal,
    /// The exchange rate.
    pub rate: Decimal,
    /// The rate rounded for display.
    pub rounded_rate: Option<Decimal>,
    /// The key to pass as `rateKey`.
    pub rate_key: String,
    /// The currency converted from.
    pub from_currency: Currency,
    /// The currency converted into.
    pub to_currency: Currency,
    /// The fee, in `from_currency`.
    pub fee: Option<Decimal>,
    /// The amount received, in `to_currency`.
    pub to_amount: Option<Decimal>,
    /// The amount debited (amount plus fee), in `from_currency`.
    pub total_amount: Option<Decimal>,
    /// When the rate key expires (ISO 8601), when the server says.
    pub expires_at: Option<String>,
    /// When the SDK stops using the rate key, on this machine's clock: the
    /// lifetime the server gave (`expiresAt` minus its `Date` header; none
    /// left when `expiresAt` is not after it), or [`Quote::DEFAULT_LIFETIME`]
    /// without `expiresAt`, counted from the quote's receipt.
    pub valid_until: SystemTime,
}

impl Quote {
    /// How long a quote is honoured when the service gives no `expiresAt`
    /// (ASSUMPTIONS A11 and B13): 300 seconds from its receipt, the
    /// lifetime core states once for the SDK and the sandbox.
    pub const DEFAULT_LIFETIME: Duration = crossborder_core::quote::QUOTE_LIFETIME;

    /// The quote of `request`, from the service's answer received at
    /// `received_at` (the client's clock) and sent at `server_now` (its
    /// `Date` header, the server's clock).
    ///
    /// The quote's lifetime is measured on the server's clock (`expiresAt`
    /// minus `Date`) and counted from `received_at` on the client's, so a
    /// client whose clock is off neither refuses a valid quote nor keeps an
    /// expired one. Without a usable `Date`, `expiresAt` is read on the
    /// client's clock. An `expiresAt` at or before that moment means the
    /// quote arrived already expired: it is refused from the start
    /// (`valid_until` is `received_at`). Without a readable `expiresAt`,
    /// [`Quote::DEFAULT_LIFETIME`] applies. The service stays the judge:
    /// this check only spares a request it would refuse.
    pub(crate) fn from_wire(
        value: wire::Quote,
        request: &QuoteRequest,
        received_at: SystemTime,
        server_now: Option<SystemTime>,
    ) -> Quote {
        let stated = value
            .expires_at
            .as_deref()
            .and_then(|text| text.parse::<Timestamp>().ok())
            .map(|stamp| stamp.time());
        let lifetime = match stated {
            // Before the moment it is measured from: no time left.
            Some(expires) => expires
                .duration_since(server_now.unwrap_or(received_at))
                .unwrap_or(Duration::ZERO),
            None => Quote::DEFAULT_LIFETIME,
        };
        Quote {
            amount: request.amount,
            rate: value.rate.get(),
            rounded_rate: value.rounded_rate.map(|v| v.get()),
            rate_key: value.rate_key,
            from_currency: value.from_currency,
            to_currency: value.to_currency,
            fee: value.fee.map(|v| v.get()),
            to_amount: value.to_amount.map(|v| v.get()),
            total_amount: value.total_amount.map(|v| v.get()),
            expires_at: value.expires_at,
            // Unreachable overflow (RFC 3339 years end at 9999); treated as expired.
            valid_until: received_at.checked_add(lifetime).unwrap_or(received_at),
        }
    }

    /// True when the rate key is no longer to be used (at or after
    /// [`valid_until`](Quote::valid_until)).
    pub fn is_expired(&self) -> bool {
        SystemTime::now() >= self.valid_until
    }
}

/// `at` as RFC 3339 in UTC, for messages: its fraction of a second written
/// only as far as it goes (`2026-11-18T11:06:40Z`, `1970-01-01T00:00:01.5Z`).
pub(crate) fn rfc3339(at: SystemTime) -> String {
    let stamp = Timestamp::from(at);
    // `YYYY-MM-DDTHH:MM:SS` of the millisecond form.
    let whole = stamp.as_str().get(..19).unwrap_or(stamp.as_str());
    let nanos = match at.duration_since(UNIX_EPOCH) {
        Ok(after) => after.subsec_nanos(),
        // Before the epoch the whole second is the one below.
        Err(before) => (1_000_000_000 - before.duration().subsec_nanos()) % 1_000_000_000,
    };
    let fraction = format!("{nanos:09}");
    match fraction.trim_end_matches('0') {
        "" => format!("{whole}Z"),
        digits => format!("{whole}.{digits}Z"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_write_the_fraction_of_a_second_as_far_as_it_goes() {
        let at = |nanos: i128| {
            let magnitude = Duration::from_nanos(nanos.unsigned_abs() as u64);
            if nanos < 0 {
                UNIX_EPOCH - magnitude
            } else {
                UNIX_EPOCH + magnitude
            }
        };
        assert_eq!(
            rfc3339(at(1_763_464_000_000_000_000)),
            "2025-11-18T11:06:40Z"
        );
        assert_eq!(rfc3339(at(1_500_000_000)), "1970-01-01T00:00:01.5Z");
        assert_eq!(rfc3339(at(1_000_000_007)), "1970-01-01T00:00:01.000000007Z");
        assert_eq!(rfc3339(at(-250_000_000)), "1969-12-31T23:59:59.75Z");
    }

    /// A quote answered with `expires_at`, received at a fixed instant, with
    /// the server's clock `server_now`.
    fn quote(expires_at: Option<&str>, server_now: Option<SystemTime>) -> Quote {
        let mut data = serde_json::json!({"rate": 1550.25, "rateKey": "rk_q",
                                          "fromCurrency": "USD", "toCurrency": "NGN"});
        if let Some(at) = expires_at {
            data["expiresAt"] = serde_json::json!(at);
        }
        let value: wire::Quote = serde_json::from_value(data).unwrap();
        let request = QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(10, 0));
        Quote::from_wire(value, &request, received_at(), server_now)
    }

    /// 2026-11-21T12:00:00Z on the client's clock.
    fn received_at() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_262_400)
    }

    fn seconds(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn the_lifetime_rule_of_b13() {
        let server = SystemTime::UNIX_EPOCH + seconds(1_762_000_000); // 2025-11-01T12:26:40Z
        let cases: [(Option<&str>, Option<SystemTime>, SystemTime); 8] = [
            // On the server's clock: 90 s left, counted from receipt.
            (
                Some("2025-11-01T12:28:10Z"),
                Some(server),
                received_at() + seconds(90),
            ),
            // expiresAt at, or before, the server's Date: already expired.
            (Some("2025-11-01T12:26:40Z"), Some(server), received_at()),
            (Some("2025-11-01T12:26:39Z"), Some(server), received_at()),
            // No Date: expiresAt read on the client's clock.
            (
                Some("2026-11-21T12:02:00Z"),
                None,
                received_at() + seconds(120),
            ),
            (Some("2026-11-21T12:00:00Z"), None, received_at()),
            (Some("2026-11-21T11:59:00Z"), None, received_at()),
            // No expiresAt, or one that cannot be read: the assumed 300 s.
            (None, Some(server), received_at() + Quote::DEFAULT_LIFETIME),
            (
                Some("in five minutes"),
                None,
                received_at() + Quote::DEFAULT_LIFETIME,
            ),
        ];
        for (expires_at, server_now, valid_until) in cases {
            assert_eq!(
                quote(expires_at, server_now).valid_until,
                valid_until,
                "{expires_at:?} {server_now:?}"
            );
        }
    }
}
