//! `webhook::Receiver` end to end over 127.0.0.1, with the sandbox
//! delivering: it answers before the handler finishes, confirms each event
//! against the sandbox before handing it over, hands a confirmed status
//! change over once however it is written, never lets a forged event
//! suppress the genuine one, refuses bad and oversized bodies, and answers
//! 503 when its queue is full.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crossborder::types::{Transaction, TransactionStatus};
use crossborder::webhook::{
    Classification, DedupeError, DedupeStore, Delivery, MemoryDedupe, Receiver, Unconfirmed,
    Verdict,
};
use crossborder_contract_tests::{d, staging};
use crossborder_testkit::{within, LocalServer};
use serde_json::json;
use tokio::sync::{mpsc, Semaphore};

const WAIT: Duration = Duration::from_secs(10);

/// A receiver on 127.0.0.1 whose handler reports each delivery and then
/// blocks until the test opens its gate.
struct Hooked {
    url: String,
    deliveries: mpsc::UnboundedReceiver<Delivery>,
    gate: Arc<Semaphore>,
    finished: Arc<AtomicUsize>,
    _server: LocalServer,
}

impl Hooked {
    async fn start<D: DedupeStore>(receiver: Receiver<D>) -> Hooked {
        let (report, deliveries) = mpsc::unbounded_channel();
        let gate = Arc::new(Semaphore::new(0));
        let finished = Arc::new(AtomicUsize::new(0));
        let (handler_gate, handler_finished) = (gate.clone(), finished.clone());
        let route = receiver.route(move |delivery: Delivery| {
            let (report, gate, finished) = (
                report.clone(),
                handler_gate.clone(),
                handler_finished.clone(),
            );
            async move {
                let _ = report.send(delivery);
                if let Ok(permit) = gate.acquire().await {
                    permit.forget();
                }
                finished.fetch_add(1, Ordering::SeqCst);
            }
        });
        let server =
            LocalServer::start(axum::Router::new().route("/hooks/crossborder", route)).await;
        Hooked {
            url: server.url("/hooks/crossborder"),
            deliveries,
            gate,
            finished,
            _server: server,
        }
    }

    /// [`Hooked::start`], its URL registered as `client`'s webhook.
    async fn registered<D: DedupeStore>(
        receiver: Receiver<D>,
        client: &crossborder::Client,
    ) -> Hooked {
        let hooked = Hooked::start(receiver).await;
        client.webhooks().set_url(&hooked.url).await.unwrap();
        hooked
    }

    /// The next delivery the handler started on.
    async fn next(&mut self) -> Delivery {
        tokio::time::timeout(WAIT, self.deliveries.recv())
            .await
            .expect("the handler starts in time")
            .expect("the receiver is running")
    }

    /// Lets the handler finish the delivery it is on.
    fn release(&self) {
        self.gate.add_permits(1);
    }

    /// Nothing more reaches the handler within 100 ms.
    async fn assert_quiet(&mut self) {
        let more = tokio::time::timeout(Duration::from_millis(100), self.deliveries.recv()).await;
        assert!(more.is_err(), "unexpected delivery: {more:?}");
    }

