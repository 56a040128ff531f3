//! The format rules of payout destinations (ASSUMPTIONS C10 to C12), through
//! `validate_payout`: for each rule a value that passes and values that fail
//! with the exact message, and the normal form of what is sent.

use crossborder_core::payout::{normalized, validate_payout, PayoutFields};
use crossborder_core::{Currency, Rule};
use proptest::prelude::*;

/// A complete, valid payout from `from` to `to`, with every field the pair
/// needs; `edit` replaces one field.
fn payout<'a>(from: &'a str, to: &'a str, edit: (&str, Option<&'a str>)) -> PayoutFields<'a> {
    let base = |name: &str| -> Option<&'a str> {
        Some(match (name, to) {
            ("amount", _) => "10",
            ("fromCurrency", _) => from,
            ("toCurrency", _) => to,
            ("sessionId", _) => "payout-1",
            ("accountNumber", "NGN") => "0123456789",
            ("accountNumber", "GBP") => "31926819",
            ("accountNumber", "EUR") => "DE89370400440532013000",
            ("accountNumber", "CAD") => "1234567",
            ("accountNumber", _) => "1234567890",
            ("bankCode", _) => "058",
            ("sortCode", _) => "123456",
            ("swiftCode", _) => "DEUTDEFF",
            ("transitNumber", _) => "00012",
            ("institutionNumber", _) => "003",
            ("address", _) => "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            ("network" | "fromNetwork" | "toNetwork", _) => "ethereum",
            ("narration" | "recipientName", _) => return None,
            _ => "x",
        })
    };
    PayoutFields::from_fn(|name| if name == edit.0 { edit.1 } else { base(name) })
}

fn outcome(fields: &PayoutFields<'_>) -> Vec<(String, Rule, String)> {
    match validate_payout(fields) {
        Ok(_) => Vec::new(),
        Err(violations) => violations
            .into_iter()
            .map(|v| (v.field.into_owned(), v.rule, v.message))
            .collect(),
    }
}

const NUBAN: &str = "must be a 10-digit NUBAN account number, such as 0123456789";
const UK_ACCOUNT: &str = "must be an 8-digit UK account number, such as 31926819, or an IBAN";
const US_ACCOUNT: &str = "must be 4 to 17 digits (a US bank account number) or an IBAN";
const EUR_ACCOUNT: &str = "must be an IBAN, such as DE89 3704 0044 0532 0130 00";
const CA_ACCOUNT: &str = "must be 7 to 12 digits (a Canadian bank account number)";
const IBAN_CHECK: &str = "is not a valid IBAN: its check digits do not match (ISO 13616 mod 97)";
const IBAN_SHAPE: &str = "is not a valid IBAN: a country code, 2 check digits and up to 30 \
                          letters or digits, such as GB82 WEST 1234 5698 7654 32";
const SORT_CODE: &str = "must be 6 digits, such as 12-34-56 (spaces and dashes are removed)";
const BIC: &str = "must be a BIC (ISO 9362) of 8 or 11 characters: 4 letters (bank), 2 letters \
                   (country), 2 letters or digits (location), optionally 3 letters or digits \
                   (branch), such as DEUTDEFF or DEUTDEFF500";
const TRANSIT: &str = "must be 5 digits (the branch transit number), such as 00012";
const INSTITUTION: &str = "must be 3 digits (the bank's institution number), such as 003";
const NETWORK: &str = "must be a network name without whitespace, such as ethereum, tron or solana";
const EVM: &str = "must be an address on ethereum: 0x followed by 40 hexadecimal digits, \
                   such as 0x52908400098527886E0F7030069857D2E4169EE7";

/// (from, to, field, value, expected violation or None when valid).
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Option<(Rule, String)>,
);

