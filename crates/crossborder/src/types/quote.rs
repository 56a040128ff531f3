//! Exchange quotes.

use crossborder_api::types as wire;
use crossborder_core::{validate_amount, AmountWire};
use rust_decimal::Decimal;
use std::time::{Duration, SystemTime};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::{Currency, Rail};

/// What to quote: `amount` of `from` converted into `to`, optionally pinned
/// to a settlement rail.
///
/// ```
/// use crossborder::{Currency, Decimal, QuoteRequest, Rail};
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
    /// ([`validate_amount`](crate::rules::validate_amount)): greater than
    /// zero, with no more decimal places than `from_currency` allows. The
    /// violation names the wire field `amount`.
    ///
    /// ```
    /// use crossborder::{Currency, Decimal, QuoteRequest};
    ///
    /// assert!(QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::new(10050, 2)).validate().is_ok());
    /// let zero = QuoteRequest::new(Currency::Usd, Currency::Ngn, Decimal::ZERO);
    /// assert_eq!(zero.validate().unwrap_err().to_string(), "amount: must be greater than zero");
    /// let fraction = QuoteRequest::new(Currency::Ugx, Currency::Ngn, Decimal::new(15, 1));
    /// assert_eq!(
    ///     fraction.validate().unwrap_err().to_string(),
    ///     "amount: has more decimal places than UGX allows (0)"
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), crate::Violations> {
        let amount = self.amount.to_string();
        validate_amount(
            "amount",
            Some(&amount),
            Some(self.from_currency),
            AmountWire::Number,
        )
        .map(|_| ())
        .map_err(Into::into)
    }
}

/// How long a quote is honoured when the service does not say
/// (ASSUMPTIONS A11 and B13): 300 seconds from its receipt.
pub const DEFAULT_QUOTE_LIFETIME: Duration = Duration::from_secs(300);

/// An exchange quote, with the `rate_key` to carry into a converting
/// collection or payout ([`PayoutRequest::from_quote`](crate::PayoutRequest::from_quote)).
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
    /// lifetime the server gave (`expiresAt` minus its `Date` header), or
    /// [`DEFAULT_QUOTE_LIFETIME`], counted from the quote's receipt.
    pub valid_until: SystemTime,
}

impl Quote {
    /// The quote of `request`, from the service's answer received at
    /// `received_at` (the client's clock) and sent at `server_now` (its
    /// `Date` header, the server's clock).
    ///
    /// The quote's lifetime is measured on the server's clock (`expiresAt`
    /// minus `Date`) and counted from `received_at` on the client's, so a
    /// client whose clock is off does not refuse a valid quote. Without a
    /// usable `Date`, `expiresAt` is read on the client's clock; when that
    /// gives no positive lifetime, [`DEFAULT_QUOTE_LIFETIME`] applies. The
    /// service stays the judge: this check only spares a request it would
    /// refuse.
    pub(crate) fn from_wire(
        value: wire::Quote,
        request: &QuoteRequest,
        received_at: SystemTime,
        server_now: Option<SystemTime>,
    ) -> Quote {
        let stated = value
            .expires_at
            .as_deref()
            .and_then(|text| OffsetDateTime::parse(text, &Rfc3339).ok())
            .map(SystemTime::from);
        let lifetime = stated
            .and_then(|expires| {
                expires
                    .duration_since(server_now.unwrap_or(received_at))
                    .ok()
            })
            .filter(|lifetime| !lifetime.is_zero())
            .unwrap_or(DEFAULT_QUOTE_LIFETIME);
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
            valid_until: received_at + lifetime,
        }
    }

    /// True when the rate key is no longer to be used (at or after
    /// [`valid_until`](Quote::valid_until)).
    pub fn is_expired(&self) -> bool {
        SystemTime::now() >= self.valid_until
    }
}

/// `at` as RFC 3339, for messages.
pub(crate) fn rfc3339(at: SystemTime) -> String {
    OffsetDateTime::from(at)
        .format(&Rfc3339)
        .unwrap_or_else(|_| format!("{at:?}"))
}
