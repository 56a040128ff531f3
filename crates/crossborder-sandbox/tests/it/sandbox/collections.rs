//! Collections and transactions.

use std::time::Duration;

use serde_json::{json, Value};

use crate::sandbox::common::{
    assert_paid, fund_ok, funding, ngn_collection, post_ok, refused, Api, PAST_VALIDITY,
};

#[tokio::test]
async fn same_currency_collection_lifecycle() {
    let api = Api::start().await;
    let body = json!({
        "amount": 50000,
        "fromCurrency": "NGN",
        "toCurrency": "NGN",
        "paymentReference": "order-10045"
    });
    let created = post_ok(&api, "/api/initiate-payment", &body).await;
    let data = &created.body["data"];
    let memo = data["payRefrence"].as_str().unwrap();
    assert!(
        memo.len() == 12
            && memo.starts_with("PAY-")
            && memo[4..]
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()),
        "{memo}"
    );
    let transaction_id = data["transactionId"].as_str().unwrap();
    assert!(transaction_id.starts_with("txn_"), "{transaction_id}");
    assert_eq!(
        created.body,
        json!({
            "message": "Payment initiated successfully",
            "error": false,
            "data": {
                "transactionId": transaction_id,
                "type": "COLLECTION",
                "payRefrence": memo,
                "paymentReference": "order-10045",
                "amount": 50000,
                "toAmount": 50000,
                "totalAmount": 50000,
                "paidAmount": 0,
                "rate": 1,
                "status": "PENDING",
                "fee": 0,
                "fromCurrency": "NGN",
                "toCurrency": "NGN",
                "paymentInstruction": [{
                    "narration": format!("Use {memo} as the transfer narration"),
                    "accountNumber": "9930001234",
                    "accountName": "Crossborder Collections",
                    "bankName": "Sandbox Bank",
                    "amountToTransfer": "50000",
                    "validUntil": "2026-11-22T12:00:00.000Z"
                }]
            }
        })
    );

    let read = api.get("/api/transaction/order-10045").await;
    assert_eq!(read.status, 200);
    assert_eq!(read.body["message"], "Transaction retrieved successfully");
    assert_eq!(read.body["data"], created.body["data"]);

    // An identical repeat gets the original response and creates nothing;
    // a different request with the same paymentReference is 409.
    let again = post_ok(&api, "/api/initiate-payment", &body).await;
    assert_eq!(again.body, created.body);
    let mut different = body.clone();
    different["amount"] = json!(50001);
    api.post_refused(
        "/api/initiate-payment",
        &different,
        409,
        "paymentReference already used: order-10045",
    )
    .await;
    // The same amount written otherwise is the same request.
    let mut same = body.clone();
    same["amount"] = json!(50000.00);
    let replayed = api.post("/api/initiate-payment", &same).await;
    assert_eq!(replayed.body, created.body);

    api.get_refused(
        "/api/transaction/order-99999",
        404,
        "Transaction not found: order-99999",
    )
    .await;

    // Unpaid past its instruction's validity, the collection is EXPIRED.
    api.clock.advance(PAST_VALIDITY);
    assert_eq!(api.transaction("order-10045").await["status"], "EXPIRED");
}

#[tokio::test]
async fn a_repeat_replays_the_creation_answer_whatever_happened_since() {
    let api = Api::start().await;
    let body = json!({"amount": 5000, "fromCurrency": "NGN", "toCurrency": "NGN",
                      "paymentReference": "order-replay"});
    let created = post_ok(&api, "/api/initiate-payment", &body).await;
    assert_eq!(created.body["data"]["status"], "PENDING");
    assert_eq!(created.body["data"]["paidAmount"], json!(0));
    let memo = created.body["data"]["payRefrence"].as_str().unwrap();

    // Partly paid, then lapsed: the collection moves on, a repeat of its
    // creation still gets the creation's answer, word for word.
    fund_ok(&api, "NGN", json!(1200), memo, "f-r").await;
    let again = api.post("/api/initiate-payment", &body).await;
    assert_eq!(again.body, created.body);
    api.clock.advance(PAST_VALIDITY);
    assert_paid(&api, "order-replay", "EXPIRED", json!(1200)).await;
    let again = api.post("/api/initiate-payment", &body).await;
    assert_eq!(again.body, created.body);
}

