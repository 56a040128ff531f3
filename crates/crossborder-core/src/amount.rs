//! The amount rule shared by quotes, collections, funding simulations and
//! payouts: a required, exact decimal greater than zero, with no more decimal
//! places than its currency's minor unit.

use std::borrow::Cow;

use rust_decimal::Decimal;

use crate::currency::Currency;
use crate::money::{decimal_places, parse_amount, AmountError};
use crate::violation::{present, Rule, Violation};

/// How an amount travels, which decides how a minus sign is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountWire {
    /// A decimal string (`DecimalString`, unsigned by its pattern) or a path
    /// segment: a sign is a format error.
    UnsignedString,
    /// A JSON number (`Amount`), which may carry a minus sign: a negative
    /// amount is `must be greater than zero`.
    Number,
}

/// Checks a required amount of the field `field`, given as text (the JSON
/// number's text for [`AmountWire::Number`]): present, a plain decimal,
/// greater than zero, and with no more decimal places than `currency` (when
/// known) allows. Returns the exact amount, or the one violation.
///
/// ```
/// use crossborder_core::{validate_amount, AmountWire, Currency};
///
/// let amount = validate_amount("amount", Some("100.50"), Some(Currency::Ngn), AmountWire::Number);
/// assert_eq!(amount.unwrap().to_string(), "100.50");
///
/// let check = |text, wire| {
///     validate_amount("amount", Some(text), Some(Currency::Ugx), wire)
///         .unwrap_err()
///         .to_string()
/// };
/// assert_eq!(check("-5", AmountWire::Number), "amount: must be greater than zero");
/// assert_eq!(
///     check("-5", AmountWire::UnsignedString),
///     "amount: must be a decimal number such as 1500.50"
/// );
/// assert_eq!(
///     check("1.5", AmountWire::Number),
///     "amount: has more decimal places than UGX allows (0)"
/// );
/// ```
pub fn validate_amount(
    field: impl Into<Cow<'static, str>>,
    value: Option<&str>,
    currency: Option<Currency>,
    wire: AmountWire,
) -> Result<Decimal, Violation> {
    let Some(text) = present(value) else {
        return Err(Violation::new(field, Rule::Required, "is required"));
    };
    if wire == AmountWire::Number {
        // A JSON number may be negative, which the unsigned parse refuses
        // as a format error; it is refused for its sign instead.
        if let Some(Ok(magnitude)) = text.strip_prefix('-').map(parse_amount) {
            return check_amount(field, -magnitude, currency);
        }
    }
    let amount = match parse_amount(text) {
        Ok(amount) => amount,
        Err(AmountError::OutOfRange(_)) => {
            return Err(Violation::new(
                field,
                Rule::InvalidFormat,
                "has more digits than can be represented exactly",
            ))
        }
        Err(_) => {
            return Err(Violation::new(
                field,
                Rule::InvalidFormat,
                "must be a decimal number such as 1500.50",
            ))
        }
    };
    check_amount(field, amount, currency)
}

/// The rule of [`validate_amount`] for an amount that is already a number:
/// greater than zero, with no more decimal places than `currency` (when
/// known) allows (trailing zeros do not count). Returns the amount, or the
/// one violation.
///
/// ```
/// use crossborder_core::{check_amount, Currency, Decimal};
///
/// assert!(check_amount("amount", Decimal::new(10050, 2), Some(Currency::Ngn)).is_ok());
/// let check = |amount| check_amount("amount", amount, Some(Currency::Ugx)).unwrap_err().to_string();
/// assert_eq!(check(Decimal::new(-5, 0)), "amount: must be greater than zero");
/// assert_eq!(check(Decimal::ZERO), "amount: must be greater than zero");
/// assert_eq!(check(Decimal::new(15, 1)), "amount: has more decimal places than UGX allows (0)");
/// assert!(check_amount("amount", Decimal::new(1500, 2), Some(Currency::Ugx)).is_ok());
/// ```
pub fn check_amount(
    field: impl Into<Cow<'static, str>>,
    amount: Decimal,
    currency: Option<Currency>,
) -> Result<Decimal, Violation> {
    if amount.is_sign_negative() || amount.is_zero() {
        return Err(Violation::new(
            field,
            Rule::NotPositive,
            "must be greater than zero",
        ));
    }
    if let Some(currency) = currency {
        let exponent = currency.minor_unit_exponent();
        if decimal_places(amount) > exponent {
            return Err(Violation::new(
                field,
                Rule::TooPrecise,
                format!("has more decimal places than {currency} allows ({exponent})"),
            ));
        }
    }
    Ok(amount)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: Option<&str>, currency: Option<Currency>, wire: AmountWire) -> String {
        match validate_amount("amount", text, currency, wire) {
            Ok(amount) => amount.to_string(),
            Err(violation) => format!("{:?}: {}", violation.rule, violation.message),
        }
    }

    #[test]
    fn amounts_are_checked() {
        use AmountWire::{Number, UnsignedString};
        let ngn = Some(Currency::Ngn);
        let too_long = "9".repeat(40);
        let table = [
            (Some("100.50"), ngn, Number, "100.50"),
            (Some("100.50"), ngn, UnsignedString, "100.50"),
            (Some("1.001"), None, Number, "1.001"),
            (None, ngn, Number, "Required: is required"),
            (Some(" "), ngn, Number, "Required: is required"),
            (
                Some("0"),
                None,
                Number,
                "NotPositive: must be greater than zero",
            ),
            (
                Some("0.00"),
                None,
                Number,
                "NotPositive: must be greater than zero",
            ),
            (
                Some("-0"),
                None,
                Number,
                "NotPositive: must be greater than zero",
            ),
            (
                Some("-1"),
                None,
                Number,
                "NotPositive: must be greater than zero",
            ),
            (
                Some("-1"),
                None,
                UnsignedString,
                "InvalidFormat: must be a decimal number such as 1500.50",
            ),
            (
                Some("1e3"),
                None,
                Number,
                "InvalidFormat: must be a decimal number such as 1500.50",
            ),
            (
                Some("1.001"),
                ngn,
                Number,
                "TooPrecise: has more decimal places than NGN allows (2)",
            ),
            (
                Some(too_long.as_str()),
                None,
                UnsignedString,
                "InvalidFormat: has more digits than can be represented exactly",
            ),
        ];
        for (text, currency, wire, expected) in table {
            assert_eq!(check(text, currency, wire), expected, "{text:?} {wire:?}");
        }
    }
}
