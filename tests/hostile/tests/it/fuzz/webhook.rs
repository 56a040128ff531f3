//! Fuzz target: the webhook parser (`crossborder::webhook::WebhookEvent`).
//!
//! Arbitrary bytes, events built from every alias of every field (amounts
//! as plain or exponent numbers or strings, with up to 34 digits), those
//! events mutated byte by byte, and the seed corpus. Parsing never panics;
//! it succeeds only for a JSON object with a non-empty reference and a
//! status, keeping the body as received; a built event parses to exactly
//! its values, every amount the exact decimal its text says, and an amount
//! no decimal can hold exactly is refused rather than rounded.

use crossborder::webhook::{EventStatus, WebhookEvent};
use crossborder::Decimal;
use crossborder_hostile_tests::fuzz;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

/// Cases per run (see `crossborder_hostile_tests::fuzz`).
const CASES: u32 = 3000;

/// The general property, for any body.
fn check_any(body: &[u8]) -> Result<Option<WebhookEvent>, TestCaseError> {
    let Ok(event) = WebhookEvent::parse(body) else {
        return Ok(None);
    };
    let text = std::str::from_utf8(body);
    prop_assert!(text.is_ok(), "accepted a body that is not UTF-8");
    let text = text.unwrap_or_default();
    let object = text.trim_start().starts_with('{');
    prop_assert!(object, "accepted a non-object: {:?}", text);
    prop_assert!(
        serde_json::from_str::<IgnoredAny>(text).is_ok(),
        "accepted text that is not JSON: {:?}",
        text
    );
    prop_assert!(
        !event.reference.trim().is_empty(),
        "empty reference: {:?}",
        text
    );
    let members: Vec<(String, Box<RawValue>)> =
        serde_json::from_str::<std::collections::BTreeMap<String, Box<RawValue>>>(text)
            .map(|map| map.into_iter().collect())
            .unwrap_or_default();
    let has = |names: &[&str]| {
        members
            .iter()
            .any(|(key, value)| names.contains(&key.as_str()) && value.get() != "null")
    };
    prop_assert!(
        has(&["reference", "paymentReference", "payment_reference"]),
        "no reference field: {:?}",
        text
    );
    prop_assert!(has(&["status"]), "no status: {:?}", text);
    prop_assert_eq!(event.raw_body(), text);
    Ok(Some(event))
}

/// A decimal as the generator writes it: sign, digits, how many of them
/// are after the point, and an exponent (0 means none written).
#[derive(Debug, Clone)]
struct Number {
    negative: bool,
    digits: String,
    fraction: usize,
    exponent: i32,
    capital_e: bool,
    quoted: bool,
}

impl Number {
    /// The text as it goes in the body.
    fn render(&self) -> String {
        let mut text = String::new();
        if self.negative {
            text.push('-');
        }
        let split = self.digits.len() - self.fraction;
        text.push_str(&self.digits[..split]);
        if self.fraction > 0 {
            text.push('.');
            text.push_str(&self.digits[split..]);
        }
        if self.exponent != 0 {
            text.push(if self.capital_e { 'E' } else { 'e' });
            text.push_str(&self.exponent.to_string());
        }
        if self.quoted {
            format!("\"{text}\"")
        } else {
            text
        }
    }

    /// The digits before any exponent, as written (`-12.50`).
    fn mantissa(&self) -> String {
        let split = self.digits.len() - self.fraction;
        let sign = if self.negative { "-" } else { "" };
        if self.fraction > 0 {
            format!("{sign}{}.{}", &self.digits[..split], &self.digits[split..])
        } else {
            format!("{sign}{}", self.digits)
        }
    }

