//! Fuzz target: payout validation (`crossborder_core::payout`).
//!
//! Arbitrary values and combinations of the 19 wire fields, from complete
//! valid payouts for every currency pair (then mutated) to arbitrary text.
//! Validation never panics; a refusal lists violations that each name a
//! wire field, in wire order, once each, with a message; an acceptance
//! has every field its pair requires, a positive amount within the source
//! currency's minor unit, and survives its own normalised form (the form
//! the SDK sends: `normalized` values, the amount's exact text) being
//! validated again, to the same result, the normalised values being fixed
//! points.

use std::collections::BTreeSet;

use crossborder_core::payout::{
    normalized, required_fields, validate_payout, PayoutFields, PayoutKind, KNOWN_NETWORKS,
};
use crossborder_core::{decimal_places, Currency, Decimal};
use crossborder_hostile_tests::fuzz;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;

/// Cases per run (see `crossborder_hostile_tests::fuzz`).
const CASES: u32 = 3000;

const NAMES: [&str; 19] = PayoutFields::WIRE_NAMES;

/// The values of the 19 wire fields, in wire order.
type Values = Vec<Option<String>>;

fn index(name: &str) -> usize {
    NAMES
        .iter()
        .position(|known| *known == name)
        .unwrap_or_else(|| panic!("not a payout field: {name}"))
}

fn fields(values: &Values) -> PayoutFields<'_> {
    PayoutFields::from_fn(|name| values[index(name)].as_deref())
}

/// A well-formed value of `field` for a payout to `to` (every field filled
/// this way makes a valid payout for every pair): the test kit's.
fn sample(field: &str, to: Currency) -> &'static str {
    crossborder_testkit::fixtures::payout_sample(field, to.code())
}

