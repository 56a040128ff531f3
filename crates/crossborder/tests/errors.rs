//! The spec's error table, other API errors, and malformed responses: each
//! maps to a typed error, never a panic.

mod common;

use common::mock::{self, ok, refusal, Answers};
use common::{builder, dec, error_body, offline_url, setup, setup_without_retries};
use crossborder::{types::PayoutReceipt, types::PayoutRequest, Currency, Error};
use crossborder_testkit::{assert_api_error, open_ngn_collection};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn balance_error(body: ResponseTemplate) -> Error {
    let (server, client) = setup_without_retries().await;
    mock::balance("NGN").answers_once(&server, body).await;
    client.wallet().balance(Currency::Ngn).await.unwrap_err()
}

/// A USDT payout to a wallet, answered once with `answer`.
async fn payout_answered(answer: ResponseTemplate) -> crossborder::Result<PayoutReceipt> {
    let (server, client) = setup().await;
    mock::payout().answers_once(&server, answer).await;
    let payout = PayoutRequest::new("payout-1", dec("5"), Currency::Usdt, Currency::Usdt)
        .address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
        .network("ethereum");
    client.payouts().create(&payout).await
}

fn documented(status: u16, message: &str) -> ResponseTemplate {
    refusal(status, message, "/v1/api/balance/NGN")
}

#[tokio::test]
async fn missing_api_key_header_is_403() {
    let error = balance_error(documented(403, "API key header needed")).await;
    match &error {
        Error::MissingApiKeyHeader { message } => assert_eq!(message, "API key header needed"),
        other => panic!("{other:?}"),
    }
    assert_eq!(error.status(), Some(403));
}

#[tokio::test]
async fn invalid_api_key_is_401() {
    let error = balance_error(documented(401, "Invalid api key")).await;
    match &error {
        Error::InvalidApiKey { message } => assert_eq!(message, "Invalid api key"),
        other => panic!("{other:?}"),
    }
    assert_eq!(error.to_string(), "Invalid api key (HTTP 401)");
}

