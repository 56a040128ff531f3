//! A ready webhook endpoint for axum (feature `axum`): it answers at once,
//! then confirms each event against the service and hands it to the
//! caller's handler, a confirmed status change once.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::{post, MethodRouter};
use axum::Json;
use tokio::sync::mpsc;

use crate::{Client, Transaction};

use super::dedupe::{dedupe_key, DedupeStore, MemoryDedupe};
use super::event::WebhookEvent;
use super::verify::{verify, VerifyError};

/// How many accepted events may wait for the handler by default.
pub const DEFAULT_QUEUE_CAPACITY: usize = 1024;

/// The largest body accepted by default: 64 KiB, far above any event.
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024;

/// One event as the receiver hands it to the handler: what was POSTed, and
/// what the service says about it.
#[derive(Debug)]
pub struct Delivery {
    /// The event as POSTed: a claim, never a fact.
    pub event: WebhookEvent,
    /// The transaction when the service confirms the event ([`verify`]),
    /// else why not. Act on this: an `Ok` is the service's own state, an
    /// `Err` is a forged, stale or unreadable event (its
    /// [`VerifyError::transaction`] is the service's state when it was
    /// read).
    pub verified: Result<Transaction, VerifyError>,
}

/// A webhook endpoint: build it with the client that confirms events, then
/// mount [`Receiver::route`] at the path registered with
/// [`Webhooks::set_url`](crate::Webhooks::set_url).
///
/// For each POST it answers:
///
/// * **200** `{"message": "Event accepted"}` as soon as the body parses and
///   the event is queued, before anything else. Then, one event at a time
///   and in order, the event is confirmed with [`verify`] (one read of
///   `GET /api/transaction/{reference}`) and handed to the handler as a
///   [`Delivery`]. A handler that panics is logged and the next event
///   still runs.
/// * **400** `{"message": "Invalid webhook body: <reason>"}` when the body
///   is not an event ([`ParseError`](super::ParseError)). It is logged at
///   `WARN` with the reason and the body's length, never its content, and
///   never reaches the handler.
/// * **413** `{"message": "The body is larger than <n> bytes"}` above
///   [`Receiver::max_body_bytes`].
/// * **503** `{"message": "Webhook queue is full; the event was not
///   accepted"}` when [`Receiver::queue_capacity`] events already wait.
///   This is back-pressure made visible: the service does not retry, so
///   the sandbox's delivery log or your access log shows the loss. A
///   [`Reconciler`](super::Reconciler) finds such a collection's state by
///   polling.
///
/// A confirmed status change reaches the handler once, however often it is
/// delivered: after the service confirms an event, its [`dedupe_key`]
/// (taken from the confirmed transaction) is recorded in the
/// [`DedupeStore`], and a later delivery confirming the same change is
/// dropped. Nothing is recorded for an event the service does not confirm,
/// so a forged event, even one POSTed before the genuine one with the same
/// fields, never makes the genuine event look repeated. Events the service
/// does not confirm reach the handler each time, as an `Err` to log.
///
/// ```no_run
/// use crossborder::webhook::{Delivery, Receiver};
/// use crossborder::{Client, types::TransactionStatus};
///
/// # async fn run(client: Client) -> std::io::Result<()> {
/// let route = Receiver::new(client).queue_capacity(256).route(|delivery: Delivery| async move {
///     // Runs after the 200 has been sent, once the service has answered.
///     match delivery.verified {
///         Ok(paid) if paid.status == TransactionStatus::Completed => {
///             println!("order {} is paid", paid.payment_reference);
///         }
///         Ok(now) => println!("order {} is {}", now.payment_reference, now.status),
///         Err(not_confirmed) => eprintln!("ignored {}: {not_confirmed}", delivery.event.reference),
///     }
/// });
/// let app = axum::Router::new().route("/hooks/crossborder", route);
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8443").await?;
/// axum::serve(listener, app).await
/// # }
/// ```
#[derive(Debug)]
pub struct Receiver<D = MemoryDedupe> {
    client: Client,
    queue_capacity: usize,
    max_body_bytes: usize,
    dedupe: D,
}

impl Receiver<MemoryDedupe> {
    /// A receiver that confirms each event through `client`, with the
    /// defaults: a queue of [`DEFAULT_QUEUE_CAPACITY`], a body limit of
    /// [`DEFAULT_MAX_BODY_BYTES`], and a [`MemoryDedupe`].
    pub fn new(client: Client) -> Self {
        Receiver {
            client,
            queue_capacity: DEFAULT_QUEUE_CAPACITY,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            dedupe: MemoryDedupe::default(),
        }
    }
}

