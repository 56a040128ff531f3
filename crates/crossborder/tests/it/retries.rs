//! Retry behaviour: reads are retried on 429/502/503/504, writes that move
//! money never are (unless nothing reached the server).

use crate::common;

use std::time::Duration;

use common::mock::{self, refusal, Answers};
use common::{dec, requests_received, setup};
use crossborder::{
    types::{Balance, CollectionRequest, PayoutRequest},
    Currency, Decimal, Error,
};
use crossborder_testkit::{assert_api_error, fixtures::ngn_bank};
use serde_json::json;
use wiremock::ResponseTemplate;

fn balance_ok() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"message": "ok", "data": {"balance": 10.5}}))
}

/// A balance read whose first answer is `first` and whose next answer is
/// the balance, which the server checks were both asked for: the balance
/// read and the number of requests sent.
async fn read_after(first: ResponseTemplate) -> (Decimal, usize) {
    let (server, client) = setup().await;
    mock::balance("NGN").answers_first(1, &server, first).await;
    mock::balance("NGN")
        .answers_once(&server, balance_ok())
        .await;
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    (balance.amount, requests_received(&server).await)
}

/// A balance read answered with `answer`, which the server checks was
/// asked for once (not retried).
async fn read_answered_once(answer: ResponseTemplate) -> crossborder::Result<Balance> {
    let (server, client) = setup().await;
    mock::balance("NGN").answers_once(&server, answer).await;
    client.wallet().balance(Currency::Ngn).await
}

#[tokio::test]
async fn get_is_retried_after_503_then_succeeds() {
    let (amount, requests) = read_after(ResponseTemplate::new(503)).await;
    assert_eq!(amount, dec("10.5"));
    assert_eq!(requests, 2);
}

#[tokio::test]
async fn get_gives_up_after_the_last_attempt() {
    let (server, client) = setup().await;
    mock::balance("NGN")
        .respond_with(ResponseTemplate::new(504))
        .expect(3)
        .mount(&server)
        .await;
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert_eq!(error.status(), Some(504));
}

#[tokio::test]
async fn get_is_not_retried_after_500() {
    let answer =
        read_answered_once(refusal(500, "Internal server error", "/v1/api/balance/NGN")).await;
    assert_api_error(answer, 500, "Internal server error");
}

#[tokio::test]
async fn retry_after_is_honoured_on_429() {
    let first = refusal(429, "Too many requests", "/v1/api/balance/NGN")
        .insert_header("retry-after", "0.01");
    let (_, requests) = read_after(first).await;
    assert_eq!(requests, 2);
}

#[tokio::test]
async fn a_plain_text_429_is_retried_then_succeeds() {
    let first = ResponseTemplate::new(429)
        .insert_header("retry-after", "0")
        .set_body_raw("Too Many Requests", "text/plain");
    let (amount, _) = read_after(first).await;
    assert_eq!(amount, dec("10.5"));
}

#[tokio::test]
async fn an_absurd_retry_after_on_503_does_not_panic() {
    let (server, client) = setup().await;
    mock::balance("NGN")
        .answers_first(
            1,
            &server,
            ResponseTemplate::new(503).insert_header("retry-after", "100000000000000000000000.5"),
        )
        .await;
    mock::balance("NGN").answers(&server, balance_ok()).await;
    // The header is beyond any wait: the error is returned, as for any
    // Retry-After longer than the policy's maximum wait.
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert_eq!(error.status(), Some(503));
}

#[tokio::test]
async fn retry_after_beyond_the_cap_is_not_waited_for() {
    let too_long = refusal(429, "Too many requests", "/v1/api/balance/NGN")
        .insert_header("retry-after", "3600");
    let answer = read_answered_once(too_long).await;
    assert_api_error(answer, 429, "Too many requests");
}

fn payout() -> PayoutRequest {
    PayoutRequest::new("payout-retry-1", dec("25000"), Currency::Ngn, Currency::Ngn)
        .destination(ngn_bank())
}

#[tokio::test]
async fn payout_is_not_retried_after_500() {
    let (server, client) = setup().await;
    mock::payout()
        .answers_once(
            &server,
            refusal(500, "Internal server error", "/v1/api/payout"),
        )
        .await;
    let answer = client.payouts().create(&payout()).await;
    assert_api_error(answer, 500, "Internal server error");
    assert_eq!(requests_received(&server).await, 1);
}

#[tokio::test]
async fn writes_are_not_retried_on_503_or_429() {
    let (server, client) = setup().await;
    mock::payout()
        .answers_once(&server, ResponseTemplate::new(503))
        .await;
    mock::initiate_payment()
        .answers_once(
            &server,
            refusal(429, "Too many requests", "/v1/api/initiate-payment")
                .insert_header("retry-after", "0"),
        )
        .await;
    assert_eq!(
        client
            .payouts()
            .create(&payout())
            .await
            .unwrap_err()
            .status(),
        Some(503)
    );
    let collection = CollectionRequest::new("order-1", dec("10"), Currency::Ngn, Currency::Ngn);
    assert_eq!(
        client
            .collections()
            .create(&collection)
            .await
            .unwrap_err()
            .status(),
        Some(429)
    );
}

#[tokio::test]
async fn payout_timeout_is_not_retried() {
    let (server, _) = setup().await;
    mock::payout()
        .answers_once(
            &server,
            ResponseTemplate::new(200)
                .set_body_json(json!({"message": "ok", "sessionId": "payout-retry-1"}))
                .set_delay(Duration::from_millis(400)),
        )
        .await;
    let client = common::builder(format!("{}/v1", server.uri()))
        .timeout(Duration::from_millis(50))
        .retry_policy(common::fast_retries())
        .build()
        .unwrap();
    let error = client.payouts().create(&payout()).await.unwrap_err();
    assert!(matches!(error, Error::Timeout(_)), "{error:?}");
    assert_eq!(requests_received(&server).await, 1);
}

#[tokio::test]
async fn retry_policy_none_sends_once() {
    let (server, client) = common::setup_without_retries().await;
    mock::balance("NGN")
        .answers_once(&server, ResponseTemplate::new(503))
        .await;
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert_eq!(error.status(), Some(503));
}
