//! Field rules shared by the payout, collection and funding validators: the
//! amount (the rule is [`crate::amount`]'s) and the currency codes.

use rust_decimal::Decimal;

use crate::amount::{validate_amount, AmountWire};
use crate::currency::Currency;
use crate::violation::{present, Collector, Rule};

/// Checks a required amount with [`validate_amount`], recording its violation.
pub(crate) fn check_amount(
    collector: &mut Collector,
    field: &'static str,
    value: Option<&str>,
    currency: Option<Currency>,
    wire: AmountWire,
) -> Option<Decimal> {
    validate_amount(field, value, currency, wire)
        .map_err(|violation| collector.add(violation))
        .ok()
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

/// Reports a required text field: `is required` when it is absent or blank,
/// `must be at most <max> characters` when it is longer than that.
pub(crate) fn require_max_chars(
    collector: &mut Collector,
    field: &'static str,
    value: Option<&str>,
    max: usize,
) {
    if let Some(value) = collector.require(field, value) {
        if value.chars().count() > max {
            collector.push(
                field,
                Rule::TooLong,
                format!("must be at most {max} characters"),
            );
        }
    }
}
