//! The rules of a payout request: which fields are required for a currency
//! pair, and what shape each field must have.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::format::check_format;
use crate::amount::AmountWire;
use crate::currency::Currency;
use crate::field_rules::{check_amount, known, parse_currency, report_currency};
use crate::money::Money;
use crate::views::PayoutFields;
use crate::violation::{present, Collector, Rule, Violations};

/// The longest `narration` accepted, in characters.
pub const MAX_NARRATION_CHARS: usize = 140;

/// The longest `sessionId` accepted, in characters.
pub const MAX_SESSION_ID_CHARS: usize = 100;

/// The destination kind of a payout, chosen from `fromCurrency` and
/// `toCurrency`.
///
/// The specification says the kind is chosen from the two currencies but not
/// how; this crate decides: [`Crypto`](PayoutKind::Crypto) when the
/// destination is a cryptocurrency (a wallet address receives it), otherwise
/// [`CrossCurrency`](PayoutKind::CrossCurrency) when the currencies differ
/// (including crypto to fiat), otherwise
/// [`SameCurrency`](PayoutKind::SameCurrency).
///
/// ```
/// use crossborder_core::{payout::PayoutKind, Currency};
///
/// assert_eq!(PayoutKind::of(Currency::Ngn, Currency::Ngn), PayoutKind::SameCurrency);
/// assert_eq!(PayoutKind::of(Currency::Usd, Currency::Ngn), PayoutKind::CrossCurrency);
/// assert_eq!(PayoutKind::of(Currency::Usdt, Currency::Ngn), PayoutKind::CrossCurrency);
/// assert_eq!(PayoutKind::of(Currency::Ngn, Currency::Usdc), PayoutKind::Crypto);
/// assert_eq!(PayoutKind::of(Currency::Usdt, Currency::Usdt), PayoutKind::Crypto);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PayoutKind {
    /// A fiat payout in the currency it is funded in.
    SameCurrency,
    /// A payout converted into another fiat currency (needs a `rateKey`).
    CrossCurrency,
    /// A payout to a wallet address in USDT, USDC or CNGN.
    Crypto,
}

impl PayoutKind {
    /// The kind of a payout from `from` to `to`.
    pub fn of(from: Currency, to: Currency) -> PayoutKind {
        if to.is_crypto() {
            PayoutKind::Crypto
        } else if from != to {
            PayoutKind::CrossCurrency
        } else {
            PayoutKind::SameCurrency
        }
    }
}

/// A payout request that passed [`validate_payout`], with its parsed parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidatedPayout {
    /// The amount, in `from`, exact and greater than zero.
    pub amount: Decimal,
    /// The source currency (`fromCurrency`).
    pub from: Currency,
    /// The destination currency (`toCurrency`).
    pub to: Currency,
    /// The destination kind.
    pub kind: PayoutKind,
}

impl ValidatedPayout {
    /// The amount with its currency.
    pub fn money(&self) -> Money {
        Money::from_checked(self.amount, self.from)
    }
}