#[rustfmt::skip]
fn table() -> Vec<Case> {
    use Rule::{InvalidChecksum as Sum, InvalidFormat as Fmt};
    let bank_code = |to: &str, example: &str| {
        Some((Fmt, format!("must be 2 to 6 digits, a bank code from the {to} bank list such as {example}")))
    };
    let mobile = |to: &str| Some((Fmt, format!("must be 5 to 20 digits (a {to} bank or mobile-money account number)")));
    let f = |message: &str| Some((Fmt, message.to_owned()));
    let c = |message: &str| Some((Sum, message.to_owned()));
    vec![
        // NGN: NUBAN, bank code digits.
        ("NGN", "NGN", "accountNumber", "0123456789", None),
        ("NGN", "NGN", "accountNumber", "01234", f(NUBAN)),
        ("NGN", "NGN", "accountNumber", "01234567890", f(NUBAN)),
        ("NGN", "NGN", "accountNumber", "012345678a", f(NUBAN)),
        ("NGN", "NGN", "accountNumber", "0123 456789", f(NUBAN)),
        ("USD", "NGN", "accountNumber", " 0123456789", f(NUBAN)),
        ("NGN", "NGN", "bankCode", "058", None),
        ("NGN", "NGN", "bankCode", "090267", None),
        ("NGN", "NGN", "bankCode", "5", bank_code("NGN", "058")),
        ("NGN", "NGN", "bankCode", "GTB", bank_code("NGN", "058")),
        ("NGN", "NGN", "bankCode", "0580000", bank_code("NGN", "058")),
        // KES, UGX: lenient digits.
        ("NGN", "KES", "accountNumber", "12345", None),
        ("NGN", "KES", "accountNumber", "254712345678", None),
        ("NGN", "KES", "accountNumber", "1234", mobile("KES")),
        ("NGN", "UGX", "accountNumber", "123456789012345678901", mobile("UGX")),
        ("NGN", "UGX", "accountNumber", "+256712345678", mobile("UGX")),
        ("NGN", "KES", "bankCode", "68", None),
        ("NGN", "KES", "bankCode", "K68", bank_code("KES", "68")),
        ("NGN", "UGX", "bankCode", "031", None),
        ("NGN", "UGX", "bankCode", "3", bank_code("UGX", "031")),
        // USD: US account digits or an IBAN.
        ("USD", "USD", "accountNumber", "1234", None),
        ("USD", "USD", "accountNumber", "12345678901234567", None),
        ("USD", "USD", "accountNumber", "123", f(US_ACCOUNT)),
        ("USD", "USD", "accountNumber", "123456789012345678", f(US_ACCOUNT)),
        ("USD", "USD", "accountNumber", "GB82WEST12345698765432", None),
        ("USD", "USD", "accountNumber", "GB82WEST12345698765433", c(IBAN_CHECK)),
        // GBP: 8 digits or an IBAN; sort code; BIC.
        ("NGN", "GBP", "accountNumber", "31926819", None),
        ("NGN", "GBP", "accountNumber", "3192681", f(UK_ACCOUNT)),
        ("NGN", "GBP", "accountNumber", "319268190", f(UK_ACCOUNT)),
        ("NGN", "GBP", "accountNumber", "GB82 WEST 1234 5698 7654 32", None),
        ("NGN", "GBP", "accountNumber", "gb82west12345698765432", None),
        ("NGN", "GBP", "accountNumber", "GB82WEST12345698765423", c(IBAN_CHECK)),
        ("NGN", "GBP", "accountNumber", "GB88WEST1234569876543", f("is not a valid IBAN: the account part does not have the length or form GB uses")),
        ("NGN", "GBP", "accountNumber", "GB", f(IBAN_SHAPE)),
        ("NGN", "GBP", "sortCode", "123456", None),
        ("NGN", "GBP", "sortCode", "12-34-56", None),
        ("NGN", "GBP", "sortCode", "12 34 56", None),
        ("NGN", "GBP", "sortCode", "12345", f(SORT_CODE)),
        ("NGN", "GBP", "sortCode", "12-34-5a", f(SORT_CODE)),
        ("NGN", "GBP", "sortCode", "12.34.56", f(SORT_CODE)),
        ("NGN", "GBP", "swiftCode", "BARCGB22", None),
        ("NGN", "GBP", "swiftCode", "barcgb22xxx", None),
        ("NGN", "GBP", "swiftCode", "BARCGB2", f(BIC)),
        ("NGN", "GBP", "swiftCode", "BARCGB22XX", f(BIC)),
        ("NGN", "GBP", "swiftCode", "BARC1B22", f(BIC)),
        ("NGN", "GBP", "swiftCode", "BARCGB22-XX", f(BIC)),
        // EUR: an IBAN when an account number is given; BIC.
        ("NGN", "EUR", "accountNumber", "DE89 3704 0044 0532 0130 00", None),
        ("NGN", "EUR", "accountNumber", "FR1420041010050500013M02606", None),
        ("NGN", "EUR", "accountNumber", "DE89370400440532013001", c(IBAN_CHECK)),
        ("NGN", "EUR", "accountNumber", "XX46370400440532013000", f("is not a valid IBAN: XX is not a country that issues IBANs")),
        ("NGN", "EUR", "accountNumber", "370400440532013000", f(EUR_ACCOUNT)),
        ("NGN", "EUR", "accountNumber", "", None),
        ("NGN", "EUR", "swiftCode", "DEUTDEFF500", None),
        ("NGN", "EUR", "swiftCode", "DEUTDEFF50", f(BIC)),
        // CAD: transit 5 digits, institution 3 digits, account 7 to 12 digits.
        ("USD", "CAD", "transitNumber", "00012", None),
        ("USD", "CAD", "transitNumber", "0012", f(TRANSIT)),
        ("USD", "CAD", "transitNumber", "0001a", f(TRANSIT)),
        ("USD", "CAD", "institutionNumber", "003", None),
        ("USD", "CAD", "institutionNumber", "0003", f(INSTITUTION)),
        ("USD", "CAD", "accountNumber", "1234567", None),
        ("USD", "CAD", "accountNumber", "123456", f(CA_ACCOUNT)),
        // Crypto: the address on its network.
        ("USDT", "USDT", "address", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", None),
        ("USDT", "USDT", "address", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", None),
        ("USDT", "USDT", "address", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", c("has a wrong EIP-55 checksum for ethereum: the mixed-case letters do not match the address (check it was copied whole, or write it all in lower case)")),
        ("USDT", "USDT", "address", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA", f(EVM)),
        ("USDC", "USDT", "address", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", f(EVM)),
        ("NGN", "USDT", "address", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA", f(EVM)),
        ("NGN", "CNGN", "address", "anything", f(EVM)),
        // Network names: one word.
        ("USDT", "USDT", "network", "ethereum", None),
        ("USDT", "USDT", "network", "lightning", None),
        ("USDT", "USDT", "network", "base mainnet", f(NETWORK)),
        ("USDT", "NGN", "fromNetwork", "tron mainnet", f(NETWORK)),
        ("USDC", "USDT", "toNetwork", "eth\tereum", f(NETWORK)),
        // Fields the pair does not use are neither checked nor required.
        ("NGN", "NGN", "sortCode", "nonsense", None),
        ("NGN", "NGN", "swiftCode", "nonsense", None),
        ("NGN", "GHS", "accountNumber", "anything", None),
        ("NGN", "NGN", "address", "two words", None),
        ("NGN", "NGN", "network", "two words", None),
    ]
}

#[test]
fn every_format_rule_passes_and_fails_with_its_exact_message() {
    for (from, to, field, value, expected) in table() {
        let fields = payout(from, to, (field, Some(value)));
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(rule, message)| (field.to_owned(), rule, message))
            .collect();
        assert_eq!(
            outcome(&fields),
            expected,
            "{from} -> {to}: {field} = {value:?}"
        );
    }
}

#[test]
fn the_address_is_checked_on_the_destination_network() {
    let tron = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
    let evm = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    // Same currency: `network` names it.
    let fields = PayoutFields {
        network: Some("tron"),
        address: Some(tron),
        ..payout("USDT", "USDT", ("", None))
    };
    assert_eq!(outcome(&fields), []);
    // Different currencies: `toNetwork` names it, `fromNetwork` does not.
    let fields = PayoutFields {
        from_network: Some("tron"),
        to_network: Some("ethereum"),
        address: Some(evm),
        ..payout("USDC", "USDT", ("", None))
    };
    assert_eq!(outcome(&fields), []);
    let fields = PayoutFields {
        to_network: Some("tron"),
        address: Some(evm),
        ..payout("USDC", "USDT", ("", None))
    };
    assert_eq!(
        outcome(&fields),
        [(
            "address".to_owned(),
            Rule::InvalidFormat,
            "must be an address on tron: base58check, 34 characters starting with T, \
             such as TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"
                .to_owned()
        )]
    );
    // Fiat to crypto: toNetwork is optional; without it only whitespace is refused.
    let fields = PayoutFields {
        to_network: None,
        address: Some("any-address-at-all"),
        ..payout("NGN", "USDT", ("", None))
    };
    assert_eq!(outcome(&fields), []);
    // A network this crate does not know: accepted, address only one word.
    let fields = PayoutFields {
        network: Some("lightning"),
        address: Some("lnbc1pvjluezsp5"),
        ..payout("USDT", "USDT", ("", None))
    };
    assert_eq!(outcome(&fields), []);
}

#[test]
fn a_payout_to_every_destination_family_is_valid_when_well_formed() {
    // One per kind of pair: same-currency fiat, cross-currency fiat, fiat to
    // crypto, crypto to crypto (same and different), crypto to fiat.
    for (from, to) in [
        ("NGN", "NGN"),
        ("KES", "KES"),
        ("UGX", "UGX"),
        ("USD", "USD"),
        ("GBP", "GBP"),
        ("EUR", "EUR"),
        ("CAD", "CAD"),
        ("GHS", "GHS"),
        ("XOF", "XOF"),
        ("XAF", "XAF"),
        ("USD", "NGN"),
        ("NGN", "GBP"),
        ("NGN", "EUR"),
        ("USD", "CAD"),
        ("NGN", "USDT"),
        ("USDT", "USDT"),
        ("USDC", "USDT"),
        ("USDT", "NGN"),
        ("CNGN", "GBP"),
    ] {
        let fields = payout(from, to, ("", None));
        assert_eq!(outcome(&fields), [], "{from} -> {to}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Validation never panics, whatever the text of any field.
    #[test]
    fn validation_never_panics(
        values in proptest::collection::vec(proptest::option::of(".{0,40}"), 19),
        from in proptest::sample::select(Currency::ALL.to_vec()),
        to in proptest::sample::select(Currency::ALL.to_vec()),
    ) {
        let fields = PayoutFields::from_fn(|name| {
            let i = PayoutFields::WIRE_NAMES.iter().position(|n| *n == name).unwrap();
            match name {
                "fromCurrency" => Some(from.code()),
                "toCurrency" => Some(to.code()),
                _ => values[i].as_deref(),
            }
        });
        let _ = validate_payout(&fields);
    }

    /// A sort code written with spaces and dashes is valid and is sent as
    /// its six digits.
    #[test]
    fn a_sort_code_with_separators_normalises_to_its_digits(
        digits in "[0-9]{6}",
        separators in proptest::collection::vec(proptest::sample::select(vec!["", " ", "-"]), 5),
    ) {
        let mut written = String::new();
        for (i, digit) in digits.chars().enumerate() {
            written.push(digit);
            if i < 5 { written.push_str(separators[i]); }
        }
        let fields = payout("NGN", "GBP", ("sortCode", Some(&written)));
        prop_assert_eq!(outcome(&fields), []);
        prop_assert_eq!(normalized("sortCode", &written, Currency::Gbp), digits);
    }

    /// An IBAN in paper format (groups of four, either case) is valid and is
    /// sent in its electronic form.
    #[test]
    fn an_iban_with_spaces_normalises_to_its_electronic_form(
        iban in proptest::sample::select(vec![
            "DE89370400440532013000", "GB82WEST12345698765432",
            "FR1420041010050500013M02606", "NL91ABNA0417164300",
        ]),
        lower in any::<bool>(),
    ) {
        let paper: String = iban
            .as_bytes()
            .chunks(4)
            .map(|chunk| std::str::from_utf8(chunk).unwrap())
            .collect::<Vec<_>>()
            .join(" ");
        let written = if lower { paper.to_ascii_lowercase() } else { paper };
        let fields = payout("NGN", "EUR", ("accountNumber", Some(&written)));
        prop_assert_eq!(outcome(&fields), []);
        prop_assert_eq!(normalized("accountNumber", &written, Currency::Eur), iban);
    }
}
