//! Conversions from the sandbox's values to the generated wire types of
//! `crossborder-api`, so that responses have exactly the spec's shapes.

use crossborder_api::decimal::Amount;
use crossborder_core::Currency;
use rust_decimal::Decimal;

/// An amount as a JSON number, without trailing zeros (`153025.00` is sent
/// as `153025`, `0.50` as `0.5`).
pub(crate) fn amount(value: Decimal) -> Amount {
    Amount::new(value.normalize())
}

/// A decimal as text, without trailing zeros.
pub(crate) fn decimal_text(value: Decimal) -> String {
    value.normalize().to_string()
}

/// `value` rounded to the minor unit of `currency` (half away from zero).
pub(crate) fn round(value: Decimal, currency: Currency) -> Decimal {
    value.round_dp_with_strategy(
        currency.minor_unit_exponent(),
        rust_decimal::RoundingStrategy::MidpointAwayFromZero,
    )
}
