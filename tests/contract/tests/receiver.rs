//! `webhook::Receiver` end to end over 127.0.0.1, with the sandbox
//! delivering: it answers before the handler finishes, hands a repeated
//! delivery over once, refuses bad and oversized bodies, and answers 503
//! when its queue is full.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crossborder::webhook::{Classification, Receiver, WebhookEvent};
use crossborder::{Client, CollectionRequest, Currency, SimulateFundingRequest};
use crossborder_contract_tests::{d, Env, STAGING_KEY};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, Semaphore};

const WAIT: Duration = Duration::from_secs(5);

/// A receiver on 127.0.0.1 whose handler reports each event and then
/// blocks until the test opens its gate.
struct Hooked {
    url: String,
    events: mpsc::UnboundedReceiver<WebhookEvent>,
    gate: Arc<Semaphore>,
    finished: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Hooked {
    async fn start(receiver: Receiver) -> Hooked {
        let (report, events) = mpsc::unbounded_channel();
        let gate = Arc::new(Semaphore::new(0));
        let finished = Arc::new(AtomicUsize::new(0));
        let (handler_gate, handler_finished) = (gate.clone(), finished.clone());
        let route = receiver.route(move |event: WebhookEvent| {
            let (report, gate, finished) = (
                report.clone(),
                handler_gate.clone(),
                handler_finished.clone(),
            );
            async move {
                let _ = report.send(event);
                if let Ok(permit) = gate.acquire().await {
                    permit.forget();
                }
                finished.fetch_add(1, Ordering::SeqCst);
            }
        });
        let app = axum::Router::new().route("/hooks/crossborder", route);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!(
            "http://{}/hooks/crossborder",
            listener.local_addr().unwrap()
        );
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Hooked {
            url,
            events,
            gate,
            finished,
            task,
        }
    }

    /// The next event the handler started on.
    async fn next(&mut self) -> WebhookEvent {
        tokio::time::timeout(WAIT, self.events.recv())
            .await
            .expect("the handler starts in time")
            .expect("the receiver is running")
    }

    /// Nothing more reaches the handler within 100 ms.
    async fn assert_quiet(&mut self) {
        let more = tokio::time::timeout(Duration::from_millis(100), self.events.recv()).await;
        assert!(more.is_err(), "unexpected event: {more:?}");
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
}

impl Drop for Hooked {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn collection(client: &Client, reference: &str, amount: &str) -> String {
    let request = CollectionRequest::new(reference, d(amount), Currency::Ngn, Currency::Ngn);
    let created = client.collections().create(&request).await.unwrap();
    created.pay_reference.expect("a memo")
}

async fn fund(client: &Client, memo: &str, amount: &str, session: &str) {
    let funding = SimulateFundingRequest::new(Currency::Ngn, d(amount), memo, session);
    client.sandbox().simulate_funding(&funding).await.unwrap();
}

#[tokio::test]
async fn answers_before_the_handler_finishes_and_hands_over_each_event_once() {
    let env = Env::start().await;
    let client = env.client(STAGING_KEY);
    let mut hooked = Hooked::start(Receiver::new()).await;
    client.webhooks().set_url(&hooked.url).await.unwrap();

    let memo = collection(&client, "order-r1", "50000").await;
    fund(&client, &memo, "20000", "r-1").await;
    let event = hooked.next().await;
    assert_eq!(event.reference, "order-r1");
    assert_eq!(event.classify(), Classification::PartiallyPaid);
    // The sandbox got its 200 while the handler is still blocked.
    let deliveries = env.sandbox.wait_for_webhook_deliveries(1, WAIT).await;
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].status, Some(200), "{deliveries:?}");
    assert_eq!(hooked.finished.load(Ordering::SeqCst), 0);

    // The same delivery again is acknowledged and not handed over.
    let (status, answer) = hooked.post(deliveries[0].body.clone()).await;
    assert_eq!(status, 200);
    assert_eq!(answer, json!({"message": "Duplicate event ignored"}));
    // So is the same event written otherwise.
    let (status, answer) = hooked
        .post(r#"{"paymentReference": "order-r1", "status": "false", "paidAmount": "20000.00", "remainingAmount": 30000}"#)
        .await;
    assert_eq!(
        (status, answer),
        (200, json!({"message": "Duplicate event ignored"}))
    );
    hooked.gate.add_permits(1);
    hooked.wait_finished(1).await;
    hooked.assert_quiet().await;

    // The next status change is a new event.
    fund(&client, &memo, "30000", "r-2").await;
    let event = hooked.next().await;
    assert_eq!(event.classify(), Classification::Completed);
    hooked.gate.add_permits(1);
    hooked.wait_finished(2).await;
    let deliveries = env.sandbox.wait_for_webhook_deliveries(2, WAIT).await;
    assert!(deliveries
        .iter()
        .all(|delivery| delivery.status == Some(200)));
}

#[tokio::test]
async fn bad_and_oversized_bodies_never_reach_the_handler() {
    let mut hooked = Hooked::start(Receiver::new().max_body_bytes(1024)).await;
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

    // A valid event still goes through afterwards.
    let (status, answer) = hooked.post(r#"{"reference": "o", "status": true}"#).await;
    assert_eq!(
        (status, answer),
        (200, json!({"message": "Event accepted"}))
    );
    assert_eq!(hooked.next().await.reference, "o");
}

#[tokio::test]
async fn a_full_queue_answers_503_and_does_not_remember_the_event() {
    let env = Env::start().await;
    let client = env.client(STAGING_KEY);
    let mut hooked = Hooked::start(Receiver::new().queue_capacity(1)).await;
    client.webhooks().set_url(&hooked.url).await.unwrap();
    let memo = collection(&client, "order-q", "50000").await;

    // The first event is being handled, the second waits in the queue, the
    // third finds it full.
    fund(&client, &memo, "1000", "q-1").await;
    assert_eq!(hooked.next().await.paid_amount, Some(d("1000")));
    fund(&client, &memo, "1000", "q-2").await;
    env.sandbox.wait_for_webhook_deliveries(2, WAIT).await;
    fund(&client, &memo, "1000", "q-3").await;
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

    // Once the handler catches up, the refused event is accepted when it
    // comes again (it was not remembered as seen), and handled once.
    hooked.gate.add_permits(1);
    assert_eq!(hooked.next().await.paid_amount, Some(d("2000")));
    hooked.gate.add_permits(1);
    hooked.wait_finished(2).await;
    let (status, answer) = hooked.post(third).await;
    assert_eq!(
        (status, answer),
        (200, json!({"message": "Event accepted"}))
    );
    assert_eq!(hooked.next().await.paid_amount, Some(d("3000")));
    hooked.gate.add_permits(1);
    hooked.wait_finished(3).await;
    hooked.assert_quiet().await;
}
