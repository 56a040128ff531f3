//! `webhook::Receiver` (feature `axum`) against a mock of the API: a
//! handler that takes the router's state the axum way, the caller's status
//! words, the axum re-export, and one read of the transaction per event
//! when a `Reconciler` takes the receiver's deliveries.
#![cfg(feature = "axum")]

use std::time::Duration;

use crossborder::types::TransactionStatus;
use crossborder::webhook::axum::extract::State;
use crossborder::webhook::axum::routing::MethodRouter;
use crossborder::webhook::axum::Router;
use crossborder::webhook::{
    Delivery, Receiver, Reconciler, Source, StatusMeaning, StatusWords, Unconfirmed, Verdict,
};
use crossborder_testkit::within;
use tokio::sync::mpsc;
use wiremock::MockServer;

use crate::webhook_mock;

use webhook_mock::{api, transaction, TRANSACTION_PATH};

const WAIT: Duration = Duration::from_secs(10);

/// Serves `app` on 127.0.0.1; returns the URL of its `/hook`.
async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = crossborder::webhook::axum::serve(listener, app).await;
    });
    url
}

async fn post(url: &str, body: &str) -> u16 {
    reqwest::Client::new()
        .post(url)
        .body(body.to_owned())
        .timeout(WAIT)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

const COMPLETED: &str = r#"{"reference": "order-1", "status": true, "paidAmount": 50000}"#;

/// The application's state, as an axum application holds it.
#[derive(Clone)]
struct Shop {
    paid: mpsc::UnboundedSender<(String, String)>,
    name: &'static str,
}

#[tokio::test]
async fn the_handler_takes_the_routers_state() {
    let (_server, client) = api(transaction("COMPLETED", "50000")).await;
    let (paid, mut orders) = mpsc::unbounded_channel();
    let route: MethodRouter<Shop> =
        Receiver::new(client).route(|State(shop): State<Shop>, delivery: Delivery| async move {
            if let Verdict::Confirmed(confirmed) = delivery.verdict {
                let reference = confirmed.transaction.payment_reference;
                let _ = shop.paid.send((shop.name.to_owned(), reference));
            }
        });
    let app = Router::new().route("/hook", route).with_state(Shop {
        paid,
        name: "the shop",
    });
    let url = serve(app).await;
    assert_eq!(post(&url, COMPLETED).await, 200);
    let order = within(WAIT, orders.recv()).await.unwrap();
    assert_eq!(order, ("the shop".to_owned(), "order-1".to_owned()));
}

#[tokio::test]
async fn the_receivers_status_words_reach_verify() {
    let (_server, client) = api(transaction("SETTLED", "0")).await;
    let (report, mut verdicts) = mpsc::unbounded_channel();
    let handler = move |delivery: Delivery| {
        let _ = report.send(delivery.verdict);
        async {}
    };
    let plain = serve(Router::new().route(
        "/hook",
        Receiver::new(client.clone()).route(handler.clone()),
    ))
    .await;
    let words = StatusWords::new().with("SETTLED", StatusMeaning::Completed);
    let mapped = serve(Router::new().route(
        "/hook",
        Receiver::new(client).status_words(words).route(handler),
    ))
    .await;
    // Nothing paid, a word nobody knows: not confirmable without words.
    let bare = r#"{"reference": "order-1", "status": true}"#;
    assert_eq!(post(&plain, bare).await, 200);
    let verdict = within(WAIT, verdicts.recv()).await;
    assert!(
        matches!(
            verdict,
            Some(Verdict::Unconfirmed(Unconfirmed::UnknownStatus { .. }))
        ),
        "{verdict:?}"
    );
    // With the word mapped, the same event is confirmed.
    assert_eq!(post(&mapped, bare).await, 200);
    match within(WAIT, verdicts.recv()).await {
        Some(Verdict::Confirmed(confirmed)) => assert_eq!(
            confirmed.transaction.status,
            TransactionStatus::Unknown("SETTLED".into())
        ),
        other => panic!("{other:?}"),
    }
}

/// Counts the reads of order-1 the mock API received.
async fn reads(server: &MockServer) -> usize {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|request| request.url.path() == TRANSACTION_PATH)
        .count()
}

#[tokio::test]
async fn a_receiver_and_a_reconciler_read_the_transaction_once_per_event() {
    let (server, client) = api(transaction("COMPLETED", "50000")).await;
    let mut reconciler = Reconciler::new(client.clone()).grace(Duration::from_secs(3600));
    let notifier = reconciler.notifier();
    let route = Receiver::new(client).route(move |delivery: Delivery| {
        notifier.notify_delivery(&delivery);
        async {}
    });
    let url = serve(Router::new().route("/hook", route)).await;
    reconciler.watch("order-1");
    assert_eq!(post(&url, COMPLETED).await, 200);
    let settled = within(WAIT, reconciler.next()).await.unwrap();
    assert_eq!(settled.source, Source::Event);
    assert_eq!(settled.result.unwrap().status, TransactionStatus::Completed);
    assert_eq!(reads(&server).await, 1);

    // An event passed on alone still wakes the reconciler, which reads.
    let (server, client) = api(transaction("COMPLETED", "50000")).await;
    let mut reconciler = Reconciler::new(client).grace(Duration::from_secs(3600));
    reconciler.watch("order-1");
    let event = crossborder::webhook::WebhookEvent::parse(COMPLETED).unwrap();
    assert!(reconciler.notifier().notify(&event));
    let settled = within(WAIT, reconciler.next()).await.unwrap();
    assert_eq!(settled.source, Source::Event);
    assert_eq!(reads(&server).await, 1);
}
