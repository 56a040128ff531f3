//! Exact decimal amounts and amounts tied to a currency.
//!
//! Amounts are [`Decimal`]s, never floating point: `0.1 + 0.2` is exactly
//! `0.3`, and text is parsed digit by digit with no exponent notation.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;

use crate::currency::Currency;
use serde::{Deserialize, Serialize};

/// Why a text is not an exact decimal amount.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// The text is empty.
    #[error("amount is empty")]
    Empty,
    /// The text is not digits with an optional single `.` followed by digits
    /// (signs, exponents, spaces, `NaN` and the like are refused).
    #[error("`{0}` is not a decimal number such as 1500.50")]
    NotDecimal(String),
    /// The number has more digits than can be held exactly (28 significant
    /// digits or 28 decimal places).
    #[error("`{0}` has more digits than can be represented exactly")]
    OutOfRange(String),
}

/// Parses an amount exactly.
///
/// Accepted: one or more ASCII digits, optionally followed by `.` and one or
/// more digits (`1500`, `1500.50`, `0.000001`). Refused: empty text, signs,
/// exponents (`1e3`), surrounding spaces, thousands separators, `NaN`,
/// `inf`, a leading or trailing `.`. No floating point is involved.
///
/// ```
/// use crossborder_core::parse_amount;
///
/// let sum = parse_amount("0.1").unwrap() + parse_amount("0.2").unwrap();
/// assert_eq!(sum, parse_amount("0.3").unwrap());
/// assert!(parse_amount("1e3").is_err());
/// ```
pub fn parse_amount(text: &str) -> Result<rust_decimal::Decimal, AmountError> {
    if text.is_empty() {
        return Err(AmountError::Empty);
    }
    if !is_decimal_text(text) {
        return Err(AmountError::NotDecimal(text.to_owned()));
    }
    Decimal::from_str_exact(text).map_err(|_| AmountError::OutOfRange(text.to_owned()))
}

