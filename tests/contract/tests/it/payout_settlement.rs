//! Payout settlement as a setting: under `manual` a payout stays `PENDING`
//! (read through the SDK) until the control API or `SandboxHandle`
//! completes or fails it, a failure refunds it to the kobo; under a delay
//! it settles on the sandbox's clock; the setting is changed per business.

use std::time::Duration;

use crossborder::{
    types::{FiatCurrency, PayoutRequest, QuoteRequest},
    Client, Currency,
};
use crossborder_contract_tests::{
    control, d,
    fixtures::{ngn_bank, ngn_bank_payout},
    sdk_client, Env, Reply, PRODUCTION_KEY, STAGING_KEY,
};
use crossborder_sandbox::{PayoutSettlement, SandboxConfig};
use reqwest::Method;
use serde_json::{json, Value};

/// `POST /_sandbox/payouts/{session_id}/{action}` with the staging key.
async fn settle(env: &Env, session_id: &str, action: &str, body: Option<Value>) -> Reply {
    let path = format!("/_sandbox/payouts/{session_id}/{action}");
    control(env, Method::POST, &path, STAGING_KEY, body).await
}

/// `PUT /_sandbox/settings` with the staging key.
async fn set_settlement(env: &Env, body: Value) -> Reply {
    control(
        env,
        Method::PUT,
        "/_sandbox/settings",
        STAGING_KEY,
        Some(body),
    )
    .await
}

async fn status(client: &Client, session_id: &str) -> String {
    let payout = client.payouts().get(session_id).await.unwrap();
    payout.status.as_str().to_owned()
}

async fn balance(client: &Client, currency: Currency) -> String {
    let balance = client.wallet().balance(currency).await.unwrap();
    balance.amount.to_string()
}

async fn ngn(client: &Client) -> String {
    balance(client, Currency::Ngn).await
}

/// A USD to NGN payout of 100 USD at a fresh quote: 0.50 USD fee.
async fn converting_payout(client: &Client, session_id: &str) -> PayoutRequest {
    let quote = client
        .quotes()
        .get(QuoteRequest::new(Currency::Usd, Currency::Ngn, d("100")))
        .await
        .unwrap();
    PayoutRequest::from_quote_with_session_id(&quote, session_id, ngn_bank()).unwrap()
}

/// Sends the kit's NGN bank payout of `amount` under `session_id`.
async fn send(client: &Client, amount: &str, session_id: &str) {
    let payout = ngn_bank_payout(d(amount), session_id);
    if let Err(error) = client.payouts().create(&payout).await {
        panic!("{session_id} is not sent: {error}");
    }
}

#[tokio::test]
async fn a_manual_payout_stays_pending_until_completed_or_failed() {
    let env = Env::start().await;
    let client = sdk_client(env.base_url(), STAGING_KEY);
    let set = set_settlement(&env, json!({"payoutSettlement": "manual"})).await;
    assert_eq!(set.status, 200, "{}", set.text);
    assert_eq!(set.body, json!({"payoutSettlement": "manual"}));

    send(&client, "2500", "pay-1").await;
    assert_eq!(status(&client, "pay-1").await, "PENDING");
    assert_eq!(ngn(&client).await, "4997500");
    env.clock.advance(Duration::from_secs(24 * 60 * 60));
    assert_eq!(status(&client, "pay-1").await, "PENDING");

    let done = settle(&env, "pay-1", "complete", None).await;
    assert_eq!(done.status, 200, "{}", done.text);
    assert_eq!(done.body["status"], "COMPLETED");
    assert_eq!(done.body["totalAmount"], "2500.00");
    assert_eq!(
        done.body["destination"],
        "Guaranty Trust Bank 058 0123456789"
    );
    assert_eq!(status(&client, "pay-1").await, "COMPLETED");
    assert_eq!(ngn(&client).await, "4997500");

    let fail = settle(&env, "pay-1", "fail", None).await;
    assert_eq!(fail.status, 409, "{}", fail.text);
    assert_eq!(
        fail.body["message"],
        "Payout pay-1 is COMPLETED; only a PENDING payout can be failed"
    );
    assert_eq!(fail.body["path"], "/_sandbox/payouts/pay-1/fail");

    // A converting payout failed with a reason: refunded in full, fee
    // included, to the cent.
    let payout = converting_payout(&client, "pay-2").await;
    client.payouts().create(&payout).await.unwrap();
    assert_eq!(balance(&client, Currency::Usd).await, "9899.5");
    let failed = settle(
        &env,
        "pay-2",
        "fail",
        Some(json!({"reason": "Beneficiary bank offline"})),
    )
    .await;
    assert_eq!(failed.status, 200, "{}", failed.text);
    assert_eq!(failed.body["status"], "FAILED");
    assert_eq!(failed.body["reason"], "Beneficiary bank offline");
    assert_eq!(failed.body["fee"], "0.50");
    assert_eq!(failed.body["totalAmount"], "100.50");
    assert_eq!(status(&client, "pay-2").await, "FAILED");
    assert_eq!(balance(&client, Currency::Usd).await, "10000");
    let complete = settle(&env, "pay-2", "complete", None).await;
    assert_eq!(
        complete.body["message"],
        "Payout pay-2 is FAILED; only a PENDING payout can be completed"
    );
    assert_eq!(balance(&client, Currency::Usd).await, "10000");

    let unknown = settle(&env, "nope", "complete", None).await;
    assert_eq!(
        (unknown.status, unknown.body["message"].clone()),
        (404, json!("Payout not found: nope"))
    );
}

