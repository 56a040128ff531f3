//! The spec's error table, other API errors, and malformed responses: each
//! maps to a typed error, never a panic.

use crate::common;

use common::mock::{self, ok, refusal, Answers};
use common::{
    assert_error_is, builder, dec, error_body, offline_url, setup, setup_without_retries,
};
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

/// An answer to `GET /balance/NGN`, the error the SDK makes of it, and
/// that error's text and status.
struct Case {
    name: &'static str,
    answer: ResponseTemplate,
    error: Error,
    text: &'static str,
    status: u16,
}

/// Checks each case, naming it when it fails.
async fn assert_balance_errors(cases: impl IntoIterator<Item = Case>) {
    for case in cases {
        let error = balance_error(case.answer).await;
        assert_error_is(&error, &case.error, case.name);
        assert_eq!(error.to_string(), case.text, "{}", case.name);
        assert_eq!(error.status(), Some(case.status), "{}", case.name);
    }
}

/// The fields of [`Error::Api`] for the documented body of a `status` with
/// `message` at the balance's path, whose body is kept whole.
fn documented_api_error(status: u16, message: &str, body_status: u16) -> Error {
    let body = error_body(body_status, message, "/v1/api/balance/NGN");
    Error::Api {
        status,
        message: message.into(),
        path: Some("/v1/api/balance/NGN".into()),
        timestamp: Some("2026-11-21T12:00:00.000Z".into()),
        body: body.to_string(),
    }
}

/// The spec's error table and the API's other refusals: each is its typed
/// error, with the response's status whatever the body says.
#[tokio::test]
async fn api_error_bodies_map_to_their_errors() {
    let access = "not allowed to access this resource; contact support";
    let array = r#"{"statusCode":400,"message":["amount must be positive","toCurrency is required"],"error":"Bad Request"}"#;
    // Key order, spacing and fields the spec does not list are kept as sent.
    let raw = r#"{ "path": "/v1/api/balance/NGN", "message": "Conflict", "statusCode": 409, "traceId": "abc" }"#;
    let cases = [
        Case {
            name: "403 is the missing key header",
            answer: documented(403, "API key header needed"),
            error: Error::MissingApiKeyHeader {
                message: "API key header needed".into(),
            },
            text: "API key header needed (HTTP 403)",
            status: 403,
        },
        Case {
            name: "401 Invalid api key",
            answer: documented(401, "Invalid api key"),
            error: Error::InvalidApiKey {
                message: "Invalid api key".into(),
            },
            text: "Invalid api key (HTTP 401)",
            status: 401,
        },
        Case {
            name: "401 Invalid api key without statusCode",
            answer: ResponseTemplate::new(401).set_body_json(json!({"message": "Invalid api key"})),
            error: Error::InvalidApiKey {
                message: "Invalid api key".into(),
            },
            text: "Invalid api key (HTTP 401)",
            status: 401,
        },
        Case {
            name: "the other 401 is access not granted",
            answer: documented(401, access),
            error: Error::ApiAccessNotGranted {
                message: access.into(),
            },
            text: "not allowed to access this resource; contact support (HTTP 401)",
            status: 401,
        },
        Case {
            name: "400 Invalid currency",
            answer: documented(400, "Invalid currency: ABC"),
            error: Error::InvalidCurrency { code: "ABC".into() },
            text: "Invalid currency: ABC (HTTP 400)",
            status: 400,
        },
        Case {
            name: "another 404 keeps its body",
            answer: documented(404, "Balance not found: NGN"),
            error: documented_api_error(404, "Balance not found: NGN", 404),
            text: "HTTP 404: Balance not found: NGN",
            status: 404,
        },
        Case {
            name: "another 400 is not in the error table",
            answer: documented(400, "Rate limited"),
            error: documented_api_error(400, "Rate limited", 400),
            text: "HTTP 400: Rate limited",
            status: 400,
        },
        Case {
            name: "the status is the response's, not the body's",
            answer: ResponseTemplate::new(404).set_body_json(error_body(
                500,
                "Transaction not found: x",
                "/v1/api/balance/NGN",
            )),
            error: documented_api_error(404, "Transaction not found: x", 500),
            text: "HTTP 404: Transaction not found: x",
            status: 404,
        },
        Case {
            name: "a message array is joined",
            answer: ResponseTemplate::new(400).set_body_raw(array, "application/json"),
            error: Error::Api {
                status: 400,
                message: "amount must be positive; toCurrency is required".into(),
                path: None,
                timestamp: None,
                body: array.into(),
            },
            text: "HTTP 400: amount must be positive; toCurrency is required",
            status: 400,
        },
        Case {
            name: "the body is the raw body",
            answer: ResponseTemplate::new(409).set_body_raw(raw, "application/json"),
            error: Error::Api {
                status: 409,
                message: "Conflict".into(),
                path: Some("/v1/api/balance/NGN".into()),
                timestamp: None,
                body: raw.into(),
            },
            text: "HTTP 409: Conflict",
            status: 409,
        },
    ];
    assert_balance_errors(cases).await;
}

