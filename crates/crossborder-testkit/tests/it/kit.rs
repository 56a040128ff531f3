//! The test kit's promises: the fixed clock, a client from a running
//! sandbox in one call, bounded waits that say what they last saw, and
//! `post_event` returning the receiver's answer as sent.

use std::time::Duration;

use crossborder::{types::TransactionStatus, Client, Currency, Decimal};
use crossborder_sandbox::{Sandbox, SandboxConfig};
use crossborder_testkit::{
    assert_error_body, client_for, open_ngn_collection, post_event, wait_for_status, wait_until,
    TestSandbox, WaitError, STAGING_KEY,
};

#[tokio::test]
async fn the_sandbox_stands_at_the_fixed_instant() {
    let sandbox = TestSandbox::start().await;
    // An error body carries the sandbox's time.
    let reply = sandbox.get("/api/balance/NOPE").await;
    assert_eq!(
        reply.body["timestamp"], "2026-11-21T12:00:00.000Z",
        "{}",
        reply.text
    );
    let message = reply.body["message"].as_str().unwrap();
    assert_error_body(&reply, 400, message, "GET", "/api/balance/NOPE");
}

#[tokio::test]
async fn a_client_for_a_running_sandbox_in_one_call() {
    let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let client = client_for(&sandbox, STAGING_KEY).unwrap();
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(balance.amount, Decimal::new(5_000_000, 0));
    sandbox.shutdown().await;
}

/// The error of a wait for `reference` to be COMPLETED that must fail.
async fn never_completed(client: &Client, reference: &str, within: Duration) -> WaitError {
    match wait_for_status(client, reference, TransactionStatus::Completed, within).await {
        Ok(transaction) => panic!("{reference} was completed: {transaction:?}"),
        Err(error) => error,
    }
}

#[tokio::test]
async fn a_wait_gives_up_at_its_bound_with_the_last_status_read() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    open_ngn_collection(&client, "order-1", Decimal::new(50_000, 0))
        .await
        .unwrap();
    let error = never_completed(&client, "order-1", Duration::from_millis(30)).await;
    match error {
        WaitError::TimedOut { waited, last } => {
            assert!(waited >= Duration::from_millis(30), "{waited:?}");
            assert_eq!(last, "PENDING (waiting for COMPLETED)");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_transaction_not_there_yet_is_read_again() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let error = never_completed(&client, "order-nowhere", Duration::from_millis(20)).await;
    assert_eq!(
        error.to_string().split("; ").nth(1),
        Some("the last read saw no transaction \"order-nowhere\" (404)")
    );
}

#[tokio::test]
async fn any_other_read_error_ends_the_wait_at_once() {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client("test_unknown_key_00000000");
    let error = never_completed(&client, "order-1", Duration::from_secs(60)).await;
    match error {
        WaitError::Read(error) => assert_eq!(error.status(), Some(401), "{error}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn wait_until_returns_the_first_value_read() {
    let mut reads = 0;
    let value = wait_until(Duration::from_secs(5), || {
        reads += 1;
        let read = reads;
        async move {
            Ok(if read == 3 {
                Ok(read)
            } else {
                Err(format!("read {read}"))
            })
        }
    })
    .await
    .unwrap();
    assert_eq!(value, 3);
}

#[tokio::test]
async fn post_event_sends_the_body_as_given_and_returns_the_answer() {
    let sandbox = TestSandbox::start().await;
    // The sandbox on its fixed clock answers the same request the same
    // way: what post_event returns is exactly what was answered.
    let body = r#"{"reference": "order-1", "status": "COMPLETED"}"#;
    let posted = post_event(&sandbox.url("/api/payout"), body).await.unwrap();
    let direct = sandbox
        .raw(
            reqwest::Method::POST,
            "/api/payout",
            None,
            Some(&serde_json::from_str(body).unwrap()),
        )
        .await;
    assert_eq!((posted.status, posted.text), (direct.status, direct.text));
    assert_eq!(direct.body["path"], "/v1/api/payout");
}
