//! Tracing output: one span per operation with its fields, retries logged,
//! and never the API key.

use crate::capture;
use crate::common;
use common::mock::{self, ok, refusal, Answers};
use common::{dec, fast_retries, offline_url, setup, KEY};
use crossborder::{Currency, Error};
use serde_json::json;
use wiremock::matchers::header;
use wiremock::ResponseTemplate;

/// Asserts that the log `text` has each of `parts`.
fn assert_logged(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} in {text}");
    }
}

fn assert_hidden(text: &str) {
    assert!(
        !text.contains("sk_9b1e4f0c2d7a48e6"),
        "the key leaked into: {text}"
    );
}

#[tokio::test]
async fn span_fields_are_recorded_and_the_key_is_not() {
    let (_serial, buffer) = capture().await;

    let (server, client) = setup().await;
    mock::balance("NGN")
        .answers_first(1, &server, ResponseTemplate::new(503))
        .await;
    mock::balance("NGN")
        .and(header("x-api-key", KEY))
        .answers(
            &server,
            ok(json!({"message": "ok", "data": {"balance": 1}})),
        )
        .await;
    mock::balance("USD")
        .answers(
            &server,
            refusal(401, "Invalid api key", "/v1/api/balance/USD"),
        )
        .await;

    client.wallet().balance(Currency::Ngn).await.unwrap();
    client.wallet().balance(Currency::Usd).await.unwrap_err();

    let text = buffer.take();
    assert_logged(
        &text,
        &[
            "crossborder.request",
            "operation=\"getBalance\"",
            "http.method=\"GET\"",
            "http.status=200",
            "http.status=401",
            "duration_ms=",
            "attempts=2",
            "retrying",
        ],
    );
    assert_hidden(&text);
}

#[tokio::test]
async fn payout_is_retried_only_when_the_connection_was_refused() {
    let (_serial, buffer) = capture().await;

    let client = common::builder(offline_url())
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let payout = crossborder_testkit::fixtures::ngn_bank_payout(dec("25000"), "payout-retry-1");
    let error = client.payouts().create(&payout).await.unwrap_err();
    assert!(matches!(error, Error::Transport(_)), "{error:?}");

    let text = buffer.take();
    assert_eq!(text.matches("retrying").count(), 2, "{text}");
    assert_logged(&text, &["operation=\"createPayout\"", "attempts=3"]);
    assert_hidden(&text);
}

/// An unlisted document key is sent with a warning naming it (B15), once
/// per request sent: reading the fields under review or the key mapping
/// logs nothing.
#[tokio::test]
async fn an_unlisted_document_key_is_sent_with_a_warning() {
    let (_serial, buffer) = capture().await;

    let (server, client) = setup().await;
    mock::update_business("biz_1")
        .answers(
            &server,
            ok(json!({"message": "ok", "data": {"id": "biz_1", "status": "PENDING"}})),
        )
        .await;
    let mut documents = crossborder::types::Documents::new();
    documents.insert(
        "SCUML_CERTIFICATE".into(),
        crossborder::types::DocumentLink::new("https://files.example/scuml.pdf", "scuml")
            .unlisted(),
    );
    let update = crossborder::types::UpdateBusinessRequest {
        documents: Some(documents),
        ..Default::default()
    };
    let sent = client.businesses().update("biz_1", &update).await.unwrap();
    assert_eq!(sent.under_review, ["documents"]);
    assert_eq!(update.fields_under_review().unwrap(), ["documents"]);
    assert_eq!(
        update.document_keys()[0].sent.as_deref(),
        Some("SCUML_CERTIFICATE")
    );

    let text = buffer.take();
    assert!(
        text.contains("WARN")
            && text.contains("key=SCUML_CERTIFICATE")
            && text.contains("document key not known to this SDK, sent as given"),
        "{text}"
    );
    assert_eq!(
        text.matches("document key not known to this SDK").count(),
        1,
        "{text}"
    );
    assert_hidden(&text);
}
