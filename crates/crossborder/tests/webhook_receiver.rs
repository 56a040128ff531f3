//! `webhook::Receiver` (feature `axum`): what it logs about a refused body
//! (never the body), a handler that panics, and what the feature adds to
//! the dependency tree (no TLS stack).
#![cfg(feature = "axum")]

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossborder::webhook::{Receiver, WebhookEvent};

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Serves `route` on 127.0.0.1 and returns its URL.
async fn serve(route: axum::routing::MethodRouter) -> String {
    let app = axum::Router::new().route("/hook", route);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    url
}

async fn post(url: &str, body: &'static str) -> u16 {
    reqwest::Client::new()
        .post(url)
        .body(body)
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_refused_body_is_logged_by_its_reason_never_its_content() {
    let buffer = Buffer::default();
    let writer = buffer.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let url = serve(Receiver::new().route(|_event: WebhookEvent| async {})).await;
    let secret_looking = r#"{"reference": "o", "status": true, "password": "hunter2", "paidAmount": "sk_live_4242"}"#;
    assert_eq!(post(&url, secret_looking).await, 400);
    assert_eq!(post(&url, "Authorization: Bearer hunter2").await, 400);

    let logged = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
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
}

#[tokio::test]
async fn a_panicking_handler_does_not_stop_the_next_event() {
    let handled = Arc::new(AtomicUsize::new(0));
    let count = handled.clone();
    let url = serve(Receiver::new().route(move |event: WebhookEvent| {
        let count = count.clone();
        async move {
            if event.reference == "boom" {
                panic!("handler bug");
            }
            count.fetch_add(1, Ordering::SeqCst);
        }
    }))
    .await;
    assert_eq!(
        post(&url, r#"{"reference": "boom", "status": true}"#).await,
        200
    );
    assert_eq!(
        post(&url, r#"{"reference": "fine", "status": true}"#).await,
        200
    );
    for _ in 0..500 {
        if handled.load(Ordering::SeqCst) == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the event after the panic was not handled");
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
