//! Error statuses reach the caller as `Error::UnexpectedResponse`, with the
//! status, the headers and the raw body, whatever the body looks like.
//!
//! `cargo xtask codegen` gives progenitor only the 2xx responses of each
//! operation (the spec keeps its documented errors). Were the errors given
//! too, a documented status whose body is not exactly `ErrorResponse` would
//! come back as `Error::InvalidResponsePayload`, without its status or its
//! `Retry-After`, and the SDK could neither map nor retry it.

use crossborder_api::types::ErrorResponse;
use crossborder_api::Currency;
use crossborder_api::{Client, ClientState, Error};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn generated() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/generated.rs")).unwrap()
}

#[test]
fn generated_code_decodes_bodies_only_for_200() {
    let code = generated();
    assert!(
        !code.contains("Error::ErrorResponse"),
        "an operation declares an error response to progenitor"
    );
    // The SDK reports a body that does not decode as coming with HTTP 200:
    // the only status whose body the generated code decodes.
    let decoding: Vec<&str> = code
        .lines()
        .filter(|line| line.contains("crate::response::from_response("))
        .map(str::trim)
        .collect();
    assert!(!decoding.is_empty());
    for line in decoding {
        assert!(
            line.starts_with("200u16 =>"),
            "a body is decoded for another status than 200: {line}"
        );
    }
}

async fn balance_error(reply: ResponseTemplate) -> Error<()> {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/balance/NGN"))
        .respond_with(reply)
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(&format!("{}/v1", server.uri()), ClientState::new());
    client
        .get_balance()
        .currency(Currency::Ngn)
        .send()
        .await
        .unwrap_err()
}

#[tokio::test]
async fn a_documented_status_with_a_plain_text_body_keeps_status_headers_and_body() {
    let reply = ResponseTemplate::new(429)
        .insert_header("retry-after", "0")
        .set_body_raw("Too Many Requests", "text/plain");
    match balance_error(reply).await {
        Error::UnexpectedResponse(response) => {
            assert_eq!(response.status().as_u16(), 429);
            assert_eq!(response.headers()["retry-after"], "0");
            assert_eq!(response.text().await.unwrap(), "Too Many Requests");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_documented_error_body_arrives_raw_and_still_parses() {
    let body =
        r#"{"statusCode":403,"message":"API key header needed","path":"/v1/api/balance/NGN"}"#;
    let reply = ResponseTemplate::new(403).set_body_raw(body, "application/json");
    match balance_error(reply).await {
        Error::UnexpectedResponse(response) => {
            assert_eq!(response.status().as_u16(), 403);
            let parsed: ErrorResponse = response.json().await.unwrap();
            assert_eq!(parsed.message, "API key header needed");
            assert_eq!(parsed.status_code, 403);
            assert_eq!(parsed.path.as_deref(), Some("/v1/api/balance/NGN"));
        }
        other => panic!("{other:?}"),
    }
}
