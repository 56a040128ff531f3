//! `webhook::Reconciler` against the sandbox: a collection whose event
//! arrives is settled by it, one whose event was dropped is found by
//! polling, and each is yielded once.

use std::time::Duration;

use crossborder::webhook::{Delivery, Receiver, Reconciler, Source, WebhookEvent};
use crossborder::{types::TransactionStatus, Client, Error, WaitOptions};
use crossborder_contract_tests::{collection, d, fund, staging};
use crossborder_testkit::within;
use tokio::net::TcpListener;

const WAIT: Duration = Duration::from_secs(10);

fn polling() -> WaitOptions {
    WaitOptions::default()
        .timeout(Duration::from_secs(5))
        .initial_interval(Duration::from_millis(5))
        .max_interval(Duration::from_millis(20))
}

/// A 5000 NGN collection, `reference`, paid in full, and a reconciler
/// that waits `grace` for its event, already watching it.
async fn paid_and_watched(client: Client, reference: &str, grace: Duration) -> Reconciler {
    let memo = collection(&client, reference, "5000").await;
    fund(&client, &memo, "5000", &format!("{reference}-paid")).await;
    let mut reconciler = Reconciler::new(client).grace(grace).polling(polling());
    reconciler.watch(reference);
    reconciler
}

#[tokio::test]
async fn a_dropped_event_is_found_by_polling_and_each_state_is_yielded_once() {
    let (env, client) = staging().await;
    let mut reconciler = Reconciler::new(client.clone())
        .grace(Duration::from_secs(2))
        .polling(polling());

    // A receiver that passes every event to the reconciler.
    let notifier = reconciler.notifier();
    let route = Receiver::new(client.clone()).route(move |delivery: Delivery| {
        notifier.notify(&delivery.event);
        async {}
    });
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let app = axum::Router::new().route("/hooks", route);
        let _ = axum::serve(listener, app).await;
    });
    client.webhooks().set_url(&url).await.unwrap();

    let delivered = collection(&client, "order-delivered", "5000").await;
    let dropped = collection(&client, "order-dropped", "5000").await;
    reconciler.watch("order-delivered");
    reconciler.watch("order-dropped");
    reconciler.watch("order-delivered"); // watched once

    // A partial payment's event triggers a read that is not final; the
    // rest completes it, and its event settles the reference.
    fund(&client, &delivered, "2000", "d-1").await;
    fund(&client, &delivered, "3000", "d-2").await;
    let first = within(WAIT, reconciler.next()).await.unwrap();
    assert_eq!(first.reference, "order-delivered");
    assert_eq!(first.source, Source::Event);
    let transaction = first.result.unwrap();
    assert_eq!(transaction.status, TransactionStatus::Completed);
    assert_eq!(transaction.paid_amount, Some(d("5000")));

    // The receiver goes away: the next event is lost (one attempt only).
    server.abort();
    let _ = server.await;
    fund(&client, &dropped, "5000", "x-1").await;
    let deliveries = env.sandbox.wait_for_webhook_deliveries(3, WAIT).await;
    assert_eq!(deliveries.len(), 3);
    assert!(deliveries[2].status.is_none(), "{:?}", deliveries[2]);
    assert!(deliveries[2].body.contains("order-dropped"));

    let second = within(WAIT, reconciler.next()).await.unwrap();
    assert_eq!(second.reference, "order-dropped");
    assert_eq!(second.source, Source::Polling);
    assert_eq!(second.result.unwrap().status, TransactionStatus::Completed);

    // Each reference was yielded once; nothing is left.
    assert!(reconciler.next().await.is_none());
    let late = WebhookEvent::parse(r#"{"reference": "order-dropped", "status": true}"#).unwrap();
    assert!(!reconciler.notifier().notify(&late));
}

