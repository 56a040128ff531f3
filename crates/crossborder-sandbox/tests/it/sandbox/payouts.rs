//! Payouts: validation, rate keys, balances, idempotency and the failure
//! trigger.

use std::time::Duration;

use crossborder_sandbox::{Currency, Decimal, SandboxConfig, STAGING_KEY};
use serde_json::{json, Value};

use crate::sandbox::common::{
    assert_balances, ngn_collection, ngn_payout, post_ok, refused, refused_field,
    usd_to_ngn_payout, Api,
};

#[tokio::test]
async fn ngn_payout_without_bank_code_names_the_field() {
    let api = Api::start().await;
    let mut body = ngn_payout("s-1", "1000");
    body.as_object_mut().unwrap().remove("bankCode");
    let problem = "is required when toCurrency is NGN";
    refused_field(&api, "/api/payout", &body, "bankCode", problem).await;

    let everything_missing = api.post_refused("/api/payout", &json!({}), 400, "amount: is required; fromCurrency: is required; toCurrency: is required; sessionId: is required").await;
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

    let message = "sessionId already used for a different payout: payout-0001";
    let other = ngn_payout("payout-0001", "99");
    assert_ngn_conflict(&api, &other, message, "4998499.5").await;

    let data = api.transaction("payout-0001").await;
    assert_eq!(data["type"], "PAYOUT");
    assert_eq!(data["status"], "COMPLETED");
    assert_eq!(data["paymentReference"], "payout-0001");
    assert_eq!(data["amount"], json!(1500.5));
    assert_eq!(data["toAmount"], json!(1500.5));
    // Same-currency payouts carry no fee.
    assert_eq!(data["fee"], json!(0));
    assert_eq!(data["totalAmount"], json!(1500.5));
    assert_eq!(data["fromCurrency"], "NGN");
    assert!(data.get("payRefrence").is_none());
}

#[tokio::test]
async fn cross_currency_payout_uses_the_rate_key() {
    let api = Api::start().await;
    let body = usd_to_ngn_payout(&api, "x-1", "100.00").await;
    let rate_key = body["rateKey"].clone();
    post_ok(&api, "/api/payout", &body).await;
    // The quote's 0.5 % fee is charged on top of the amount, in USD.
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "9899.5");
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5000000");
    let transaction = api.get("/api/transaction/x-1").await;
    assert!(
        transaction.text.contains("\"toAmount\":153025,"),
        "{}",
        transaction.text
    );
    let data = &transaction.body["data"];
    assert_eq!(data["rateKey"], rate_key);
    assert_eq!(data["amount"], json!(100));
    assert_eq!(data["fee"], json!(0.5));
    assert_eq!(data["totalAmount"], json!(100.5));

    let mut wrong_pair = ngn_payout("x-2", "100");
    wrong_pair["fromCurrency"] = json!("EUR");
    wrong_pair["rateKey"] = rate_key;
    wrong_pair["swiftCode"] = json!("DEUTDEFF");
    api.post_refused(
        "/api/payout",
        &wrong_pair,
        400,
        "rateKey was issued for USD/NGN, not EUR/NGN",
    )
    .await;

    let mut unknown = body.clone();
    unknown["sessionId"] = json!("x-3");
    unknown["rateKey"] = json!("rk_doesnotexist");
    api.post_refused(
        "/api/payout",
        &unknown,
        400,
        "rateKey is unknown or expired",
    )
    .await;
}

#[tokio::test]
async fn expired_rate_key_with_a_short_ttl() {
    let api =
        Api::start_with(SandboxConfig::default().with_quote_ttl(Duration::from_secs(2))).await;
    let mut body = usd_to_ngn_payout(&api, "ttl-1", "10").await;
    api.clock.advance(Duration::from_secs(3));
    api.post_refused("/api/payout", &body, 400, "rateKey is unknown or expired")
        .await;
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "10000");
    // A refused payout does not use up its sessionId.
    let fresh = api.rate_key("USD", "NGN", "10").await;
    body["rateKey"] = json!(fresh);
    post_ok(&api, "/api/payout", &body).await;
}