    async fn wait_finished(&self, count: usize) {
        let deadline = tokio::time::Instant::now() + WAIT;
        while self.finished.load(Ordering::SeqCst) < count {
            assert!(
                tokio::time::Instant::now() < deadline,
                "handler did not finish"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// POSTs `body` directly; returns the status and the JSON answer.
    async fn post(&self, body: impl Into<reqwest::Body>) -> (u16, serde_json::Value) {
        let response = reqwest::Client::new()
            .post(&self.url)
            .header("content-type", "application/json")
            .body(body)
            .timeout(WAIT)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or_default())
    }

    /// POSTs an event for a reference the sandbox does not know and waits
    /// for the handler to get it: everything queued before it has been
    /// dealt with, and whatever did not reach the handler was dropped.
    async fn sentinel(&mut self, reference: &str) {
        let body = json!({"reference": reference, "status": true}).to_string();
        assert_eq!(self.post(body).await, accepted());
        let delivery = self.next().await;
        assert_eq!(delivery.event.reference, reference);
        assert!(
            matches!(
                delivery.verdict,
                Verdict::Unconfirmed(Unconfirmed::UnknownReference { .. })
            ),
            "{delivery:?}"
        );
        self.release();
    }
}

use crossborder_contract_tests::{collection, fund};

/// The transaction of a confirmed delivery.
fn confirmed_in(delivery: Delivery) -> Transaction {
    match delivery.verdict {
        Verdict::Confirmed(confirmed) => confirmed.transaction,
        other => panic!("not confirmed: {other:?}"),
    }
}

/// The answer to an event the receiver queued.
fn accepted() -> (u16, serde_json::Value) {
    (200, json!({"message": "Event accepted"}))
}

#[tokio::test]
async fn answers_before_the_handler_finishes_and_hands_over_each_confirmed_change_once() {
    let (env, client) = staging().await;
    let mut hooked = Hooked::registered(Receiver::new(client.clone()), &client).await;

    let memo = collection(&client, "order-r1", "50000").await;
    fund(&client, &memo, "20000", "r-1").await;
    let delivery = hooked.next().await;
    assert_eq!(delivery.event.reference, "order-r1");
    assert_eq!(delivery.event.classify(), Classification::PartiallyPaid);
    let confirmed = confirmed_in(delivery);
    assert_eq!(confirmed.status, TransactionStatus::PartiallyPaid);
    assert_eq!(confirmed.paid_amount, Some(d("20000")));
    // The sandbox got its 200 while the handler is still blocked.
    let deliveries = env.sandbox.wait_for_webhook_deliveries(1, WAIT).await;
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].status, Some(200), "{deliveries:?}");
    assert_eq!(hooked.finished.load(Ordering::SeqCst), 0);

    // The same delivery again, and the same change written otherwise (the
    // status in any case or spacing, the amounts as text): each is
    // acknowledged, confirmed, and not handed over again.
    let repeats = [
        deliveries[0].body.clone(),
        r#"{"paymentReference": "order-r1", "status": "false", "paidAmount": "20000.00", "remainingAmount": 30000}"#.to_owned(),
        r#"{"reference": "order-r1", "status": "FALSE", "paidAmount": 20000, "remaining": "30000"}"#.to_owned(),
        r#"{"reference": "order-r1", "status": " false ", "paidAmount": 20000.0, "remainingAmount": "30000.00"}"#.to_owned(),
        r#"{"reference": "order-r1", "status": "PARTIALLY_PAID"}"#.to_owned(),
    ];
    for body in repeats {
        assert_eq!(hooked.post(body.clone()).await, accepted(), "{body}");
    }
    hooked.release();
    hooked.wait_finished(1).await;
    hooked.sentinel("order-sentinel-1").await;

    // The next status change is a new one.
    fund(&client, &memo, "30000", "r-2").await;
    let delivery = hooked.next().await;
    assert_eq!(
        delivery.event.classify(),
        Classification::Completed { overpaid: None }
    );
    assert_eq!(confirmed_in(delivery).status, TransactionStatus::Completed);
    hooked.release();
    hooked.wait_finished(3).await;
    let deliveries = env.sandbox.wait_for_webhook_deliveries(2, WAIT).await;
    assert!(deliveries
        .iter()
        .all(|delivery| delivery.status == Some(200)));
    hooked.assert_quiet().await;
}

