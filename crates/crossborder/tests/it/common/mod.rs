//! Helpers shared by the integration tests: a wiremock server on 127.0.0.1
//! and a client pointed at it with tiny retry delays.
#![allow(dead_code)]

pub mod log;
pub mod mock;

use std::time::Duration;

use crossborder::types::SimulateFundingRequest;
use crossborder::{Client, ClientBuilder, Currency, Decimal, RetryPolicy, WaitOptions};
use serde_json::{json, Value};
use wiremock::MockServer;

/// A staging key; tests check it never leaks.
pub const KEY: &str = "test_sk_9b1e4f0c2d7a48e6";

/// A production key.
pub const LIVE_KEY: &str = "live_sk_5c3a9e2f7d1b40a8";

/// A retry policy with millisecond waits.
pub fn fast_retries() -> RetryPolicy {
    RetryPolicy::default()
        .max_attempts(3)
        .base_delay(Duration::from_millis(1))
        .max_delay(Duration::from_millis(50))
}

/// A client for `server`, with a trailing slash on the base URL on purpose.
pub fn client_for(server: &MockServer, key: &str, retry: RetryPolicy) -> Client {
    Client::builder()
        .api_key(key)
        .base_url(format!("{}/v1/", server.uri()))
        .timeout(Duration::from_secs(5))
        .connect_timeout(Duration::from_secs(2))
        .retry_policy(retry)
        .build()
        .unwrap()
}

/// A client builder for `base_url` with the staging key and no retries,
/// for tests that set the rest (a timeout, a cap, their own HTTP client).
pub fn builder(base_url: impl Into<String>) -> ClientBuilder {
    Client::builder()
        .api_key(KEY)
        .base_url(base_url)
        .retry_policy(RetryPolicy::none())
}

/// The base URL of a local port nobody listens on.
pub fn offline_url() -> String {
    format!("http://127.0.0.1:{}/v1", closed_port())
}

/// A started server and a staging client with fast retries.
pub async fn setup() -> (MockServer, Client) {
    let server = MockServer::start().await;
    let client = client_for(&server, KEY, fast_retries());
    (server, client)
}

/// A started server and a staging client that never retries, for tests
/// that count every request.
pub async fn setup_without_retries() -> (MockServer, Client) {
    let server = MockServer::start().await;
    let client = client_for(&server, KEY, RetryPolicy::none());
    (server, client)
}

/// An exact decimal.
pub fn dec(text: &str) -> Decimal {
    Decimal::from_str_exact(text).unwrap()
}

/// The documented error body.
pub fn error_body(status: u16, message: &str, path: &str) -> Value {
    json!({
        "statusCode": status,
        "message": message,
        "timestamp": "2026-11-21T12:00:00.000Z",
        "path": path,
        "request": {"method": "GET", "url": path}
    })
}

/// The transaction of the spec's example, with `status`.
pub fn transaction_json(status: &str) -> Value {
    json!({
        "message": "Transaction retrieved successfully",
        "data": {
            "transactionId": "txn_01HZX3K9QW",
            "type": "COLLECTION",
            "payRefrence": "PAY-7KQ2M9XD",
            "paymentReference": "order-10045",
            "amount": 50000,
            "toAmount": 50000,
            "totalAmount": 50000,
            "paidAmount": 20000.5,
            "rate": 1,
            "status": status,
            "fee": 0,
            "fromCurrency": "NGN",
            "toCurrency": "NGN",
            "someFutureField": {"nested": true},
            "paymentInstruction": [{
                "narration": "Use PAY-7KQ2M9XD as the transfer narration",
                "accountNumber": "9930001234",
                "accountName": "Crossborder Collections",
                "bankName": "Sandbox Bank",
                "amountToTransfer": "50000.10",
                "validUntil": "2026-11-22T12:00:00Z"
            }]
        },
        "error": false
    })
}

/// Asserts that `result` is a validation error whose violations read
/// `expected` (the SDK sent nothing).
pub fn assert_invalid<T: std::fmt::Debug>(result: crossborder::Result<T>, expected: &str) {
    match result {
        Err(crossborder::Error::Validation(violations)) => {
            assert_eq!(violations.to_string(), expected)
        }
        other => panic!("{other:?}"),
    }
}

/// Each violation of `error`, as `field: message`.
pub fn violation_messages(error: &crossborder::Error) -> Vec<String> {
    match error.violations() {
        Some(violations) => violations.iter().map(ToString::to_string).collect(),
        None => panic!("not a validation error: {error:?}"),
    }
}

/// How many requests `server` received.
pub async fn requests_received(server: &MockServer) -> usize {
    server.received_requests().await.unwrap_or_default().len()
}

/// Polling for at most `timeout`, the first read again after `first`.
pub fn polling(timeout: Duration, first: Duration) -> WaitOptions {
    WaitOptions::default()
        .timeout(timeout)
        .initial_interval(first)
}

/// Asserts that `server` received no request: the SDK refused before
/// sending.
pub async fn assert_nothing_sent(server: &MockServer) {
    let received = server.received_requests().await.unwrap_or_default();
    assert!(received.is_empty(), "{} requests sent", received.len());
}

/// The JSON body of the first request `server` received.
pub async fn first_body(server: &MockServer) -> Value {
    let requests = server.received_requests().await.unwrap();
    serde_json::from_slice(&requests[0].body).unwrap()
}

/// A staging funding of 50000.10 NGN paying the collection of
/// [`transaction_json`] (`PAY-7KQ2M9XD`), under `sim-2026-11-21-0001`.
pub fn example_funding() -> SimulateFundingRequest {
    SimulateFundingRequest::new(
        Currency::Ngn,
        dec("50000.10"),
        "PAY-7KQ2M9XD",
        "sim-2026-11-21-0001",
    )
}

/// [`transaction_json`] as the payout with session id `reference`.
pub fn payout_json(status: &str, reference: &str) -> Value {
    let mut body = transaction_json(status);
    body["data"]["type"] = json!("PAYOUT");
    body["data"]["paymentReference"] = json!(reference);
    body
}

/// Asserts that `error` is `expected`, field for field: `Error` has no
/// `PartialEq` (some variants hold a `reqwest::Error`), and its `Debug`
/// shows every field.
pub fn assert_error_is(error: &crossborder::Error, expected: &crossborder::Error, case: &str) {
    assert_eq!(format!("{error:?}"), format!("{expected:?}"), "{case}");
}

/// [`transaction_json`] without the field `field`.
pub fn transaction_json_without(status: &str, field: &str) -> Value {
    let mut body = transaction_json(status);
    if let Some(data) = body["data"].as_object_mut() {
        data.remove(field);
    }
    body
}

/// A local port nobody listens on.
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    port
}
