//! The rules of `POST /api/resolve-bank`.

use crate::currency::Currency;
use crate::field_rules::{known, parse_currency, report_currency};
pub use crate::views::ResolveBankFields;
use crate::violation::{Collector, Rule, Violations};

/// A resolve-bank request that passed [`validate_resolve_bank`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidatedResolveBank {
    /// The source currency.
    pub from: Currency,
    /// The currency of the account's bank list.
    pub to: Currency,
}

/// Checks a resolve-bank request and reports every violation at once, in
/// field order: `accountNumber` is required and 6 to 34 letters or digits
/// (an account number or an IBAN), `bankCode` is required, and both
/// currencies are required and supported.
///
/// ```
/// use crossborder_core::resolve::{validate_resolve_bank, ResolveBankFields};
///
/// let fields = ResolveBankFields {
///     account_number: Some("0123-456"),
///     bank_code: Some("058"),
///     from_currency: Some("USD"),
///     to_currency: Some("NGN"),
/// };
/// assert_eq!(
///     validate_resolve_bank(&fields).unwrap_err().to_string(),
///     "accountNumber: must be 6 to 34 letters or digits"
/// );
/// ```
pub fn validate_resolve_bank(
    fields: &ResolveBankFields<'_>,
) -> Result<ValidatedResolveBank, Violations> {
    let mut collector = Collector::default();
    let number = collector.require(ResolveBankFields::ACCOUNT_NUMBER, fields.account_number);
    if let Some(number) = number {
        let shape_ok =
            (6..=34).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_alphanumeric());
        if !shape_ok {
            collector.push(
                ResolveBankFields::ACCOUNT_NUMBER,
                Rule::InvalidFormat,
                "must be 6 to 34 letters or digits",
            );
        }
    }
    collector.require(ResolveBankFields::BANK_CODE, fields.bank_code);
    let from = parse_currency(fields.from_currency);
    let to = parse_currency(fields.to_currency);
    report_currency(&mut collector, ResolveBankFields::FROM_CURRENCY, &from);
    report_currency(&mut collector, ResolveBankFields::TO_CURRENCY, &to);
    match (known(&from), known(&to)) {
        (Some(from), Some(to)) => collector.finish(|| ValidatedResolveBank { from, to }),
        _ => Err(collector.into_violations()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(account_number: &str) -> Result<ValidatedResolveBank, String> {
        validate_resolve_bank(&ResolveBankFields {
            account_number: Some(account_number),
            bank_code: Some("058"),
            from_currency: Some("USD"),
            to_currency: Some("NGN"),
        })
        .map_err(|violations| violations.to_string())
    }

    /// ASSUMPTIONS C2: an account number or an IBAN, 6 to 34 ASCII letters
    /// or digits, nothing else.
    #[test]
    fn account_number_is_6_to_34_letters_or_digits() {
        let valid = Ok(ValidatedResolveBank {
            from: Currency::Usd,
            to: Currency::Ngn,
        });
        let longest = "9".repeat(34);
        for number in ["012345", "GB82WEST12345698765432", "gb82west1234", &longest] {
            assert_eq!(outcome(number), valid, "{number}");
        }
        let refused = Err("accountNumber: must be 6 to 34 letters or digits".to_owned());
        let too_long = "9".repeat(35);
        for number in ["01234", &too_long, "0123-456", "GB82 WEST 1234", "012345é"] {
            assert_eq!(outcome(number), refused, "{number}");
        }
    }
}
