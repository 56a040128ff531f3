//! `webhook set` and `webhook listen`: events from the sandbox received,
//! verified, printed and forwarded, a slow forward target holding up
//! nothing.

use std::net::TcpListener;
use std::time::Duration;

use crossborder::{Client, Decimal};
use crossborder_testkit::{open_ngn_collection, pay_collection, post_event, within};
use tokio::sync::mpsc;

use crate::{at, run, sandbox, Live, KEY};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_set_registers_the_url_events_go_to() {
    let sandbox = sandbox().await;
    let target = "http://127.0.0.1:9/collections";
    let mut set = at(sandbox.base_url());
    set.args(["webhook", "set", target]);
    let out = run(set).await;
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    out.stdout_starts("message  ");

    collect_and_pay(sandbox.base_url(), "set-1", 5000).await;
    let deliveries = sandbox
        .wait_for_webhook_deliveries(1, Duration::from_secs(60))
        .await;
    assert_eq!(deliveries[0].url, target);

    let mut refused = at(sandbox.base_url());
    refused.args(["webhook", "set", "not a url"]);
    let out = run(refused).await;
    assert_eq!(out.code, 2, "{}", out.stderr);
    out.stderr_starts("error: invalid request");
}

pub(crate) fn client(base_url: &str) -> Client {
    Client::builder()
        .api_key(KEY)
        .base_url(base_url)
        .build()
        .unwrap()
}

/// Opens a collection of 5000 NGN for `reference` on `base_url`'s
/// sandbox and pays `amount` NGN into it (session `{reference}-fund`), as
/// a payer would; returns the client and the collection's memo.
pub(crate) async fn collect_and_pay(
    base_url: &str,
    reference: &str,
    amount: i64,
) -> (Client, String) {
    let client = client(base_url);
    let opened = open_ngn_collection(&client, reference, Decimal::new(5000, 0)).await;
    let memo = opened.unwrap().pay_reference.unwrap();
    fund(&client, &memo, amount, &format!("{reference}-fund")).await;
    (client, memo)
}

/// Pays `amount` NGN into the collection whose memo is `memo`.
pub(crate) async fn fund(client: &Client, memo: &str, amount: i64, session: &str) {
    pay_collection(client, memo, Decimal::new(amount, 0), session)
        .await
        .unwrap();
}

/// `webhook listen` against `base_url` with `more` options, its URL
/// registered as the webhook.
pub(crate) async fn listen(base_url: &str, more: &[&str]) -> Live {
    let mut args = vec![
        "--api-key",
        KEY,
        "--base-url",
        base_url,
        "webhook",
        "listen",
        "--port",
        "0",
    ];
    args.extend_from_slice(more);
    let mut live = Live::start(&args);
    let first = live.line("listening");
    let url = Live::url_in(&first);
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/webhook"),
        "{first}"
    );
    client(base_url).webhooks().set_url(&url).await.unwrap();
    live
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_listen_prints_each_event_verified() {
    let sandbox = sandbox().await;
    let mut live = listen(sandbox.base_url(), &[]).await;
    collect_and_pay(sandbox.base_url(), "listen-1", 2000).await;
    let event = live.until("event", |line| line.starts_with("event "));
    live.kill();
    assert_eq!(
        event,
        "event listen-1: partially paid, paid 2000; verified: the transaction is PARTIALLY_PAID"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_event_is_printed_as_not_confirmed() {
    let sandbox = sandbox().await;
    let mut live = listen(sandbox.base_url(), &[]).await;
    let url = Live::url_in(&live.seen[0]);
    let forged = r#"{"reference": "forged-1", "status": true, "paidAmount": 5000}"#;
    assert_eq!(post_event(&url, forged).await.unwrap().status, 200);
    let event = live.until("event", |line| line.starts_with("event "));
    live.kill();
    assert!(
        event.starts_with("event forged-1: completed, paid 5000; NOT confirmed: "),
        "{event}"
    );
}

/// A forward target on 127.0.0.1 that hands each body it receives to the
/// test and answers 200.
async fn forward_target() -> (String, mpsc::UnboundedReceiver<String>) {
    let (bodies, received) = mpsc::unbounded_channel::<String>();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |body: String| {
            let bodies = bodies.clone();
            async move {
                let _ = bodies.send(body);
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/hook"), received)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_listen_forwards_each_event_unchanged() {
    let sandbox = sandbox().await;
    let (target, mut forwarded) = forward_target().await;
    let mut live = listen(sandbox.base_url(), &["--forward-to", &target]).await;
    collect_and_pay(sandbox.base_url(), "forward-1", 5000).await;
    let event = live.until("event", |line| line.starts_with("event "));
    assert_eq!(
        event,
        "event forward-1: completed, paid 5000; verified: the transaction is COMPLETED"
    );
    let report = live.until("forwarded", |line| line.contains("forward"));
    assert_eq!(report, format!("  forwarded to {target}: 200 OK"));
    let body = within(Duration::from_secs(60), forwarded.recv())
        .await
        .unwrap();
    live.kill();
    // The body the sandbox sent, byte for byte.
    assert_eq!(body, sandbox.webhook_deliveries()[0].body);
}

/// A forward target that accepts connections and never answers.
fn hung_target() -> (String, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let holder = std::thread::spawn(move || {
        // Holds each connection open until the listener's process (this
        // test) ends; two are enough for the tests below.
        let mut held = Vec::new();
        for stream in listener.incoming().take(2) {
            held.push(stream);
        }
        std::thread::sleep(Duration::from_secs(120));
        drop(held);
    });
    (url, holder)
}

/// `webhook listen` forwarding to a [`hung_target`] with a forward
/// timeout of `seconds`; the target's URL and its holder (keep it) come
/// with it.
async fn listen_forwarding_to_hung(
    base_url: &str,
    seconds: &str,
) -> (Live, String, std::thread::JoinHandle<()>) {
    let (target, holder) = hung_target();
    let live = listen(
        base_url,
        &["--forward-to", &target, "--forward-timeout", seconds],
    )
    .await;
    (live, target, holder)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_forward_target_holds_up_no_event() {
    let sandbox = sandbox().await;
    // A forward may take 300 s: if forwarding held up the queue, the
    // second event would not be printed within the test's wait.
    let (mut live, _target, _holder) = listen_forwarding_to_hung(sandbox.base_url(), "300").await;
    let (client, memo) = collect_and_pay(sandbox.base_url(), "hung-1", 2000).await;
    live.until("first event", |line| {
        line.starts_with("event hung-1: partially paid")
    });
    fund(&client, &memo, 3000, "hung-fund-2").await;
    let second = live.until("second event", |line| line.starts_with("event "));
    assert_eq!(
        second,
        "event hung-1: completed, paid 5000; verified: the transaction is COMPLETED"
    );
    let out = live.kill();
    assert!(!out.stdout.contains("forwarded"), "{}", out.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forward_that_takes_too_long_is_given_up() {
    let sandbox = sandbox().await;
    let (mut live, target, _holder) = listen_forwarding_to_hung(sandbox.base_url(), "1").await;
    collect_and_pay(sandbox.base_url(), "slow-1", 5000).await;
    let report = live.until("forward failure", |line| line.contains("forward"));
    live.kill();
    assert_eq!(
        report,
        format!("  forwarding to {target} failed: timed out")
    );
}