    /// The same value in plain notation, without trailing fraction zeros
    /// or leading integer zeros: its shortest exact text.
    fn plain(&self) -> String {
        let shift = i64::from(self.exponent) - self.fraction as i64;
        let (whole, mut fraction) = if shift >= 0 {
            (
                format!("{}{}", self.digits, "0".repeat(shift as usize)),
                String::new(),
            )
        } else {
            let places = shift.unsigned_abs() as usize;
            let padded = format!(
                "{}{}",
                "0".repeat(places.saturating_sub(self.digits.len())),
                self.digits
            );
            let split = padded.len() - places;
            (padded[..split].to_owned(), padded[split..].to_owned())
        };
        while fraction.ends_with('0') {
            fraction.pop();
        }
        let whole = match whole.trim_start_matches('0') {
            "" => "0",
            trimmed => trimmed,
        };
        let sign = if self.negative { "-" } else { "" };
        if fraction.is_empty() {
            format!("{sign}{whole}")
        } else {
            format!("{sign}{whole}.{fraction}")
        }
    }
}

fn number() -> impl Strategy<Value = Number> {
    (
        "[0-9]{1,34}",
        any::<bool>(),
        -40i32..=40,
        0..3u8,
        any::<bool>(),
        any::<bool>(),
        any::<prop::sample::Index>(),
    )
        .prop_map(
            |(digits, negative, exponent, kind, capital_e, quoted, at)| {
                let fraction = if kind == 2 { 0 } else { at.index(digits.len()) };
                // A JSON number has no leading zeros; a string may.
                let (whole, rest) = digits.split_at(digits.len() - fraction);
                let whole = if quoted {
                    whole.to_owned()
                } else {
                    match whole.trim_start_matches('0') {
                        "" => "0".to_owned(),
                        trimmed => trimmed.to_owned(),
                    }
                };
                Number {
                    negative,
                    exponent: if kind == 0 { exponent } else { 0 },
                    fraction,
                    digits: format!("{whole}{rest}"),
                    capital_e,
                    quoted,
                }
            },
        )
}

/// A text value as JSON.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// A built event: its body, and what it must parse to.
#[derive(Debug, Clone)]
struct Built {
    body: String,
    reference: String,
    status: EventStatus,
    paid: Option<Number>,
    remaining: Option<Number>,
}

fn built() -> impl Strategy<Value = Built> {
    let reference_name =
        proptest::sample::select(vec!["reference", "paymentReference", "payment_reference"]);
    let status = prop_oneof![
        any::<bool>().prop_map(EventStatus::Flag),
        proptest::sample::select(vec![
            "COMPLETED",
            "PARTIALLY_PAID",
            "FAILED",
            "EXPIRED",
            "weird"
        ])
        .prop_map(|text| EventStatus::Text(text.to_owned())),
    ];
    let extra = proptest::collection::vec(
        (
            "[a-z]{1,8}",
            prop_oneof![
                Just("null".to_owned()),
                Just("[1, [2, {\"x\": [3]}]]".to_owned()),
                "\\PC{0,12}".prop_map(|text| quoted(&text)),
                any::<i64>().prop_map(|n| n.to_string()),
            ],
        ),
        0..3,
    );
    (
        reference_name,
        "[A-Za-z0-9_-]{1,24}",
        status,
        proptest::option::of(number()),
        proptest::option::of(number()),
        proptest::option::of(proptest::sample::select(vec!["NGN", "USD", "XYZ", "usdt"])),
        extra,
    )
        .prop_map(
            |(name, reference, status, paid, remaining, currency, extra)| {
                let mut members = vec![format!("{}: {}", quoted(name), quoted(&reference))];
                members.push(format!(
                    "\"status\": {}",
                    match &status {
                        EventStatus::Flag(flag) => flag.to_string(),
                        EventStatus::Text(text) => quoted(text),
                    }
                ));
                if let Some(paid) = &paid {
                    members.push(format!("\"paidAmount\": {}", paid.render()));
                }
                if let Some(remaining) = &remaining {
                    members.push(format!("\"remainingAmount\": {}", remaining.render()));
                }
                if let Some(currency) = currency {
                    members.push(format!("\"currency\": {}", quoted(currency)));
                }
                for (key, value) in extra {
                    // Unknown names only: a known alias would change the event.
                    members.push(format!("\"x_{key}\": {value}"));
                }
                Built {
                    body: format!("{{{}}}", members.join(", ")),
                    reference,
                    status,
                    paid,
                    remaining,
                }
            },
        )
}