/// Parses decimal text in exponent notation (`1.5e3`, `-2E-7`, `12e+2`)
/// to its exact value, or refuses it.
///
/// The part before the exponent is read with [`Decimal::from_str_exact`]
/// and the exponent applied without rounding, so a value a [`Decimal`]
/// cannot hold exactly (more than 28 decimal places, or too large) is
/// [`AmountError::OutOfRange`], never a rounded neighbour.
/// `Decimal::from_scientific` rounds a long mantissa instead
/// (`1.0000000000000000000000000000001e0` reads as `1`), which is why
/// every exact reader of JSON numbers goes through here. Text without an
/// exponent, or with one that is not an integer, is
/// [`AmountError::NotDecimal`].
///
/// ```
/// use crossborder_core::{parse_scientific_exact, Decimal};
///
/// assert_eq!(parse_scientific_exact("1.5e3").unwrap(), Decimal::new(1500, 0));
/// assert_eq!(parse_scientific_exact("-25E-3").unwrap().to_string(), "-0.025");
/// assert_eq!(parse_scientific_exact("1.50e-27").unwrap().to_string(), "0.0000000000000000000000000015");
/// assert!(parse_scientific_exact("1.0000000000000000000000000000001e0").is_err());
/// assert!(parse_scientific_exact("1e999999999").is_err());
/// assert!(parse_scientific_exact("12").is_err());
/// ```
pub fn parse_scientific_exact(text: &str) -> Result<Decimal, AmountError> {
    let not_decimal = || AmountError::NotDecimal(text.to_owned());
    let out_of_range = || AmountError::OutOfRange(text.to_owned());
    let (mantissa, exponent) = text.split_once(['e', 'E']).ok_or_else(not_decimal)?;
    let (negative, digits) = match mantissa.as_bytes().first() {
        Some(b'-') => (true, &mantissa[1..]),
        Some(b'+') => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    if !is_decimal_text(digits) {
        return Err(not_decimal());
    }
    let unsigned_exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
    if !all_digits(unsigned_exponent) {
        return Err(not_decimal());
    }
    let value = Decimal::from_str_exact(digits).map_err(|_| out_of_range())?;
    if value.is_zero() {
        return Ok(Decimal::ZERO);
    }
    // An exponent too long for an i64 moves any non-zero digit out of range.
    let exponent: i64 = exponent
        .strip_prefix('+')
        .unwrap_or(exponent)
        .parse()
        .map_err(|_| out_of_range())?;
    // value = digits * 10^exponent = mantissa * 10^(exponent - scale).
    let mut mantissa = value.mantissa();
    let mut shift = exponent.saturating_sub(i64::from(value.scale()));
    let max_scale = i64::from(Decimal::MAX_SCALE);
    // Trailing zeros of the digits may make room (1.50e-27, 10e-29).
    while shift < -max_scale && mantissa % 10 == 0 {
        mantissa /= 10;
        shift += 1;
    }
    if !(-max_scale..=max_scale).contains(&shift) {
        return Err(out_of_range());
    }
    let places = u32::try_from(shift.unsigned_abs()).map_err(|_| out_of_range())?;
    let (scale, factor) = if shift <= 0 {
        (places, 1)
    } else {
        (0, 10i128.pow(places))
    };
    let signed = if negative { -mantissa } else { mantissa };
    Decimal::try_from_i128_with_scale(signed, scale)
        .ok()
        .and_then(|value| value.checked_mul(Decimal::from_i128_with_scale(factor, 0)))
        .ok_or_else(out_of_range)
}

/// True when `text` is one or more ASCII digits.
fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// True when `text` is digits, optionally followed by `.` and digits.
fn is_decimal_text(text: &str) -> bool {
    match text.split_once('.') {
        Some((whole, fraction)) => all_digits(whole) && all_digits(fraction),
        None => all_digits(text),
    }
}

/// The number of decimal places an amount really uses, ignoring trailing
/// zeros (`10.50` uses 1, `10.00` uses 0).
pub fn decimal_places(amount: Decimal) -> u32 {
    amount.normalize().scale()
}

/// An amount in a given currency, checked against that currency's minor unit.
///
/// The amount is never negative and never carries more decimal places than
/// [`Currency::minor_unit_exponent`] allows (trailing zeros do not count).
/// Zero is allowed; use [`Money::is_positive`] where zero is not meaningful.
///
/// ```
/// # use crossborder_core as crossborder;
/// use crossborder::{Currency, Money};
///
/// let money = Money::parse("1234.56", Currency::Ngn).unwrap();
/// assert_eq!(money.to_string(), "1234.56 NGN");
///
/// let error = Money::parse("10.5", Currency::Ugx).unwrap_err();
/// assert_eq!(error.to_string(), "UGX amounts have no minor unit; got 10.5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(into = "MoneyWire", try_from = "MoneyWire")]
pub struct Money {
    /// Serialised as a decimal string so no precision is lost.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    amount: Decimal,
    currency: Currency,
}

/// Why an amount cannot be [`Money`] in a currency.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// The text is not an exact decimal amount.
    #[error(transparent)]
    Amount(#[from] AmountError),
    /// The amount is below zero.
    #[error("{currency} amounts cannot be negative; got {amount}")]
    Negative {
        /// The amount given.
        amount: Decimal,
        /// The currency it was given in.
        currency: Currency,
    },
    /// The amount has more decimal places than the currency's minor unit.
    #[error("{}", too_precise_message(*.currency, *.amount))]
    TooPrecise {
        /// The amount given.
        amount: Decimal,
        /// The currency it was given in.
        currency: Currency,
    },
}

fn too_precise_message(currency: Currency, amount: Decimal) -> String {
    match currency.minor_unit_exponent() {
        0 => format!("{currency} amounts have no minor unit; got {amount}"),
        exponent => {
            format!("{currency} amounts allow at most {exponent} decimal places; got {amount}")
        }
    }
}

impl Money {
    /// Checks `amount` against `currency`: not negative, and no more decimal
    /// places than the currency's minor unit.
    pub fn new(amount: Decimal, currency: Currency) -> Result<Money, MoneyError> {
        if amount.is_sign_negative() && !amount.is_zero() {
            return Err(MoneyError::Negative { amount, currency });
        }
        if decimal_places(amount) > currency.minor_unit_exponent() {
            return Err(MoneyError::TooPrecise { amount, currency });
        }
        Ok(Money { amount, currency })
    }

    /// Wraps an amount a validator has already checked against `currency`.
    pub(crate) const fn from_checked(amount: Decimal, currency: Currency) -> Money {
        Money { amount, currency }
    }

    /// Parses `text` with [`parse_amount`], then checks it as [`Money::new`] does.
    pub fn parse(text: &str, currency: Currency) -> Result<Money, MoneyError> {
        Money::new(parse_amount(text)?, currency)
    }

    /// The amount, exactly as given.
    pub const fn amount(&self) -> Decimal {
        self.amount
    }

    /// The currency of the amount.
    pub const fn currency(&self) -> Currency {
        self.currency
    }

    /// True when the amount is above zero, as payouts and collections need.
    pub fn is_positive(&self) -> bool {
        !self.amount.is_zero()
    }

    /// True when the amount is zero.
    pub fn is_zero(&self) -> bool {
        self.amount.is_zero()
    }
}

impl fmt::Display for Money {
    /// Formats as `9899.50 USD`: the amount with its currency's minor units
    /// ([`display_amount`]), then the code.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            display_amount(self.amount, self.currency),
            self.currency
        )
    }
}

