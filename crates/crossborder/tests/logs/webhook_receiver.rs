//! `webhook::Receiver` (feature `axum`): what it logs about a refused body
//! (never the body), a handler that panics or returns `Err` (the next event still runs, and
//! the change it failed on is not remembered as handled), and what the
//! feature adds to the dependency tree (no TLS stack).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crossborder::webhook::{Delivery, Receiver, Unconfirmed, Verdict, DEFAULT_MAX_BODY_BYTES};
use crossborder::{
    types::{CollectionRequest, SimulateFundingRequest, TransactionStatus},
    Client, Currency, Decimal, RetryPolicy,
};
use crossborder_sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use crossborder_testkit::{post_event, LocalServer};

/// Serves `route` on 127.0.0.1 at `/hook` until dropped.
async fn serve(route: axum::routing::MethodRouter) -> LocalServer {
    LocalServer::start(axum::Router::new().route("/hook", route)).await
}

/// A client of `sandbox`, without retries.
fn client(sandbox: &SandboxHandle) -> Client {
    Client::builder()
        .api_key("test_sandbox_key")
        .base_url(sandbox.base_url())
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

/// The status the receiver at `url` answers `body` with.
async fn post(url: &str, body: &'static str) -> u16 {
    post_event(url, body).await.unwrap().status
}

#[tokio::test]
async fn a_refused_body_is_logged_by_its_reason_never_its_content() {
    let (_serial, buffer) = crate::capture().await;

    let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let server = serve(
        Receiver::new(client(&sandbox)).route(|delivery: Delivery| async move {
            if delivery.event.reference == "log-boom" {
                panic!("handler bug");
            }
        }),
    )
    .await;
    let url = server.url("/hook");
    let secret_looking = r#"{"reference": "o", "status": true, "password": "hunter2", "paidAmount": "sk_live_4242"}"#;
    assert_eq!(post(&url, secret_looking).await, 400);
    assert_eq!(post(&url, "Authorization: Bearer hunter2").await, 400);

    let logged = buffer.text();
    assert!(
        logged.contains("webhook body refused")
            && logged.contains("`paidAmount` must be a number or a numeric string")
            && logged.contains(&format!("bytes={}", secret_looking.len())),
        "{logged}"
    );
    assert!(
        logged.contains("the body is not JSON (syntax error at line 1, column 1)"),
        "{logged}"
    );
    for secret in ["hunter2", "sk_live_4242", "Bearer"] {
        assert!(!logged.contains(secret), "{secret} leaked into: {logged}");
    }

    // What happens after the 200 is logged too: an event the service does
    // not confirm (WARN, with why), and a handler that panics (ERROR).
    assert_eq!(
        post(&url, r#"{"reference": "log-boom", "status": true}"#).await,
        200
    );
    // Each expected line holds all of its parts (other tests of this binary
    // log to the same subscriber).
    let expected: [&[&str]; 2] = [
        &[
            "WARN",
            "webhook event not confirmed by the service",
            "reference=log-boom",
            "no transaction has the event's reference log-boom",
        ],
        &[
            "ERROR",
            "the webhook handler panicked",
            "reference=log-boom",
        ],
    ];
    let found = |logged: &str, parts: &[&str]| {
        logged
            .lines()
            .any(|line| parts.iter().all(|part| line.contains(part)))
    };
    let mut logged = String::new();
    for _ in 0..1000 {
        logged = buffer.text();
        if expected.iter().all(|parts| found(&logged, parts)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for parts in expected {
        assert!(found(&logged, parts), "{parts:?} not in: {logged}");
    }
    sandbox.shutdown().await;
}

/// How a handler fails on its first delivery.
#[derive(Clone, Copy)]
enum Failure {
    Panic,
    Err,
}

#[tokio::test]
async fn a_panicking_handler_does_not_stop_the_next_event_nor_mark_its_change_handled() {
    first_delivery_fails_then_is_handed_over_again(Failure::Panic).await;
}

#[tokio::test]
async fn a_handler_returning_err_does_not_mark_its_change_handled() {
    first_delivery_fails_then_is_handed_over_again(Failure::Err).await;
}

/// The first delivery of order-boom fails as `failure` says; its repeat
/// is handed over (the change was forgotten), the next repeat dropped,
/// and the event after it still runs.
async fn first_delivery_fails_then_is_handed_over_again(failure: Failure) {
    let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let client = client(&sandbox);
    let created = client
        .collections()
        .create(&CollectionRequest::new(
            "order-boom",
            Decimal::new(5000, 0),
            Currency::Ngn,
            Currency::Ngn,
        ))
        .await
        .unwrap();
    client
        .sandbox()
        .simulate_funding(&SimulateFundingRequest::new(
            Currency::Ngn,
            Decimal::new(5000, 0),
            created.pay_reference.unwrap(),
            "boom-1",
        ))
        .await
        .unwrap();

    // The first delivery of order-boom fails; every delivery the handler
    // finishes is recorded.
    let calls = Arc::new(AtomicUsize::new(0));
    let (record, mut handled) = tokio::sync::mpsc::unbounded_channel();
    let route = Receiver::new(client).route({
        let calls = calls.clone();
        move |delivery: Delivery| {
            let (calls, record) = (calls.clone(), record.clone());
            async move {
                if delivery.event.reference == "order-boom"
                    && calls.fetch_add(1, Ordering::SeqCst) == 0
                {
                    match failure {
                        Failure::Panic => panic!("handler bug"),
                        Failure::Err => return Err("the database is down"),
                    }
                }
                let _ = record.send(delivery);
                Ok(())
            }
        }
    });
    let server = serve(route).await;
    let url = server.url("/hook");
    let completed = r#"{"reference": "order-boom", "status": true, "paidAmount": 5000}"#;
    // Fails; handled; a repeat, dropped; an event for another reference.
    for body in [
        completed,
        completed,
        completed,
        r#"{"reference": "fine", "status": true}"#,
    ] {
        assert_eq!(post(&url, body).await, 200);
    }
    let mut handled_in_order = Vec::new();
    for _ in 0..2 {
        let delivery = tokio::time::timeout(Duration::from_secs(10), handled.recv())
            .await
            .expect("the handler runs in time")
            .unwrap();
        handled_in_order.push(delivery);
    }
    assert_eq!(handled_in_order[0].event.reference, "order-boom");
    let confirmed = handled_in_order[0].verdict.confirmed().unwrap();
    assert_eq!(confirmed.transaction.status, TransactionStatus::Completed);
    assert_eq!(handled_in_order[1].event.reference, "fine");
    assert!(matches!(
        handled_in_order[1].verdict,
        Verdict::Unconfirmed(Unconfirmed::UnknownReference { .. })
    ));
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_default_body_limit_is_64_kib() {
    assert_eq!(DEFAULT_MAX_BODY_BYTES, 64 * 1024);
    let sandbox = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let server = serve(Receiver::new(client(&sandbox)).route(|_: Delivery| async {})).await;
    let url = server.url("/hook");
    let padded = |size: usize| {
        let event = r#"{"reference": "o", "status": true, "pad": ""}"#;
        let pad = "x".repeat(size - event.len());
        format!(r#"{{"reference": "o", "status": true, "pad": "{pad}"}}"#)
    };
    let send = |body: String| {
        let url = url.clone();
        async move {
            let reply = post_event(&url, body).await.unwrap();
            (reply.status, reply.text)
        }
    };
    assert_eq!(
        send(padded(DEFAULT_MAX_BODY_BYTES)).await,
        (200, r#"{"message":"Event accepted"}"#.to_owned())
    );
    assert_eq!(
        send(padded(DEFAULT_MAX_BODY_BYTES + 1)).await,
        (
            413,
            r#"{"message":"The body is larger than 65536 bytes"}"#.to_owned()
        )
    );
    sandbox.shutdown().await;
}

/// The feature adds axum and its few helpers: no TLS crate.
#[test]
fn the_axum_feature_adds_no_tls_stack() {
    let tree = |features: &[&str]| {
        let mut args = vec![
            "tree",
            "-p",
            "crossborder",
            "-e",
            "normal",
            "--prefix",
            "none",
        ];
        args.extend_from_slice(features);
        let output = std::process::Command::new(env!("CARGO"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = String::from_utf8(output.stdout).unwrap();
        let mut names: Vec<String> = text
            .lines()
            .filter_map(|line| line.split_whitespace().next())
            .map(str::to_owned)
            .collect();
        names.sort();
        names.dedup();
        names
    };
    let without = tree(&[]);
    let with: Vec<String> = tree(&["--features", "axum"]);
    let added: Vec<&String> = with.iter().filter(|name| !without.contains(name)).collect();
    assert!(added.iter().any(|name| *name == "axum"), "{added:?}");
    for name in &added {
        assert!(
            !["tls", "ssl", "rustls"]
                .iter()
                .any(|tls| name.contains(tls)),
            "the axum feature adds {name}"
        );
    }
    assert!(added.len() <= 8, "the axum feature adds {added:?}");
}