/// The property for a built event: see the module docs.
fn check_built(built: &Built) -> Result<(), TestCaseError> {
    let parsed = check_any(built.body.as_bytes())?;
    let amounts = [
        (&built.paid, "paidAmount"),
        (&built.remaining, "remainingAmount"),
    ];
    let mut must_parse = true;
    let mut expected = Vec::new();
    for (number, name) in amounts {
        let Some(number) = number else {
            expected.push(None);
            continue;
        };
        let plain = number.plain();
        match Decimal::from_str_exact(&plain) {
            Ok(value) => {
                // Digits a decimal cannot hold as written (more than 28
                // decimal places, say, even if only zeros) may be refused;
                // anything else must be read.
                must_parse &= Decimal::from_str_exact(&number.mantissa()).is_ok();
                expected.push(Some((value, plain, name, number.clone())));
            }
            Err(_) => {
                // No decimal holds this value: the parser must refuse it.
                prop_assert!(
                    parsed.is_none(),
                    "{} {} holds no exact decimal ({}), yet parsed: {:?}",
                    name,
                    number.render(),
                    plain,
                    parsed
                );
                return Ok(());
            }
        }
    }
    let Some(event) = parsed else {
        prop_assert!(!must_parse, "refused: {}", built.body);
        return Ok(());
    };
    prop_assert_eq!(&event.reference, &built.reference);
    prop_assert_eq!(&event.status, &built.status);
    for (got, want) in [event.paid_amount, event.remaining_amount]
        .iter()
        .zip(&expected)
    {
        match want {
            None => prop_assert_eq!(*got, None),
            Some((value, plain, name, number)) => {
                prop_assert_eq!(
                    *got,
                    Some(*value),
                    "{} {} should be exactly {}",
                    name,
                    number.render(),
                    plain
                );
            }
        }
    }
    Ok(())
}

/// One byte-level change: a byte flipped, inserted, deleted, or the body
/// cut or a span repeated.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (
        built(),
        proptest::collection::vec((0..5u8, any::<prop::sample::Index>(), any::<u8>()), 1..4),
    )
        .prop_map(|(built, edits)| {
            let mut bytes = built.body.into_bytes();
            for (kind, at, byte) in edits {
                if bytes.is_empty() {
                    break;
                }
                let i = at.index(bytes.len());
                match kind {
                    0 => bytes[i] ^= byte | 1,
                    1 => bytes.insert(i, byte),
                    2 => {
                        bytes.remove(i);
                    }
                    3 => bytes.truncate(i),
                    _ => {
                        let span = bytes[i..].iter().take(16).copied().collect::<Vec<_>>();
                        bytes.splice(i..i, span);
                    }
                }
            }
            bytes
        })
}

proptest! {
    #![proptest_config(fuzz::config(CASES, "proptest-regressions/webhook.txt"))]

    #[test]
    fn webhook_parser_on_arbitrary_bytes(body in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_any(&body)?;
    }

    #[test]
    fn webhook_parser_on_built_events(built in built()) {
        check_built(&built)?;
    }

    #[test]
    fn webhook_parser_on_mutated_events(body in mutated()) {
        check_any(&body)?;
    }
}

/// Replays `corpus/webhook/*`: every body meets the general property; a
/// body named `ok_*` parses and one named `err_*` does not.
#[test]
fn webhook_corpus() {
    for (name, bytes) in fuzz::corpus("webhook") {
        let parsed = check_any(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
        if name.starts_with("ok_") {
            assert!(parsed.is_some(), "{name} is refused");
        } else if name.starts_with("err_") {
            assert!(parsed.is_none(), "{name} is accepted: {parsed:?}");
        } else {
            panic!("{name}: corpus files are named ok_* or err_*");
        }
    }
}
