//! Webhook event parsing and classification: every form the service may
//! send (ASSUMPTIONS.md A26), and every body that is not an event.

use crossborder::webhook::{Classification, EventCurrency, EventStatus, ParseError, WebhookEvent};
use crossborder::{Currency, Decimal};

fn d(text: &str) -> Decimal {
    Decimal::from_str_exact(text).unwrap()
}

fn parse(body: &str) -> WebhookEvent {
    WebhookEvent::parse(body).unwrap_or_else(|error| panic!("{body}: {error}"))
}

#[test]
fn the_sandbox_form_is_read_field_by_field() {
    let body = r#"{"reference": "order-10045", "memo": "PAY-7KQ2M9XD", "amount": 50000,
        "paidAmount": 20000, "remainingAmount": 30000, "currency": "NGN",
        "status": false, "message": "Partial payment received"}"#;
    let event = parse(body);
    assert_eq!(event.reference, "order-10045");
    assert_eq!(event.memo.as_deref(), Some("PAY-7KQ2M9XD"));
    assert_eq!(event.amount, Some(d("50000")));
    assert_eq!(event.paid_amount, Some(d("20000")));
    assert_eq!(event.remaining_amount, Some(d("30000")));
    assert_eq!(event.currency, Some(EventCurrency::Known(Currency::Ngn)));
    assert_eq!(event.status, EventStatus::Flag(false));
    assert_eq!(event.message.as_deref(), Some("Partial payment received"));
    assert_eq!(event.raw_body(), body);
    assert_eq!(event.classify(), Classification::PartiallyPaid);
}