#[tokio::test]
async fn polling_ends_with_the_wait_timeout_or_the_read_error() {
    let (_env, client) = staging().await;
    collection(&client, "order-open", "5000").await;
    let mut reconciler = Reconciler::new(client)
        .grace(Duration::ZERO)
        .polling(polling().timeout(Duration::from_millis(50)));
    reconciler.watch("order-open");
    reconciler.watch("order-unknown");
    let mut outcomes = Vec::new();
    while let Some(done) = within(WAIT, reconciler.next()).await {
        assert_eq!(done.source, Source::Polling);
        outcomes.push(done);
    }
    outcomes.sort_by(|a, b| a.reference.cmp(&b.reference));
    match &outcomes[0].result {
        Err(Error::WaitTimeout { last }) => {
            assert_eq!(outcomes[0].reference, "order-open");
            assert_eq!(last.status, TransactionStatus::Pending);
        }
        other => panic!("{other:?}"),
    }
    match &outcomes[1].result {
        Err(Error::Api {
            status: 404,
            message,
            ..
        }) => {
            assert_eq!(message, "Transaction not found: order-unknown");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(outcomes.len(), 2);
}

/// The grace period counts from `watch`, not from the first `next`: a
/// caller who watches, does other work for longer than the grace period,
/// then asks, gets a polled state at once.
#[tokio::test]
async fn the_grace_period_starts_when_a_reference_is_watched() {
    const GRACE: Duration = Duration::from_secs(3);
    let (_env, client) = staging().await;
    // Paid, but with no webhook registered: no event will ever come.
    let mut reconciler = paid_and_watched(client, "order-quiet", GRACE).await;
    tokio::time::sleep(GRACE).await;

    // Were the grace period to start now, this could not end before it
    // had passed again; it ends at the first read.
    let done = tokio::time::timeout(GRACE - Duration::from_millis(500), reconciler.next())
        .await
        .expect("the grace period already ended")
        .unwrap();
    assert_eq!(done.reference, "order-quiet");
    assert_eq!(done.source, Source::Polling);
    assert_eq!(done.result.unwrap().status, TransactionStatus::Completed);
}

/// An event notified between `watch` and the first `next` is not lost.
#[tokio::test]
async fn an_event_before_the_first_next_is_kept() {
    let (_env, client) = staging().await;
    let mut reconciler = paid_and_watched(client, "order-early", Duration::from_secs(3600)).await;
    let event = WebhookEvent::parse(r#"{"reference": "order-early", "status": true}"#).unwrap();
    assert!(reconciler.notifier().notify(&event));
    let done = within(WAIT, reconciler.next()).await.unwrap();
    assert_eq!(done.source, Source::Event);
    assert_eq!(done.result.unwrap().status, TransactionStatus::Completed);
}

/// An event is only a reason to read: a forged completion of an open
/// collection settles nothing (the reference is polled after the grace
/// period and ends with the service's state), and a reference already
/// yielded can be watched again.
#[tokio::test]
async fn a_forged_event_settles_nothing_and_a_yielded_reference_is_watched_again() {
    let (_env, client) = staging().await;
    let memo = collection(&client, "order-forged", "5000").await;
    let mut reconciler = Reconciler::new(client.clone())
        .grace(Duration::from_millis(300))
        .polling(polling().timeout(Duration::from_millis(50)));
    reconciler.watch("order-forged");
    let forged = WebhookEvent::parse(
        r#"{"reference": "order-forged", "status": true, "paidAmount": 5000, "remainingAmount": 0}"#,
    )
    .unwrap();
    assert!(reconciler.notifier().notify(&forged));
    let done = within(WAIT, reconciler.next()).await.unwrap();
    assert_eq!(done.source, Source::Polling);
    match done.result {
        Err(Error::WaitTimeout { last }) => assert_eq!(last.status, TransactionStatus::Pending),
        other => panic!("{other:?}"),
    }
    assert!(!reconciler.notifier().notify(&forged));

    fund(&client, &memo, "5000", "forged-1").await;
    reconciler.watch("order-forged");
    let done = within(WAIT, reconciler.next()).await.unwrap();
    assert_eq!(done.reference, "order-forged");
    assert_eq!(done.result.unwrap().status, TransactionStatus::Completed);
    assert!(reconciler.next().await.is_none());
}
