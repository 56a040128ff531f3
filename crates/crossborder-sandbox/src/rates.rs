//! The sandbox's deterministic exchange rates, fee and quote arithmetic.
//!
//! Every rate comes from one table of units per US dollar; a cross rate is
//! the quotient of two entries, computed exactly with `rust_decimal` and
//! rounded to [`RATE_DECIMAL_PLACES`].

use crossborder_core::{Currency, Rail};
use rust_decimal::{Decimal, RoundingStrategy};
use std::time::SystemTime;

use crate::wire::round;

/// Decimal places of a cross rate.
pub const RATE_DECIMAL_PLACES: u32 = 12;

/// The conversion fee: 0.5 % of the amount, in the source currency.
pub fn fee_rate() -> Decimal {
    Decimal::new(5, 3)
}

/// Units of `currency` per 1 USD:
///
/// | Currency | per USD |
/// |---|---|
/// | NGN | 1530.25 |
/// | EUR | 0.92 |
/// | GBP | 0.79 |
/// | USD | 1 |
/// | KES | 129.50 |
/// | UGX | 3700 |
/// | GHS | 15.60 |
/// | CAD | 1.38 |
/// | XOF | 603.50 |
/// | XAF | 603.50 |
/// | USDT | 1 |
/// | USDC | 1 |
/// | CNGN | 1530.25 |
pub fn units_per_usd(currency: Currency) -> Decimal {
    match currency {
        Currency::Ngn | Currency::Cngn => Decimal::new(153_025, 2),
        Currency::Eur => Decimal::new(92, 2),
        Currency::Gbp => Decimal::new(79, 2),
        Currency::Usd | Currency::Usdt | Currency::Usdc => Decimal::ONE,
        Currency::Kes => Decimal::new(12_950, 2),
        Currency::Ugx => Decimal::new(3_700, 0),
        Currency::Ghs => Decimal::new(1_560, 2),
        Currency::Cad => Decimal::new(138, 2),
        Currency::Xof | Currency::Xaf => Decimal::new(60_350, 2),
    }
}

/// Units of `to` per unit of `from`: 1 for the same currency, otherwise
/// `units_per_usd(to) / units_per_usd(from)` rounded half away from zero to
/// [`RATE_DECIMAL_PLACES`] places (trailing zeros removed).
///
/// ```
/// use crossborder_core::Currency;
/// use crossborder_sandbox::rates::rate;
///
/// assert_eq!(rate(Currency::Usd, Currency::Ngn).to_string(), "1530.25");
/// assert_eq!(rate(Currency::Ngn, Currency::Usd).to_string(), "0.000653487992");
/// assert_eq!(rate(Currency::Eur, Currency::Gbp).to_string(), "0.858695652174");
/// ```
pub fn rate(from: Currency, to: Currency) -> Decimal {
    if from == to {
        return Decimal::ONE;
    }
    // Table entries are non-zero constants, so the division cannot fail.
    let exact = units_per_usd(to)
        .checked_div(units_per_usd(from))
        .unwrap_or(Decimal::ZERO);
    exact
        .round_dp_with_strategy(RATE_DECIMAL_PLACES, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
}

/// The rate as shown to people: 2 decimal places when the rate is at least
/// 1, otherwise 6.
pub fn rounded_rate(rate: Decimal) -> Decimal {
    let places = if rate >= Decimal::ONE { 2 } else { 6 };
    rate.round_dp_with_strategy(places, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
}

/// The figures of a conversion of `amount` of `from` into `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conversion {
    /// Units of `to` per unit of `from`.
    pub rate: Decimal,
    /// The fee in `from`: 0.5 % of the amount rounded to `from`'s minor
    /// unit, and 0 when the currencies are the same.
    pub fee: Decimal,
    /// `amount * rate` rounded to `to`'s minor unit.
    pub to_amount: Decimal,
    /// `amount + fee`, in `from`.
    pub total_amount: Decimal,
}

/// Computes a conversion at the table rate; `None` when a figure overflows
/// (amounts are capped well below that by [`crate::amount::MAX_AMOUNT`]).
///
/// ```
/// use crossborder_core::Currency;
/// use crossborder_sandbox::rates::convert;
/// use rust_decimal::Decimal;
///
/// let quote = convert(Decimal::new(100, 0), Currency::Usd, Currency::Ngn).unwrap();
/// assert_eq!(quote.rate.to_string(), "1530.25");
/// assert_eq!(quote.fee.to_string(), "0.50");
/// assert_eq!(quote.to_amount.to_string(), "153025.00");
/// assert_eq!(quote.total_amount.to_string(), "100.50");
/// ```
pub fn convert(amount: Decimal, from: Currency, to: Currency) -> Option<Conversion> {
    convert_at(amount, from, to, rate(from, to))
}

/// `amount` of a source currency converted into `to` at `rate`: `amount *
/// rate` rounded half away from zero to `to`'s minor unit; `None` when the
/// product overflows. This is the quote's `toAmount`, and it is used
/// wherever an amount is converted: a collection's `toAmount` and the credit
/// of a simulated funding of a converting collection.
///
/// ```
/// use crossborder_core::Currency;
/// use crossborder_sandbox::rates::{converted_amount, rate};
/// use rust_decimal::Decimal;
///
/// let ngn_usd = rate(Currency::Ngn, Currency::Usd);
/// let usd = converted_amount(Decimal::new(100_000, 0), Currency::Usd, ngn_usd).unwrap();
/// assert_eq!(usd.to_string(), "65.35");
/// ```
pub fn converted_amount(amount: Decimal, to: Currency, rate: Decimal) -> Option<Decimal> {
    Some(round(amount.checked_mul(rate)?, to))
}

/// Computes a conversion at a given rate (the rate a rateKey locked).
pub fn convert_at(
    amount: Decimal,
    from: Currency,
    to: Currency,
    rate: Decimal,
) -> Option<Conversion> {
    let fee = if from == to {
        Decimal::ZERO
    } else {
        round(amount.checked_mul(fee_rate())?, from)
    };
    Some(Conversion {
        rate,
        fee,
        to_amount: converted_amount(amount, to, rate)?,
        total_amount: amount.checked_add(fee)?,
    })
}

/// A quote as the sandbox remembers it, to honour its rateKey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct QuoteRecord {
    /// The key given to the caller.
    pub(crate) rate_key: String,
    /// Source currency.
    pub(crate) from: Currency,
    /// Destination currency.
    pub(crate) to: Currency,
    /// The amount quoted, in `from`.
    pub(crate) amount: Decimal,
    /// The rail the quote was pinned to, if any (it does not change the
    /// figures).
    pub(crate) rail: Option<Rail>,
    /// The figures.
    pub(crate) conversion: Conversion,
    /// After this instant the rateKey is refused.
    pub(crate) expires_at: SystemTime,
}