/// Asserts that the payout `body` is refused 409 with `message` and
/// leaves the staging business's NGN wallet at `balance`.
async fn assert_ngn_conflict(api: &Api, body: &Value, message: &str, balance: &str) {
    api.post_refused("/api/payout", body, 409, message).await;
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, balance);
}

/// Asserts that the payout `body` is refused because the staging
/// business's 10000 USD do not cover `required` USD, and debits nothing.
async fn assert_usd_not_covered(api: &Api, body: &Value, required: &str) {
    let message = format!("Insufficient balance: available 10000.00 USD, required {required} USD");
    api.post_refused("/api/payout", body, 400, &message).await;
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "10000");
}

/// Payouts refused 400 as a whole before anything is debited: each case
/// gets its own sessionId, and no wallet of the staging business moves.
#[tokio::test]
async fn refused_payouts_debit_nothing() {
    let api = Api::start().await;
    let usd_not_covered = usd_to_ngn_payout(&api, "big-1", "20000").await;
    let mut gbp_not_covered = usd_to_ngn_payout(&api, "big-2", "1").await;
    gbp_not_covered["fromCurrency"] = json!("GBP");
    gbp_not_covered["rateKey"] = json!(api.rate_key("GBP", "NGN", "1").await);
    let mut unknown_bank = ngn_payout("bank-1", "10");
    unknown_bank["bankCode"] = json!("999");
    let cases = [
        (
            "insufficient USD",
            usd_not_covered,
            "Insufficient balance: available 10000.00 USD, required 20100.00 USD",
        ),
        (
            "insufficient GBP",
            gbp_not_covered,
            "Insufficient balance: available 0.00 GBP, required 1.01 GBP",
        ),
        (
            "unknown NGN bank code",
            unknown_bank,
            "Unknown bank code 999 for NGN",
        ),
    ];
    for (case, body, message) in cases {
        refused(&api, case, "/api/payout", Some(&body), 400, message).await;
    }
    assert_balances(&api, &[("USD", "10000"), ("NGN", "5000000"), ("GBP", "0")]).await;
}

#[tokio::test]
async fn unresolvable_account_fails_and_refunds() {
    let api = Api::start().await;
    let mut body = ngn_payout("fail-1", "2500");
    body["accountNumber"] = json!("0000000000");
    post_ok(&api, "/api/payout", &body).await;
    assert_eq!(api.transaction("fail-1").await["status"], "FAILED");
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "5000000");
}

#[tokio::test]
async fn a_crypto_payout_keeps_its_address_and_network() {
    let api = Api::start().await;
    let crypto = json!({"amount": "12.345678", "fromCurrency": "USDT", "toCurrency": "USDT",
                        "sessionId": "c-1", "address": "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", "network": "tron"});
    post_ok(&api, "/api/payout", &crypto).await;
    assert_eq!(api.balance(STAGING_KEY, "USDT").await, "9987.654322");
    let data = api.transaction("c-1").await;
    assert_eq!(data["address"], "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8");
    assert_eq!(data["network"], "tron");
}

#[tokio::test]
async fn a_payout_amount_written_otherwise_is_the_same_request() {
    let api = Api::start().await;
    let first = post_ok(&api, "/api/payout", &ngn_payout("same-1", "100")).await;
    for written in ["100.00", "100.0"] {
        let again = api
            .post("/api/payout", &ngn_payout("same-1", written))
            .await;
        assert_eq!(again.status, 200, "{written}: {}", again.text);
        assert_eq!(again.text, first.text, "{written}");
    }
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4999900");
    api.post_refused(
        "/api/payout",
        &ngn_payout("same-1", "100.01"),
        409,
        "sessionId already used for a different payout: same-1",
    )
    .await;
    assert_eq!(api.transaction("same-1").await["amount"], json!(100));
}

