//! Collections and transactions: creating, reading, unknown statuses, and `wait_until_settled`.

use super::*;
use crossborder::{types::Transaction, Client};

#[tokio::test]
async fn create_collection() {
    let (server, client) = setup().await;
    mock::initiate_payment()
        .and(body_json(json!({
            "amount": 50000.10,
            "fromCurrency": "NGN",
            "toCurrency": "NGN",
            "paymentReference": "order-10045"
        })))
        .answers_once(&server, ok(transaction_json("PENDING")))
        .await;

    let request =
        CollectionRequest::new("order-10045", dec("50000.10"), Currency::Ngn, Currency::Ngn);
    let transaction = client.collections().create(&request).await.unwrap();
    assert_eq!(transaction.status, TransactionStatus::Pending);
    assert_eq!(transaction.pay_reference.as_deref(), Some("PAY-7KQ2M9XD"));
    assert_eq!(transaction.payment_reference, "order-10045");
    assert_eq!(transaction.kind, Some(TransactionType::Collection));
    assert_eq!(transaction.amount, dec("50000"));
    assert_eq!(transaction.paid_amount, Some(dec("20000.5")));
    assert_eq!(transaction.remaining_amount(), Some(dec("29999.5")));
    let instruction = &transaction.payment_instructions[0];
    assert_eq!(
        instruction.amount_to_transfer_text,
        AmountText::new("50000.10")
    );
    assert_eq!(instruction.amount_to_transfer, Some(dec("50000.10")));
    assert_eq!(instruction.account_number, "9930001234");
    assert_eq!(
        instruction.valid_until,
        std::time::UNIX_EPOCH + Duration::from_secs(1_795_348_800)
    );

    // The amount is written with its exact digits.
    let requests = server.received_requests().await.unwrap();
    assert!(
        raw_body(&requests[0]).contains(r#""amount":50000.10"#),
        "{}",
        raw_body(&requests[0])
    );
}

#[tokio::test]
async fn converting_collection_needs_a_rate_key() {
    let (server, client) = setup().await;
    let request = CollectionRequest::new("", dec("0"), Currency::Usd, Currency::Ngn);
    let error = client.collections().create(&request).await.unwrap_err();
    let violations = error.violations().unwrap();
    assert_eq!(
        violations.fields().collect::<Vec<_>>(),
        ["amount", "paymentReference", "rateKey"]
    );
    assert_nothing_sent(&server).await;
}

#[tokio::test]
async fn get_transaction() {
    let (server, client) = setup().await;
    order_reads_once_as(&server, "COMPLETED").await;
    let transaction = client.collections().get("order-10045").await.unwrap();
    assert_eq!(transaction.status, TransactionStatus::Completed);
    assert!(transaction.status.is_terminal());
}

#[tokio::test]
async fn unknown_status_is_kept() {
    let (server, client) = setup().await;
    order_reads_as(&server, "ON_HOLD").await;
    let transaction = client.collections().get("order-10045").await.unwrap();
    assert_eq!(
        transaction.status,
        TransactionStatus::Unknown("ON_HOLD".into())
    );
    assert!(!transaction.status.is_terminal());
}

#[tokio::test]
async fn wait_until_settled_polls_until_terminal() {
    let (server, client) = setup().await;
    pending_then_completed(&server, 2).await;
    let options = polling(Duration::from_secs(5), Duration::from_millis(1))
        .max_interval(Duration::from_millis(5));
    let settled = wait_for_order(&client, options).await.unwrap();
    assert_eq!(settled.status, TransactionStatus::Completed);
    assert_eq!(requests_received(&server).await, 3);
}

#[tokio::test]
async fn wait_until_settled_times_out_with_the_last_state() {
    let (server, client) = setup().await;
    order_reads_as(&server, "PARTIALLY_PAID").await;
    let options = several_polls();
    let error = wait_for_order(&client, options).await.unwrap_err();
    match error {
        Error::WaitTimeout { last } => {
            assert_eq!(last.status, TransactionStatus::PartiallyPaid);
            assert_eq!(last.paid_amount, Some(dec("20000.5")));
        }
        other => panic!("{other:?}"),
    }
    assert!(requests_received(&server).await >= 2);
}

/// A wait that times out after several reads, even on a loaded machine (a
/// first request slower than a 60 ms deadline left too few).
fn several_polls() -> WaitOptions {
    polling(Duration::from_millis(500), Duration::from_millis(2))
        .max_interval(Duration::from_millis(5))
}

/// `order-10045` is read as `PENDING` `pending` times, then as `COMPLETED`.
async fn pending_then_completed(server: &wiremock::MockServer, pending: u64) {
    mock::transaction("order-10045")
        .answers_first(pending, server, ok(transaction_json("PENDING")))
        .await;
    mock::transaction("order-10045")
        .answers(server, ok(transaction_json("COMPLETED")))
        .await;
}

/// Every read of `order-10045` (after any mounted ahead of this) answers
/// 503.
async fn order_is_unavailable(server: &wiremock::MockServer) {
    mock::transaction("order-10045")
        .answers(server, ResponseTemplate::new(503))
        .await;
}

/// Waits for `order-10045` to settle.
async fn wait_for_order(client: &Client, options: WaitOptions) -> crossborder::Result<Transaction> {
    client
        .collections()
        .wait_until_settled("order-10045", options)
        .await
}

#[tokio::test]
async fn wait_until_settled_with_an_unbounded_timeout_does_not_panic() {
    let (server, client) = setup().await;
    pending_then_completed(&server, 1).await;
    let options = polling(Duration::MAX, Duration::from_millis(1));
    let settled = wait_for_order(&client, options).await.unwrap();
    assert_eq!(settled.status, TransactionStatus::Completed);
}

#[tokio::test]
async fn wait_until_settled_with_zero_intervals_does_not_busy_loop() {
    let (server, client) = setup().await;
    order_reads_as(&server, "PENDING").await;
    let options = polling(Duration::from_millis(100), Duration::ZERO).max_interval(Duration::ZERO);
    let error = wait_for_order(&client, options).await.unwrap_err();
    assert!(matches!(error, Error::WaitTimeout { .. }), "{error:?}");
    // At least 10 ms between reads: about 100 / 10 + 1 reads, not thousands.
    let reads = requests_received(&server).await;
    assert!((2..=15).contains(&reads), "{reads} reads");
}

#[tokio::test]
async fn wait_until_settled_polls_through_a_transient_error() {
    let (server, client) = common::setup_without_retries().await;
    mock::transaction("order-10045")
        .answers_first(
            1,
            &server,
            ResponseTemplate::new(500).set_body_raw("<h1>oops</h1>", "text/html"),
        )
        .await;
    pending_then_completed(&server, 1).await;
    let options = polling(Duration::from_secs(5), Duration::from_millis(1));
    let settled = wait_for_order(&client, options).await.unwrap();
    assert_eq!(settled.status, TransactionStatus::Completed);
    assert_eq!(requests_received(&server).await, 3);
}

#[tokio::test]
async fn wait_until_settled_keeps_the_last_state_over_later_errors() {
    let (server, client) = common::setup_without_retries().await;
    mock::transaction("order-10045")
        .answers_first(1, &server, ok(transaction_json("PARTIALLY_PAID")))
        .await;
    order_is_unavailable(&server).await;
    let options = several_polls();
    match wait_for_order(&client, options).await.unwrap_err() {
        Error::WaitTimeout { last } => assert_eq!(last.status, TransactionStatus::PartiallyPaid),
        other => panic!("{other:?}"),
    }
    assert!(requests_received(&server).await >= 3);
}

#[tokio::test]
async fn wait_until_settled_returns_the_last_error_when_nothing_was_read() {
    let (server, client) = common::setup_without_retries().await;
    order_is_unavailable(&server).await;
    let options = several_polls();
    let error = wait_for_order(&client, options).await.unwrap_err();
    assert_eq!(error.status(), Some(503), "{error:?}");
    assert!(requests_received(&server).await >= 3);
}

#[tokio::test]
async fn wait_until_settled_stops_at_once_on_a_lasting_error() {
    let (server, client) = setup().await;
    mock::transaction("order-10045")
        .answers_once(
            &server,
            mock::refusal(
                404,
                "Transaction not found: order-10045",
                "/v1/api/transaction/order-10045",
            ),
        )
        .await;
    let error = wait_for_order(&client, WaitOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Api { status: 404, .. }), "{error:?}");
}