/// Checks a payout request against every rule of the API and reports every
/// violation at once, in wire field order (see [`PayoutFields::WIRE_NAMES`]).
///
/// A required field that is empty or only whitespace counts as missing. When
/// a currency is invalid, the rules that depend on it are skipped, so one bad
/// code gives one violation.
///
/// ```
/// use crossborder_core::payout::{validate_payout, PayoutFields, PayoutKind};
///
/// let fields = PayoutFields {
///     amount: Some("100.00"),
///     from_currency: Some("USD"),
///     to_currency: Some("NGN"),
///     session_id: Some("payout-42"),
///     account_number: Some("0123456789"),
///     ..PayoutFields::default()
/// };
/// let violations = validate_payout(&fields).unwrap_err();
/// assert_eq!(
///     violations.to_string(),
///     "rateKey: is required when fromCurrency (USD) differs from toCurrency (NGN); \
///      accountName: is required when toCurrency is NGN; \
///      bankName: is required when toCurrency is NGN; \
///      bankCode: is required when toCurrency is NGN"
/// );
///
/// let fields = PayoutFields {
///     rate_key: Some("rk_123"),
///     account_name: Some("Ada Obi"),
///     bank_name: Some("Example Bank"),
///     bank_code: Some("058"),
///     ..fields
/// };
/// let payout = validate_payout(&fields).unwrap();
/// assert_eq!(payout.kind, PayoutKind::CrossCurrency);
/// assert_eq!(payout.money().to_string(), "100.00 USD");
/// ```
pub fn validate_payout(fields: &PayoutFields<'_>) -> Result<ValidatedPayout, Violations> {
    let mut collector = Collector::default();

    // The currencies decide the other rules, so they are read first; their
    // violations are still reported in wire order.
    let from = parse_currency(fields.from_currency);
    let to = parse_currency(fields.to_currency);
    let known_from = known(&from);
    let known_to = known(&to);

    let amount = check_amount(
        &mut collector,
        PayoutFields::AMOUNT,
        fields.amount,
        known_from,
        AmountWire::UnsignedString,
    );
    report_currency(&mut collector, PayoutFields::FROM_CURRENCY, &from);
    report_currency(&mut collector, PayoutFields::TO_CURRENCY, &to);
    check_narration(&mut collector, fields.narration);
    check_session_id(&mut collector, fields.session_id);

    // The address is on the network of the destination: `network` when the
    // currencies are the same, `toNetwork` otherwise (ASSUMPTIONS C11).
    let destination_network = if known_from.is_some() && known_from == known_to {
        present(fields.network)
    } else {
        present(fields.to_network)
    };
    for (field, raw) in fields.entries() {
        match (requirement(field, known_from, known_to), present(raw)) {
            (Some(reason), None) => collector.push(field, Rule::Required, reason.to_string()),
            (_, Some(value)) => {
                if let (Some(from), Some(to)) = (known_from, known_to) {
                    // The raw value, not the trimmed one: a space inside an
                    // account number is a mistake the service would see too.
                    let raw = raw.unwrap_or(value);
                    if let Err((rule, message)) =
                        check_format(field, raw, from, to, destination_network)
                    {
                        collector.push(field, rule, message);
                    }
                }
            }
            (None, None) => {}
        }
    }

    match (amount, known_from, known_to) {
        (Some(amount), Some(from), Some(to)) => collector.finish(|| ValidatedPayout {
            amount,
            from,
            to,
            kind: PayoutKind::of(from, to),
        }),
        _ => Err(collector.into_violations()),
    }
}

/// The wire names of the fields a payout from `from` to `to` must carry, in
/// wire order: `amount`, `fromCurrency`, `toCurrency` and `sessionId` always,
/// then those the pair makes necessary.
///
/// ```
/// use crossborder_core::{payout::required_fields, Currency};
///
/// assert_eq!(
///     required_fields(Currency::Usdt, Currency::Usdc),
///     ["amount", "fromCurrency", "toCurrency", "sessionId", "rateKey", "address", "fromNetwork", "toNetwork"]
/// );
/// ```
pub fn required_fields(from: Currency, to: Currency) -> Vec<&'static str> {
    PayoutFields::WIRE_NAMES
        .into_iter()
        .filter(|field| {
            ALWAYS_REQUIRED.contains(field) || requirement(field, Some(from), Some(to)).is_some()
        })
        .collect()
}

/// Whether a payout to `to` needs a `bankCode`: NGN, KES and UGX, the
/// destinations the specification requires one for. Only for these is a
/// bank code looked up in a bank list (the sandbox's, and the service's
/// resolve-bank); a code sent for any other destination is passed on
/// unchecked, since the specification gives it no meaning there
/// (ASSUMPTIONS C35).
///
/// ```
/// use crossborder_core::{payout::bank_code_required, Currency};
///
/// assert!(bank_code_required(Currency::Kes));
/// assert!(!bank_code_required(Currency::Usd));
/// ```
pub fn bank_code_required(to: Currency) -> bool {
    matches!(to, Currency::Ngn | Currency::Kes | Currency::Ugx)
}

/// The fields every payout must carry. The specification does not say which
/// of amount, narration, sessionId, fromCurrency and toCurrency are required;
/// a payout cannot be made without these four, and narration is free text.
const ALWAYS_REQUIRED: [&str; 4] = [
    PayoutFields::AMOUNT,
    PayoutFields::FROM_CURRENCY,
    PayoutFields::TO_CURRENCY,
    PayoutFields::SESSION_ID,
];

