//! Amounts are exact: parsed from JSON numbers and numeric strings without
//! passing through binary floating point.

use crate::common;

use common::mock::{self, Answers};
use common::{dec, setup, transaction_json};
use crossborder::{types::QuoteRequest, Currency};
use serde_json::json;

use wiremock::ResponseTemplate;

const AMOUNTS: [(&str, Currency); 5] = [
    ("0.1", Currency::Usd),
    ("0.2", Currency::Usd),
    ("1234567.89", Currency::Ngn),
    ("100000000000.01", Currency::Ngn),
    ("0.000001", Currency::Cngn),
];

#[tokio::test]
async fn balances_parse_exactly_from_numbers_and_strings() {
    for (text, currency) in AMOUNTS {
        for body in [
            format!(r#"{{"message":"ok","data":{{"balance":{text}}},"error":false}}"#),
            format!(r#"{{"message":"ok","data":{{"balance":"{text}"}},"error":false}}"#),
        ] {
            let (server, client) = setup().await;
            mock::balance(currency)
                .answers(
                    &server,
                    ResponseTemplate::new(200).set_body_raw(body.clone(), "application/json"),
                )
                .await;
            let balance = client.wallet().balance(currency).await.unwrap();
            assert_eq!(balance.amount, dec(text), "{body}");
            assert_eq!(balance.amount.to_string(), text, "{body}");
        }
    }
}

#[tokio::test]
async fn sums_of_parsed_amounts_are_exact() {
    let (server, client) = setup().await;
    mock::quote("USD", "NGN", "0.1")
        .answers(&server, ResponseTemplate::new(200).set_body_raw(
            r#"{"message":"ok","data":{"rate":"1530.25","rateKey":"rk","fromCurrency":"USD","toCurrency":"NGN","fee":0.2,"totalAmount":0.3,"toAmount":"153.025"}}"#,
            "application/json",
        )).await;
    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, dec("0.1")))
        .await
        .unwrap();
    assert_eq!(dec("0.1") + quote.fee.unwrap(), quote.total_amount.unwrap());
    assert_eq!(quote.rate, dec("1530.25"));
    assert_eq!(quote.to_amount, Some(dec("153.025")));
}

#[tokio::test]
async fn transaction_amounts_parse_exactly() {
    let (server, client) = setup().await;
    let mut body = transaction_json("COMPLETED");
    body["data"]["fromCurrency"] = json!("CNGN");
    body["data"]["toCurrency"] = json!("CNGN");
    let raw = body
        .to_string()
        .replace(r#""amount":50000"#, r#""amount":100000000000.01"#)
        .replace(r#""fee":0"#, r#""fee":"0.000001""#);
    mock::transaction("order-10045")
        .answers(
            &server,
            ResponseTemplate::new(200).set_body_raw(raw, "application/json"),
        )
        .await;
    let transaction = client.collections().get("order-10045").await.unwrap();
    assert_eq!(transaction.amount, dec("100000000000.01"));
    assert_eq!(transaction.fee, dec("0.000001"));
    assert_eq!(transaction.from_currency, Currency::Cngn);
}