impl<D: DedupeStore> Receiver<D> {
    /// How many accepted events may wait while the handler is busy (at
    /// least 1); one more is the one being confirmed or handled.
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        self.queue_capacity = capacity.max(1);
        self
    }

    /// The largest body read, in bytes; larger ones get 413.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Where confirmed status changes are remembered (by default a
    /// [`MemoryDedupe`], per process; several receivers behind a load
    /// balancer share one on their database).
    pub fn dedupe<S: DedupeStore>(self, store: S) -> Receiver<S> {
        Receiver {
            client: self.client,
            queue_capacity: self.queue_capacity,
            max_body_bytes: self.max_body_bytes,
            dedupe: store,
        }
    }

    /// The POST route that feeds `handler`. The task that confirms events
    /// and runs the handler starts with the first request, on the server's
    /// runtime.
    pub fn route<H, F, S>(self, handler: H) -> MethodRouter<S>
    where
        H: Fn(Delivery) -> F + Send + Sync + 'static,
        F: Future<Output = ()> + Send + 'static,
        S: Clone + Send + Sync + 'static,
    {
        let (queue, waiting) = mpsc::channel(self.queue_capacity);
        let (client, dedupe) = (self.client, self.dedupe);
        let worker: Worker = Box::new(move |mut waiting: mpsc::Receiver<WebhookEvent>| {
            tokio::spawn(async move {
                while let Some(event) = waiting.recv().await {
                    deliver(&client, &dedupe, &handler, event).await;
                }
            });
        });
        let shared = Arc::new(Shared {
            queue,
            idle: Mutex::new(Some((waiting, worker))),
            max_body_bytes: self.max_body_bytes,
        });
        post(receive)
            .layer(DefaultBodyLimit::max(self.max_body_bytes))
            .with_state(shared)
    }
}

/// Confirms `event`, drops a repeat of a confirmed change, and runs the
/// handler.
async fn deliver<D, H, F>(client: &Client, dedupe: &D, handler: &H, event: WebhookEvent)
where
    D: DedupeStore,
    H: Fn(Delivery) -> F,
    F: Future<Output = ()> + Send + 'static,
{
    let reference = event.reference.clone();
    let verified = verify(client, &event).await;
    // Only a change the service confirmed is remembered: a key recorded
    // for an unconfirmed event would let a forgery suppress the real one.
    let key = match &verified {
        Ok(confirmed) => {
            let key = dedupe_key(confirmed);
            match dedupe.first_delivery(&key).await {
                Ok(true) => Some(key),
                Ok(false) => {
                    tracing::debug!(%reference, "repeated webhook ignored");
                    return;
                }
                Err(error) => {
                    tracing::error!(%error, %reference, "webhook dedupe store failed; the confirmed event is handed over anyway");
                    None
                }
            }
        }
        Err(error) => {
            tracing::warn!(%reference, %error, "webhook event not confirmed by the service");
            None
        }
    };
    // Its own task, so a panicking handler ends only itself.
    if tokio::spawn(handler(Delivery { event, verified }))
        .await
        .is_err()
    {
        tracing::error!(%reference, "the webhook handler panicked");
        if let Some(key) = key {
            dedupe.forget(&key).await;
        }
    }
}

/// Starts the task that drains the queue.
type Worker = Box<dyn FnOnce(mpsc::Receiver<WebhookEvent>) + Send>;

struct Shared {
    queue: mpsc::Sender<WebhookEvent>,
    /// The queue's receiving end and the worker, until the first request
    /// starts it.
    idle: Mutex<Option<(mpsc::Receiver<WebhookEvent>, Worker)>>,
    max_body_bytes: usize,
}

type Answer = (StatusCode, Json<serde_json::Value>);

fn answer(status: StatusCode, message: String) -> Answer {
    (status, Json(serde_json::json!({ "message": message })))
}

async fn receive(State(shared): State<Arc<Shared>>, body: Result<Bytes, BytesRejection>) -> Answer {
    let body = match body {
        Ok(body) => body,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            tracing::warn!(limit = shared.max_body_bytes, "webhook body too large");
            return answer(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("The body is larger than {} bytes", shared.max_body_bytes),
            );
        }
        Err(rejection) => {
            tracing::warn!(error = %rejection, "webhook body could not be read");
            return answer(rejection.status(), rejection.body_text());
        }
    };
    let event = match WebhookEvent::parse(&body) {
        Ok(event) => event,
        Err(error) => {
            // The reason names fields and positions only; the body itself
            // is attacker-controlled and never logged.
            tracing::warn!(%error, bytes = body.len(), "webhook body refused");
            return answer(
                StatusCode::BAD_REQUEST,
                format!("Invalid webhook body: {error}"),
            );
        }
    };
    start_worker(&shared);
    let reference = event.reference.clone();
    match shared.queue.try_send(event) {
        Ok(()) => answer(StatusCode::OK, "Event accepted".to_owned()),
        Err(_) => {
            tracing::warn!(%reference, "webhook queue full; event refused with 503");
            answer(
                StatusCode::SERVICE_UNAVAILABLE,
                "Webhook queue is full; the event was not accepted".to_owned(),
            )
        }
    }
}

fn start_worker(shared: &Shared) {
    let idle = shared
        .idle
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some((waiting, worker)) = idle {
        worker(waiting);
    }
}
