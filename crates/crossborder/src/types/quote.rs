//! Exchange quotes.

use crossborder_api::types as wire;
use rust_decimal::Decimal;

use crate::wire::currency_from_wire;
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
}

/// An exchange quote, with the `rate_key` to carry into a converting
/// collection or payout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
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
}

impl From<wire::Quote> for Quote {
    fn from(value: wire::Quote) -> Self {
        Quote {
            rate: value.rate.get(),
            rounded_rate: value.rounded_rate.map(|v| v.get()),
            rate_key: value.rate_key,
            from_currency: currency_from_wire(value.from_currency),
            to_currency: currency_from_wire(value.to_currency),
            fee: value.fee.map(|v| v.get()),
            to_amount: value.to_amount.map(|v| v.get()),
            total_amount: value.total_amount.map(|v| v.get()),
            expires_at: value.expires_at,
        }
    }
}
