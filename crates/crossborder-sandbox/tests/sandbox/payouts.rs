//! Payouts: validation, rate keys, balances, idempotency and the failure
//! trigger.

use std::time::Duration;

use crossborder_sandbox::{SandboxConfig, STAGING_KEY};
use serde_json::json;

use crate::common::{assert_error, ngn_payout, Api};

#[tokio::test]
async fn ngn_payout_without_bank_code_names_the_field() {
    let api = Api::start().await;
    let mut body = ngn_payout("s-1", "1000");
    body.as_object_mut().unwrap().remove("bankCode");
    let reply = api.post("/api/payout", &body).await;
    assert_error(
        &reply,
        400,
        "bankCode: is required when toCurrency is NGN",
        "POST",
        "/api/payout",
    );
    assert_eq!(
        reply.body["errors"],
        json!([{"field": "bankCode", "message": "is required when toCurrency is NGN"}])
    );

    let everything_missing = api.post("/api/payout", &json!({})).await;
    assert_error(
        &everything_missing,
        400,
        "amount: is required; fromCurrency: is required; toCurrency: is required; sessionId: is required",
        "POST",
        "/api/payout",
    );
    assert_eq!(
        everything_missing.body["errors"].as_array().unwrap().len(),
        4
    );
}

#[tokio::test]
async fn same_currency_payout_debits_once_and_is_idempotent() {
    let api = Api::start().await;
    let body = ngn_payout("payout-0001", "1500.50");
    let first = api.post("/api/payout", &body).await;
    assert_eq!(
        first.body,
        json!({"message": "Payout initiated successfully", "sessionId": "payout-0001"})
    );
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4998499.5");

    let replay = api.post("/api/payout", &body).await;
    assert_eq!(replay.status, 200);
    assert_eq!(replay.text, first.text);
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4998499.5");

    let different = api
        .post("/api/payout", &ngn_payout("payout-0001", "99"))
        .await;
    assert_error(
        &different,
        409,
        "sessionId already used for a different payout: payout-0001",
        "POST",
        "/api/payout",
    );
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4998499.5");

    let transaction = api.get("/api/transaction/payout-0001").await;
    assert_eq!(transaction.status, 200, "{}", transaction.text);
    let data = &transaction.body["data"];
    assert_eq!(data["type"], "PAYOUT");
    assert_eq!(data["status"], "COMPLETED");
    assert_eq!(data["paymentReference"], "payout-0001");
    assert_eq!(data["amount"], json!(1500.5));
    assert_eq!(data["toAmount"], json!(1500.5));
    assert_eq!(data["fromCurrency"], "NGN");
    assert!(data.get("payRefrence").is_none());
}

#[tokio::test]
async fn cross_currency_payout_uses_the_rate_key() {
    let api = Api::start().await;
    let rate_key = api.rate_key("USD", "NGN", "100").await;
    let mut body = ngn_payout("x-1", "100.00");
    body["fromCurrency"] = json!("USD");
    body["rateKey"] = json!(rate_key);
    let reply = api.post("/api/payout", &body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "9900");
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5000000");
    let transaction = api.get("/api/transaction/x-1").await;
    assert!(
        transaction.text.contains("\"toAmount\":153025,"),
        "{}",
        transaction.text
    );
    assert_eq!(transaction.body["data"]["rateKey"], json!(rate_key));

    let mut wrong_pair = ngn_payout("x-2", "100");
    wrong_pair["fromCurrency"] = json!("EUR");
    wrong_pair["rateKey"] = json!(rate_key);
    wrong_pair["swiftCode"] = json!("DEUTDEFF");
    let reply = api.post("/api/payout", &wrong_pair).await;
    assert_error(
        &reply,
        400,
        "rateKey was issued for USD/NGN, not EUR/NGN",
        "POST",
        "/api/payout",
    );

    let mut unknown = body.clone();
    unknown["sessionId"] = json!("x-3");
    unknown["rateKey"] = json!("rk_doesnotexist");
    let reply = api.post("/api/payout", &unknown).await;
    assert_error(
        &reply,
        400,
        "rateKey is unknown or expired",
        "POST",
        "/api/payout",
    );
}

#[tokio::test]
async fn expired_rate_key_with_a_short_ttl() {
    let api =
        Api::start_with(SandboxConfig::default().with_quote_ttl(Duration::from_secs(2))).await;
    let rate_key = api.rate_key("USD", "NGN", "10").await;
    api.clock.advance(Duration::from_secs(3));
    let mut body = ngn_payout("ttl-1", "10");
    body["fromCurrency"] = json!("USD");
    body["rateKey"] = json!(rate_key);
    let reply = api.post("/api/payout", &body).await;
    assert_error(
        &reply,
        400,
        "rateKey is unknown or expired",
        "POST",
        "/api/payout",
    );
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "10000");
    // A refused payout does not use up its sessionId.
    let fresh = api.rate_key("USD", "NGN", "10").await;
    body["rateKey"] = json!(fresh);
    let reply = api.post("/api/payout", &body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
}

#[tokio::test]
async fn insufficient_balance_is_refused_with_both_amounts() {
    let api = Api::start().await;
    let rate_key = api.rate_key("USD", "NGN", "20000").await;
    let mut body = ngn_payout("big-1", "20000");
    body["fromCurrency"] = json!("USD");
    body["rateKey"] = json!(rate_key);
    let reply = api.post("/api/payout", &body).await;
    assert_error(
        &reply,
        400,
        "Insufficient balance: available 10000.00 USD, required 20000.00 USD",
        "POST",
        "/api/payout",
    );
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "10000");
    let gbp_key = api.rate_key("GBP", "NGN", "1").await;
    body["fromCurrency"] = json!("GBP");
    body["amount"] = json!("1");
    body["rateKey"] = json!(gbp_key);
    let reply = api.post("/api/payout", &body).await;
    assert_error(
        &reply,
        400,
        "Insufficient balance: available 0.00 GBP, required 1.00 GBP",
        "POST",
        "/api/payout",
    );
}

#[tokio::test]
async fn unresolvable_account_fails_and_refunds() {
    let api = Api::start().await;
    let mut body = ngn_payout("fail-1", "2500");
    body["accountNumber"] = json!("0000000000");
    let reply = api.post("/api/payout", &body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let transaction = api.get("/api/transaction/fail-1").await;
    assert_eq!(transaction.body["data"]["status"], "FAILED");
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5000000");
}

#[tokio::test]
async fn crypto_and_unknown_bank_payouts() {
    let api = Api::start().await;
    let crypto = json!({"amount": "12.345678", "fromCurrency": "USDT", "toCurrency": "USDT",
                        "sessionId": "c-1", "address": "0xabc", "network": "tron"});
    let reply = api.post("/api/payout", &crypto).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(api.balance(STAGING_KEY, "USDT").await, "9987.654322");
    let transaction = api.get("/api/transaction/c-1").await;
    assert_eq!(transaction.body["data"]["address"], "0xabc");
    assert_eq!(transaction.body["data"]["network"], "tron");

    let mut body = ngn_payout("bank-1", "10");
    body["bankCode"] = json!("999");
    let reply = api.post("/api/payout", &body).await;
    assert_error(
        &reply,
        400,
        "Unknown bank code 999 for NGN",
        "POST",
        "/api/payout",
    );
}