/// The attack the dedupe key invites: the genuine completion event's fields
/// are predictable, so an attacker POSTs them before the collection is
/// paid. The service does not confirm the forgery, so nothing is
/// remembered, and the genuine event, identical byte for byte, is handed
/// over and confirmed.
#[tokio::test]
async fn a_forged_event_posted_first_never_suppresses_the_genuine_one() {
    let (env, client) = staging().await;
    let mut hooked = Hooked::registered(Receiver::new(client.clone()), &client).await;
    let memo = collection(&client, "order-f", "50000").await;

    let forged = json!({"reference": "order-f", "memo": memo, "amount": 50000,
        "paidAmount": 50000, "remainingAmount": 0, "currency": "NGN", "status": true,
        "message": "Payment completed"});
    for _ in 0..2 {
        assert_eq!(hooked.post(forged.to_string()).await, accepted());
        let delivery = hooked.next().await;
        assert_eq!(
            delivery.event.classify(),
            Classification::Completed { overpaid: None }
        );
        match delivery.verdict {
            Verdict::Unconfirmed(error @ Unconfirmed::StatusMismatch { .. }) => {
                assert_eq!(
                    error.to_string(),
                    "the event says true but transaction order-f is PENDING"
                );
            }
            other => panic!("{other:?}"),
        }
        hooked.release();
    }

    // The payer pays: the sandbox delivers the same body, and it goes
    // through.
    fund(&client, &memo, "50000", "f-1").await;
    let delivery = hooked.next().await;
    let genuine = env.sandbox.wait_for_webhook_deliveries(1, WAIT).await;
    assert_eq!(genuine[0].json(), forged);
    assert_eq!(genuine[0].status, Some(200));
    assert_eq!(delivery.event.raw_body(), genuine[0].body);
    let confirmed = confirmed_in(delivery);
    assert_eq!(confirmed.status, TransactionStatus::Completed);
    assert_eq!(confirmed.paid_amount, Some(d("50000")));
    hooked.release();

    // Now the same body is true, and a repeat of a change already handed
    // over: it is dropped.
    assert_eq!(hooked.post(forged.to_string()).await, accepted());
    hooked.sentinel("order-sentinel-f").await;
    hooked.assert_quiet().await;
}

