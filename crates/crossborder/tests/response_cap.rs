//! The response-size cap ([`ClientBuilder::max_response_bytes`]): a server
//! that streams an endless body, behind a `400` and behind a `200`, ends
//! the call with [`Error::ResponseTooLarge`] while the process's resident
//! memory stays small; a `Content-Length` over the cap is refused before
//! reading; and a `2xx` whose body is not the API's JSON leaves a write
//! [`Outcome::MayHaveBeenApplied`].
//!
//! The servers are the test kit's [`oversized_server`]: plain threads on
//! 127.0.0.1 that write until the client hangs up. Every test here is small, so the peak resident memory of this
//! test binary (`VmHWM`) is the endless-body test's.

#[path = "it/common/mod.rs"]
mod common;

use common::mock::{self, Answers};

use std::time::Duration;

use crossborder::{Client, ClientBuilder, Currency, Error, Outcome};
use crossborder_testkit::{oversized_server, Oversized};
use wiremock::ResponseTemplate;

fn client_at(base_url: &str, limit: Option<u64>) -> Client {
    let mut builder = common::builder(base_url).timeout(Duration::from_secs(20));
    if let Some(limit) = limit {
        builder = builder.max_response_bytes(limit);
    }
    builder.build().unwrap()
}

/// The error of a balance read from `base_url` with the response cap
/// `limit` (the default if `None`).
async fn balance_error(base_url: &str, limit: Option<u64>) -> Error {
    client_at(base_url, limit)
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap_err()
}

/// The largest resident set size of this process so far, in KiB, as the
/// kernel counts it.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn an_endless_body_ends_with_the_caps_error_in_bounded_memory() {
    for status in [400u16, 200] {
        let base_url = oversized_server(Oversized::EndlessBody(status));
        let error = balance_error(&base_url, None).await;
        assert_eq!(
            error.to_string(),
            format!("the getBalance answer (HTTP {status}) is larger than the limit of 1048576 bytes; reading stopped")
        );
        match &error {
            Error::ResponseTooLarge {
                operation,
                status: got,
                limit,
                content_length,
                body_prefix,
            } => {
                assert_eq!(*operation, "getBalance");
                assert_eq!(*got, status);
                assert_eq!(*limit, ClientBuilder::DEFAULT_MAX_RESPONSE_BYTES);
                assert_eq!(*content_length, None);
                assert_eq!(body_prefix, &"x".repeat(512));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(error.status(), Some(status));
    }
    let peak = peak_rss_kib();
    assert!(peak < 64 * 1024, "peak resident memory {peak} KiB");
}

#[tokio::test]
async fn a_smaller_cap_is_kept_and_a_body_under_it_is_read() {
    let base_url = oversized_server(Oversized::EndlessBody(200));
    let error = balance_error(&base_url, Some(10_000)).await;
    assert_eq!(
        error.to_string(),
        "the getBalance answer (HTTP 200) is larger than the limit of 10000 bytes; reading stopped"
    );

    // The same cap lets a normal answer through.
    let (server, _) = common::setup().await;
    mock::balance("NGN")
        .answers(&server, ResponseTemplate::new(200).set_body_raw(
            r#"{"message":"Balance retrieved successfully","data":{"balance":1500.25},"error":false}"#,
            "application/json",
        )).await;
    let balance = client_at(&format!("{}/v1", server.uri()), Some(100))
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap();
    assert_eq!(balance.amount, common::dec("1500.25"));
}

#[tokio::test]
async fn a_content_length_over_the_cap_is_refused_before_reading() {
    let base_url = oversized_server(Oversized::DeclaredLength(5 * 1024 * 1024));
    let started = std::time::Instant::now();
    let error = balance_error(&base_url, None).await;
    assert_eq!(
        error.to_string(),
        "the getBalance answer (HTTP 200) is larger than the limit of 1048576 bytes (Content-Length: 5242880); reading stopped"
    );
    assert!(matches!(
        error,
        Error::ResponseTooLarge { content_length: Some(5242880), ref body_prefix, .. } if body_prefix.is_empty()
    ));
    // The server sends no body: the call did not wait for one (the
    // client's timeout is 20 s).
    assert!(started.elapsed() < Duration::from_secs(15));
}

#[tokio::test]
async fn an_error_body_over_the_cap_is_the_caps_error_with_the_status() {
    let (server, _) = common::setup().await;
    mock::simulate_funding()
        .answers(
            &server,
            ResponseTemplate::new(503).set_body_string("y".repeat(3000)),
        )
        .await;
    let error = client_at(&format!("{}/v1", server.uri()), Some(1000))
        .sandbox()
        .simulate_funding(&common::example_funding())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the simulateFunding answer (HTTP 503) is larger than the limit of 1000 bytes (Content-Length: 3000); reading stopped"
    );
    assert_eq!(error.outcome(), Outcome::MayHaveBeenApplied);
}

/// A 2xx whose body is not the API's JSON (a captive portal's page, an
/// empty body) cannot prove the API saw the write.
#[tokio::test]
async fn a_2xx_without_the_apis_json_leaves_a_write_maybe_applied() {
    for (status, body) in [
        (200, "<html><body>Sign in to the hotel Wi-Fi</body></html>"),
        (200, ""),
        (202, "<html>Accepted</html>"),
    ] {
        let (server, client) = common::setup().await;
        mock::simulate_funding()
            .answers_once(
                &server,
                ResponseTemplate::new(status)
                    .insert_header("content-type", "text/html")
                    .set_body_string(body),
            )
            .await;
        let error = client
            .sandbox()
            .simulate_funding(&common::example_funding())
            .await
            .unwrap_err();
        match &error {
            Error::Decode {
                status: got,
                body_prefix,
                ..
            } => {
                assert_eq!(*got, Some(status));
                assert_eq!(body_prefix, body);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(error.outcome(), Outcome::MayHaveBeenApplied, "{error}");
    }
}
