//! Receivers behind a load balancer: two webhook receivers, each with its
//! own ledger handle on one database, and every webhook delivered to both.
//! The handlers see each confirmed change once between them, every change
//! is recorded, and an event no receiver got is recovered by reconciling.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossborder::types::CollectionRequest;
use crossborder::webhook::{axum, dedupe_key, Delivery, Receiver, Verdict};
use crossborder::{Currency, Decimal, WaitOptions};
use crossborder_ledger::Ledger;
use crossborder_testkit::postgres::Postgres;
use crossborder_testkit::{pay_collection, post_event, TestSandbox};
use support::TempDir;

const COLLECTIONS: usize = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite() {
    let dir = TempDir::new("receivers");
    receiver_fleet(&dir.sqlite("payouts.db")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres() {
    let Some(server) = Postgres::start_or_skip("the PostgreSQL receiver fleet") else {
        return;
    };
    receiver_fleet(&server.create_database("receivers").unwrap()).await;
}

/// A receiver on its own ledger handle; returns its URL.
async fn receiver(
    ledger: Ledger,
    client: crossborder::Client,
    seen: Arc<Mutex<Vec<String>>>,
) -> String {
    let route =
        Receiver::new(client)
            .dedupe(ledger.dedupe_store())
            .route(move |delivery: Delivery| {
                let (ledger, seen) = (ledger.clone(), Arc::clone(&seen));
                async move {
                    if let Verdict::Confirmed(confirmed) = delivery.verdict {
                        ledger
                            .record_collection(&confirmed.transaction)
                            .await
                            .unwrap();
                        seen.lock()
                            .unwrap()
                            .push(dedupe_key(&confirmed.transaction));
                    }
                }
            });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    tokio::spawn(
        async move { axum::serve(listener, axum::Router::new().route("/hooks", route)).await },
    );
    url
}

async fn receiver_fleet(url: &str) {
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    // The service's own attempts go nowhere: the test delivers each event to both receivers.
    client
        .webhooks()
        .set_url("http://127.0.0.1:9/unreachable")
        .await
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let first = receiver(
        Ledger::open(url).await.unwrap(),
        client.clone(),
        Arc::clone(&seen),
    )
    .await;
    let second = receiver(
        Ledger::open(url).await.unwrap(),
        client.clone(),
        Arc::clone(&seen),
    )
    .await;

    let ledger = Ledger::open(url).await.unwrap();
    let amount = Decimal::new(50_000, 0);
    let mut expected = Vec::new();
    for n in 0..=COLLECTIONS {
        let request =
            CollectionRequest::new(format!("order-{n}"), amount, Currency::Ngn, Currency::Ngn);
        let recorded = ledger.expect_collection(&client, &request).await.unwrap();
        assert_eq!((recorded.status.as_str(), recorded.open), ("PENDING", true));
        let memo = client
            .collections()
            .get(&request.payment_reference)
            .await
            .unwrap()
            .pay_reference
            .unwrap();
        pay_collection(&client, &memo, amount, &format!("funding-{n}"))
            .await
            .unwrap();
        expected.push(format!("order-{n}\u{1f}COMPLETED\u{1f}50000"));
    }
    // order-5's event is lost: only the first five are delivered, to both.
    let deliveries = sandbox
        .sandbox
        .wait_for_webhook_deliveries(COLLECTIONS + 1, Duration::from_secs(30))
        .await;
    assert_eq!(deliveries.len(), COLLECTIONS + 1);
    for delivery in deliveries.iter().filter(|d| !d.body.contains("order-5")) {
        let (a, b) = tokio::join!(
            post_event(&first, delivery.body.clone()),
            post_event(&second, delivery.body.clone())
        );
        assert_eq!((a.unwrap().status, b.unwrap().status), (200, 200));
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while seen.lock().unwrap().len() < COLLECTIONS && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Time for a second hand-over, were there one.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut handled = seen.lock().unwrap().clone();
    handled.sort();
    assert_eq!(
        handled,
        expected[..COLLECTIONS],
        "each confirmed change handed over once"
    );

    let states =
        |records: Vec<crossborder_ledger::CollectionRecord>| -> Vec<(String, String, bool)> {
            records
                .into_iter()
                .map(|c| (c.payment_reference, c.status, c.open))
                .collect()
        };
    let mut want: Vec<_> = (0..COLLECTIONS)
        .map(|n| (format!("order-{n}"), "COMPLETED".to_owned(), false))
        .collect();
    want.push(("order-5".into(), "PENDING".into(), true));
    assert_eq!(states(ledger.collections().await.unwrap()), want);

    // On start, the open collection is reconciled: its lost event recovered.
    let polling = WaitOptions::default().timeout(Duration::from_secs(10));
    let reconciled = ledger
        .reconcile_collections(&client, polling)
        .await
        .unwrap();
    assert_eq!(
        states(reconciled),
        [("order-5".to_owned(), "COMPLETED".to_owned(), false)]
    );
    let order5 = ledger.collection("order-5").await.unwrap().unwrap();
    assert_eq!(order5.paid_amount, Some(amount));
}
