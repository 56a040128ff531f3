//! Field rules shared by the payout, collection and funding validators: the
//! amount (exact, above zero, within the currency's minor unit) and the
//! currency codes.

use rust_decimal::Decimal;

use crate::currency::Currency;
use crate::money::{decimal_places, parse_amount, AmountError};
use crate::violation::{present, Collector, Rule};

/// How an amount travels, which decides how a sign is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AmountWire {
    /// A decimal string (`DecimalString`, unsigned by its pattern): a sign is
    /// a format error.
    UnsignedString,
    /// A JSON number (`Amount`), which may carry a minus sign: a negative
    /// amount is `must be greater than zero`.
    Number,
}

/// Checks a required amount: a plain decimal, greater than zero, with no
/// more decimal places than `currency` (when known) allows.
pub(crate) fn check_amount(
    collector: &mut Collector,
    field: &'static str,
    value: Option<&str>,
    currency: Option<Currency>,
    wire: AmountWire,
) -> Option<Decimal> {
    let text = collector.require(field, value)?;
    if wire == AmountWire::Number {
        if let Some(magnitude) = text.strip_prefix('-') {
            if parse_amount(magnitude).is_ok() {
                collector.push(field, Rule::NotPositive, "must be greater than zero");
                return None;
            }
        }
    }
    let amount = match parse_amount(text) {
        Ok(amount) => amount,
        Err(AmountError::OutOfRange(_)) => {
            collector.push(
                field,
                Rule::InvalidFormat,
                "has more digits than can be represented exactly",
            );
            return None;
        }
        Err(_) => {
            collector.push(
                field,
                Rule::InvalidFormat,
                "must be a decimal number such as 1500.50",
            );
            return None;
        }
    };
    if amount.is_zero() {
        collector.push(field, Rule::NotPositive, "must be greater than zero");
        return None;
    }
    if let Some(currency) = currency {
        let exponent = currency.minor_unit_exponent();
        if decimal_places(amount) > exponent {
            collector.push(
                field,
                Rule::TooPrecise,
                format!("has more decimal places than {currency} allows ({exponent})"),
            );
            return None;
        }
    }
    Some(amount)
}

/// A currency field read ahead of the others (the rules of the other fields
/// depend on it): `Ok(None)` when absent or blank, `Ok(Some(_))` when
/// supported, `Err(message)` when the code is not supported.
pub(crate) type ParsedCurrency = Result<Option<Currency>, String>;

/// Parses a currency field without reporting anything yet.
pub(crate) fn parse_currency(value: Option<&str>) -> ParsedCurrency {
    match present(value) {
        None => Ok(None),
        Some(code) => code.parse().map(Some).map_err(|error| format!("{error}")),
    }
}

/// The supported currency of a parsed field, if any.
pub(crate) fn known(parsed: &ParsedCurrency) -> Option<Currency> {
    parsed.as_ref().ok().copied().flatten()
}

/// Reports a required currency field: `is required`, or the API's
/// `Invalid currency: <code>`.
pub(crate) fn report_currency(
    collector: &mut Collector,
    field: &'static str,
    parsed: &ParsedCurrency,
) {
    match parsed {
        Ok(Some(_)) => {}
        Ok(None) => collector.push(field, Rule::Required, "is required"),
        Err(message) => collector.push(field, Rule::UnknownCurrency, message.clone()),
    }
}

/// Reports a text longer than `max` characters.
pub(crate) fn check_max_chars(
    collector: &mut Collector,
    field: &'static str,
    value: &str,
    max: usize,
) {
    if value.chars().count() > max {
        collector.push(
            field,
            Rule::TooLong,
            format!("must be at most {max} characters"),
        );
    }
}
