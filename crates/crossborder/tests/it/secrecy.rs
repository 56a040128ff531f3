//! The API key never appears in Debug, Display, error text or tracing
//! output, while it is sent on every request.

use crate::common;

use common::mock::{self, ok, refusal, Answers};
use common::{builder, client_for, error_body, offline_url, setup, KEY};
use crossborder::{config::ApiKey, Client, ClientBuilder, Currency, Error, RetryPolicy};
use wiremock::matchers::{header, header_exists};
use wiremock::{MockServer, ResponseTemplate};

const SECRET_PART: &str = "sk_9b1e4f0c2d7a48e6";

fn assert_hidden(text: &str) {
    assert!(!text.contains(SECRET_PART), "the key leaked into: {text}");
}

fn assert_error_hidden(error: &Error) {
    assert_hidden(&format!("{error}"));
    assert_hidden(&format!("{error:?}"));
    assert_hidden(&format!("{error:#?}"));
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        assert_hidden(&format!("{inner} {inner:?}"));
        source = inner.source();
    }
}

#[test]
fn debug_of_configuration_types_hides_the_key() {
    let key = ApiKey::new(KEY).unwrap();
    assert_hidden(&format!("{key:?} {key:#?}"));
    let builder = ClientBuilder::new()
        .api_key(KEY)
        .base_url("https://api.example.org/v1");
    assert_hidden(&format!("{builder:?} {builder:#?}"));
    let client = builder.build().unwrap();
    assert_hidden(&format!("{client:?} {client:#?}"));
    let low_level = client.low_level();
    assert_hidden(&format!("{low_level:?} {low_level:#?}"));
}

#[test]
fn configuration_errors_hide_the_key() {
    for bad in [
        "sk_9b1e4f0c2d7a48e6",
        "prod_sk_9b1e4f0c2d7a48e6",
        "test_sk_9b1e4f0c2d7a48e6\n",
    ] {
        match Client::builder()
            .api_key(bad)
            .base_url("https://api.example.org/v1")
            .build()
        {
            Err(error) => assert_error_hidden(&error),
            Ok(client) => assert_hidden(&format!("{client:?}")),
        }
    }
}

#[tokio::test]
async fn key_is_sent_but_scrubbed_from_echoed_errors() {
    let (server, client) = setup().await;
    mock::balance("NGN")
        .and(header("x-api-key", KEY))
        .answers_once(
            &server,
            refusal(
                400,
                &format!("Key {KEY} is not valid here"),
                "/v1/api/balance/NGN",
            ),
        )
        .await;
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert!(matches!(error, Error::Api { status: 400, .. }), "{error:?}");
    assert!(error.to_string().contains("[redacted]"), "{error}");
    assert_error_hidden(&error);
}

#[tokio::test]
async fn error_variants_hide_the_key() {
    let server = MockServer::start().await;
    let client = client_for(&server, KEY, RetryPolicy::none());
    let responses = [
        ResponseTemplate::new(401).set_body_json(error_body(
            401,
            "Invalid api key",
            "/v1/api/balance/NGN",
        )),
        ResponseTemplate::new(403).set_body_json(error_body(
            403,
            "API key header needed",
            "/v1/api/balance/NGN",
        )),
        ResponseTemplate::new(502).set_body_raw(format!("<html>{KEY}</html>"), "text/html"),
        ResponseTemplate::new(200)
            .set_body_raw(format!("{{\"echo\":\"{KEY}\""), "application/json"),
    ];
    for response in responses {
        server.reset().await;
        mock::balance("NGN").answers(&server, response).await;
        let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
        assert_error_hidden(&error);
    }
    let offline = builder(offline_url()).build().unwrap();
    let error = offline.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert!(matches!(error, Error::Transport(_)));
    assert_error_hidden(&error);
}

/// A caller-supplied `reqwest::Client` (here with its own default header and
/// no knowledge of the key) still sends `x-api-key` and the user agent on
/// generated operations and on the hand-written upload, and the key stays
/// out of every Debug output.
#[tokio::test]
async fn caller_supplied_http_client_sends_the_key() {
    let server = MockServer::start().await;
    mock::balance("NGN")
        .and(header("x-api-key", KEY))
        .and(header("user-agent", crossborder::ClientBuilder::USER_AGENT))
        .and(header("x-caller", "kept"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"message": "ok", "data": {"balance": 12.5}})),
        )
        .expect(2)
        .mount(&server)
        .await;
    mock::upload_document()
        .and(header("x-api-key", KEY))
        .and(header_exists("content-type"))
        .answers_once(
            &server,
            ok(serde_json::json!({
                "message": "Document uploaded successfully",
                "data": {"link": "https://files.example/doc.pdf"}
            })),
        )
        .await;

    let mut own_headers = reqwest::header::HeaderMap::new();
    own_headers.insert(
        "x-caller",
        reqwest::header::HeaderValue::from_static("kept"),
    );
    let http = reqwest::Client::builder()
        .default_headers(own_headers)
        .build()
        .unwrap();
    let client = builder(format!("{}/v1", server.uri()))
        .http_client(http)
        .build()
        .unwrap();

    client.wallet().balance(Currency::Ngn).await.unwrap();
    let uploaded = client
        .businesses()
        .upload_document(b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
        .await
        .unwrap();
    assert_eq!(uploaded.link, "https://files.example/doc.pdf");

    // The low-level client shares the state: its requests carry the key too
    // (the mock answers only requests that have it).
    client
        .low_level()
        .get_balance()
        .currency(crossborder::Currency::Ngn)
        .send()
        .await
        .unwrap();

    assert_hidden(&format!("{client:?} {client:#?}"));
    let low_level = client.low_level();
    assert_hidden(&format!("{low_level:?} {low_level:#?}"));
    assert_hidden(&format!("{:?}", low_level.state()));
}
