//! simulate-funding as the description writes it: `currency` is the wallet
//! credited (ASSUMPTIONS A14), one webhook per status change (B9), and the
//! event's remaining amount is `amount - paidAmount`, negative on an
//! over-payment (A26).

use serde_json::json;

use crossborder_sandbox::SandboxConfig;

use crate::described::support::{funded, funding, refused, with_receiver, Api};

/// Where every funding goes.
const FUND: &str = "/api/simulate-funding";

#[tokio::test]
async fn funding_currency_is_the_wallet_credited() {
    let api = Api::start().await;
    // 100 USD paid by the payer, credited to the business in NGN.
    let memo = api.collection("conv-1", json!(100), "USD", "NGN").await;

    // The payer's currency is not a wallet to credit: refused, naming the
    // wallet, and nothing changes.
    let payer_currency = funding("USD", json!(100), &memo, "fund-1");
    let message = "currency: must be NGN, the wallet collection conv-1 credits (its \
                   fromCurrency USD is what the payer sends, not a wallet to credit)";
    let refusal = refused(&api, "USD", FUND, Some(&payer_currency), 400, message).await;
    assert_eq!(
        refusal.body["errors"],
        json!([{"field": "currency",
                "message": message.strip_prefix("currency: ").unwrap()}])
    );
    assert_eq!(api.balance_json("USD").await, json!(10000));
    assert_eq!(api.balance_json("NGN").await, json!(5000000));
    let pending = api.transaction("conv-1").await;
    assert_eq!(pending["status"], "PENDING");
    assert_eq!(pending["paidAmount"], json!(0));

    // The NGN wallet, named: credited with the amount itself, and the
    // refused sessionId was not used up.
    funded(&api, "NGN", json!(153025), &memo, "fund-1").await;
    assert_eq!(api.balance_json("NGN").await, json!(5153025));
    assert_eq!(api.balance_json("USD").await, json!(10000));
    let paid = api.transaction("conv-1").await;
    assert_eq!(paid["status"], "COMPLETED");
    assert_eq!(paid["paidAmount"], json!(100));

    // A same-currency collection credits its one currency.
    let memo = api.collection("same-1", json!(5000), "NGN", "NGN").await;
    let other = funding("USD", json!(10), &memo, "fund-2");
    let message = "currency: must be NGN, the wallet collection same-1 credits";
    refused(&api, "same-currency USD", FUND, Some(&other), 400, message).await;
    assert_eq!(api.balance_json("USD").await, json!(10000));
}

#[tokio::test]
async fn one_webhook_per_status_change_and_no_other() {
    let (api, _receiver) = with_receiver(SandboxConfig::default()).await;
    let memo = api.collection("parts-1", json!(50000), "NGN", "NGN").await;

    // Partial, partial again, the rest, then more after completion: two
    // status changes, so two events.
    for (amount, session) in [
        (10000, "p-1"),
        (15000, "p-2"),
        (25000, "p-3"),
        (5000, "p-4"),
    ] {
        funded(&api, "NGN", json!(amount), &memo, session).await;
    }
    let events = api.exactly_webhooks(2).await;
    assert_eq!(
        events,
        [
            json!({"reference": "parts-1", "memo": memo, "amount": 50000, "paidAmount": 10000,
                   "remainingAmount": 40000, "currency": "NGN", "status": false,
                   "message": "Partial payment received"}),
            json!({"reference": "parts-1", "memo": memo, "amount": 50000, "paidAmount": 50000,
                   "remainingAmount": 0, "currency": "NGN", "status": true,
                   "message": "Payment completed"}),
        ]
    );
    // Every funding was applied: the over-payment is kept.
    let read = api.transaction("parts-1").await;
    assert_eq!(read["status"], "COMPLETED");
    assert_eq!(read["paidAmount"], json!(55000));
    assert_eq!(api.balance_json("NGN").await, json!(5055000));
}

#[tokio::test]
async fn an_overpayment_has_a_negative_remaining_amount() {
    let (api, _receiver) = with_receiver(SandboxConfig::default()).await;
    let memo = api.collection("over-1", json!(50000), "NGN", "NGN").await;
    funded(&api, "NGN", json!(60000), &memo, "o-1").await;

    // A converting collection: 160000 NGN pays 104.56 USD of 100 at 1530.25.
    let converting = api.collection("over-2", json!(100), "USD", "NGN").await;
    funded(&api, "NGN", json!(160000), &converting, "o-2").await;

    let mut events = api.exactly_webhooks(2).await;
    events.sort_by_key(|event| event["reference"].to_string());
    assert_eq!(
        events,
        [
            json!({"reference": "over-1", "memo": memo, "amount": 50000, "paidAmount": 60000,
                   "remainingAmount": -10000, "currency": "NGN", "status": true,
                   "message": "Payment completed"}),
            json!({"reference": "over-2", "memo": converting, "amount": 100,
                   "paidAmount": 104.56, "remainingAmount": -4.56, "currency": "USD",
                   "status": true, "message": "Payment completed"}),
        ]
    );
    let raw: Vec<String> = api
        .sandbox
        .webhook_deliveries()
        .into_iter()
        .map(|delivery| delivery.body)
        .collect();
    assert!(
        raw.iter()
            .any(|body| body.contains(r#""remainingAmount":-10000"#)),
        "{raw:?}"
    );
    assert_eq!(api.transaction("over-2").await["paidAmount"], json!(104.56));
}

#[tokio::test]
async fn funding_session_id_is_at_most_100_characters() {
    let api = Api::start().await;
    let memo = api.collection("long-1", json!(5000), "NGN", "NGN").await;
    let long = funding("NGN", json!(10), &memo, &"s".repeat(101));
    let message = "sessionId: must be at most 100 characters";
    refused(&api, "101 characters", FUND, Some(&long), 400, message).await;
    funded(&api, "NGN", json!(10), &memo, &"s".repeat(100)).await;
}

#[tokio::test]
async fn a_narration_is_matched_trimmed() {
    let api = Api::start().await;
    let memo = api.collection("trim-1", json!(5000), "NGN", "NGN").await;
    let padded = format!("  {memo} ");
    funded(&api, "NGN", json!(5000), &padded, "t-1").await;
    assert_eq!(api.transaction("trim-1").await["status"], "COMPLETED");
    let unknown = funding("NGN", json!(10), "PAY-NONE0000", "t-2");
    let message = "No collection matches narration: PAY-NONE0000";
    refused(&api, "unknown memo", FUND, Some(&unknown), 404, message).await;
}
