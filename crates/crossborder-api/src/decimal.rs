//! Exact decimal money types used by the generated client instead of `f64`.
//!
//! The spec describes every amount, rate and fee with two component schemas:
//!
//! * `Amount` (`type: number`): sent and received as a JSON number, e.g.
//!   `1234567.89`. Mapped to [`Amount`].
//! * `DecimalString` (`type: string`): a decimal sent as a JSON string, e.g.
//!   the payout `amount` `"1234567.89"`. Mapped to [`DecimalString`].
//!
//! Both hold a [`rust_decimal::Decimal`] and never pass through a binary
//! float: serialisation writes the decimal's own digits, and deserialisation
//! reads the raw JSON text of the value (a number or a numeric string) and
//! parses it exactly.
//!
//! Exact parsing relies on serde_json's own deserializer
//! (`serde_json::from_str`, `from_slice`, `from_reader`, or reqwest's
//! `Response::json`), which hands over the raw text of a number; every caller
//! in this workspace uses it. Going through a `serde_json::Value` first
//! (`from_value`) still works but the number has by then been rounded to an
//! `f64` by `Value` itself.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::schema::impl_scalar_schema;

/// Why a JSON value could not be read as an exact decimal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseDecimalError {
    input: String,
    reason: String,
}

impl fmt::Display for ParseDecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a decimal number or numeric string, got {}: {}",
            self.input, self.reason
        )
    }
}

impl std::error::Error for ParseDecimalError {}

/// Parses decimal text exactly: plain (`-12.50`) or scientific (`1e-7`).
fn parse_decimal_text(text: &str) -> Result<Decimal, ParseDecimalError> {
    let fail = |reason: String| ParseDecimalError {
        input: format!("{text:?}"),
        reason,
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(fail("empty string".to_string()));
    }
    if trimmed.contains(['e', 'E']) {
        // Exactly or not at all: `Decimal::from_scientific` rounds a long
        // mantissa (`1.0000000000000000000000000000001e0` reads as 1).
        crossborder_core::parse_scientific_exact(trimmed).map_err(|e| fail(e.to_string()))
    } else {
        // A leading '+' is not valid JSON but is harmless in a string value.
        Decimal::from_str_exact(trimmed.strip_prefix('+').unwrap_or(trimmed))
            .map_err(|e| fail(e.to_string()))
    }
}

/// Parses the raw JSON text of a value: a number, or a string holding one.
fn parse_raw_json(raw: &RawValue) -> Result<Decimal, ParseDecimalError> {
    let text = raw.get().trim();
    match text.as_bytes().first() {
        Some(b'"') => {
            let unquoted: String = serde_json::from_str(text).map_err(|e| ParseDecimalError {
                input: text.to_string(),
                reason: e.to_string(),
            })?;
            parse_decimal_text(&unquoted)
        }
        Some(b'-' | b'0'..=b'9') => parse_decimal_text(text),
        _ => Err(ParseDecimalError {
            input: text.to_string(),
            reason: "not a number".to_string(),
        }),
    }
}

fn deserialize_decimal<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
    let raw = Box::<RawValue>::deserialize(deserializer)?;
    parse_raw_json(&raw).map_err(D::Error::custom)
}

macro_rules! decimal_newtype_common {
    ($name:ident) => {
        impl $name {
            /// Wraps a decimal.
            pub const fn new(value: Decimal) -> Self {
                Self(value)
            }

            /// The wrapped decimal.
            pub const fn get(self) -> Decimal {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl FromStr for $name {
            type Err = ParseDecimalError;

            /// Parses `"12.50"` or `"1e-7"` exactly.
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                parse_decimal_text(s).map(Self)
            }
        }

        impl From<Decimal> for $name {
            fn from(value: Decimal) -> Self {
                Self(value)
            }
        }

        impl From<$name> for Decimal {
            fn from(value: $name) -> Self {
                value.0
            }
        }

        impl<'de> Deserialize<'de> for $name {
            /// Accepts a JSON number or a numeric JSON string, exactly.
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserialize_decimal(deserializer).map(Self)
            }
        }
    };
}

/// A money amount, rate or fee carried as a JSON **number** (spec schema
/// `Amount`), held exactly as a [`Decimal`].
///
/// Serialises as a bare JSON number with the decimal's digits
/// (`Amount(dec!(1234567.89))` -> `1234567.89`); deserialises from a number
/// or a numeric string without rounding.
///
/// ```
/// use crossborder_api::decimal::Amount;
/// let a: Amount = serde_json::from_str("100000000000.01").unwrap();
/// assert_eq!(a.to_string(), "100000000000.01");
/// assert_eq!(serde_json::to_string(&a).unwrap(), "100000000000.01");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Amount(pub Decimal);

decimal_newtype_common!(Amount);

impl Serialize for Amount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A RawValue lets serde_json write the digits verbatim as a number.
        let raw = RawValue::from_string(self.0.to_string()).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

// The spec's format (ASSUMPTIONS B65): an exact decimal.
impl_scalar_schema!(
    Amount,
    Number,
    format = "decimal",
    description = "An exact decimal amount sent as a JSON number.",
);

/// A decimal amount carried as a JSON **string** (spec schema
/// `DecimalString`, e.g. the payout `amount`), held exactly as a [`Decimal`].
///
/// Serialises as `"1234567.89"`; deserialises from a numeric string or a
/// number without rounding. Its JSON Schema (the `schemars` feature)
/// carries the spec's pattern (`^[0-9]+(\.[0-9]+)?$`, unsigned plain
/// decimals), while reading stays tolerant (a sign, an exponent or a JSON
/// number is accepted).
///
/// ```
/// use crossborder_api::decimal::DecimalString;
/// let a: DecimalString = serde_json::from_str("\"0.1\"").unwrap();
/// assert_eq!(serde_json::to_string(&a).unwrap(), "\"0.1\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct DecimalString(pub Decimal);

