//! The shape of each destination field, per destination currency, and the
//! normal form each is sent in.
//!
//! The specification says which fields a payout needs, never what they look
//! like; these are the SDK's own checks (ASSUMPTIONS C10 to C12), each
//! following the standard of its country or chain, so that a payout to a
//! malformed account is refused before it can lose money or days. A field
//! the currency pair does not use is neither checked nor normalised.

use std::borrow::Cow;
use std::str::FromStr;

use iban::{Iban, IbanLike, ParseIbanError};

use super::network::check_address;
use super::FormatError;
use crate::currency::Currency;
use crate::views::PayoutFields;
use crate::violation::Rule;

/// Checks the shape of `value`, the non-blank value of the destination field
/// `field`, for a payout from `from` to `to`. `network` is the network the
/// address is on, when the request names one.
pub(crate) fn check_format(
    field: &str,
    value: &str,
    from: Currency,
    to: Currency,
    network: Option<&str>,
) -> Result<(), FormatError> {
    use Currency::{Cad, Eur, Gbp, Kes, Ngn, Ugx, Usd};
    let invalid = |message: String| (Rule::InvalidFormat, message);
    match (field, to) {
        (PayoutFields::ACCOUNT_NUMBER, Ngn) => digits(value, 10, 10).map_err(|_| {
            invalid("must be a 10-digit NUBAN account number, such as 0123456789".to_owned())
        }),
        (PayoutFields::ACCOUNT_NUMBER, Kes | Ugx) => {
            digits(value, 5, 20).map_err(|_| {
                invalid(format!(
                "must be 5 to 20 digits (a {to} bank or mobile-money account number), such as {}",
                if to == Kes { "254712345678" } else { "256712345678" }
            ))
            })
        }
        (PayoutFields::ACCOUNT_NUMBER, Usd) if !looks_like_iban(value) => digits(value, 4, 17)
            .map_err(|_| {
                invalid(
                    "must be 4 to 17 digits (a US bank account number), such as 123456789, \
                     or an IBAN"
                        .to_owned(),
                )
            }),
        (PayoutFields::ACCOUNT_NUMBER, Gbp) if !looks_like_iban(value) => digits(value, 8, 8)
            .map_err(|_| {
                invalid(
                    "must be an 8-digit UK account number, such as 31926819, or an IBAN".to_owned(),
                )
            }),
        (PayoutFields::ACCOUNT_NUMBER, Eur) if !looks_like_iban(value) => Err(invalid(
            "must be an IBAN, such as DE89 3704 0044 0532 0130 00".to_owned(),
        )),
        (PayoutFields::ACCOUNT_NUMBER, Usd | Gbp | Eur) => check_iban(value),
        (PayoutFields::ACCOUNT_NUMBER, Cad) => digits(value, 7, 12).map_err(|_| {
            invalid(
                "must be 7 to 12 digits (a Canadian bank account number), such as 1234567"
                    .to_owned(),
            )
        }),
        (PayoutFields::BANK_CODE, Ngn | Kes | Ugx) => digits(value, 2, 6).map_err(|_| {
            invalid(format!(
                "must be 2 to 6 digits, a bank code from the {to} bank list such as {}",
                match to {
                    Ngn => "058",
                    Kes => "68",
                    _ => "031",
                }
            ))
        }),
        (PayoutFields::SORT_CODE, Gbp) => digits(&without_separators(value), 6, 6).map_err(|_| {
            invalid("must be 6 digits, such as 12-34-56 (spaces and dashes are removed)".to_owned())
        }),
        (PayoutFields::SWIFT_CODE, Eur | Gbp) => check_bic(value),
        (PayoutFields::TRANSIT_NUMBER, Cad) => digits(value, 5, 5).map_err(|_| {
            invalid("must be 5 digits (the branch transit number), such as 00012".to_owned())
        }),
        (PayoutFields::INSTITUTION_NUMBER, Cad) => digits(value, 3, 3).map_err(|_| {
            invalid("must be 3 digits (the bank's institution number), such as 003".to_owned())
        }),
        (PayoutFields::ADDRESS, to) if to.is_crypto() => check_address(value, network),
        (PayoutFields::NETWORK | PayoutFields::FROM_NETWORK | PayoutFields::TO_NETWORK, _)
            if from.is_crypto() || to.is_crypto() =>
        {
            if value.chars().any(char::is_whitespace) {
                Err(invalid(
                    "must be a network name without whitespace, such as ethereum, tron or solana"
                        .to_owned(),
                ))
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

/// The form `value` of `field` is sent in, for a payout to `to`: a sort code
/// without spaces or dashes, an IBAN without spaces and in capitals, a BIC in
/// capitals. Every other value is sent as given. Only a value that passes
/// the format rules of [`validate_payout`](super::validate_payout) is normalised; anything else
/// is returned unchanged.
///
/// ```
/// use crossborder_core::{payout::normalized, Currency};
///
/// assert_eq!(normalized("sortCode", "12-34 56", Currency::Gbp), "123456");
/// assert_eq!(
///     normalized("accountNumber", "gb82 west 1234 5698 7654 32", Currency::Gbp),
///     "GB82WEST12345698765432"
/// );
/// assert_eq!(normalized("swiftCode", "deutdeff", Currency::Eur), "DEUTDEFF");
/// assert_eq!(normalized("accountNumber", "0123456789", Currency::Ngn), "0123456789");
/// ```
pub fn normalized<'a>(field: &str, value: &'a str, to: Currency) -> Cow<'a, str> {
    use Currency::{Eur, Gbp, Usd};
    let changed = match (field, to) {
        (PayoutFields::SORT_CODE, Gbp) => {
            let digits = without_separators(value);
            digits.bytes().all(|b| b.is_ascii_digit()).then_some(digits)
        }
        (PayoutFields::ACCOUNT_NUMBER, Usd | Gbp | Eur) if looks_like_iban(value) => {
            parse_iban(value)
                .ok()
                .map(|iban| iban.electronic_str().to_owned())
        }
        (PayoutFields::SWIFT_CODE, Eur | Gbp) if check_bic(value).is_ok() => {
            Some(value.to_ascii_uppercase())
        }
        _ => None,
    };
    match changed {
        Some(normal) if normal != value => Cow::Owned(normal),
        _ => Cow::Borrowed(value),
    }
}

fn digits(value: &str, min: usize, max: usize) -> Result<(), ()> {
    let ok = (min..=max).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit());
    ok.then_some(()).ok_or(())
}

fn without_separators(value: &str) -> String {
    value.chars().filter(|c| *c != ' ' && *c != '-').collect()
}

/// Two letters first (spaces aside): an IBAN (every IBAN starts with its
/// country code; no account number of the currencies that accept both does).
fn looks_like_iban(value: &str) -> bool {
    let mut start = value.bytes().filter(|b| *b != b' ');
    matches!((start.next(), start.next()), (Some(a), Some(b)) if a.is_ascii_alphabetic() && b.is_ascii_alphabetic())
}

/// An IBAN written with spaces anywhere (the paper form groups by four, but
/// statements and people group otherwise) and in either case.
fn parse_iban(value: &str) -> Result<Iban, ParseIbanError> {
    // The crate reads the electronic form and the paper form in capitals
    // without a copy; only other spacings and lower case are copied, since
    // validation runs before every payout.
    let direct = Iban::from_str(value);
    if direct.is_ok() || !value.bytes().any(|b| b == b' ' || b.is_ascii_lowercase()) {
        return direct;
    }
    let electronic: String = value
        .chars()
        .filter(|c| *c != ' ')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    Iban::from_str(&electronic)
}

/// The example IBAN of the SWIFT IBAN registry for each of these countries,
/// in paper form: a violation shows the one of the country the caller
/// wrote, so the expected length and grouping are in front of them.
const IBAN_EXAMPLES: [&str; 17] = [
    "AT61 1904 3002 3457 3201",
    "BE68 5390 0754 7034",
    "CH93 0076 2011 6238 5295 7",
    "DE89 3704 0044 0532 0130 00",
    "DK50 0040 0440 1162 43",
    "ES91 2100 0418 4502 0005 1332",
    "FI21 1234 5600 0007 85",
    "FR14 2004 1010 0505 0001 3M02 606",
    "GB82 WEST 1234 5698 7654 32",
    "IE29 AIBK 9311 5212 3456 78",
    "IT60 X054 2811 1010 0000 0123 456",
    "LU28 0019 4006 4475 0000",
    "NL91 ABNA 0417 1643 00",
    "NO93 8601 1117 947",
    "PL61 1090 1014 0000 0712 1981 2874",
    "PT50 0002 0123 1234 5678 9015 4",
    "SE45 5000 0000 0583 9825 7466",
];

/// The example shown when the country has none above, or is not known.
const IBAN_EXAMPLE: &str = "GB82 WEST 1234 5698 7654 32";

/// The registry's example IBAN of `country`, when listed above.
fn iban_example(country: &str) -> Option<&'static str> {
    IBAN_EXAMPLES
        .iter()
        .find(|example| example[..2].eq_ignore_ascii_case(country))
        .copied()
}