/// An amount of `currency` as a person reads it: with the currency's minor
/// units ([`Currency::minor_unit_exponent`]: `9899.5` USD is `9899.50`,
/// `5000000` NGN is `5000000.00`, `12.5` USDT is `12.500000`, `1500` UGX
/// is `1500`), and never rounded: an amount with more decimals than that
/// (a server's `0.125` USD) keeps them, less its trailing zeros. Display
/// only: the wire text of an amount is left as it is.
///
/// ```
/// use crossborder_core::{display_amount, Currency, Decimal};
///
/// let shown = |text: &str, currency| display_amount(text.parse::<Decimal>().unwrap(), currency).to_string();
/// assert_eq!(shown("9899.5", Currency::Usd), "9899.50");
/// assert_eq!(shown("5000000", Currency::Ngn), "5000000.00");
/// assert_eq!(shown("12.5", Currency::Usdt), "12.500000");
/// assert_eq!(shown("1500.00", Currency::Ugx), "1500");
/// assert_eq!(shown("0.1250", Currency::Usd), "0.125");
/// ```
pub fn display_amount(amount: Decimal, currency: Currency) -> Decimal {
    let mut shown = amount.normalize();
    let minor = currency.minor_unit_exponent();
    if shown.scale() < minor {
        shown.rescale(minor);
    }
    shown
}

/// An amount of `currency` as a table shows it: [`display_amount`] with the
/// whole part grouped by thousands, then the code. The CLI's tables and
/// the sandbox's console show amounts so.
///
/// ```
/// use crossborder_core::{display_grouped, Currency, Decimal};
///
/// let shown = |text: &str, currency| display_grouped(text.parse::<Decimal>().unwrap(), currency);
/// assert_eq!(shown("4912500.5", Currency::Ngn), "4,912,500.50 NGN");
/// assert_eq!(shown("999.5", Currency::Usd), "999.50 USD");
/// assert_eq!(shown("-1234567.891", Currency::Usd), "-1,234,567.891 USD");
/// ```
pub fn display_grouped(amount: Decimal, currency: Currency) -> String {
    let shown = display_amount(amount, currency).to_string();
    let (sign, digits) = match shown.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", shown.as_str()),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let mut out = String::from(sign);
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    format!("{out} {currency}")
}

/// The wire shape of [`Money`]: the amount as an exact decimal string.
#[derive(Serialize, Deserialize)]
struct MoneyWire {
    amount: String,
    currency: Currency,
}

impl From<Money> for MoneyWire {
    fn from(money: Money) -> Self {
        MoneyWire {
            amount: money.amount.to_string(),
            currency: money.currency,
        }
    }
}

impl TryFrom<MoneyWire> for Money {
    type Error = MoneyError;

    fn try_from(wire: MoneyWire) -> Result<Self, Self::Error> {
        Money::parse(&wire.amount, wire.currency)
    }
}

impl FromStr for Money {
    type Err = MoneyParseError;

    /// Parses `1234.56 NGN` (the [`Display`](fmt::Display) form).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (amount, code) = text
            .split_once(' ')
            .ok_or_else(|| MoneyParseError::Shape(text.to_owned()))?;
        let currency = code.parse().map_err(MoneyParseError::Currency)?;
        Ok(Money::parse(amount, currency)?)
    }
}