/// Values that are valid somewhere or nearly so, for any field.
fn tricky(field: &'static str) -> Vec<String> {
    let mut values: Vec<String> = match field {
        "amount" => vec![
            "1500.50",
            "10",
            "0.000001",
            "0",
            "0.00",
            "-5",
            "1e3",
            "1,000",
            "100.123",
            "99999999999999999999999999999",
            "0.1234567",
            " 42 ",
            "\u{661}\u{662}",
            "NaN",
            "+5",
            ".5",
            "5.",
            "1000000000000001",
            "79228162514264337593543950335",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect(),
        "fromCurrency" | "toCurrency" => Currency::ALL
            .iter()
            .map(|c| c.code().to_owned())
            .chain(["usd", "XYZ", " NGN", "NGN ", "N\u{200b}GN"].map(str::to_owned))
            .collect(),
        "narration" => vec![
            "x".repeat(140),
            "x".repeat(141),
            "\u{e9}".repeat(140),
            "\u{e9}".repeat(141),
        ],
        "sessionId" => vec![
            "a".to_owned(),
            "x".repeat(100),
            "x".repeat(101),
            "has space".to_owned(),
            "\u{fc}n\u{ef}".to_owned(),
            "a/b".to_owned(),
        ],
        "accountNumber" => [
            "0123456789",
            "31926819",
            "DE89370400440532013000",
            "GB82 WEST 1234 5698 7654 32",
            "gb82west12345698765432",
            "1234",
            "12345",
            "123456789012345678901",
            "0123 456789",
            "DE89370400440532013001",
        ]
        .map(str::to_owned)
        .to_vec(),
        "bankCode" => ["058", "1", "12345678", "05a"].map(str::to_owned).to_vec(),
        "sortCode" => [
            "123456",
            "12-34-56",
            "12 34 56",
            "12345",
            "12--34-56",
            "ab-cd-ef",
        ]
        .map(str::to_owned)
        .to_vec(),
        "swiftCode" => [
            "DEUTDEFF",
            "deutdeff",
            "DEUTDEFF500",
            "DEUT",
            "DEUTDEF",
            "1EUTDEFF",
        ]
        .map(str::to_owned)
        .to_vec(),
        "transitNumber" => ["00012", "1234", "123456"].map(str::to_owned).to_vec(),
        "institutionNumber" => ["003", "12", "1234"].map(str::to_owned).to_vec(),
        "address" => [
            "0x52908400098527886E0F7030069857D2E4169EE7",
            "0x52908400098527886e0f7030069857d2e4169ee7",
            "0x52908400098527886E0F7030069857D2E4169Ee7",
            "0x5290840009852788",
            "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
            "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
            "0x52908400098527886E0F7030069857D2E4169EE7 ",
        ]
        .map(str::to_owned)
        .to_vec(),
        "network" | "fromNetwork" | "toNetwork" => KNOWN_NETWORKS
            .iter()
            .map(|(name, _)| (*name).to_owned())
            .chain(["ETHEREUM", "lightning", "Tron "].map(str::to_owned))
            .collect(),
        _ => vec!["ADAEZE OKAFOR".to_owned(), "\u{0}".to_owned()],
    };
    values.extend(["", " ", "\t\n"].map(str::to_owned));
    values
}

/// One change to a text: a character inserted, deleted or replaced, the
/// case flipped, or whitespace added.
fn mutate(text: String) -> impl Strategy<Value = String> {
    let chars: Vec<char> = text.chars().collect();
    let len = chars.len();
    (0..6u8, 0..=len, any::<char>()).prop_map(move |(kind, at, c)| {
        let mut chars = chars.clone();
        match kind {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => chars[at] = c,
            3 => {
                return chars
                    .iter()
                    .map(|c| {
                        if c.is_lowercase() {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        }
                    })
                    .collect()
            }
            4 => chars.insert(at, ' '),
            _ => chars.push('\u{a0}'),
        }
        chars.into_iter().collect()
    })
}

/// Any value of `field`: absent, tricky, a mutated tricky one, or any text.
fn value(field: &'static str) -> impl Strategy<Value = Option<String>> {
    let tricky = proptest::sample::select(tricky(field));
    prop_oneof![
        2 => Just(None),
        4 => tricky.clone().prop_map(Some),
        2 => tricky.prop_flat_map(mutate).prop_map(Some),
        1 => "\\PC{0,40}".prop_map(Some),
        1 => ".{0,200}".prop_map(Some),
    ]
}

/// A complete valid payout for a random pair, then up to three fields
/// replaced by [`value`]s.
fn mostly_valid() -> impl Strategy<Value = Values> {
    let pair = (
        proptest::sample::select(Currency::ALL.to_vec()),
        proptest::sample::select(Currency::ALL.to_vec()),
    );
    let changes = proptest::collection::vec(
        (0..NAMES.len()).prop_flat_map(|i| (Just(i), value(NAMES[i]))),
        0..=3,
    );
    (pair, changes).prop_map(|((from, to), changes)| {
        let mut values: Values = NAMES
            .iter()
            .map(|name| {
                Some(match *name {
                    "amount" => "10".to_owned(),
                    "fromCurrency" => from.code().to_owned(),
                    "toCurrency" => to.code().to_owned(),
                    name => sample(name, to).to_owned(),
                })
            })
            .collect();
        for (i, value) in changes {
            values[i] = value;
        }
        values
    })
}

/// Every field drawn independently.
fn arbitrary() -> impl Strategy<Value = Values> {
    NAMES.map(|name| value(name).boxed()).to_vec()
}

fn request() -> impl Strategy<Value = Values> {
    prop_oneof![3 => mostly_valid(), 1 => arbitrary()]
}

/// The property: see the module docs.
fn check(values: &Values) -> Result<bool, TestCaseError> {
    let fields = fields(values);
    let outcome = validate_payout(&fields);
    let valid = match outcome {
        Err(violations) => {
            prop_assert!(!violations.is_empty());
            let mut seen = BTreeSet::new();
            let mut last = 0;
            for violation in violations.iter() {
                let at = NAMES.iter().position(|name| *name == violation.field);
                prop_assert!(at.is_some(), "not a wire field: {}", violation.field);
                let at = at.unwrap_or_default();
                prop_assert!(at >= last, "out of wire order: {}", violations);
                last = at;
                prop_assert!(
                    seen.insert(violation.field.to_string()),
                    "{} reported twice: {}",
                    violation.field,
                    violations
                );
                prop_assert!(!violation.message.trim().is_empty(), "{}", violations);
            }
            return Ok(false);
        }
        Ok(valid) => valid,
    };
    for field in required_fields(valid.from, valid.to) {
        prop_assert!(
            fields
                .get(field)
                .is_some_and(|text| !text.trim().is_empty()),
            "{} is required for {} -> {} but missing",
            field,
            valid.from,
            valid.to
        );
    }
    prop_assert_eq!(valid.kind, PayoutKind::of(valid.from, valid.to));
    prop_assert!(valid.amount > Decimal::ZERO);
    prop_assert!(decimal_places(valid.amount) <= valid.from.minor_unit_exponent());

    // The form the SDK sends, validated again.
    let sent: Values = NAMES
        .iter()
        .map(|name| match *name {
            "amount" => Some(valid.amount.to_string()),
            "fromCurrency" => Some(valid.from.code().to_owned()),
            "toCurrency" => Some(valid.to.code().to_owned()),
            name => fields
                .get(name)
                .map(|text| normalized(name, text, valid.to).into_owned()),
        })
        .collect();
    match validate_payout(&self::fields(&sent)) {
        Ok(again) => prop_assert_eq!(again, valid),
        Err(violations) => {
            return Err(TestCaseError::fail(format!(
                "valid, but its normalised form {sent:?} is not: {violations}"
            )))
        }
    }
    for (name, text) in NAMES.iter().zip(&sent) {
        if let Some(text) = text {
            prop_assert_eq!(&normalized(name, text, valid.to), text);
        }
    }
    Ok(true)
}

proptest! {
    #![proptest_config(fuzz::config(CASES, "proptest-regressions/payout.txt"))]

    #[test]
    fn payout_validation(values in request()) {
        check(&values)?;
    }
}

/// Replays `corpus/payout/*.json`: each an object of wire fields (a string
/// or null each; a field left out is absent).
#[test]
fn payout_corpus() {
    let mut valid = 0;
    for (name, bytes) in fuzz::corpus("payout") {
        let object: serde_json::Map<String, Value> =
            serde_json::from_slice(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
        for key in object.keys() {
            assert!(NAMES.contains(&key.as_str()), "{name}: unknown field {key}");
        }
        let values: Values = NAMES
            .iter()
            .map(|field| {
                object
                    .get(*field)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .collect();
        match check(&values) {
            Ok(accepted) => valid += usize::from(accepted),
            Err(error) => panic!("{name}: {error}"),
        }
    }
    assert!(valid > 0, "the corpus holds valid payouts too");
}

/// The generator reaches both outcomes often, so each half of the property
/// is exercised.
#[test]
fn payout_generator_reaches_both_outcomes() {
    let mut runner = TestRunner::deterministic();
    let strategy = request();
    let (mut valid, mut invalid) = (0, 0);
    for _ in 0..400 {
        let values = strategy.new_tree(&mut runner).expect("a value").current();
        if validate_payout(&fields(&values)).is_ok() {
            valid += 1;
        } else {
            invalid += 1;
        }
    }
    assert!(
        valid >= 80 && invalid >= 80,
        "{valid} valid, {invalid} invalid"
    );
}
