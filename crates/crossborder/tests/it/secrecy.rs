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

/// ASSUMPTIONS D40: the SDK follows no redirect. A server on 127.0.0.1
/// answering 301, 302, 303, 307 and 308 toward a second local server (its
/// own origin: another port) gets [`Error::Redirect`] with the status and
/// the `Location`, for a JSON write, a read and a document upload, and the
/// second server receives nothing: no key, no body. Nor does a client the
/// caller builds from `http_client_builder`.
#[tokio::test]
async fn redirects_are_not_followed_and_the_key_stays_home() {
    use crossborder::types::{FiatCurrency, PayoutRequest};
    use crossborder_testkit::fixtures::ngn_bank;
    use wiremock::matchers::any;
    use wiremock::Mock;

    let elsewhere = MockServer::start().await;
    Mock::given(any())
        .respond_with(ok(serde_json::json!({"message": "ok", "data": {}})))
        .mount(&elsewhere)
        .await;
    for status in [301, 302, 303, 307, 308] {
        let home = MockServer::start().await;
        let location = format!("{}/v1/collected", elsewhere.uri());
        Mock::given(any())
            .respond_with(
                ResponseTemplate::new(status).insert_header("location", location.as_str()),
            )
            .mount(&home)
            .await;
        let own = client_for(&home, KEY, common::fast_retries());
        let built = builder(format!("{}/v1", home.uri()));
        let http = built.http_client_builder().unwrap().build().unwrap();
        let callers = built.http_client(http).build().unwrap();
        for client in [own, callers] {
            let payout = PayoutRequest::pay(common::dec("2500.00"), FiatCurrency::Ngn, ngn_bank())
                .with_session_id("invoice-redirected");
            let errors = [
                ("write", client.payouts().create(&payout).await.unwrap_err()),
                (
                    "read",
                    client.wallet().balance(Currency::Ngn).await.unwrap_err(),
                ),
                (
                    "upload",
                    client
                        .businesses()
                        .upload_document(b"%PDF-1.7\n%%EOF".to_vec(), "cac.pdf")
                        .await
                        .unwrap_err(),
                ),
            ];
            for (case, error) in errors {
                assert!(
                    matches!(&error, Error::Redirect { status: s, location: Some(l) } if *s == status && *l == location),
                    "{status} {case}: {error:?}"
                );
                assert_eq!(error.status(), Some(status));
                assert_eq!(
                    error.to_string(),
                    format!(
                        "HTTP {status}: the server redirects to {location}; the SDK does not \
                         follow redirects, so the API key stays with the base URL's host: \
                         check the base URL"
                    )
                );
                assert_error_hidden(&error);
            }
        }
        // Each call asked once (a redirect is not retried), and nothing
        // reached the other origin.
        assert_eq!(common::requests_received(&home).await, 6, "{status}");
        assert_eq!(common::requests_received(&elsewhere).await, 0, "{status}");
    }
}

/// A `Location` that carries the key (a hostile server echoing it) is shown
/// scrubbed; a redirect without one says so.
#[tokio::test]
async fn a_redirect_shows_its_location_without_the_key() {
    use wiremock::matchers::any;
    use wiremock::Mock;

    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(302).insert_header(
            "location",
            format!("https://evil.example/?k={KEY}").as_str(),
        ))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(307))
        .mount(&server)
        .await;
    let client = client_for(&server, KEY, RetryPolicy::none());
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert!(
        matches!(&error, Error::Redirect { status: 302, location: Some(l) } if l == "https://evil.example/?k=[redacted]"),
        "{error:?}"
    );
    assert_error_hidden(&error);
    let error = client.wallet().balance(Currency::Ngn).await.unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("HTTP 307: the server redirects to no location;"),
        "{error}"
    );
}

/// ASSUMPTIONS D41: a production key needs an https base URL, unless the
/// host is loopback (the local sandbox); a staging key may use http.
#[test]
fn a_production_key_is_refused_a_plain_http_base_url() {
    use common::LIVE_KEY;

    for url in [
        "http://api.example.org/v1",
        "http://10.0.0.8:8080/v1",
        "HTTP://API.EXAMPLE.ORG/v1",
        "http://localhost.example.org/v1",
    ] {
        let error = Client::builder()
            .api_key(LIVE_KEY)
            .base_url(url)
            .build()
            .unwrap_err();
        let shown = url.to_ascii_lowercase();
        assert_eq!(
            error.to_string(),
            format!(
                "configuration error: a production (live_) API key needs an https base URL, \
                 unless its host is loopback (localhost, 127.0.0.0/8, [::1]): over plain http \
                 the key and every request would cross the network unencrypted (base URL {shown})"
            ),
            "{url}"
        );
        assert!(matches!(error, Error::Config(_)));
        assert_error_hidden(&error);
    }
    for url in [
        "https://api.example.org/v1",
        "http://127.0.0.1:8080/v1",
        "http://127.8.0.1/v1",
        "http://localhost:8080/v1",
        "http://LOCALHOST/v1",
        "http://[::1]:8080/v1",
    ] {
        let built = Client::builder().api_key(LIVE_KEY).base_url(url).build();
        assert!(built.is_ok(), "{url}: {:?}", built.err());
    }
    let staging = Client::builder()
        .api_key(KEY)
        .base_url("http://api.example.org/v1")
        .build();
    assert!(staging.is_ok());
}