/// Why a pair requires a field; formatted into the violation's message only
/// when the field is missing, so a valid request allocates no message.
#[derive(Debug, Clone, Copy)]
enum Reason {
    RateKey(Currency, Currency),
    ToIs(Currency),
    SameCrypto(Currency, Currency),
    CryptoSource(Currency, Currency),
    TwoCryptos(Currency, Currency),
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Reason::RateKey(from, to) => write!(
                f,
                "is required when fromCurrency ({from}) differs from toCurrency ({to})"
            ),
            Reason::ToIs(to) => write!(f, "is required when toCurrency is {to}"),
            Reason::SameCrypto(from, to) => write!(
                f,
                "is required for a same-currency crypto payout ({from} to {to})"
            ),
            Reason::CryptoSource(from, to) => write!(
                f,
                "is required when fromCurrency ({from}) is crypto and differs from toCurrency ({to})"
            ),
            Reason::TwoCryptos(from, to) => write!(
                f,
                "is required when fromCurrency ({from}) and toCurrency ({to}) are different cryptocurrencies"
            ),
        }
    }
}

/// The conditional rules of the API, one per field: `Some(reason)` when the
/// pair requires `field`, `None` when it does not or when a currency it
/// depends on is unknown (so an invalid code does not cause more violations).
fn requirement(field: &str, from: Option<Currency>, to: Option<Currency>) -> Option<Reason> {
    use Currency::{Cad, Eur, Gbp, Kes, Ngn, Ugx, Usd};

    match field {
        PayoutFields::RATE_KEY => {
            let (from, to) = (from?, to?);
            (from != to).then_some(Reason::RateKey(from, to))
        }
        PayoutFields::ACCOUNT_NUMBER | PayoutFields::ACCOUNT_NAME | PayoutFields::BANK_NAME => {
            let to = to?;
            matches!(to, Ngn | Kes | Ugx | Usd | Gbp).then_some(Reason::ToIs(to))
        }
        PayoutFields::BANK_CODE => {
            let to = to?;
            bank_code_required(to).then_some(Reason::ToIs(to))
        }
        PayoutFields::ADDRESS => {
            let to = to?;
            to.is_crypto().then_some(Reason::ToIs(to))
        }
        PayoutFields::NETWORK => {
            let (from, to) = (from?, to?);
            (from == to && to.is_crypto()).then_some(Reason::SameCrypto(from, to))
        }
        PayoutFields::FROM_NETWORK => {
            let from = from?;
            if !from.is_crypto() {
                return None;
            }
            let to = to?;
            (from != to).then_some(Reason::CryptoSource(from, to))
        }
        PayoutFields::TO_NETWORK => {
            let (from, to) = (from?, to?);
            (from.is_crypto() && to.is_crypto() && from != to)
                .then_some(Reason::TwoCryptos(from, to))
        }
        PayoutFields::TRANSIT_NUMBER | PayoutFields::INSTITUTION_NUMBER => {
            let to = to?;
            (to == Cad).then_some(Reason::ToIs(to))
        }
        PayoutFields::SORT_CODE => {
            let to = to?;
            (to == Gbp).then_some(Reason::ToIs(to))
        }
        PayoutFields::SWIFT_CODE => {
            let to = to?;
            matches!(to, Eur | Gbp).then_some(Reason::ToIs(to))
        }
        _ => None,
    }
}

fn check_narration(collector: &mut Collector, value: Option<&str>) {
    if let Some(narration) = value {
        let length = narration.chars().count();
        if length > MAX_NARRATION_CHARS {
            collector.push(
                PayoutFields::NARRATION,
                Rule::TooLong,
                format!("must be at most {MAX_NARRATION_CHARS} characters; got {length}"),
            );
        }
    }
}