#[tokio::test]
async fn bad_and_oversized_bodies_never_reach_the_handler() {
    let (_env, client) = staging().await;
    let mut hooked = Hooked::start(Receiver::new(client).max_body_bytes(1024)).await;
    let cases = [
        (
            "<html>",
            "Invalid webhook body: the body is not JSON (syntax error at line 1, column 1)",
        ),
        (
            r#"{"reference": "order-1", "status": tr"#,
            "Invalid webhook body: the body is truncated JSON",
        ),
        ("", "Invalid webhook body: the body is empty"),
        (
            r#"{"status": true}"#,
            "Invalid webhook body: `reference` is required",
        ),
        (
            r#"{"reference": "o", "status": true, "paidAmount": "lots"}"#,
            "Invalid webhook body: `paidAmount` must be a number or a numeric string",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = hooked.post(body).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(answer, json!({ "message": message }), "{body}");
    }
    let large = format!(
        r#"{{"reference": "o", "status": true, "pad": "{}"}}"#,
        "x".repeat(2000)
    );
    let (status, answer) = hooked.post(large).await;
    assert_eq!(status, 413);
    assert_eq!(
        answer,
        json!({"message": "The body is larger than 1024 bytes"})
    );
    hooked.assert_quiet().await;

    // A valid event still goes through afterwards (unconfirmed: the
    // sandbox knows no collection "o").
    hooked.sentinel("o").await;
}

#[tokio::test]
async fn a_full_queue_answers_503_and_the_event_can_come_again() {
    let (env, client) = staging().await;
    // A capacity of 0 is taken as 1.
    let mut hooked =
        Hooked::registered(Receiver::new(client.clone()).queue_capacity(0), &client).await;
    let memo = collection(&client, "order-q", "50000").await;
    let other = collection(&client, "order-q-other", "3000").await;

    // The first event is being handled, the second waits in the queue, the
    // third finds it full. The sandbox posts one event per status change
    // (ASSUMPTIONS B9), so each is a change: a first partial payment, the
    // completion, and another collection's completion.
    fund(&client, &memo, "1000", "q-1").await;
    assert_eq!(hooked.next().await.event.paid_amount, Some(d("1000")));
    fund(&client, &memo, "49000", "q-2").await;
    env.sandbox.wait_for_webhook_deliveries(2, WAIT).await;
    // An over-payment of the completed collection posts nothing, and makes
    // the queued event stale.
    fund(&client, &memo, "1000", "q-2b").await;
    fund(&client, &other, "3000", "q-3").await;
    let deliveries = env.sandbox.wait_for_webhook_deliveries(3, WAIT).await;
    let statuses: Vec<_> = deliveries.iter().map(|delivery| delivery.status).collect();
    assert_eq!(statuses, [Some(200), Some(200), Some(503)]);
    let third = deliveries[2].body.clone();
    let (status, answer) = hooked.post(third.clone()).await;
    assert_eq!(status, 503);
    assert_eq!(
        answer,
        json!({"message": "Webhook queue is full; the event was not accepted"})
    );

    // Once the handler catches up, the queued event is judged against
    // today's state: the completion it claims is still true, and 51000 are
    // paid, so it is confirmed with the over-payment of 1000 (a completion
    // is never superseded, ASSUMPTIONS B72).
    hooked.release();
    let second = hooked.next().await;
    assert_eq!(second.event.paid_amount, Some(d("50000")));
    match second.verdict {
        Verdict::Confirmed(confirmed) => {
            assert_eq!(confirmed.transaction.paid_amount, Some(d("51000")));
            assert_eq!(confirmed.overpaid(), Some(d("1000")));
        }
        other => panic!("{other:?}"),
    }
    hooked.release();
    hooked.wait_finished(2).await;
    // The refused event, sent again, is accepted and handed over once.
    assert_eq!(hooked.post(third).await, accepted());
    let third = hooked.next().await;
    assert_eq!(third.event.reference, "order-q-other");
    assert_eq!(third.event.paid_amount, Some(d("3000")));
    assert_eq!(confirmed_in(third).paid_amount, Some(d("3000")));
    hooked.release();
    hooked.wait_finished(3).await;
    hooked.assert_quiet().await;
}

/// A dedupe store that is down.
struct Down;

impl DedupeStore for Down {
    async fn first_delivery(&self, _key: &str) -> Result<bool, DedupeError> {
        Err("connection refused".into())
    }
    async fn forget(&self, _key: &str) {}
}

/// The service never retries, so a store that fails does not lose a
/// confirmed change: it is handed over, even if that means twice.
#[tokio::test]
async fn a_failing_dedupe_store_hands_confirmed_events_over_anyway() {
    let (env, client) = staging().await;
    let mut hooked = Hooked::registered(Receiver::new(client.clone()).dedupe(Down), &client).await;
    let memo = collection(&client, "order-down", "5000").await;
    fund(&client, &memo, "5000", "down-1").await;
    let first = hooked.next().await;
    assert_eq!(confirmed_in(first).status, TransactionStatus::Completed);
    hooked.release();
    let deliveries = env.sandbox.wait_for_webhook_deliveries(1, WAIT).await;
    assert_eq!(hooked.post(deliveries[0].body.clone()).await, accepted());
    let again = hooked.next().await;
    assert_eq!(confirmed_in(again).status, TransactionStatus::Completed);
    hooked.release();
}

/// One store shared by several receivers, as a caller's database would be.
struct SharedStore(Arc<MemoryDedupe>);

impl DedupeStore for SharedStore {
    async fn first_delivery(&self, key: &str) -> Result<bool, DedupeError> {
        self.0.first_delivery(key).await
    }
    async fn forget(&self, key: &str) {
        self.0.forget(key).await
    }
}

/// Two receivers behind a load balancer share one store: the same
/// confirmed change, delivered to both at once, is handed over by one.
#[tokio::test]
async fn receivers_sharing_a_store_hand_a_change_over_once() {
    let (env, client) = staging().await;
    let store = Arc::new(MemoryDedupe::default());
    let mut first =
        Hooked::start(Receiver::new(client.clone()).dedupe(SharedStore(store.clone()))).await;
    let mut second = Hooked::start(Receiver::new(client.clone()).dedupe(SharedStore(store))).await;
    first.release();
    second.release();
    client.webhooks().set_url(&first.url).await.unwrap();
    let memo = collection(&client, "order-lb", "5000").await;
    fund(&client, &memo, "5000", "lb-1").await;
    let genuine = env.sandbox.wait_for_webhook_deliveries(1, WAIT).await;
    let body = genuine[0].body.clone();
    let (a, b) = tokio::join!(first.post(body.clone()), second.post(body));
    assert_eq!((a, b), (accepted(), accepted()));

    // The first receiver got the sandbox's delivery too: of the three, one
    // is handed over. Each receiver then gets a sentinel, so all three have
    // been dealt with.
    let handed = within(WAIT, async {
        tokio::select! {
            delivery = first.deliveries.recv() => delivery,
            delivery = second.deliveries.recv() => delivery,
        }
    })
    .await
    .unwrap();
    assert_eq!(confirmed_in(handed).status, TransactionStatus::Completed);
    first.release();
    second.release();
    first.sentinel("order-sentinel-a").await;
    second.sentinel("order-sentinel-b").await;
    first.assert_quiet().await;
    second.assert_quiet().await;
}