#[tokio::test]
async fn partly_paid_collection_expires_when_its_instruction_lapses() {
    let api = Api::start().await;
    let memo = ngn_collection(&api, "order-half", 5000).await;
    fund_ok(&api, "NGN", json!(1000), &memo, "f-1").await;

    // Still payable up to the last instant of its instruction.
    api.clock.advance(Duration::from_secs(24 * 3600));
    assert_eq!(
        api.transaction("order-half").await["status"],
        "PARTIALLY_PAID"
    );

    api.clock.advance(Duration::from_secs(1));
    assert_paid(&api, "order-half", "EXPIRED", json!(1000)).await;
    let late = funding("NGN", json!(4000), &memo, "f-2");
    let message = "Collection order-half has expired";
    refused(
        &api,
        "late",
        "/api/simulate-funding",
        Some(&late),
        400,
        message,
    )
    .await;

    // A fully paid collection stays COMPLETED.
    let memo = ngn_collection(&api, "order-paid", 5000).await;
    fund_ok(&api, "NGN", json!(5000), &memo, "f-3").await;
    api.clock.advance(PAST_VALIDITY);
    assert_eq!(api.transaction("order-paid").await["status"], "COMPLETED");
}

#[tokio::test]
async fn converting_collection_needs_a_matching_live_rate_key() {
    let api = Api::start().await;
    let path = "/api/initiate-payment";
    // A collection of `amount` from `from` to NGN for `reference`, with
    // `rate_key` if any.
    let to_ngn = |reference: &str, amount: Value, from: &str, rate_key: Option<&str>| {
        let mut body = json!({"amount": amount, "fromCurrency": from, "toCurrency": "NGN",
                              "paymentReference": reference});
        if let Some(rate_key) = rate_key {
            body["rateKey"] = json!(rate_key);
        }
        body
    };
    let without_key = to_ngn("c-1", json!(100), "USD", None);
    let message = "rateKey: is required when fromCurrency (USD) differs from toCurrency (NGN)";
    refused(&api, "no rateKey", path, Some(&without_key), 400, message).await;

    let rate_key = api.rate_key("USD", "NGN", "100").await;
    let other_pair = to_ngn("c-2", json!(100), "EUR", Some(&rate_key));
    let message = "rateKey was issued for USD/NGN, not EUR/NGN";
    refused(&api, "another pair", path, Some(&other_pair), 400, message).await;

    let body = to_ngn("c-3", json!(250.75), "USD", Some(&rate_key));
    let created = post_ok(&api, path, &body).await;
    // 250.75 * 1530.25 = 383710.1875 -> 383710.19
    assert!(
        created.text.contains("\"toAmount\":383710.19,"),
        "{}",
        created.text
    );
    assert_eq!(created.body["data"]["rateKey"], json!(rate_key));
    assert_eq!(
        created.body["data"]["paymentInstruction"][0]["amountToTransfer"],
        "250.75"
    );

    api.clock.advance(Duration::from_secs(301));
    let expired = to_ngn("c-4", json!(100), "USD", Some(&rate_key));
    let message = "rateKey is unknown or expired";
    refused(&api, "expired rateKey", path, Some(&expired), 400, message).await;
}

/// NGN collection bodies refused 400, each naming every field at fault.
#[tokio::test]
async fn collection_validation() {
    let api = Api::start().await;
    let ngn = |amount: Value, reference: String| {
        json!({"amount": amount, "fromCurrency": "NGN", "toCurrency": "NGN",
               "paymentReference": reference})
    };
    let cases = [
        (
            "zero amount, long reference",
            ngn(json!(0), "r".repeat(101)),
            "amount: must be greater than zero; paymentReference: must be at most 100 characters",
        ),
        (
            "three decimals",
            ngn(json!(10.001), "p".to_owned()),
            "amount: has more decimal places than NGN allows (2)",
        ),
    ];
    for (case, body, message) in cases {
        refused(
            &api,
            case,
            "/api/initiate-payment",
            Some(&body),
            400,
            message,
        )
        .await;
    }
}

#[tokio::test]
async fn crypto_collection_has_a_wallet_address() {
    let api = Api::start().await;
    let body = json!({"amount": 25.5, "fromCurrency": "USDT", "toCurrency": "USDT",
                      "paymentReference": "crypto-1", "network": "tron"});
    let created = post_ok(&api, "/api/initiate-payment", &body).await;
    let data = &created.body["data"];
    let address = data["address"].as_str().unwrap();
    assert!(
        address.starts_with("0x") && address.len() == 42,
        "{address}"
    );
    assert_eq!(data["network"], "tron");
    assert_eq!(data["paymentInstruction"][0]["accountNumber"], address);
    assert_eq!(data["paymentInstruction"][0]["bankName"], "tron");
}

/// ASSUMPTIONS B32: `amountToTransfer` is the collection's amount as exact
/// decimal text with no trailing zeros: `50000.10` is written `"50000.1"`.
#[tokio::test]
async fn amount_to_transfer_is_the_exact_amount_without_trailing_zeros() {
    let api = Api::start().await;
    let body = r#"{"amount": 50000.10, "fromCurrency": "NGN", "toCurrency": "NGN",
                   "paymentReference": "order-b32"}"#;
    let created = api.post_bytes("/api/initiate-payment", body).await;
    assert_eq!(created.status, 200, "{}", created.text);
    assert_eq!(
        created.body["data"]["paymentInstruction"][0]["amountToTransfer"],
        "50000.1"
    );
}