/// "a valid DE IBAN is 22 characters, such as DE89 ...", or the British
/// example for a country without one above.
fn iban_looks_like(country: &str) -> String {
    match iban_example(country) {
        Some(example) => {
            let length = example.bytes().filter(|b| *b != b' ').count();
            format!(
                "a valid {} IBAN is {length} characters, such as {example}",
                &example[..2]
            )
        }
        None => format!("a valid IBAN looks like {IBAN_EXAMPLE}"),
    }
}

/// The country code an IBAN starts with, as written (spaces aside), in
/// capitals: for the messages that refuse one.
fn iban_country(value: &str) -> String {
    value
        .chars()
        .filter(|c| *c != ' ')
        .take(2)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn check_iban(value: &str) -> Result<(), FormatError> {
    let error = match parse_iban(value) {
        Ok(_) => return Ok(()),
        Err(error) => error,
    };
    // Only a refusal names the country, so a valid IBAN copies nothing.
    let country = iban_country(value);
    match error {
        ParseIbanError::InvalidBaseIban {
            source: iban::ParseBaseIbanError::InvalidChecksum,
        } => Err((
            Rule::InvalidChecksum,
            format!(
                "is not a valid IBAN: its check digits do not match the rest (ISO 13616 mod 97), \
                 most often a typo or a part left out; {}",
                iban_looks_like(&country)
            ),
        )),
        ParseIbanError::InvalidBaseIban { .. } => Err((
            Rule::InvalidFormat,
            format!(
                "is not a valid IBAN: a country code, 2 check digits and up to 30 letters or \
                 digits, such as {IBAN_EXAMPLE}"
            ),
        )),
        ParseIbanError::InvalidBban(_) => Err((
            Rule::InvalidFormat,
            format!(
                "is not a valid IBAN: the account part does not have the length or form \
                 {country} uses; {}",
                iban_looks_like(&country)
            ),
        )),
        ParseIbanError::UnknownCountry(_) => Err((
            Rule::InvalidFormat,
            format!(
                "is not a valid IBAN: {country} is not a country that issues IBANs; an IBAN \
                 starts with the code of the account's country, such as {IBAN_EXAMPLE}"
            ),
        )),
    }
}

/// ISO 9362: 4 letters (bank), 2 letters (country), 2 letters or digits
/// (location), and optionally 3 letters or digits (branch). Either case.
fn check_bic(value: &str) -> Result<(), FormatError> {
    let bytes = value.as_bytes();
    let ok = matches!(bytes.len(), 8 | 11)
        && bytes[..6].iter().all(u8::is_ascii_alphabetic)
        && bytes[6..].iter().all(u8::is_ascii_alphanumeric);
    ok.then_some(()).ok_or_else(|| {
        (
            Rule::InvalidFormat,
            "must be a BIC (ISO 9362) of 8 or 11 characters: 4 letters (bank), 2 letters \
             (country), 2 letters or digits (location), optionally 3 letters or digits \
             (branch), such as DEUTDEFF or DEUTDEFF500"
                .to_owned(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_iban_is_valid_and_sorted_by_country() {
        for example in IBAN_EXAMPLES {
            assert_eq!(check_iban(example), Ok(()), "{example}");
        }
        assert!(IBAN_EXAMPLES
            .windows(2)
            .all(|pair| pair[0][..2] < pair[1][..2]));
        assert_eq!(check_iban(IBAN_EXAMPLE), Ok(()));
        assert_eq!(iban_example("de"), Some("DE89 3704 0044 0532 0130 00"));
        assert_eq!(iban_example("XK"), None);
    }
}
