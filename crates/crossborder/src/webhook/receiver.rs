//! A ready webhook endpoint for axum (feature `axum`): it answers at once
//! and hands each new event to the caller's handler through a bounded
//! queue.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::{post, MethodRouter};
use axum::Json;
use tokio::sync::mpsc;

use super::dedupe::{DedupeStore, MemoryDedupe};
use super::event::WebhookEvent;

/// How many accepted events may wait for the handler by default.
pub const DEFAULT_QUEUE_CAPACITY: usize = 1024;

/// The largest body accepted by default: 64 KiB, far above any event.
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024;

/// A webhook endpoint: build it, then mount [`Receiver::route`] at the path
/// registered with [`Webhooks::set_url`](crate::Webhooks::set_url).
///
/// For each POST it answers:
///
/// * **200** `{"message": "Event accepted"}` as soon as the body parses and
///   the event is queued, before the handler runs. The handler gets events
///   one at a time, in order; a handler that panics is logged and the next
///   event still runs.
/// * **200** `{"message": "Duplicate event ignored"}` for an event already
///   accepted (same [`dedupe_key`](WebhookEvent::dedupe_key), see the
///   [`DedupeStore`]): the handler does not see it again.
/// * **400** `{"message": "Invalid webhook body: <reason>"}` when the body
///   is not an event ([`ParseError`](super::ParseError)). It is logged at
///   `WARN` with the reason and the body's length, never its content, and
///   never reaches the handler.
/// * **413** `{"message": "The body is larger than <n> bytes"}` above
///   [`Receiver::max_body_bytes`].
/// * **503** `{"message": "Webhook queue is full; the event was not
///   accepted"}` when [`Receiver::queue_capacity`] events already wait for
///   the handler (or the dedupe store fails). This is back-pressure made
///   visible: the service does not retry, so the sandbox's delivery log
///   or your access log shows the loss, and the event is not remembered as
///   seen. A [`Reconciler`](super::Reconciler) finds such a collection's
///   state by polling.
///
/// ```no_run
/// use crossborder::webhook::{self, Receiver, WebhookEvent};
/// use crossborder::Client;
///
/// # async fn run(client: Client) -> std::io::Result<()> {
/// let route = Receiver::new().queue_capacity(256).route(move |event: WebhookEvent| {
///     let client = client.clone();
///     async move {
///         // Runs after the 200 has been sent: confirm, then act.
///         if let Ok(transaction) = webhook::verify(&client, &event).await {
///             println!("{} is {}", transaction.payment_reference, transaction.status);
///         }
///     }
/// });
/// let app = axum::Router::new().route("/hooks/crossborder", route);
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8443").await?;
/// axum::serve(listener, app).await
/// # }
/// ```
#[derive(Debug)]
pub struct Receiver<D = MemoryDedupe> {
    queue_capacity: usize,
    max_body_bytes: usize,
    dedupe: D,
}

impl Receiver<MemoryDedupe> {
    /// A receiver with the defaults: a queue of
    /// [`DEFAULT_QUEUE_CAPACITY`], a body limit of
    /// [`DEFAULT_MAX_BODY_BYTES`], and a [`MemoryDedupe`].
    pub fn new() -> Self {
        Receiver {
            queue_capacity: DEFAULT_QUEUE_CAPACITY,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            dedupe: MemoryDedupe::default(),
        }
    }
}

impl Default for Receiver<MemoryDedupe> {
    fn default() -> Self {
        Receiver::new()
    }
}

impl<D: DedupeStore> Receiver<D> {
    /// How many accepted events may wait while the handler is busy (at
    /// least 1); one more is the one being handled.
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        self.queue_capacity = capacity.max(1);
        self
    }

    /// The largest body read, in bytes; larger ones get 413.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Where repeated deliveries are recognised (by default a
    /// [`MemoryDedupe`], per process).
    pub fn dedupe<S: DedupeStore>(self, store: S) -> Receiver<S> {
        Receiver {
            queue_capacity: self.queue_capacity,
            max_body_bytes: self.max_body_bytes,
            dedupe: store,
        }
    }

    /// The POST route that feeds `handler`. The task that runs the handler
    /// starts with the first request, on the server's runtime.
    pub fn route<H, F, S>(self, handler: H) -> MethodRouter<S>
    where
        H: Fn(WebhookEvent) -> F + Send + Sync + 'static,
        F: Future<Output = ()> + Send + 'static,
        S: Clone + Send + Sync + 'static,
    {
        let (queue, waiting) = mpsc::channel(self.queue_capacity);
        let worker: Worker = Box::new(move |mut waiting: mpsc::Receiver<WebhookEvent>| {
            tokio::spawn(async move {
                while let Some(event) = waiting.recv().await {
                    let reference = event.reference.clone();
                    // Its own task, so a panicking handler ends only itself.
                    if tokio::spawn(handler(event)).await.is_err() {
                        tracing::error!(%reference, "the webhook handler panicked");
                    }
                }
            });
        });
        let shared = Arc::new(Shared {
            queue,
            idle: Mutex::new(Some((waiting, worker))),
            dedupe: self.dedupe,
            max_body_bytes: self.max_body_bytes,
        });
        post(receive::<D>)
            .layer(DefaultBodyLimit::max(self.max_body_bytes))
            .with_state(shared)
    }
}

/// Starts the task that drains the queue.
type Worker = Box<dyn FnOnce(mpsc::Receiver<WebhookEvent>) + Send>;

struct Shared<D> {
    queue: mpsc::Sender<WebhookEvent>,
    /// The queue's receiving end and the worker, until the first request
    /// starts it.
    idle: Mutex<Option<(mpsc::Receiver<WebhookEvent>, Worker)>>,
    dedupe: D,
    max_body_bytes: usize,
}

type Answer = (StatusCode, Json<serde_json::Value>);

fn answer(status: StatusCode, message: String) -> Answer {
    (status, Json(serde_json::json!({ "message": message })))
}

async fn receive<D: DedupeStore>(
    State(shared): State<Arc<Shared<D>>>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
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
    let key = event.dedupe_key();
    match shared.dedupe.first_delivery(&key).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::debug!(reference = %event.reference, "duplicate webhook ignored");
            return answer(StatusCode::OK, "Duplicate event ignored".to_owned());
        }
        Err(error) => {
            tracing::error!(%error, reference = %event.reference, "webhook dedupe store failed");
            return answer(
                StatusCode::SERVICE_UNAVAILABLE,
                "Webhook dedupe store unavailable; the event was not accepted".to_owned(),
            );
        }
    }
    start_worker(&shared);
    let reference = event.reference.clone();
    match shared.queue.try_send(event) {
        Ok(()) => answer(StatusCode::OK, "Event accepted".to_owned()),
        Err(_) => {
            shared.dedupe.forget(&key).await;
            tracing::warn!(%reference, "webhook queue full; event refused with 503");
            answer(
                StatusCode::SERVICE_UNAVAILABLE,
                "Webhook queue is full; the event was not accepted".to_owned(),
            )
        }
    }
}

fn start_worker<D>(shared: &Shared<D>) {
    let idle = shared
        .idle
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some((waiting, worker)) = idle {
        worker(waiting);
    }
}
