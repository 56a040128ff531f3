//! The response-size cap ([`ClientBuilder::max_response_bytes`]): a server
//! that streams an endless body, behind a `400` and behind a `200`, ends
//! the call with [`Error::ResponseTooLarge`] while the process's resident
//! memory stays small; a `Content-Length` over the cap is refused before
//! reading; and a `2xx` whose body is not the API's JSON leaves a write
//! [`Outcome::MayHaveBeenApplied`].
//!
//! The servers are plain threads on 127.0.0.1 that write until the client
//! hangs up. Every test here is small, so the peak resident memory of this
//! test binary (`VmHWM`) is the endless-body test's.

mod common;

use common::mock::{self, Answers};

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use crossborder::{
    types::SimulateFundingRequest, Client, ClientBuilder, Currency, Error, Outcome, RetryPolicy,
};
use wiremock::ResponseTemplate;

/// What a test server answers after reading a request head.
#[derive(Clone, Copy)]
enum Answer {
    /// `status` with a chunked body of `x` that never ends.
    Endless(u16),
    /// `200` with a `Content-Length` of `length` and no body sent, the
    /// connection held open until the client closes it.
    Declares(u64),
}

/// A server on 127.0.0.1 answering every connection with `answer`.
fn serve(answer: Answer) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            std::thread::spawn(move || answer_one(stream, answer));
        }
    });
    addr
}

fn answer_one(mut stream: TcpStream, answer: Answer) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    match answer {
        Answer::Endless(status) => {
            let head = format!(
                "HTTP/1.1 {status} Whatever\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            );
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            let mut chunk = format!("{:x}\r\n", 64 * 1024).into_bytes();
            chunk.extend(std::iter::repeat_n(b'x', 64 * 1024));
            chunk.extend_from_slice(b"\r\n");
            // Until the client hangs up.
            while stream.write_all(&chunk).is_ok() {}
        }
        Answer::Declares(length) => {
            let head = format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n\r\n");
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            // Nothing more: a client that waited for the body would time out.
            let mut rest = [0u8; 64];
            while matches!(stream.read(&mut rest), Ok(n) if n > 0) {}
        }
    }
}

fn client_at(addr: SocketAddr, limit: Option<u64>) -> Client {
    let mut builder = Client::builder()
        .api_key(common::KEY)
        .base_url(format!("http://{addr}/v1"))
        .timeout(Duration::from_secs(20))
        .retry_policy(RetryPolicy::none());
    if let Some(limit) = limit {
        builder = builder.max_response_bytes(limit);
    }
    builder.build().unwrap()
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
        let addr = serve(Answer::Endless(status));
        let error = client_at(addr, None)
            .wallet()
            .balance(Currency::Ngn)
            .await
            .unwrap_err();
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
    let addr = serve(Answer::Endless(200));
    let error = client_at(addr, Some(10_000))
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap_err();
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
    let addr: SocketAddr = server.address().to_owned();
    let balance = client_at(addr, Some(100))
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap();
    assert_eq!(balance.amount, common::dec("1500.25"));
}

#[tokio::test]
async fn a_content_length_over_the_cap_is_refused_before_reading() {
    let addr = serve(Answer::Declares(5 * 1024 * 1024));
    let started = std::time::Instant::now();
    let error = client_at(addr, None)
        .wallet()
        .balance(Currency::Ngn)
        .await
        .unwrap_err();
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
    let error = client_at(*server.address(), Some(1000))
        .sandbox()
        .simulate_funding(&funding())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the simulateFunding answer (HTTP 503) is larger than the limit of 1000 bytes (Content-Length: 3000); reading stopped"
    );
    assert_eq!(error.outcome(), Outcome::MayHaveBeenApplied);
}

fn funding() -> SimulateFundingRequest {
    SimulateFundingRequest::new(
        Currency::Ngn,
        common::dec("50000.10"),
        "PAY-7KQ2M9XD",
        "sim-2026-11-21-0001",
    )
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
            .simulate_funding(&funding())
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
