//! The format rules of payout destinations (ASSUMPTIONS C10 to C12), through
//! `validate_payout`: for each rule a value that passes and values that fail
//! with the exact message, and the normal form of what is sent.

use crossborder_core::payout::{normalized, validate_payout, PayoutFields};
use crossborder_core::{Currency, Rule};
use proptest::prelude::*;

/// A complete, valid payout from `from` to `to`, with every field the pair
/// needs; `edit` replaces one field.
fn payout<'a>(from: &'a str, to: &'a str, edit: (&str, Option<&'a str>)) -> PayoutFields<'a> {
    let base = |name: &str| match name {
        "narration" | "recipientName" => None,
        _ => Some(sample(from, to, name)),
    };
    PayoutFields::from_fn(|name| if name == edit.0 { edit.1 } else { base(name) })
}

/// A well-formed value of `name` in a payout from `from` to `to`.
fn sample<'a>(from: &'a str, to: &'a str, name: &str) -> &'a str {
    match name {
        "amount" => "10",
        "fromCurrency" => from,
        "toCurrency" => to,
        "sessionId" => "payout-1",
        _ => crossborder_testkit::fixtures::payout_sample(name, to),
    }
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
const US_ACCOUNT: &str =
    "must be 4 to 17 digits (a US bank account number), such as 123456789, or an IBAN";
const EUR_ACCOUNT: &str = "must be an IBAN, such as DE89 3704 0044 0532 0130 00";
const CA_ACCOUNT: &str = "must be 7 to 12 digits (a Canadian bank account number), such as 1234567";
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
const EIP55: &str = "has a wrong EIP-55 checksum for ethereum: the mixed-case letters do not \
                     match the address (check it was copied whole, or write it all in lower \
                     case); a valid one looks like 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const TRON: &str = "must be an address on tron: base58check, 34 characters starting with T, \
                    such as TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
const TRON_CHECKSUM: &str = "has a wrong base58check checksum for tron (check it was copied \
                             whole); a valid one looks like TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
const SOLANA: &str = "must be an address on solana: base58 of a 32-byte public key, \
                      such as 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
const ONE_WORD: &str = "must be one word without whitespace, as the wallet shows it";

/// The message for a KES or UGX account number that is not 5 to 20 digits.
fn mobile(to: &str) -> String {
    let example = if to == "KES" {
        "254712345678"
    } else {
        "256712345678"
    };
    format!(
        "must be 5 to 20 digits (a {to} bank or mobile-money account number), such as {example}"
    )
}

/// The message for an IBAN whose check digits do not match, showing the
/// registry's example of its country.
fn iban_check(looks_like: &str) -> String {
    format!(
        "is not a valid IBAN: its check digits do not match the rest (ISO 13616 mod 97), \
         most often a typo or a part left out; {looks_like}"
    )
}

const GB_IBAN: &str = "a valid GB IBAN is 22 characters, such as GB82 WEST 1234 5698 7654 32";
const DE_IBAN: &str = "a valid DE IBAN is 22 characters, such as DE89 3704 0044 0532 0130 00";

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
    let mobile = |to: &str| Some((Fmt, mobile(to)));
    let f = |message: &str| Some((Fmt, message.to_owned()));
    let c = |message: &str| Some((Sum, message.to_owned()));
    vec![
        // NGN: NUBAN, bank code digits.
        ("NGN", "NGN", "accountNumber", "0123456789", None),
        // The NUBAN check digit is not verified (C10): 0123456785 is the
        // NUBAN of serial 012345678 at bank 058, and 0123456789 (wrong
        // check digit) passes too.
        ("NGN", "NGN", "accountNumber", "0123456785", None),
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
        ("NGN", "KES", "accountNumber", "25471234567a", mobile("KES")),
        ("NGN", "UGX", "accountNumber", "12345678901234567890", None),
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
        ("USD", "USD", "accountNumber", "GB82WEST12345698765433", c(&iban_check(GB_IBAN))),
        ("USD", "USD", "accountNumber", "12345678a", f(US_ACCOUNT)),
        // GBP: 8 digits or an IBAN; sort code; BIC.
        ("NGN", "GBP", "accountNumber", "31926819", None),
        ("NGN", "GBP", "accountNumber", "3192681", f(UK_ACCOUNT)),
        ("NGN", "GBP", "accountNumber", "319268190", f(UK_ACCOUNT)),
        ("NGN", "GBP", "accountNumber", "GB82 WEST 1234 5698 7654 32", None),
        ("NGN", "GBP", "accountNumber", "gb82west12345698765432", None),
        ("NGN", "GBP", "accountNumber", "GB82WEST12345698765423", c(&iban_check(GB_IBAN))),
        ("NGN", "GBP", "accountNumber", "GB88WEST1234569876543", f(&format!("is not a valid IBAN: the account part does not have the length or form GB uses; {GB_IBAN}"))),
        ("NGN", "GBP", "accountNumber", "GB82 WES T123 4569 8765 432", None),
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
        ("NGN", "EUR", "accountNumber", "DE89370400440532013001", c(&iban_check(DE_IBAN))),
        ("NGN", "EUR", "accountNumber", "de89 3704 0044 0532 0130 01", c(&iban_check(DE_IBAN))),
        ("NGN", "EUR", "accountNumber", "XK051212012345678906", None),
        ("NGN", "EUR", "accountNumber", "XK94121201234567890", f("is not a valid IBAN: the account part does not have the length or form XK uses; a valid IBAN looks like GB82 WEST 1234 5698 7654 32")),
        ("NGN", "EUR", "accountNumber", "XK051212012345678916", c(&iban_check("a valid IBAN looks like GB82 WEST 1234 5698 7654 32"))),
        ("NGN", "EUR", "accountNumber", "XX46370400440532013000", f("is not a valid IBAN: XX is not a country that issues IBANs; an IBAN starts with the code of the account's country, such as GB82 WEST 1234 5698 7654 32")),
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
        ("USD", "CAD", "accountNumber", "1234567890123", f(CA_ACCOUNT)),
        ("USD", "CAD", "accountNumber", "123456789012", None),
        // Crypto: the address on its network.
        ("USDT", "USDT", "address", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", None),
        ("USDT", "USDT", "address", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", None),
        ("USDT", "USDT", "address", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", c(EIP55)),
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
        ("USDT", "USDT", "network", " ethereum", f(NETWORK)),
        ("USDT", "NGN", "fromNetwork", "tron\n", f(NETWORK)),
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

/// The kinds of currency pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum PairKind {
    SameCurrencyFiat,
    CrossCurrencyFiat,
    FiatToCrypto,
    CryptoToCrypto,
    CryptoToFiat,
}

/// The destination families (the SDK's typed destinations), by `toCurrency`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    LocalBank,
    UsBank,
    UkBank,
    EurBank,
    CanadianBank,
    CryptoWallet,
    OtherFiat,
}

fn kind(from: Currency, to: Currency) -> PairKind {
    match (from.is_crypto(), to.is_crypto()) {
        (false, false) if from == to => PairKind::SameCurrencyFiat,
        (false, false) => PairKind::CrossCurrencyFiat,
        (false, true) => PairKind::FiatToCrypto,
        (true, true) => PairKind::CryptoToCrypto,
        (true, false) => PairKind::CryptoToFiat,
    }
}

fn family(to: Currency) -> Family {
    use Currency::*;
    match to {
        Ngn | Kes | Ugx => Family::LocalBank,
        Usd => Family::UsBank,
        Gbp => Family::UkBank,
        Eur => Family::EurBank,
        Cad => Family::CanadianBank,
        Usdt | Usdc | Cngn => Family::CryptoWallet,
        Ghs | Xof | Xaf => Family::OtherFiat,
    }
}

/// A complete payout from `from` to `to` as its typed destination sends it:
/// every field the pair requires, the account details of the family (an
/// IBAN and holder for EUR, an account and holder for CAD), and a wallet's
/// network (`toNetwork` from fiat too, so the address is checked).
fn complete(from: &'static str, to: &'static str) -> PayoutFields<'static> {
    let (f, t) = (
        from.parse::<Currency>().unwrap(),
        to.parse::<Currency>().unwrap(),
    );
    let required = crossborder_core::payout::required_fields(f, t);
    let value = |name: &str| -> Option<&'static str> {
        let family_field = match (family(t), name) {
            (Family::EurBank | Family::CanadianBank, "accountNumber" | "accountName") => true,
            (Family::CryptoWallet, "toNetwork") => f != t,
            _ => false,
        };
        if !required.contains(&name) && !family_field {
            return None;
        }
        Some(sample(from, to, name))
    };
    PayoutFields::from_fn(value)
}

/// One cell of the table: a payout from `from` to `to` that passes as
/// built by [`complete`], and the same payout with `field` set to `value`
/// (`None`: removed), refused with exactly `expected`.
struct Cell {
    from: &'static str,
    to: &'static str,
    field: &'static str,
    value: Option<&'static str>,
    expected: Vec<(&'static str, Rule, String)>,
}

#[rustfmt::skip]
fn cells() -> Vec<Cell> {
    use Rule::{InvalidChecksum as Sum, InvalidFormat as Fmt, NotPositive, Required, TooPrecise};
    let cell = |from, to, field, value, expected: Vec<(&'static str, Rule, String)>| Cell {
        from, to, field, value, expected,
    };
    let one = |field, rule, message: &str| vec![(field, rule, message.to_owned())];
    let rate_key = |from: &str, to: &str| {
        one("rateKey", Required, &format!("is required when fromCurrency ({from}) differs from toCurrency ({to})"))
    };
    let to_is = |field, to: &str| one(field, Required, &format!("is required when toCurrency is {to}"));
    let from_network = |from: &str, to: &str| {
        one("fromNetwork", Required, &format!("is required when fromCurrency ({from}) is crypto and differs from toCurrency ({to})"))
    };
    vec![
        // Same-currency fiat.
        cell("NGN", "NGN", "accountNumber", Some("01234"), one("accountNumber", Fmt, NUBAN)),
        cell("KES", "KES", "bankCode", None, to_is("bankCode", "KES")),
        cell("UGX", "UGX", "accountNumber", Some("+256712345678"), one("accountNumber", Fmt, &mobile("UGX"))),
        cell("USD", "USD", "accountNumber", Some("123"), one("accountNumber", Fmt, US_ACCOUNT)),
        cell("GBP", "GBP", "sortCode", Some("20-00-0"), one("sortCode", Fmt, SORT_CODE)),
        cell("EUR", "EUR", "swiftCode", None, to_is("swiftCode", "EUR")),
        cell("CAD", "CAD", "institutionNumber", Some("0003"), one("institutionNumber", Fmt, INSTITUTION)),
        cell("GHS", "GHS", "amount", Some("0"), one("amount", NotPositive, "must be greater than zero")),
        cell("XOF", "XOF", "amount", Some("10.5"), one("amount", TooPrecise, "has more decimal places than XOF allows (0)")),
        cell("XAF", "XAF", "sessionId", Some("payout 1"), one("sessionId", Fmt, "must be 1 to 100 characters of letters, digits, '-' or '_'")),
        // Cross-currency fiat.
        cell("USD", "NGN", "rateKey", None, rate_key("USD", "NGN")),
        cell("NGN", "KES", "accountNumber", Some("1234"), one("accountNumber", Fmt, &mobile("KES"))),
        cell("USD", "UGX", "bankCode", Some("3"), one("bankCode", Fmt, "must be 2 to 6 digits, a bank code from the UGX bank list such as 031")),
        cell("NGN", "USD", "accountNumber", Some("GB82WEST12345698765433"), one("accountNumber", Sum, &iban_check(GB_IBAN))),
        cell("NGN", "GBP", "swiftCode", Some("BARCGB2"), one("swiftCode", Fmt, BIC)),
        cell("NGN", "EUR", "accountNumber", Some("370400440532013000"), one("accountNumber", Fmt, EUR_ACCOUNT)),
        cell("USD", "CAD", "transitNumber", Some("0012"), one("transitNumber", Fmt, TRANSIT)),
        cell("NGN", "GHS", "rateKey", None, rate_key("NGN", "GHS")),
        cell("USD", "XOF", "amount", Some("10.001"), one("amount", TooPrecise, "has more decimal places than USD allows (2)")),
        cell("EUR", "XAF", "rateKey", Some(" "), rate_key("EUR", "XAF")),
        // Fiat to crypto.
        cell("NGN", "USDT", "address", None, to_is("address", "USDT")),
        cell("USD", "USDC", "toNetwork", Some("tron"), one("address", Fmt, TRON)),
        cell("NGN", "CNGN", "address", Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"), one("address", Sum, EIP55)),
        // Crypto to crypto, same currency and different ones.
        cell("USDT", "USDT", "network", None, one("network", Required, "is required for a same-currency crypto payout (USDT to USDT)")),
        cell("USDC", "USDC", "address", Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA"), one("address", Fmt, EVM)),
        cell("CNGN", "CNGN", "network", Some("base mainnet"), one("network", Fmt, NETWORK)),
        cell("USDC", "USDT", "toNetwork", None, one("toNetwork", Required, "is required when fromCurrency (USDC) and toCurrency (USDT) are different cryptocurrencies")),
        cell("USDT", "CNGN", "fromNetwork", None, from_network("USDT", "CNGN")),
        cell("CNGN", "USDC", "rateKey", None, rate_key("CNGN", "USDC")),
        // Crypto to fiat.
        cell("USDT", "NGN", "fromNetwork", None, from_network("USDT", "NGN")),
        cell("USDC", "KES", "fromNetwork", Some("tron mainnet"), one("fromNetwork", Fmt, NETWORK)),
        cell("CNGN", "UGX", "rateKey", None, rate_key("CNGN", "UGX")),
        cell("USDT", "USD", "accountName", None, to_is("accountName", "USD")),
        cell("USDC", "GBP", "accountNumber", Some("3192681"), one("accountNumber", Fmt, UK_ACCOUNT)),
        cell("USDT", "EUR", "accountNumber", Some("DE89370400440532013001"), one("accountNumber", Sum, &iban_check(DE_IBAN))),
        cell("CNGN", "CAD", "transitNumber", None, to_is("transitNumber", "CAD")),
        cell("USDT", "GHS", "fromNetwork", None, from_network("USDT", "GHS")),
        cell("USDC", "XOF", "amount", Some("10.1234567"), one("amount", TooPrecise, "has more decimal places than USDC allows (6)")),
        cell("CNGN", "XAF", "fromNetwork", Some(""), from_network("CNGN", "XAF")),
    ]
}

#[test]
fn every_pair_kind_and_destination_family_passes_and_fails_with_its_exact_message() {
    for Cell {
        from,
        to,
        field,
        value,
        expected,
    } in cells()
    {
        let valid = complete(from, to);
        assert_eq!(outcome(&valid), [], "{from} -> {to}: the complete payout");
        let broken = PayoutFields::from_fn(|name| {
            if name == field {
                value
            } else {
                valid.get(name)
            }
        });
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(field, rule, message)| (field.to_owned(), rule, message))
            .collect();
        assert_eq!(
            outcome(&broken),
            expected,
            "{from} -> {to}: {field} = {value:?}"
        );
    }
}

#[test]
fn the_table_covers_every_pair_kind_with_every_destination_family() {
    use std::collections::BTreeSet;
    let cells = cells();
    let covered: BTreeSet<(PairKind, Family)> = cells
        .iter()
        .map(|cell| {
            let (from, to) = (cell.from.parse().unwrap(), cell.to.parse().unwrap());
            (kind(from, to), family(to))
        })
        .collect();
    // Every combination that exists: a fiat family is reached from the same
    // fiat currency, another fiat currency or a cryptocurrency; a wallet from
    // fiat or crypto.
    let possible: BTreeSet<(PairKind, Family)> = Currency::ALL
        .iter()
        .flat_map(|from| {
            Currency::ALL
                .iter()
                .map(move |to| (kind(*from, *to), family(*to)))
        })
        .collect();
    assert_eq!(possible.len(), 20);
    assert_eq!(covered, possible);
    // Every destination currency is a row's destination, and both a
    // same-currency and a cross-currency crypto-to-crypto payout are there.
    let destinations: BTreeSet<&str> = cells.iter().map(|cell| cell.to).collect();
    let all: BTreeSet<&str> = Currency::ALL.iter().map(|c| c.code()).collect();
    assert_eq!(destinations, all);
    assert!(cells.iter().any(|c| c.from == c.to && c.from == "USDT"));
    assert!(cells.iter().any(|c| c.from != c.to
        && kind(c.from.parse().unwrap(), c.to.parse().unwrap()) == PairKind::CryptoToCrypto));
}

#[test]
fn tron_and_solana_addresses_pass_and_fail_through_validate_payout() {
    let tron = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
    let solana = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    // (from, to, destination network, address, expected on address).
    type Row = (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        Option<(Rule, &'static str)>,
    );
    let table: [Row; 10] = [
        ("USDT", "USDT", "tron", tron, None),
        ("USDT", "USDT", "TRC20", tron, None),
        ("NGN", "USDT", "tron", tron, None),
        (
            "USDT",
            "USDT",
            "tron",
            "TJRabPrwbZy45sbavfcjinPJC18kjpRTv9",
            Some((Rule::InvalidChecksum, TRON_CHECKSUM)),
        ),
        (
            "USDC",
            "USDT",
            "tron",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            Some((Rule::InvalidFormat, TRON)),
        ),
        ("USDC", "USDC", "solana", solana, None),
        (
            "NGN",
            "USDC",
            "SOL",
            "11111111111111111111111111111111",
            None,
        ),
        ("USDT", "USDC", "solana", solana, None),
        (
            "USDC",
            "USDC",
            "solana",
            "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFL",
            Some((Rule::InvalidFormat, SOLANA)),
        ),
        (
            "USDC",
            "USDC",
            "solana",
            "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl",
            Some((Rule::InvalidFormat, SOLANA)),
        ),
    ];
    for (from, to, network, address, expected) in table {
        let base = complete(from, to);
        let same = from == to;
        let fields = PayoutFields {
            address: Some(address),
            network: if same { Some(network) } else { None },
            to_network: if same { None } else { Some(network) },
            ..base
        };
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(rule, message)| ("address".to_owned(), rule, message.to_owned()))
            .collect();
        assert_eq!(
            outcome(&fields),
            expected,
            "{from} -> {to} on {network}: {address}"
        );
    }
    // On a network this crate does not know, an address is one word.
    let fields = PayoutFields {
        network: Some("lightning"),
        address: Some("lnbc1 pvjluez"),
        ..complete("USDT", "USDT")
    };
    assert_eq!(
        outcome(&fields),
        [(
            "address".to_owned(),
            Rule::InvalidFormat,
            ONE_WORD.to_owned()
        )]
    );
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

    /// A valid IBAN (its check digits computed here, for a random account
    /// in the national format of one of eleven countries), written with
    /// spaces in any grouping and in any case, is valid and is sent in its
    /// electronic form; the same IBAN with one check digit changed is
    /// refused as a wrong checksum.
    #[test]
    fn a_valid_iban_in_any_grouping_normalises_to_its_electronic_form(
        (country, bban) in proptest::sample::select(BBAN_FORMATS.to_vec())
            .prop_flat_map(|(country, format)| (Just(country), format)),
        grouping in 0usize..=6,
        case in proptest::collection::vec(any::<bool>(), 34),
        to in proptest::sample::select(vec!["EUR", "GBP", "USD"]),
    ) {
        let iban = with_check_digits(country, &bban);
        // 0: electronic; otherwise groups of `grouping` characters (4 is
        // the paper form).
        let spaced: String = if grouping == 0 {
            iban.clone()
        } else {
            iban.as_bytes()
                .chunks(grouping)
                .map(|chunk| std::str::from_utf8(chunk).unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let written: String = spaced
            .chars()
            .zip(case.iter().cycle())
            .map(|(c, lower)| if *lower { c.to_ascii_lowercase() } else { c })
            .collect();
        let fields = PayoutFields {
            account_number: Some(&written),
            ..complete("NGN", to)
        };
        prop_assert_eq!(outcome(&fields), []);
        let currency: Currency = to.parse().unwrap();
        prop_assert_eq!(normalized("accountNumber", &written, currency), iban.as_str());

        let check: u32 = iban[2..4].parse().unwrap();
        let wrong = format!("{country}{:02}{bban}", (check + 1) % 100);
        let fields = PayoutFields {
            account_number: Some(&wrong),
            ..complete("NGN", to)
        };
        let refused = outcome(&fields);
        prop_assert_eq!(refused.len(), 1);
        prop_assert_eq!(refused[0].1, Rule::InvalidChecksum);
    }
}

/// National account formats (the BBAN of the SWIFT IBAN registry) of a few
/// countries, as regular expressions.
const BBAN_FORMATS: [(&str, &str); 11] = [
    ("DE", "[0-9]{18}"),
    ("GB", "[A-Z]{4}[0-9]{14}"),
    ("FR", "[0-9]{10}[0-9A-Z]{11}[0-9]{2}"),
    ("NL", "[A-Z]{4}[0-9]{10}"),
    ("ES", "[0-9]{20}"),
    ("IT", "[A-Z][0-9]{10}[0-9A-Z]{12}"),
    ("BE", "[0-9]{12}"),
    ("CH", "[0-9]{5}[0-9A-Z]{12}"),
    ("IE", "[A-Z]{4}[0-9]{14}"),
    ("NO", "[0-9]{11}"),
    ("PL", "[0-9]{24}"),
];

/// The IBAN of `bban` in `country`, with its ISO 13616 check digits: 98
/// minus the remainder by 97 of the number read from the BBAN, the country
/// and `00`, letters counting A = 10 to Z = 35.
fn with_check_digits(country: &str, bban: &str) -> String {
    let remainder = format!("{bban}{country}00").chars().fold(0u32, |acc, c| {
        let value = c.to_digit(36).unwrap();
        let shift = if value < 10 { 10 } else { 100 };
        (acc * shift + value) % 97
    });
    format!("{country}{:02}{bban}", 98 - remainder)
}

#[test]
fn check_digits_are_computed_as_the_standard_says() {
    // The registry's own examples.
    assert_eq!(
        with_check_digits("DE", "370400440532013000"),
        "DE89370400440532013000"
    );
    assert_eq!(
        with_check_digits("GB", "WEST12345698765432"),
        "GB82WEST12345698765432"
    );
    assert_eq!(
        with_check_digits("FR", "20041010050500013M02606"),
        "FR1420041010050500013M02606"
    );
}
