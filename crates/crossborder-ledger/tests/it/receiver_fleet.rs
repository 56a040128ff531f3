//! Receivers behind a load balancer: two webhook receivers, each with its
//! own ledger handle on one database, and every webhook delivered to both.
//! The handlers see each confirmed change once between them, every change
//! is recorded, and an event no receiver got is recovered by reconciling.
//! A handler that fails leaves its change to be handed over again.

use crate::support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossborder::types::{CollectionRequest, TransactionStatus};
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
#[ignore = "needs PostgreSQL"]
async fn on_postgres() {
    let Some(server) = Postgres::start_or_skip("the PostgreSQL receiver fleet") else {
        return;
    };
    receiver_fleet(&server.create_database("receivers").unwrap()).await;
}

/// A receiver on its own ledger handle whose handler fails (returns
/// `Err`) on its first `failures` confirmed changes; returns its URL.
async fn receiver(
    ledger: Ledger,
    client: crossborder::Client,
    seen: Arc<Mutex<Vec<String>>>,
    failures: usize,
) -> String {
    let failures = Arc::new(AtomicUsize::new(failures));
    let route =
        Receiver::new(client)
            .dedupe(ledger.dedupe_store())
            .route(move |delivery: Delivery| {
                let (ledger, seen, failures) =
                    (ledger.clone(), Arc::clone(&seen), Arc::clone(&failures));
                async move {
                    if let Verdict::Confirmed(confirmed) = delivery.verdict {
                        let fail = failures
                            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                            .is_ok();
                        if fail {
                            return Err("the handler's own store is down".to_owned());
                        }
                        ledger
                            .record_collection(&confirmed.transaction)
                            .await
                            .map_err(|error| error.to_string())?;
                        seen.lock()
                            .unwrap()
                            .push(dedupe_key(&confirmed.transaction));
                    }
                    Ok(())
                }
            });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    tokio::spawn(
        async move { axum::serve(listener, axum::Router::new().route("/hooks", route)).await },
    );
    url
}

/// A handler that returns `Err` leaves the change unhandled in the
/// ledger's dedupe store: the next delivery of it is handed over.
#[tokio::test]
async fn a_failed_handler_gets_the_change_again() {
    let dir = TempDir::new("receiver-fails");
    let url = dir.sqlite("payouts.db");
    let sandbox = TestSandbox::start().await;
    let client = sandbox.client(TestSandbox::KEY);
    let ledger = Ledger::open(&url).await.unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let hook = receiver(ledger.clone(), client.clone(), Arc::clone(&seen), 1).await;
    let hook_url = client.webhooks().set_url(&hook).await;
    assert!(hook_url.is_ok(), "{hook_url:?}");

    let amount = Decimal::new(50_000, 0);
    let request = CollectionRequest::new("order-fails", amount, Currency::Ngn, Currency::Ngn);
    let memo = ledger
        .expect_collection(&client, &request)
        .await
        .unwrap()
        .pay_reference
        .unwrap();
    pay_collection(&client, &memo, amount, "funding-fails")
        .await
        .unwrap();
    // The service's one delivery reaches the handler, which fails.
    let deliveries = sandbox
        .sandbox
        .wait_for_webhook_deliveries(1, Duration::from_secs(30))
        .await;
    let body = deliveries[0].body.clone();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(seen.lock().unwrap().is_empty());
    assert!(
        ledger
            .collection("order-fails")
            .await
            .unwrap()
            .unwrap()
            .open
    );

    // Delivered again (a proxy's repeat, a replay): handed over and recorded.
    assert_eq!(post_event(&hook, body.clone()).await.unwrap().status, 200);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while seen.lock().unwrap().is_empty() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        *seen.lock().unwrap(),
        ["order-fails\u{1f}COMPLETED\u{1f}50000"]
    );
    let collection = ledger.collection("order-fails").await.unwrap().unwrap();
    assert_eq!(
        (collection.status, collection.open),
        (Some(TransactionStatus::Completed), false)
    );

    // A third delivery is a repeat of a handled change: dropped.
    assert_eq!(post_event(&hook, body).await.unwrap().status, 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(seen.lock().unwrap().len(), 1);
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
        0,
    )
    .await;
    let second = receiver(
        Ledger::open(url).await.unwrap(),
        client.clone(),
        Arc::clone(&seen),
        0,
    )
    .await;

    let ledger = Ledger::open(url).await.unwrap();
    let amount = Decimal::new(50_000, 0);
    let mut expected = Vec::new();
    for n in 0..=COLLECTIONS {
        let request =
            CollectionRequest::new(format!("order-{n}"), amount, Currency::Ngn, Currency::Ngn);
        let created_here = ledger.expect_collection(&client, &request).await.unwrap();
        let recorded = &created_here.record;
        assert_eq!(
            (&recorded.status, recorded.open),
            (&Some(TransactionStatus::Pending), true)
        );
        // What the payer needs, as the service created it.
        let created = client
            .collections()
            .get(&request.payment_reference)
            .await
            .unwrap();
        assert_eq!(
            created_here.payment_instructions,
            created.payment_instructions
        );
        assert_eq!(
            created_here.payment_instructions[0].amount_to_transfer,
            Some(amount)
        );
        let memo = created_here.pay_reference.unwrap();
        assert_eq!(Some(&memo), created.pay_reference.as_ref());
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
                .map(|c| (c.payment_reference, c.status.unwrap().to_string(), c.open))
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
