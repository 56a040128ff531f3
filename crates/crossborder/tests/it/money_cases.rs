//! `examples/money-cases.json`, the table of amounts the TypeScript and
//! Python money modules are checked on (`money.test.ts`, `test_money.py`):
//! the SDK reads each `json` number as a balance to its exact `value`, adds
//! exactly, and `Money::parse` gives the table's verdict, so the three
//! languages agree on the same amounts.

use crate::common;

use std::str::FromStr;

use common::mock::{self, Answers};
use common::{dec, setup};
use crossborder::{Currency, Money};
use wiremock::ResponseTemplate;

#[derive(serde::Deserialize)]
struct Table {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    currency: String,
    json: String,
    value: String,
    decimal_string: bool,
    plus: String,
    sum: String,
    money: Option<String>,
}

fn table() -> Vec<Case> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/money-cases.json"
    ))
    .unwrap();
    serde_json::from_str::<Table>(&text).unwrap().cases
}

/// A decimal text with an optional sign (the table's `value`, `plus`, `sum`).
fn signed(text: &str) -> crossborder::Decimal {
    match text.strip_prefix('-') {
        Some(digits) => -dec(digits),
        None => dec(text),
    }
}

#[tokio::test]
async fn the_sdk_reads_and_checks_every_money_case_as_the_table_says() {
    let cases = table();
    assert!(cases.len() >= 10);
    assert!(
        cases.iter().any(|c| c
            .value
            .replace(['.', '-'], "")
            .trim_start_matches('0')
            .len()
            == 18),
        "the table keeps an amount with 18 significant digits"
    );
    for case in cases {
        let currency = Currency::from_str(&case.currency).unwrap();
        let (server, client) = setup().await;
        let body = format!(
            r#"{{"message":"ok","data":{{"balance":{}}},"error":false}}"#,
            case.json
        );
        mock::balance(currency)
            .answers(
                &server,
                ResponseTemplate::new(200).set_body_raw(body.clone(), "application/json"),
            )
            .await;
        let read = client.wallet().balance(currency).await.unwrap().amount;
        let value = signed(&case.value);
        assert_eq!(read, value, "{body}");
        assert_eq!(read.normalize().to_string(), case.value, "{body}");
        assert_eq!(
            (read + signed(&case.plus)).normalize().to_string(),
            case.sum,
            "{} + {}",
            case.value,
            case.plus
        );
        // A DecimalString (a payout's amount) is digits with an optional
        // fraction: what the SDK's exact parser accepts.
        assert_eq!(
            crossborder_core::parse_amount(&case.value).is_ok(),
            case.decimal_string,
            "{}",
            case.value
        );
        let money = Money::new(value, currency).err().map(|e| e.to_string());
        assert_eq!(money, case.money, "{} {}", case.value, case.currency);
    }
}
