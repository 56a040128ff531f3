//! `webhook::Receiver` (feature `axum`) against a mock of the API: a
//! handler that takes the router's state the axum way, the caller's status
//! words, the axum re-export, and one read of the transaction per event
//! when a `Reconciler` takes the receiver's deliveries.
#![cfg(feature = "axum")]

use std::time::Duration;

use crossborder::webhook::axum::extract::State;
use crossborder::webhook::axum::routing::MethodRouter;
use crossborder::webhook::axum::Router;
use crossborder::webhook::{
    Delivery, Outcome, Receiver, Reconciler, Source, StatusMeaning, StatusWords, Unconfirmed,
};
use crossborder::{Client, RetryPolicy, TransactionStatus};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const WAIT: Duration = Duration::from_secs(10);

fn transaction(status: &str, paid: &str) -> Value {
    json!({
        "message": "Transaction retrieved successfully",
        "data": {
            "transactionId": "txn_1",
            "type": "COLLECTION",
            "payRefrence": "PAY-1",
            "paymentReference": "order-1",
            "amount": 50000,
            "paidAmount": paid,
            "status": status,
            "fee": 0,
            "fromCurrency": "NGN",
            "toCurrency": "NGN"
        },
        "error": false
    })
}

async fn api(body: Value) -> (MockServer, Client) {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/api/transaction/order-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(&server)
        .await;
    let client = Client::builder()
        .api_key("test_delivery_key")
        .base_url(format!("{}/v1", server.uri()))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    (server, client)
}

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
            if let Outcome::Confirmed(confirmed) = delivery.outcome {
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
    let order = tokio::time::timeout(WAIT, orders.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(order, ("the shop".to_owned(), "order-1".to_owned()));
}

#[tokio::test]
async fn the_receivers_status_words_reach_verify() {
    let (_server, client) = api(transaction("SETTLED", "0")).await;
    let (report, mut outcomes) = mpsc::unbounded_channel();
    let handler = move |delivery: Delivery| {
        let _ = report.send(delivery.outcome);
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
    assert_eq!(post(&plain, COMPLETED).await, 200);
    let outcome = tokio::time::timeout(WAIT, outcomes.recv()).await.unwrap();
    assert!(
        matches!(
            outcome,
            Some(Outcome::Unconfirmed(Unconfirmed::UnknownStatus { .. }))
        ),
        "{outcome:?}"
    );
    // The paid amount still has to match: the event says 50000, the
    // service 0. An event without one is taken at the mapped word.
    let bare = r#"{"reference": "order-1", "status": true}"#;
    assert_eq!(post(&mapped, bare).await, 200);
    match tokio::time::timeout(WAIT, outcomes.recv()).await.unwrap() {
        Some(Outcome::Confirmed(confirmed)) => assert_eq!(
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
        .filter(|request| request.url.path() == "/v1/api/transaction/order-1")
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
    let settled = tokio::time::timeout(WAIT, reconciler.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(settled.source, Source::Event);
    assert_eq!(settled.result.unwrap().status, TransactionStatus::Completed);
    assert_eq!(reads(&server).await, 1);

    // An event passed on alone still wakes the reconciler, which reads.
    let (server, client) = api(transaction("COMPLETED", "50000")).await;
    let mut reconciler = Reconciler::new(client).grace(Duration::from_secs(3600));
    reconciler.watch("order-1");
    let event = crossborder::webhook::WebhookEvent::parse(COMPLETED).unwrap();
    assert!(reconciler.notifier().notify(&event));
    let settled = tokio::time::timeout(WAIT, reconciler.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(settled.source, Source::Event);
    assert_eq!(reads(&server).await, 1);
}