fn check_session_id(collector: &mut Collector, value: Option<&str>) {
    let Some(session_id) = collector.require(PayoutFields::SESSION_ID, value) else {
        return;
    };
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if session_id.len() > MAX_SESSION_ID_CHARS || !session_id.chars().all(allowed) {
        collector.push(
            PayoutFields::SESSION_ID,
            Rule::InvalidFormat,
            "must be 1 to 100 characters of letters, digits, '-' or '_'",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::parse_amount;
    use crate::test_support::{self, one};
    use crossborder_testkit::fixtures::payout_sample;
    use Currency::*;

    /// A valid NGN to NGN bank payout, the base every case edits.
    fn ngn_payout() -> PayoutFields<'static> {
        PayoutFields {
            amount: Some("1500.50"),
            from_currency: Some("NGN"),
            to_currency: Some("NGN"),
            narration: Some("Invoice 42"),
            session_id: Some("session_0001-a"),
            account_number: Some("0123456789"),
            account_name: Some("Ada Obi"),
            bank_name: Some("Example Bank"),
            bank_code: Some("058"),
            ..PayoutFields::default()
        }
    }

    /// Only the four base fields: what a pair requires beyond them is
    /// missing.
    fn minimal<'a>(amount: &'a str, from: &'a str, to: &'a str) -> PayoutFields<'a> {
        PayoutFields {
            amount: Some(amount),
            from_currency: Some(from),
            to_currency: Some(to),
            session_id: Some("s"),
            ..PayoutFields::default()
        }
    }

    /// Every field filled, so only the format rules can fail: [`minimal`]
    /// and a well-formed sample of each other field.
    fn everything<'a>(amount: &'a str, from: &'a str, to: &'a str) -> PayoutFields<'a> {
        let base = minimal(amount, from, to);
        PayoutFields::from_fn(|name| base.get(name).or(Some(payout_sample(name, to))))
    }

    fn violations(fields: &PayoutFields<'_>) -> Vec<(String, Rule, String)> {
        test_support::violations(validate_payout(fields))
    }

    #[test]
    fn a_complete_payout_is_valid() {
        let payout = validate_payout(&ngn_payout()).unwrap();
        assert_eq!(payout.amount, parse_amount("1500.50").unwrap());
        assert_eq!((payout.from, payout.to), (Ngn, Ngn));
        assert_eq!(payout.kind, PayoutKind::SameCurrency);
    }

    #[test]
    fn amount_rules() {
        const NOT_A_DECIMAL: &str = "must be a decimal number such as 1500.50";
        let table = [
            (None, Rule::Required, "is required"),
            (Some(""), Rule::Required, "is required"),
            (Some("   "), Rule::Required, "is required"),
            (Some("abc"), Rule::InvalidFormat, NOT_A_DECIMAL),
            (Some("-5"), Rule::InvalidFormat, NOT_A_DECIMAL),
            (Some("+5"), Rule::InvalidFormat, NOT_A_DECIMAL),
            (Some("1e3"), Rule::InvalidFormat, NOT_A_DECIMAL),
            (Some(" 10"), Rule::InvalidFormat, NOT_A_DECIMAL),
            (Some("1,500"), Rule::InvalidFormat, NOT_A_DECIMAL),
            (Some("NaN"), Rule::InvalidFormat, NOT_A_DECIMAL),
            (Some("10."), Rule::InvalidFormat, NOT_A_DECIMAL),
            (
                Some("99999999999999999999999999999999"),
                Rule::InvalidFormat,
                "has more digits than can be represented exactly",
            ),
            (Some("0"), Rule::NotPositive, "must be greater than zero"),
            (Some("0.00"), Rule::NotPositive, "must be greater than zero"),
            (
                Some("1.234"),
                Rule::TooPrecise,
                "has more decimal places than NGN allows (2)",
            ),
        ];
        for (amount, rule, message) in table {
            let fields = PayoutFields {
                amount,
                ..ngn_payout()
            };
            assert_eq!(
                violations(&fields),
                one("amount", rule, message),
                "{amount:?}"
            );
        }
    }

    #[test]
    fn amount_decimal_places_follow_the_source_currency() {
        let table = [
            (
                "10.5",
                "UGX",
                Some("has more decimal places than UGX allows (0)"),
            ),
            (
                "10.5",
                "XOF",
                Some("has more decimal places than XOF allows (0)"),
            ),
            (
                "10.5",
                "XAF",
                Some("has more decimal places than XAF allows (0)"),
            ),
            ("10.50", "NGN", None),
            (
                "10.123",
                "EUR",
                Some("has more decimal places than EUR allows (2)"),
            ),
            ("10.000000", "UGX", None),
            ("0.000001", "CNGN", None),
            (
                "0.0000001",
                "CNGN",
                Some("has more decimal places than CNGN allows (6)"),
            ),
            ("1234567.89", "USD", None),
            ("100000000000.01", "GHS", None),
        ];
        for (amount, from, message) in table {
            let fields = everything(amount, from, from);
            let expected = message
                .map(|message| one("amount", Rule::TooPrecise, message))
                .unwrap_or_default();
            assert_eq!(violations(&fields), expected, "{amount} {from}");
        }
    }

    #[test]
    fn currency_rules() {
        let table = [
            (
                Some("NGN"),
                None,
                "toCurrency",
                Rule::Required,
                "is required".to_owned(),
            ),
            (
                Some("NGN"),
                Some(" "),
                "toCurrency",
                Rule::Required,
                "is required".to_owned(),
            ),
            (
                None,
                Some("NGN"),
                "fromCurrency",
                Rule::Required,
                "is required".to_owned(),
            ),
            (
                Some("ngn"),
                Some("NGN"),
                "fromCurrency",
                Rule::UnknownCurrency,
                "Invalid currency: ngn".to_owned(),
            ),
            (
                Some("NGN"),
                Some("BTC"),
                "toCurrency",
                Rule::UnknownCurrency,
                "Invalid currency: BTC".to_owned(),
            ),
        ];
        for (from, to, field, rule, message) in table {
            let fields = PayoutFields {
                from_currency: from,
                to_currency: to,
                ..everything("10", "NGN", "NGN")
            };
            assert_eq!(
                violations(&fields),
                one(field, rule, &message),
                "{from:?} {to:?}"
            );
        }
    }

    #[test]
    fn session_id_rules() {
        let format = "must be 1 to 100 characters of letters, digits, '-' or '_'";
        let long = "a".repeat(101);
        let longest = "a".repeat(100);
        let table = [
            (None, Some((Rule::Required, "is required"))),
            (Some(""), Some((Rule::Required, "is required"))),
            (Some("  "), Some((Rule::Required, "is required"))),
            (Some("has space"), Some((Rule::InvalidFormat, format))),
            (Some("dot.ted"), Some((Rule::InvalidFormat, format))),
            (Some("é"), Some((Rule::InvalidFormat, format))),
            (Some(long.as_str()), Some((Rule::InvalidFormat, format))),
            (Some(longest.as_str()), None),
            (Some("a"), None),
            (Some("A-z_09"), None),
        ];
        for (session_id, expected) in table {
            let fields = PayoutFields {
                session_id,
                ..ngn_payout()
            };
            let expected = expected
                .map(|(rule, message)| one("sessionId", rule, message))
                .unwrap_or_default();
            assert_eq!(violations(&fields), expected, "{session_id:?}");
        }
    }

    #[test]
    fn narration_is_optional_and_at_most_140_characters() {
        let longest = "é".repeat(140);
        let long = "x".repeat(141);
        for narration in [None, Some(""), Some(longest.as_str())] {
            let fields = PayoutFields {
                narration,
                ..ngn_payout()
            };
            assert_eq!(violations(&fields), Vec::new());
        }
        let fields = PayoutFields {
            narration: Some(&long),
            ..ngn_payout()
        };
        assert_eq!(
            violations(&fields),
            one(
                "narration",
                Rule::TooLong,
                "must be at most 140 characters; got 141"
            )
        );
    }

    #[test]
    fn conditional_fields_have_exact_messages() {
        // (from, to, field, message): remove `field` from a request that has
        // everything else, and expect exactly this violation.
        let table = [
            ("USD", "NGN", "rateKey", "is required when fromCurrency (USD) differs from toCurrency (NGN)"),
            ("NGN", "USDT", "rateKey", "is required when fromCurrency (NGN) differs from toCurrency (USDT)"),
            ("NGN", "NGN", "accountNumber", "is required when toCurrency is NGN"),
            ("NGN", "KES", "accountName", "is required when toCurrency is KES"),
            ("NGN", "UGX", "bankName", "is required when toCurrency is UGX"),
            ("NGN", "USD", "accountNumber", "is required when toCurrency is USD"),
            ("NGN", "GBP", "bankName", "is required when toCurrency is GBP"),
            ("NGN", "NGN", "bankCode", "is required when toCurrency is NGN"),
            ("NGN", "KES", "bankCode", "is required when toCurrency is KES"),
            ("NGN", "UGX", "bankCode", "is required when toCurrency is UGX"),
            ("NGN", "USDT", "address", "is required when toCurrency is USDT"),
            ("USDC", "USDC", "address", "is required when toCurrency is USDC"),
            ("NGN", "CNGN", "address", "is required when toCurrency is CNGN"),
            ("USDT", "USDT", "network", "is required for a same-currency crypto payout (USDT to USDT)"),
            ("USDT", "NGN", "fromNetwork", "is required when fromCurrency (USDT) is crypto and differs from toCurrency (NGN)"),
            ("USDC", "USDT", "fromNetwork", "is required when fromCurrency (USDC) is crypto and differs from toCurrency (USDT)"),
            ("USDC", "CNGN", "toNetwork", "is required when fromCurrency (USDC) and toCurrency (CNGN) are different cryptocurrencies"),
            ("NGN", "CAD", "transitNumber", "is required when toCurrency is CAD"),
            ("NGN", "CAD", "institutionNumber", "is required when toCurrency is CAD"),
            ("NGN", "GBP", "sortCode", "is required when toCurrency is GBP"),
            ("NGN", "EUR", "swiftCode", "is required when toCurrency is EUR"),
            ("NGN", "GBP", "swiftCode", "is required when toCurrency is GBP"),
        ];
        for (from, to, field, message) in table {
            for missing in [None, Some(""), Some(" \t")] {
                let mut fields = everything("10", from, to);
                fields = PayoutFields::from_fn(|name| {
                    if name == field {
                        missing
                    } else {
                        fields.get(name)
                    }
                });
                assert_eq!(
                    violations(&fields),
                    one(field, Rule::Required, message),
                    "{from} -> {to} without {field}"
                );
            }
        }
    }

    #[test]
    fn fields_a_pair_does_not_need_are_ignored() {
        // No bank details for fiat destinations outside the listed ones.
        for to in ["EUR", "GHS", "CAD", "XOF", "XAF"] {
            let fields = minimal("10", to, to);
            let names: Vec<_> = violations(&fields).into_iter().map(|v| v.0).collect();
            assert!(
                names
                    .iter()
                    .all(|name| !name.starts_with("account") && name != "bankCode"),
                "{to}: {names:?}"
            );
        }
        // Same fiat currency: no rateKey; fiat source: no fromNetwork.
        assert_eq!(violations(&minimal("10", "GHS", "GHS")), Vec::new());
        // A rateKey sent for a same-currency payout is ignored, not an error.
        let fields = PayoutFields {
            rate_key: Some("rk"),
            ..minimal("10", "GHS", "GHS")
        };
        assert_eq!(violations(&fields), Vec::new());
    }

    #[test]
    fn required_fields_per_pair() {
        let base = ["amount", "fromCurrency", "toCurrency", "sessionId"];
        // What a pair adds to the base, in wire order, by group: the rate
        // key of a conversion, the destination's fields, a crypto source's
        // network.
        let rate: &[&str] = &["rateKey"];
        let local_bank: &[&str] = &["accountNumber", "accountName", "bankName", "bankCode"];
        let uk_bank = [
            "accountNumber",
            "accountName",
            "bankName",
            "sortCode",
            "swiftCode",
        ];
        let table: [(Currency, Currency, &[&[&str]]); 11] = [
            (Ngn, Ngn, &[local_bank]),
            (Usd, Ngn, &[rate, local_bank]),
            (Usd, Usd, &[&["accountNumber", "accountName", "bankName"]]),
            (Ngn, Eur, &[rate, &["swiftCode"]]),
            (Ngn, Gbp, &[rate, &uk_bank]),
            (Usd, Cad, &[rate, &["transitNumber", "institutionNumber"]]),
            (Ghs, Ghs, &[]),
            (Usdt, Usdt, &[&["address", "network"]]),
            (
                Usdt,
                Usdc,
                &[rate, &["address", "fromNetwork", "toNetwork"]],
            ),
            (Cngn, Ngn, &[rate, local_bank, &["fromNetwork"]]),
            (Ngn, Usdt, &[rate, &["address"]]),
        ];
        for (from, to, added) in table {
            let expected: Vec<&str> = base.iter().copied().chain(added.concat()).collect();
            assert_eq!(required_fields(from, to), expected, "{from} -> {to}");
        }
    }

    #[test]
    fn required_fields_agree_with_validation_for_every_pair() {
        for from in Currency::ALL {
            for to in Currency::ALL {
                let fields = PayoutFields {
                    amount: Some("1"),
                    ..PayoutFields::from_fn(|_| None)
                };
                let fields = PayoutFields {
                    from_currency: Some(from.code()),
                    to_currency: Some(to.code()),
                    ..fields
                };
                let reported: Vec<String> = violations(&fields).into_iter().map(|v| v.0).collect();
                let mut expected: Vec<&str> = required_fields(from, to);
                expected.retain(|name| !["amount", "fromCurrency", "toCurrency"].contains(name));
                assert_eq!(reported, expected, "{from} -> {to}");

                let complete = PayoutFields::from_fn(|name| {
                    required_fields(from, to)
                        .contains(&name)
                        .then_some(match name {
                            "amount" => "1",
                            "fromCurrency" => from.code(),
                            "toCurrency" => to.code(),
                            _ => payout_sample(name, to.code()),
                        })
                });
                let payout = validate_payout(&complete).unwrap();
                assert_eq!(payout.kind, PayoutKind::of(from, to));
            }
        }
    }

    #[test]
    fn an_unknown_currency_skips_the_rules_that_depend_on_it() {
        // Unknown toCurrency: no bank, address, network or rateKey noise.
        let fields = minimal("10", "USDT", "XYZ");
        assert_eq!(
            violations(&fields),
            one("toCurrency", Rule::UnknownCurrency, "Invalid currency: XYZ")
        );
        // Unknown fromCurrency: no decimal-places or rateKey rule, but the
        // toCurrency rules still apply.
        let fields = minimal("10.123", "XYZ", "CAD");
        assert_eq!(
            violations(&fields),
            vec![
                (
                    "fromCurrency".to_owned(),
                    Rule::UnknownCurrency,
                    "Invalid currency: XYZ".to_owned()
                ),
                (
                    "transitNumber".to_owned(),
                    Rule::Required,
                    "is required when toCurrency is CAD".to_owned()
                ),
                (
                    "institutionNumber".to_owned(),
                    Rule::Required,
                    "is required when toCurrency is CAD".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn every_violation_is_reported_at_once_in_wire_order() {
        let long = "x".repeat(141);
        let fields = PayoutFields {
            amount: Some("-5"),
            from_currency: Some("usd"),
            to_currency: Some("NGN"),
            narration: Some(&long),
            session_id: None,
            account_number: Some("0123456789"),
            account_name: Some("Ada Obi"),
            bank_name: Some("Example Bank"),
            bank_code: Some(""),
            recipient_name: Some(""),
            ..PayoutFields::default()
        };
        let error = validate_payout(&fields).unwrap_err();
        assert_eq!(error.len(), 5);
        assert_eq!(
            error.fields().collect::<Vec<_>>(),
            [
                "amount",
                "fromCurrency",
                "narration",
                "sessionId",
                "bankCode"
            ]
        );
        assert_eq!(
            error.to_string(),
            "amount: must be a decimal number such as 1500.50; \
             fromCurrency: Invalid currency: usd; \
             narration: must be at most 140 characters; got 141; \
             sessionId: is required; \
             bankCode: is required when toCurrency is NGN"
        );
    }

    #[test]
    fn an_empty_request_lists_the_four_base_fields() {
        let error = validate_payout(&PayoutFields::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "amount: is required; fromCurrency: is required; toCurrency: is required; sessionId: is required"
        );
    }
}