#[tokio::test]
async fn the_handle_settles_pending_payouts_with_the_same_rules() {
    let env =
        Env::start_with(SandboxConfig::default().with_payout_settlement(PayoutSettlement::Manual))
            .await;
    let client = sdk_client(env.base_url(), STAGING_KEY);
    send(&client, "1000.25", "pay-1").await;
    send(&client, "300", "pay-2").await;
    assert_eq!(ngn(&client).await, "4998699.75");

    let failed = env.sandbox.fail_payout(STAGING_KEY, "pay-1", None).unwrap();
    assert_eq!(failed.status, "FAILED");
    assert_eq!(
        failed.reason.as_deref(),
        Some(crossborder_sandbox::control::DEFAULT_FAILURE_REASON)
    );
    assert_eq!(ngn(&client).await, "4999700");
    assert_eq!(status(&client, "pay-1").await, "FAILED");
    let again = env
        .sandbox
        .fail_payout(STAGING_KEY, "pay-1", Some("twice"))
        .unwrap_err();
    assert_eq!(
        (again.status(), again.message()),
        (
            409,
            "Payout pay-1 is FAILED; only a PENDING payout can be failed"
        )
    );
    assert_eq!(ngn(&client).await, "4999700");

    let other = env
        .sandbox
        .complete_payout(PRODUCTION_KEY, "pay-2")
        .unwrap_err();
    assert_eq!(
        (other.status(), other.message()),
        (404, "Payout not found: pay-2")
    );
    assert_eq!(
        env.sandbox
            .complete_payout(STAGING_KEY, "pay-2")
            .unwrap()
            .status,
        "COMPLETED"
    );
    assert_eq!(status(&client, "pay-2").await, "COMPLETED");

    // Under manual the failing account waits for the action like any other.
    let mut failing_account = ngn_bank();
    failing_account.account_number = "0000000000".into();
    let failing =
        PayoutRequest::pay(d("5"), FiatCurrency::Ngn, failing_account).with_session_id("pay-4");
    client.payouts().create(&failing).await.unwrap();
    assert_eq!(status(&client, "pay-4").await, "PENDING");

    // Back to instant for this business: the next payout settles at once,
    // the pending one keeps waiting.
    let settings = env
        .sandbox
        .set_payout_settlement(STAGING_KEY, PayoutSettlement::Instant)
        .unwrap();
    assert_eq!(settings.payout_settlement, PayoutSettlement::Instant);
    send(&client, "1", "pay-3").await;
    assert_eq!(status(&client, "pay-3").await, "COMPLETED");
    assert_eq!(status(&client, "pay-4").await, "PENDING");
    env.sandbox.complete_payout(STAGING_KEY, "pay-4").unwrap();
    assert_eq!(status(&client, "pay-4").await, "COMPLETED");
    // The other business kept the sandbox's setting.
    assert_eq!(
        env.sandbox
            .state(PRODUCTION_KEY)
            .unwrap()
            .settings
            .payout_settlement,
        PayoutSettlement::Manual
    );
}

#[tokio::test]
async fn a_delayed_payout_settles_on_the_sandbox_clock() {
    let env = Env::start_with(
        SandboxConfig::default()
            .with_payout_settlement(PayoutSettlement::After(Duration::from_secs(30))),
    )
    .await;
    let client = sdk_client(env.base_url(), STAGING_KEY);
    send(&client, "500", "pay-1").await;
    let mut failing_account = ngn_bank();
    failing_account.account_number = "0000000000".into();
    let failing =
        PayoutRequest::pay(d("700"), FiatCurrency::Ngn, failing_account).with_session_id("pay-2");
    client.payouts().create(&failing).await.unwrap();

    let state = env.sandbox.state(STAGING_KEY).unwrap();
    assert_eq!(
        state.payouts[0].settles_at.as_deref(),
        Some("2026-11-21T12:00:30.000Z")
    );
    assert_eq!(status(&client, "pay-1").await, "PENDING");
    assert_eq!(ngn(&client).await, "4998800");
    env.clock.advance(Duration::from_secs(29));
    assert_eq!(status(&client, "pay-1").await, "PENDING");
    env.clock.advance(Duration::from_secs(1));
    assert_eq!(status(&client, "pay-1").await, "COMPLETED");
    assert_eq!(status(&client, "pay-2").await, "FAILED");
    assert_eq!(ngn(&client).await, "4999500");
    let failed = &env.sandbox.state(STAGING_KEY).unwrap().payouts[0];
    assert_eq!(
        failed.reason.as_deref(),
        Some("Account 0000000000 cannot receive payouts")
    );
    assert_eq!(failed.settles_at, None);

    let bad = set_settlement(&env, json!({"payoutSettlement": "later"})).await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert_eq!(
        bad.body["message"],
        "payoutSettlement: must be instant, manual or a duration such as 30s, 500ms, 2m or 1h; got \"later\""
    );
    let missing = set_settlement(&env, json!({})).await;
    assert_eq!(missing.body["message"], "payoutSettlement: is required");
    assert_eq!(
        env.sandbox
            .state(STAGING_KEY)
            .unwrap()
            .settings
            .payout_settlement
            .to_string(),
        "30s"
    );
}
