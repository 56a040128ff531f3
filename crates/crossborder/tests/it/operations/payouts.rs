//! Payouts: creating, tracking, reading by session id, violations refused before sending.

use super::*;

pub(crate) fn example_payout() -> PayoutRequest {
    PayoutRequest::new(
        "payout-2026-11-21-0001",
        dec("100.00"),
        Currency::Usd,
        Currency::Ngn,
    )
    .narration("Invoice 2291")
    .rate_key("rk_9f2c4e1a7b3d4c5e")
    .destination(crossborder_testkit::fixtures::ngn_bank())
}

#[tokio::test]
async fn create_and_track_a_payout() {
    let (server, client) = setup().await;
    mock::payout()
        .and(body_json(json!({
            "amount": "100.00",
            "fromCurrency": "USD",
            "toCurrency": "NGN",
            "narration": "Invoice 2291",
            "sessionId": "payout-2026-11-21-0001",
            "rateKey": "rk_9f2c4e1a7b3d4c5e",
            "accountNumber": "0123456789",
            "accountName": "ADAEZE OKAFOR",
            "bankName": "Guaranty Trust Bank",
            "bankCode": "058"
        })))
        .answers_once(
            &server,
            ok(json!({
                "message": "Payout initiated successfully",
                "sessionId": "payout-2026-11-21-0001"
            })),
        )
        .await;
    mock::transaction("payout-2026-11-21-0001")
        .answers_once(
            &server,
            ok(payout_json("PROCESSING", "payout-2026-11-21-0001")),
        )
        .await;

    let receipt = client.payouts().create(&example_payout()).await.unwrap();
    assert_eq!(receipt.session_id, "payout-2026-11-21-0001");
    assert_eq!(receipt.message, "Payout initiated successfully");
    let state = client.payouts().get(&receipt.session_id).await.unwrap();
    assert_eq!(state.status, TransactionStatus::Processing);
    assert_eq!(state.kind, Some(TransactionType::Payout));
}

#[tokio::test]
async fn payouts_get_on_a_collection_is_not_found() {
    let (server, client) = setup().await;
    // transaction_json is a collection (`type: COLLECTION`).
    order_reads_once_as(&server, "PENDING").await;
    let error = client.payouts().get("order-10045").await.unwrap_err();
    let expected = Error::Api {
        status: 404,
        message: "Payout not found: order-10045 (this reference is a collection)".into(),
        path: None,
        timestamp: None,
        body: String::new(),
    };
    assert_error_is(
        &error,
        &expected,
        "a payout read on a collection's reference",
    );
    assert_eq!(error.status(), Some(404));
}

#[tokio::test]
async fn payouts_get_without_a_type_returns_the_transaction() {
    let (server, client) = setup().await;
    let untyped = common::transaction_json_without("PROCESSING", "type");
    mock::transaction("payout-1")
        .answers_once(&server, ok(untyped))
        .await;
    let state = client.payouts().get("payout-1").await.unwrap();
    assert_eq!(state.kind, None);
    assert_eq!(state.status, TransactionStatus::Processing);
}

#[tokio::test]
async fn invalid_payout_lists_every_violation_and_sends_nothing() {
    let (server, client) = setup().await;
    let payout = PayoutRequest::new("", dec("10.001"), Currency::Usd, Currency::Gbp)
        .narration("x".repeat(141));
    let error = client.payouts().create(&payout).await.unwrap_err();
    assert_eq!(
        violation_messages(&error),
        [
            "amount: has more decimal places than USD allows (2)",
            "narration: must be at most 140 characters; got 141",
            "sessionId: is required",
            "rateKey: is required when fromCurrency (USD) differs from toCurrency (GBP)",
            "accountNumber: is required when toCurrency is GBP",
            "accountName: is required when toCurrency is GBP",
            "bankName: is required when toCurrency is GBP",
            "sortCode: is required when toCurrency is GBP",
            "swiftCode: is required when toCurrency is GBP",
        ]
    );
    assert!(error.to_string().starts_with("invalid request: "));
    assert_nothing_sent(&server).await;
}