#[test]
fn status_is_a_boolean_or_a_string() {
    let status = |json: &str| parse(&format!(r#"{{"reference": "r", "status": {json}}}"#)).status;
    assert_eq!(status("true"), EventStatus::Flag(true));
    assert_eq!(status("false"), EventStatus::Flag(false));
    assert_eq!(
        status(r#""COMPLETED""#),
        EventStatus::Text("COMPLETED".into())
    );
    assert_eq!(status(r#""true""#), EventStatus::Text("true".into()));
    for bad in ["1", "null", "{}", "[true]"] {
        let body = format!(r#"{{"reference": "r", "status": {bad}}}"#);
        let expected = if bad == "null" {
            ParseError::Missing { field: "status" }
        } else {
            ParseError::Invalid {
                field: "status",
                expected: "a boolean or a string",
            }
        };
        assert_eq!(WebhookEvent::parse(&body), Err(expected), "{bad}");
    }
    assert_eq!(
        WebhookEvent::parse(r#"{"reference": "r"}"#)
            .unwrap_err()
            .to_string(),
        "`status` is required"
    );
}

#[test]
fn amounts_are_exact_numbers_or_numeric_strings() {
    let event = parse(
        r#"{"reference": "r", "status": true, "amount": "100000000000.01",
            "paidAmount": 0.1, "remainingAmount": "1e-7"}"#,
    );
    assert_eq!(event.amount, Some(d("100000000000.01")));
    assert_eq!(event.paid_amount, Some(d("0.1")));
    assert_eq!(event.remaining_amount, Some(d("0.0000001")));
    // Digits an f64 cannot hold survive.
    let event = parse(
        r#"{"reference": "r", "status": true, "paidAmount": 12345678901234567890.123456789}"#,
    );
    assert_eq!(event.paid_amount, Some(d("12345678901234567890.123456789")));
    for (bad, field) in [
        (r#""abc""#, "paidAmount"),
        ("true", "paidAmount"),
        ("[1]", "paidAmount"),
        (r#""""#, "paidAmount"),
    ] {
        let body = format!(r#"{{"reference": "r", "status": true, "{field}": {bad}}}"#);
        let error = WebhookEvent::parse(&body).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`paidAmount` must be a number or a numeric string",
            "{bad}"
        );
    }
    // null is absent.
    let event = parse(r#"{"reference": "r", "status": true, "paidAmount": null, "memo": null}"#);
    assert_eq!(event.paid_amount, None);
    assert_eq!(event.memo, None);
}

#[test]
fn each_alias_fills_its_field() {
    let aliases = [
        ("paymentReference", r#""o-9""#),
        ("payment_reference", r#""o-9""#),
    ];
    for (name, value) in aliases {
        let event = parse(&format!(r#"{{"{name}": {value}, "status": true}}"#));
        assert_eq!(event.reference, "o-9", "{name}");
    }
    for name in ["payRefrence", "payReference", "pay_reference", "memo"] {
        let event = parse(&format!(
            r#"{{"reference": "r", "status": true, "{name}": "PAY-1"}}"#
        ));
        assert_eq!(event.memo.as_deref(), Some("PAY-1"), "{name}");
    }
    for name in ["paidAmount", "amountPaid", "paid_amount"] {
        let event = parse(&format!(
            r#"{{"reference": "r", "status": true, "{name}": "7.5"}}"#
        ));
        assert_eq!(event.paid_amount, Some(d("7.5")), "{name}");
    }
    for name in [
        "remainingAmount",
        "remaining",
        "amountRemaining",
        "remaining_amount",
    ] {
        let event = parse(&format!(
            r#"{{"reference": "r", "status": true, "{name}": 2.5}}"#
        ));
        assert_eq!(event.remaining_amount, Some(d("2.5")), "{name}");
    }
    for name in ["currency", "fromCurrency"] {
        let event = parse(&format!(
            r#"{{"reference": "r", "status": true, "{name}": "KES"}}"#
        ));
        assert_eq!(
            event.currency,
            Some(EventCurrency::Known(Currency::Kes)),
            "{name}"
        );
    }
    for name in ["message", "reason"] {
        let event = parse(&format!(
            r#"{{"reference": "r", "status": false, "{name}": "why"}}"#
        ));
        assert_eq!(event.message.as_deref(), Some("why"), "{name}");
    }
    // A numeric reference is kept as its text.
    assert_eq!(
        parse(r#"{"reference": 10045, "status": true}"#).reference,
        "10045"
    );
}

#[test]
fn the_assumptions_name_wins_over_an_alias_in_any_order() {
    for body in [
        r#"{"paymentReference": "alias", "reference": "main", "status": true}"#,
        r#"{"reference": "main", "paymentReference": "alias", "status": true}"#,
    ] {
        assert_eq!(parse(body).reference, "main", "{body}");
    }
    let event = parse(
        r#"{"reference": "r", "status": false, "reason": "b", "message": "a", "remaining": 1, "remainingAmount": 2}"#,
    );
    assert_eq!(event.message.as_deref(), Some("a"));
    assert_eq!(event.remaining_amount, Some(d("2")));
}

#[test]
fn unknown_fields_are_ignored_and_unknown_currencies_kept() {
    let event = parse(
        r#"{"reference": "r", "status": "COMPLETED", "currency": "BTC",
            "extra": {"nested": [1, 2, {"a": null}]}, "version": 2, "Reference": "other"}"#,
    );
    assert_eq!(event.reference, "r");
    assert_eq!(event.currency, Some(EventCurrency::Unknown("BTC".into())));
    assert_eq!(
        event.currency.as_ref().map(EventCurrency::as_str),
        Some("BTC")
    );
    assert_eq!(
        event.classify(),
        Classification::Completed { overpaid: None }
    );
}

#[test]
fn text_fields_must_be_text() {
    let error = WebhookEvent::parse(r#"{"reference": "r", "status": true, "message": 5}"#);
    assert_eq!(error.unwrap_err().to_string(), "`message` must be a string");
    let error = WebhookEvent::parse(r#"{"paymentReference": ["r"], "status": true}"#);
    assert_eq!(
        error.unwrap_err().to_string(),
        "`paymentReference` must be a string or a number"
    );
    let error = WebhookEvent::parse(r#"{"reference": "  ", "status": true}"#);
    assert_eq!(
        error.unwrap_err().to_string(),
        "`reference` must be a non-empty string"
    );
    let error = WebhookEvent::parse(r#"{"status": true, "memo": "PAY-1"}"#);
    assert_eq!(
        error.unwrap_err(),
        ParseError::Missing { field: "reference" }
    );
    let error = WebhookEvent::parse(r#"{"reference": "r", "status": true, "currency": 566}"#);
    assert_eq!(
        error.unwrap_err().to_string(),
        "`currency` must be a string"
    );
}

#[test]
fn garbage_and_truncated_bodies_are_refused_without_quoting_them() {
    let cases: [(&[u8], ParseError); 9] = [
        (b"", ParseError::Empty),
        (b"  \n ", ParseError::Empty),
        (b"\xff\xfe{}", ParseError::NotUtf8),
        (
            b"<html>secret-looking text</html>",
            ParseError::NotJson { line: 1, column: 1 },
        ),
        (
            br#"{"reference": "r", "status": tru}"#,
            ParseError::NotJson {
                line: 1,
                column: 33,
            },
        ),
        (
            br#"{"reference": "r", "status": tru"#,
            ParseError::Truncated,
        ),
        (
            br#"{"reference": "r", "status": true"#,
            ParseError::Truncated,
        ),
        (br#"{"reference": "r", "sta"#, ParseError::Truncated),
        (br#"["reference", "r"]"#, ParseError::NotAnObject),
    ];
    for (body, expected) in cases {
        let error = WebhookEvent::parse(body).unwrap_err();
        assert_eq!(error, expected, "{}", String::from_utf8_lossy(body));
        assert!(!error.to_string().contains("secret"), "{error}");
    }
    assert_eq!(
        WebhookEvent::parse("<html>").unwrap_err().to_string(),
        "the body is not JSON (syntax error at line 1, column 1)"
    );
    assert_eq!(
        WebhookEvent::parse(r#"{"reference": "r", "status": true} trailing"#).unwrap_err(),
        ParseError::NotJson {
            line: 1,
            column: 36
        }
    );
    assert_eq!(
        WebhookEvent::parse("42").unwrap_err().to_string(),
        "the body is not a JSON object"
    );
    assert_eq!(
        WebhookEvent::parse(r#"{"reference": "r""#)
            .unwrap_err()
            .to_string(),
        "the body is truncated JSON"
    );
}

fn classify(body: &str) -> Classification {
    parse(body).classify()
}

#[test]
fn classification_of_each_claim() {
    use Classification::*;
    let failed = |reason: &str| Failed {
        reason: reason.to_owned(),
    };
    let done = Completed { overpaid: None };
    let cases = [
        // Completed: true or a completed word, nothing left.
        (r#"{"reference": "r", "status": true}"#, done.clone()),
        (
            r#"{"reference": "r", "status": true, "remainingAmount": 0}"#,
            done.clone(),
        ),
        (r#"{"reference": "r", "status": "completed"}"#, done.clone()),
        (
            r#"{"reference": "r", "status": "SUCCESS", "amount": 10, "paidAmount": 12}"#,
            Completed {
                overpaid: Some(Decimal::TWO),
            },
        ),
        (r#"{"reference": "r", "status": "true"}"#, done.clone()),
        // A completed claim with something left contradicts itself.
        (
            r#"{"reference": "r", "status": true, "remainingAmount": "0.01"}"#,
            Unknown,
        ),
        (
            r#"{"reference": "r", "status": true, "amount": 10, "paidAmount": 4}"#,
            Unknown,
        ),
        // A falsy status on a partial payment: partially paid, whatever the message.
        (
            r#"{"reference": "r", "status": false, "paidAmount": 20000, "remainingAmount": 30000, "message": "Partial payment received"}"#,
            PartiallyPaid,
        ),
        (
            r#"{"reference": "r", "status": "false", "amount": "10", "paidAmount": "4", "message": "Insufficient"}"#,
            PartiallyPaid,
        ),
        (
            r#"{"reference": "r", "status": "PARTIALLY_PAID"}"#,
            PartiallyPaid,
        ),
        (r#"{"reference": "r", "status": "partial"}"#, PartiallyPaid),
        // A falsy status with a reason and no partial payment fails.
        (
            r#"{"reference": "r", "status": false, "message": " Card declined "}"#,
            failed("Card declined"),
        ),
        (
            r#"{"reference": "r", "status": false, "paidAmount": 0, "remainingAmount": 50, "message": "Payment reversed"}"#,
            failed("Payment reversed"),
        ),
        (
            r#"{"reference": "r", "status": false, "amount": 50, "paidAmount": 50, "message": "Reversed"}"#,
            failed("Reversed"),
        ),
        (
            r#"{"reference": "r", "status": "EXPIRED", "paidAmount": 10, "remainingAmount": 40, "message": "Collection expired"}"#,
            failed("Collection expired"),
        ),
        (
            r#"{"reference": "r", "status": "failed"}"#,
            failed("failed"),
        ),
        (
            r#"{"reference": "r", "status": "CANCELLED", "message": ""}"#,
            failed("CANCELLED"),
        ),
        // Anything else is unknown.
        (r#"{"reference": "r", "status": false}"#, Unknown),
        (
            r#"{"reference": "r", "status": false, "message": "  "}"#,
            Unknown,
        ),
        (
            r#"{"reference": "r", "status": "PENDING", "message": "waiting"}"#,
            Unknown,
        ),
        (r#"{"reference": "r", "status": "ON_HOLD"}"#, Unknown),
    ];
    for (body, expected) in cases {
        assert_eq!(classify(body), expected, "{body}");
    }
    // Every word the docs list, in any case and with spaces around.
    let word = |word: &str| classify(&format!(r#"{{"reference": "r", "status": " {word} "}}"#));
    for completed in ["COMPLETED", "Success", "successful", "PAID", "TRUE"] {
        assert_eq!(word(completed), done, "{completed}");
    }
    for partial in ["PARTIALLY_PAID", "Partial"] {
        assert_eq!(word(partial), PartiallyPaid, "{partial}");
    }
    for failure in [
        "FAILED",
        "expired",
        "Cancelled",
        "CANCELED",
        "rejected",
        "REVERSED",
    ] {
        assert_eq!(word(failure), failed(failure), "{failure}");
    }
}

#[test]
fn remaining_is_derived_when_not_sent() {
    let event =
        parse(r#"{"reference": "r", "status": false, "amount": "50000", "paidAmount": 20000.5}"#);
    assert_eq!(event.remaining_amount, None);
    assert_eq!(event.remaining(), Some(d("29999.5")));
    let over = parse(r#"{"reference": "r", "status": true, "amount": 10, "paidAmount": 12}"#);
    assert_eq!(over.remaining(), Some(-Decimal::TWO));
    let sent = parse(
        r#"{"reference": "r", "status": true, "amount": 10, "paidAmount": 4, "remainingAmount": 0}"#,
    );
    assert_eq!(sent.remaining(), Some(Decimal::ZERO));
    let huge = format!(
        r#"{{"reference": "r", "status": true, "amount": {}, "paidAmount": -{}}}"#,
        Decimal::MAX,
        Decimal::MAX
    );
    assert_eq!(parse(&huge).remaining(), None);
}