decimal_newtype_common!(DecimalString);

impl Serialize for DecimalString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl_scalar_schema!(
    DecimalString,
    String,
    format = "decimal",
    pattern = r"^[0-9]+(\.[0-9]+)?$",
    description = "An exact decimal amount sent as a JSON string.",
);

#[cfg(test)]
mod tests {
    use super::*;

    fn amount(json: &str) -> Amount {
        serde_json::from_str(json).unwrap()
    }

    fn dec(s: &str) -> Decimal {
        Decimal::from_str_exact(s).unwrap()
    }

    #[test]
    fn amount_round_trips_exactly() {
        for text in [
            "0.1",
            "0.2",
            "1234567.89",
            "100000000000.01",
            "0.000001",
            "12345678901234567890.123456789",
            "-42.5",
            "0",
        ] {
            let a = amount(text);
            assert_eq!(a.0, dec(text), "{text}");
            assert_eq!(serde_json::to_string(&a).unwrap(), text, "{text}");
        }
    }

    #[test]
    fn exponent_notation_is_read_exactly_or_refused() {
        assert_eq!(amount("1.5e3").0, dec("1500"));
        assert_eq!(amount("\"-25E-3\"").0, dec("-0.025"));
        // Decimal::from_scientific would round these to 28 digits.
        for json in [
            "1.0000000000000000000000000000001e0",
            "\"0.12345678901234567890123456789e1\"",
            "1e999999999",
        ] {
            assert!(serde_json::from_str::<Amount>(json).is_err(), "{json}");
        }
    }

    #[test]
    fn amount_sum_is_exact() {
        let sum = amount("0.1").0 + amount("0.2").0;
        assert_eq!(sum, dec("0.3"));
    }

    #[test]
    fn amount_accepts_numeric_strings_and_exponents() {
        assert_eq!(amount("\"0.1\"").0, dec("0.1"));
        assert_eq!(amount("1e-7").0, dec("0.0000001"));
        assert_eq!(amount("1.5E+3").0, dec("1500"));
        assert_eq!(amount("\"-3.25\"").0, dec("-3.25"));
    }

    #[test]
    fn amount_in_a_struct_serialises_as_a_number() {
        #[derive(Serialize, Deserialize)]
        struct Quote {
            rate: Amount,
        }
        let q: Quote = serde_json::from_str(r#"{"rate": 1234567.89}"#).unwrap();
        assert_eq!(serde_json::to_string(&q).unwrap(), r#"{"rate":1234567.89}"#);
    }

    #[test]
    fn rejects_non_numbers_with_a_clear_error() {
        for bad in ["true", "\"abc\"", "null", "{}", "[1]", "\"\""] {
            let err = serde_json::from_str::<Amount>(bad).unwrap_err().to_string();
            assert!(
                err.contains("expected a decimal number or numeric string"),
                "{bad}: {err}"
            );
            let err = serde_json::from_str::<DecimalString>(bad)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("expected a decimal number or numeric string"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn decimal_string_round_trips_exactly() {
        for text in [
            "0.1",
            "1234567.89",
            "100000000000.01",
            "0.000001",
            "12345678901234567890.123456789",
            "-7.10",
        ] {
            let quoted = format!("\"{text}\"");
            let d: DecimalString = serde_json::from_str(&quoted).unwrap();
            assert_eq!(d.0, dec(text));
            assert_eq!(serde_json::to_string(&d).unwrap(), quoted);
        }
        // A number is accepted too, and written back as a string.
        let d: DecimalString = serde_json::from_str("100.50").unwrap();
        assert_eq!(serde_json::to_string(&d).unwrap(), "\"100.50\"");
    }

    #[test]
    fn decimal_string_schema_pattern_is_the_specs() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../openapi/crossborder.yaml"
        );
        let spec: serde_json::Value =
            serde_yaml_ng::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let spec_pattern = &spec["components"]["schemas"]["DecimalString"]["pattern"];
        let schema = schemars::schema_for!(DecimalString);
        let ours = serde_json::to_value(&schema).unwrap();
        assert_eq!(&ours["pattern"], spec_pattern);
        assert_eq!(spec_pattern, r"^[0-9]+(\.[0-9]+)?$");
        // Both money forms carry the spec's format.
        assert_eq!(
            ours["format"],
            spec["components"]["schemas"]["DecimalString"]["format"]
        );
        let amount = serde_json::to_value(schemars::schema_for!(Amount)).unwrap();
        for name in ["Amount", "PositiveAmount"] {
            assert_eq!(
                amount["format"],
                spec["components"]["schemas"][name]["format"]
            );
        }
        assert_eq!(amount["format"], "decimal");
        // Reading stays tolerant of what the pattern does not allow.
        let negative: DecimalString = serde_json::from_str("\"-1.5\"").unwrap();
        assert_eq!(negative.get(), dec("-1.5"));
    }

    #[test]
    fn from_str_display_and_conversions() {
        let a: Amount = "12.50".parse().unwrap();
        assert_eq!(a.to_string(), "12.50");
        assert_eq!(Decimal::from(a), dec("12.50"));
        assert_eq!(DecimalString::from(dec("1")).get(), dec("1"));
        assert!("abc".parse::<Amount>().is_err());
        assert!(Amount::new(dec("1")) < Amount::new(dec("2")));
    }
}