#[tokio::test]
async fn a_converting_payout_debits_the_quote_fee_too() {
    let api = Api::start_with(
        SandboxConfig::default().with_starting_balance(Currency::Gbp, Decimal::new(1000, 0)),
    )
    .await;
    // GBP -> KES 250.75: fee 0.5 % = 1.25375, rounded to 1.25, as the quote says.
    let quote = api.get("/api/qoutes/GBP/KES/250.75").await;
    assert_eq!(quote.body["data"]["fee"], json!(1.25), "{}", quote.text);
    assert_eq!(
        quote.body["data"]["totalAmount"],
        json!(252),
        "{}",
        quote.text
    );
    let rate_key = quote.body["data"]["rateKey"].as_str().unwrap().to_owned();
    let body = json!({"amount": "250.75", "fromCurrency": "GBP", "toCurrency": "KES",
                      "sessionId": "gbp-kes-1", "rateKey": rate_key, "narration": "Rent",
                      "accountNumber": "0123456789", "accountName": "ADAEZE OKAFOR",
                      "bankName": "KCB", "bankCode": "01"});
    post_ok(&api, "/api/payout", &body).await;
    assert_eq!(api.balance(STAGING_KEY, "GBP").await, "748");
    let data = api.transaction("gbp-kes-1").await;
    assert_eq!(data["fee"], json!(1.25));
    assert_eq!(data["totalAmount"], json!(252));
    assert_eq!(data["toAmount"], quote.body["data"]["toAmount"]);

    // The same rateKey for another amount: the fee rate applies to that
    // amount (0.5 % of 1 = 0.005, rounded half away from zero to 0.01).
    let mut small = body.clone();
    small["sessionId"] = json!("gbp-kes-2");
    small["amount"] = json!("1");
    post_ok(&api, "/api/payout", &small).await;
    assert_eq!(api.balance(STAGING_KEY, "GBP").await, "746.99");

    // A failed converting payout refunds the amount and the fee.
    let mut failing = body.clone();
    failing["sessionId"] = json!("gbp-kes-3");
    failing["accountNumber"] = json!("0000000000");
    post_ok(&api, "/api/payout", &failing).await;
    let data = api.transaction("gbp-kes-3").await;
    assert_eq!(data["status"], "FAILED");
    assert_eq!(data["fee"], json!(1.25));
    assert_eq!(api.balance(STAGING_KEY, "GBP").await, "746.99");
}

#[tokio::test]
async fn the_balance_must_cover_the_amount_and_the_fee() {
    let api = Api::start().await;
    let mut body = usd_to_ngn_payout(&api, "fee-1", "9990").await;
    assert_usd_not_covered(&api, &body, "10039.95").await;
    body["amount"] = json!("9950.24");
    post_ok(&api, "/api/payout", &body).await;
    // 9950.24 + 49.75 (0.5 % = 49.7512, rounded) = 9999.99.
    assert_eq!(api.balance(STAGING_KEY, "USD").await, "0.01");
}

#[tokio::test]
async fn payout_and_collection_ids_never_collide() {
    let api = Api::start().await;
    ngn_collection(&api, "shared-1", 100).await;
    let message = "sessionId already used by a collection: shared-1";
    assert_ngn_conflict(&api, &ngn_payout("shared-1", "1000"), message, "5000000").await;
    let tracked = api.transaction("shared-1").await;
    assert_eq!(tracked["type"], "COLLECTION", "{tracked}");

    post_ok(&api, "/api/payout", &ngn_payout("shared-2", "1000")).await;
    let collection = json!({"amount": 100, "fromCurrency": "NGN", "toCurrency": "NGN",
                            "paymentReference": "shared-2"});
    api.post_refused(
        "/api/initiate-payment",
        &collection,
        409,
        "paymentReference already used by a payout: shared-2",
    )
    .await;
    let tracked = api.transaction("shared-2").await;
    assert_eq!(tracked["type"], "PAYOUT", "{tracked}");
    assert_eq!(tracked["amount"], json!(1000));
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4999000");

    // Identical repeats of each still replay.
    post_ok(&api, "/api/payout", &ngn_payout("shared-2", "1000")).await;
    assert_eq!(api.balance(STAGING_KEY, "NGN").await, "4999000");
}