#[tokio::test]
async fn undocumented_status_with_an_api_body_is_an_api_error() {
    let answer = payout_answered(refusal(422, "Insufficient balance", "/v1/api/payout")).await;
    assert_api_error(answer, 422, "Insufficient balance");
}

/// Every operation answers 200 (ASSUMPTIONS B2): the generated operations
/// read the body of a 200 only, so another 2xx, even with the documented
/// body, is a decode error with its status, a write's outcome unknown.
#[tokio::test]
async fn a_2xx_other_than_200_is_a_decode_error_with_its_status() {
    let body = r#"{"message":"Balance retrieved","data":{"balance":12.5},"error":false}"#;
    let error =
        balance_error(ResponseTemplate::new(201).set_body_raw(body, "application/json")).await;
    assert_error_is(
        &error,
        &Error::Decode {
            status: Some(201),
            message: "a 201 Created answer without the documented body".into(),
            body_prefix: body.into(),
        },
        "201 with the documented body",
    );
    assert_eq!(error.outcome(), crossborder::Outcome::MayHaveBeenApplied);
    // The same body with 200 is the balance.
    let (server, client) = setup_without_retries().await;
    mock::balance("NGN")
        .answers_once(
            &server,
            ResponseTemplate::new(200).set_body_raw(body, "application/json"),
        )
        .await;
    let balance = client.wallet().balance(Currency::Ngn).await.unwrap();
    assert_eq!(balance.amount, dec("12.5"));
}

/// A body that is not the API's (an HTML page, nothing, cut-off JSON) is a
/// decode error with the response's status and the body's first bytes.
#[tokio::test]
async fn bodies_that_are_not_the_apis_are_decode_errors() {
    let html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    let truncated = r#"{"message":"Balance retrieved","data":{"bala"#;
    let long = format!("<html>{}</html>", "x".repeat(10_000));
    let prefix = format!(
        "<html>{}",
        "x".repeat(Error::BODY_PREFIX_LEN - "<html>".len())
    );
    let not_json = "HTTP 502 Bad Gateway with a body that is not an API error: expected value at line 1 column 1";
    let cases = [
        Case {
            name: "an HTML 502 page",
            answer: ResponseTemplate::new(502).set_body_raw(html, "text/html"),
            error: Error::Decode {
                status: Some(502),
                message: not_json.into(),
                body_prefix: html.into(),
            },
            text: "could not decode the response (HTTP 502): HTTP 502 Bad Gateway with a body that is not an API error: expected value at line 1 column 1",
            status: 502,
        },
        Case {
            name: "an empty 200",
            answer: ResponseTemplate::new(200),
            error: Error::Decode {
                status: Some(200),
                message: "EOF while parsing a value at line 1 column 0".into(),
                body_prefix: "".into(),
            },
            text: "could not decode the response (HTTP 200): EOF while parsing a value at line 1 column 0",
            status: 200,
        },
        Case {
            name: "truncated JSON",
            answer: ResponseTemplate::new(200).set_body_raw(truncated, "application/json"),
            error: Error::Decode {
                status: Some(200),
                message: "EOF while parsing a string at line 1 column 44".into(),
                body_prefix: truncated.into(),
            },
            text: "could not decode the response (HTTP 200): EOF while parsing a string at line 1 column 44",
            status: 200,
        },
        Case {
            name: "a long body is cut to a prefix",
            answer: ResponseTemplate::new(502).set_body_raw(long, "text/html"),
            error: Error::Decode {
                status: Some(502),
                message: not_json.into(),
                body_prefix: prefix,
            },
            text: "could not decode the response (HTTP 502): HTTP 502 Bad Gateway with a body that is not an API error: expected value at line 1 column 1",
            status: 502,
        },
    ];
    assert_balance_errors(cases).await;
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
async fn html_500_on_a_documented_status_is_a_decode_error() {
    let html = ResponseTemplate::new(500).set_body_raw("<h1>oops</h1>", "text/html");
    let error = payout_answered(html).await.unwrap_err();
    let expected = Error::Decode {
        status: Some(500),
        message: "HTTP 500 Internal Server Error with a body that is not an API error: expected value at line 1 column 1".into(),
        body_prefix: "<h1>oops</h1>".into(),
    };
    assert_error_is(&error, &expected, "an HTML 500 to a payout");
    assert_eq!(error.status(), Some(500));
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