#[tokio::test]
async fn api_access_not_granted_is_the_other_401() {
    let text = "not allowed to access this resource; contact support";
    let error = balance_error(documented(401, text)).await;
    match error {
        Error::ApiAccessNotGranted { message } => assert_eq!(message, text),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn invalid_currency_is_400() {
    let (server, client) = setup().await;
    mock::bank_list("USD", "XOF")
        .answers_once(
            &server,
            refusal(400, "Invalid currency: ABC", "/v1/api/bank-list/USD/XOF"),
        )
        .await;
    let error = client
        .banks()
        .list(Currency::Usd, Currency::Xof)
        .await
        .unwrap_err();
    match &error {
        Error::InvalidCurrency { code } => assert_eq!(code, "ABC"),
        other => panic!("{other:?}"),
    }
    assert_eq!(error.to_string(), "Invalid currency: ABC (HTTP 400)");
}

#[tokio::test]
async fn other_api_errors_keep_their_body() {
    let (server, client) = setup().await;
    let body = json!({
        "statusCode": 404,
        "message": "Transaction not found: order-99999",
        "timestamp": "2026-11-21T12:00:00.000Z",
        "path": "/v1/api/transaction/order-99999",
        "request": {"method": "GET", "url": "/v1/api/transaction/order-99999"}
    });
    mock::transaction("order-99999")
        .answers_once(&server, ResponseTemplate::new(404).set_body_json(body))
        .await;
    match client.collections().get("order-99999").await.unwrap_err() {
        Error::Api {
            status,
            message,
            path,
            timestamp,
            body,
        } => {
            assert_eq!(status, 404);
            assert_eq!(message, "Transaction not found: order-99999");
            assert_eq!(path.as_deref(), Some("/v1/api/transaction/order-99999"));
            assert_eq!(timestamp.as_deref(), Some("2026-11-21T12:00:00.000Z"));
            let body: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(body["request"]["method"], "GET");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn undocumented_status_with_an_api_body_is_an_api_error() {
    let answer = payout_answered(refusal(422, "Insufficient balance", "/v1/api/payout")).await;
    assert_api_error(answer, 422, "Insufficient balance");
}

#[tokio::test]
async fn html_502_page_is_a_decode_error_with_its_status() {
    let html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    let error = balance_error(ResponseTemplate::new(502).set_body_raw(html, "text/html")).await;
    match &error {
        Error::Decode {
            status,
            body_prefix,
            ..
        } => {
            assert_eq!(*status, Some(502));
            assert_eq!(body_prefix, html);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(error.status(), Some(502));
}

#[tokio::test]
async fn empty_success_body_is_a_decode_error() {
    let error = balance_error(ResponseTemplate::new(200)).await;
    match error {
        Error::Decode { body_prefix, .. } => assert_eq!(body_prefix, ""),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn truncated_json_is_a_decode_error() {
    let truncated = r#"{"message":"Balance retrieved","data":{"bala"#;
    let error =
        balance_error(ResponseTemplate::new(200).set_body_raw(truncated, "application/json")).await;
    match error {
        Error::Decode {
            message,
            body_prefix,
            ..
        } => {
            assert!(message.contains("EOF"), "{message}");
            assert_eq!(body_prefix, truncated);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn wrong_type_is_a_decode_error() {
    for body in [
        json!({"message": "ok", "data": {"balance": "lots"}}),
        json!({"message": "ok", "data": {"balance": true}}),
        json!({"message": "ok", "data": []}),
        json!(["not", "an", "object"]),
    ] {
        let error = balance_error(ResponseTemplate::new(200).set_body_json(body.clone())).await;
        assert!(matches!(error, Error::Decode { .. }), "{body}: {error:?}");
    }
}

/// `amountToTransfer` is a plain string in the API document: text that is
/// not a decimal leaves the transaction readable, for the collection just
/// created and when it is read back (ASSUMPTIONS.md B32).
#[tokio::test]
async fn odd_amount_to_transfer_text_leaves_the_transaction_readable() {
    let (server, client) = setup().await;
    let mut body = common::transaction_json("PENDING");
    body["data"]["paymentInstruction"][0]["amountToTransfer"] = json!("fifty thousand");
    for (verb, route) in [
        ("GET", "/v1/api/transaction/order-10045"),
        ("POST", "/v1/api/initiate-payment"),
    ] {
        Mock::given(method(verb))
            .and(path(route))
            .answers_once(&server, ok(body.clone()))
            .await;
    }
    let read = client.collections().get("order-10045").await.unwrap();
    let created = open_ngn_collection(&client, "order-10045", dec("50000"))
        .await
        .unwrap();
    for transaction in [read, created] {
        assert_eq!(transaction.amount, dec("50000"));
        assert_eq!(transaction.pay_reference.as_deref(), Some("PAY-7KQ2M9XD"));
        let instruction = &transaction.payment_instructions[0];
        assert_eq!(instruction.amount_to_transfer, None);
        let text = &instruction.amount_to_transfer_text;
        assert_eq!(text.as_str(), "fifty thousand");
        assert_eq!(
            text.decimal().unwrap_err().to_string(),
            "expected a decimal number or numeric string, got \"fifty thousand\": Invalid decimal: unknown character"
        );
    }
}

#[tokio::test]
async fn long_bodies_are_cut_to_a_prefix() {
    let long = format!("<html>{}</html>", "x".repeat(10_000));
    let error = balance_error(ResponseTemplate::new(502).set_body_raw(long, "text/html")).await;
    match error {
        Error::Decode { body_prefix, .. } => {
            assert_eq!(body_prefix.len(), crossborder::Error::BODY_PREFIX_LEN);
            assert!(body_prefix.starts_with("<html>xxx"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn html_500_on_a_documented_status_is_a_decode_error() {
    let html = ResponseTemplate::new(500).set_body_raw("<h1>oops</h1>", "text/html");
    let error = payout_answered(html).await.unwrap_err();
    match &error {
        Error::Decode {
            status,
            body_prefix,
            ..
        } => {
            assert_eq!(*status, Some(500));
            assert_eq!(body_prefix, "<h1>oops</h1>");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(error.status(), Some(500));
}

#[tokio::test]
async fn invalid_api_key_without_status_code_is_still_invalid_api_key() {
    let reply = ResponseTemplate::new(401).set_body_json(json!({"message": "Invalid api key"}));
    match balance_error(reply).await {
        Error::InvalidApiKey { message } => assert_eq!(message, "Invalid api key"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_message_array_is_joined() {
    let raw = r#"{"statusCode":400,"message":["amount must be positive","toCurrency is required"],"error":"Bad Request"}"#;
    let error =
        balance_error(ResponseTemplate::new(400).set_body_raw(raw, "application/json")).await;
    match error {
        Error::Api {
            status,
            message,
            path,
            body,
            ..
        } => {
            assert_eq!(status, 400);
            assert_eq!(message, "amount must be positive; toCurrency is required");
            assert_eq!(path, None);
            assert_eq!(body, raw);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn api_error_body_is_the_raw_body() {
    // Key order, spacing and fields the spec does not list are kept as sent.
    let raw = r#"{ "path": "/v1/api/balance/NGN", "message": "Conflict", "statusCode": 409, "traceId": "abc" }"#;
    let error =
        balance_error(ResponseTemplate::new(409).set_body_raw(raw, "application/json")).await;
    match error {
        Error::Api { status, body, .. } => {
            assert_eq!(status, 409);
            assert_eq!(body, raw);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_status_is_the_responses_not_the_bodys() {
    let error = balance_error(documented(400, "Rate limited")).await;
    let error = match error {
        Error::Api { .. } => error,
        other => panic!("{other:?}"),
    };
    assert_eq!(error.status(), Some(400));
    let reply = ResponseTemplate::new(404).set_body_json(error_body(
        500,
        "Transaction not found: x",
        "/v1/api/balance/NGN",
    ));
    assert!(matches!(
        balance_error(reply).await,
        Error::Api { status: 404, .. }
    ));
}

#[tokio::test]
async fn connection_refused_is_a_transport_error() {
    let client = builder(offline_url()).build().unwrap();
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
}

#[tokio::test]
async fn slow_server_is_a_timeout() {
    let server = MockServer::start().await;
    mock::balance("NGN")
        .answers(
            &server,
            ResponseTemplate::new(200)
                .set_body_json(json!({"message": "ok", "data": {"balance": 1}}))
                .set_delay(std::time::Duration::from_millis(500)),
        )
        .await;
    let client = builder(format!("{}/v1", server.uri()))
        .timeout(std::time::Duration::from_millis(50))
        .build()
        .unwrap();
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert!(matches!(error, Error::Timeout(_)), "{error:?}");
}
