//! An amount the API sends as free text, kept as sent and read as a decimal
//! on access.

use std::fmt;
use std::str::FromStr;

use crossborder_api::decimal::{DecimalString, ParseDecimalError};
use rust_decimal::Decimal;

/// An amount the API documents as a plain string, without a format
/// (`paymentInstruction[].amountToTransfer`; ASSUMPTIONS.md B32).
///
/// The text is kept exactly as the service sent it and read as an exact
/// decimal only when asked ([`AmountText::decimal`]), so a value written
/// some other way (`"50,000.00 NGN"`) never makes the whole response
/// unreadable: the rest of the transaction still decodes, and the text is
/// still there to show the payer.
///
/// ```
/// use crossborder::{Decimal, types::AmountText};
///
/// let plain = AmountText::new("50000.10");
/// assert_eq!(plain.decimal(), Ok(Decimal::new(5_000_010, 2)));
///
/// let odd = AmountText::new("50,000.10 NGN");
/// assert_eq!(odd.as_str(), "50,000.10 NGN");
/// assert!(odd.decimal().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AmountText(String);

impl AmountText {
    /// The text as the service sent it.
    pub fn new(text: impl Into<String>) -> AmountText {
        AmountText(text.into())
    }

    /// The text as the service sent it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The amount as an exact decimal (never through floating point):
    /// a decimal number such as `50000.10` (surrounding spaces, a sign or an
    /// exponent accepted), or an error naming the text.
    pub fn decimal(&self) -> Result<Decimal, ParseDecimalError> {
        DecimalString::from_str(&self.0).map(DecimalString::get)
    }
}

impl fmt::Display for AmountText {
    /// The text as sent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for AmountText {
    fn from(text: String) -> AmountText {
        AmountText(text)
    }
}

impl From<Decimal> for AmountText {
    /// The decimal's own digits (`Decimal::new(5_000_010, 2)` is `50000.10`).
    fn from(value: Decimal) -> AmountText {
        AmountText(value.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_decimal_text_exactly_and_keeps_any_other_text() {
        let d = |text| Decimal::from_str_exact(text).unwrap();
        assert_eq!(AmountText::new("50000.10").decimal(), Ok(d("50000.10")));
        assert_eq!(AmountText::new(" 0.000001 ").decimal(), Ok(d("0.000001")));
        assert_eq!(AmountText::new("1.5e3").decimal(), Ok(d("1500")));
        assert_eq!(
            AmountText::new("100000000000.01").decimal(),
            Ok(d("100000000000.01"))
        );
        for odd in ["", "fifty thousand", "50,000.00", "NGN 50000", "Duis aute"] {
            let text = AmountText::new(odd);
            let error = text.decimal().unwrap_err();
            assert!(
                error.to_string().contains(&format!("{odd:?}")),
                "{odd}: {error}"
            );
            assert_eq!(text.as_str(), odd);
            assert_eq!(text.to_string(), odd);
        }
        assert_eq!(AmountText::from(d("50000.10")).as_str(), "50000.10");
    }
}