/// Why a text is not `<amount> <currency code>`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyParseError {
    /// The text is not an amount, one space and a code.
    #[error("`{0}` is not an amount and a currency such as `1500.50 NGN`")]
    Shape(String),
    /// The currency code is not supported.
    #[error(transparent)]
    Currency(#[from] crate::currency::UnknownCurrency),
    /// The amount is not valid in that currency.
    #[error(transparent)]
    Money(#[from] MoneyError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_grouped_by_thousands_with_their_minor_units() {
        for (amount, currency, shown) in [
            ("5000000", Currency::Ngn, "5,000,000.00 NGN"),
            ("999.5", Currency::Usd, "999.50 USD"),
            ("1000", Currency::Usd, "1,000.00 USD"),
            ("-1234567.891", Currency::Usd, "-1,234,567.891 USD"),
            ("1500000", Currency::Ugx, "1,500,000 UGX"),
            ("12345.5", Currency::Usdt, "12,345.500000 USDT"),
            ("0", Currency::Eur, "0.00 EUR"),
        ] {
            assert_eq!(display_grouped(amount.parse().unwrap(), currency), shown);
        }
    }

    fn amount(text: &str) -> Decimal {
        parse_amount(text).unwrap()
    }

    #[test]
    fn exponent_notation_is_exact_or_refused() {
        for (text, value) in [
            ("1e3", "1000"),
            ("1.5e3", "1500"),
            ("1.5E+3", "1500"),
            ("+1.5e3", "1500"),
            ("-25e-3", "-0.025"),
            ("12.50e0", "12.50"),
            ("12.50e-1", "1.250"),
            ("1.50e-27", "0.0000000000000000000000000015"),
            ("1e-28", "0.0000000000000000000000000001"),
            (
                "7.9228162514264337593543950335e28",
                "79228162514264337593543950335",
            ),
            ("0e999999999999999999999", "0"),
            ("-0.000e-50", "0"),
            ("1e28", "10000000000000000000000000000"),
            ("10e-29", "0.0000000000000000000000000001"),
            ("-1000e-31", "-0.0000000000000000000000000001"),
        ] {
            assert_eq!(
                parse_scientific_exact(text).map(|d| d.to_string()),
                Ok(value.to_owned()),
                "{text}"
            );
        }
        for text in [
            // Rounded by Decimal::from_scientific; refused here.
            "1.0000000000000000000000000000001e0",
            "0.12345678901234567890123456789e1",
            "1e-29",
            "15e-30",
            "1e29",
            "7.9228162514264337593543950336e28",
            "1e999999999",
            "-1e999999999",
            "1e-999999999",
            "1e99999999999999999999999",
            "1e-99999999999999999999999",
        ] {
            assert_eq!(
                parse_scientific_exact(text),
                Err(AmountError::OutOfRange(text.to_owned())),
                "{text}"
            );
        }
        for text in [
            "12", "e5", "1e", "1e+", "1e--5", "1e+-5", ".5e1", "5.e1", "1.5e3.5", "1,5e3", "--1e3",
            "1 e3", "NaNe1",
        ] {
            assert_eq!(
                parse_scientific_exact(text),
                Err(AmountError::NotDecimal(text.to_owned())),
                "{text}"
            );
        }
    }

    #[test]
    fn decimal_arithmetic_is_exact() {
        assert_eq!(amount("0.1") + amount("0.2"), amount("0.3"));
        assert_eq!(amount("1234567.89").to_string(), "1234567.89");
        assert_eq!(amount("100000000000.01").to_string(), "100000000000.01");
        assert_eq!(
            amount("100000000000.01") - amount("100000000000"),
            amount("0.01")
        );
    }

    #[test]
    fn parse_amount_accepts_plain_decimals() {
        let table = [
            ("0", "0"),
            ("1", "1"),
            ("1500", "1500"),
            ("1500.50", "1500.50"),
            ("0.000001", "0.000001"),
            ("007.10", "7.10"),
            ("1234567.89", "1234567.89"),
        ];
        for (text, parsed) in table {
            assert_eq!(parse_amount(text).unwrap().to_string(), parsed);
        }
    }

    #[test]
    fn parse_amount_refuses_everything_else() {
        let table = [
            ("", "amount is empty"),
            (" ", "` ` is not a decimal number such as 1500.50"),
            ("abc", "`abc` is not a decimal number such as 1500.50"),
            ("NaN", "`NaN` is not a decimal number such as 1500.50"),
            ("inf", "`inf` is not a decimal number such as 1500.50"),
            ("1e3", "`1e3` is not a decimal number such as 1500.50"),
            ("-1", "`-1` is not a decimal number such as 1500.50"),
            ("+1", "`+1` is not a decimal number such as 1500.50"),
            (" 1", "` 1` is not a decimal number such as 1500.50"),
            ("1 ", "`1 ` is not a decimal number such as 1500.50"),
            ("1,000", "`1,000` is not a decimal number such as 1500.50"),
            (".5", "`.5` is not a decimal number such as 1500.50"),
            ("5.", "`5.` is not a decimal number such as 1500.50"),
            ("1.2.3", "`1.2.3` is not a decimal number such as 1500.50"),
            ("١٢", "`١٢` is not a decimal number such as 1500.50"),
            (
                "123456789012345678901234567890",
                "`123456789012345678901234567890` has more digits than can be represented exactly",
            ),
            (
                "0.12345678901234567890123456789",
                "`0.12345678901234567890123456789` has more digits than can be represented exactly",
            ),
        ];
        for (text, message) in table {
            assert_eq!(
                parse_amount(text).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
    }

    #[test]
    fn money_respects_the_minor_unit() {
        // Shown with the currency's minor units (ASSUMPTIONS B80).
        let valid = [
            ("0.000001", Currency::Cngn, "0.000001 CNGN"),
            ("12.5", Currency::Usdt, "12.500000 USDT"),
            ("1234567.89", Currency::Ngn, "1234567.89 NGN"),
            ("5000000", Currency::Ngn, "5000000.00 NGN"),
            ("9899.5", Currency::Usd, "9899.50 USD"),
            ("100000000000.01", Currency::Usd, "100000000000.01 USD"),
            ("10", Currency::Ugx, "10 UGX"),
            ("10.00", Currency::Ugx, "10 UGX"),
            ("10.50", Currency::Eur, "10.50 EUR"),
            ("0", Currency::Ngn, "0.00 NGN"),
        ];
        for (text, currency, shown) in valid {
            let money = Money::parse(text, currency).unwrap();
            assert_eq!(money.to_string(), shown);
        }

        let invalid = [
            (
                "0.0000001",
                Currency::Cngn,
                "CNGN amounts allow at most 6 decimal places; got 0.0000001",
            ),
            (
                "10.5",
                Currency::Ugx,
                "UGX amounts have no minor unit; got 10.5",
            ),
            (
                "1.001",
                Currency::Xof,
                "XOF amounts have no minor unit; got 1.001",
            ),
            (
                "1.234",
                Currency::Ngn,
                "NGN amounts allow at most 2 decimal places; got 1.234",
            ),
            (
                "1.5x",
                Currency::Ngn,
                "`1.5x` is not a decimal number such as 1500.50",
            ),
        ];
        for (text, currency, message) in invalid {
            assert_eq!(
                Money::parse(text, currency).unwrap_err().to_string(),
                message
            );
        }
    }

    #[test]
    fn money_refuses_negative_and_reports_zero() {
        let error = Money::new(Decimal::new(-150, 2), Currency::Ngn).unwrap_err();
        assert_eq!(
            error.to_string(),
            "NGN amounts cannot be negative; got -1.50"
        );

        let zero = Money::new(Decimal::ZERO, Currency::Ngn).unwrap();
        assert!(zero.is_zero());
        assert!(!zero.is_positive());
        assert!(Money::parse("0.01", Currency::Ngn).unwrap().is_positive());
    }

    #[test]
    fn money_text_and_serde_round_trip() {
        let money: Money = "1234.56 NGN".parse().unwrap();
        assert_eq!(money.amount(), amount("1234.56"));
        assert_eq!(money.currency(), Currency::Ngn);

        let json = serde_json::to_string(&money).unwrap();
        assert_eq!(json, r#"{"amount":"1234.56","currency":"NGN"}"#);
        assert_eq!(serde_json::from_str::<Money>(&json).unwrap(), money);

        let error = serde_json::from_str::<Money>(r#"{"amount":"10.5","currency":"UGX"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("UGX amounts have no minor unit; got 10.5"),
            "{error}"
        );

        assert_eq!(
            "1234.56".parse::<Money>().unwrap_err().to_string(),
            "`1234.56` is not an amount and a currency such as `1500.50 NGN`"
        );
        assert_eq!(
            "1 BTC".parse::<Money>().unwrap_err().to_string(),
            "Invalid currency: BTC"
        );
    }
}
