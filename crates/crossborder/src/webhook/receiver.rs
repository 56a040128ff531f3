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

use crate::Client;

use super::dedupe::{dedupe_key, DedupeStore, MemoryDedupe};
use super::event::WebhookEvent;
use super::verdict::Verdict;
use super::verify::verify_with;
use super::words::StatusWords;

/// How many accepted events may wait for the handler by default.
pub const DEFAULT_QUEUE_CAPACITY: usize = 1024;

/// The largest body accepted by default: 64 KiB, far above any event.
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024;

/// One event as the receiver hands it to the handler: what was POSTed, and
/// what to do with it.
#[derive(Debug)]
pub struct Delivery {
    /// The event as POSTed: a claim, never a fact.
    pub event: WebhookEvent,
    /// What [`verify`](super::verify) found, after one read of the
    /// transaction: match on it. [`Verdict::Confirmed`]: act on its
    /// transaction. [`Verdict::Superseded`]: ignore the event, the
    /// collection has moved on. [`Verdict::Unconfirmed`]: do not act, the
    /// event is forged or cannot be confirmed now.
    pub verdict: Verdict,
}

/// What a [`DeliveryHandler`] ends with: `()`, the delivery is handled;
/// or a `Result`, whose `Err` means it was not (a database down, say).
///
/// A confirmed change whose handler returned `Err` (or panicked) is
/// forgotten by the [`DedupeStore`], so a later delivery of the same change
/// is handed over again; the error is logged at `ERROR`.
pub trait HandlerOutcome: Send + 'static {
    /// The failure, in words, or `None` when the delivery was handled.
    fn failure(self) -> Option<String>;
}

impl HandlerOutcome for () {
    fn failure(self) -> Option<String> {
        None
    }
}

impl<E: std::fmt::Display + Send + 'static> HandlerOutcome for Result<(), E> {
    fn failure(self) -> Option<String> {
        self.err().map(|error| error.to_string())
    }
}

/// A handler a [`Receiver`] can run: an async function of the [`Delivery`]
/// alone, or of the router's state and the delivery, the axum way
/// (`|State(app): State<App>, delivery: Delivery| async move { .. }`),
/// returning `()` or a `Result` ([`HandlerOutcome`]).
/// It is implemented for such closures and functions; `M` only tells the
/// two forms apart.
pub trait DeliveryHandler<S, M>: Send + Sync + 'static {
    /// The future the handler returns.
    type Future: Future<Output: HandlerOutcome> + Send + 'static;

    /// Runs the handler on one delivery, with the router's state.
    fn call(&self, state: S, delivery: Delivery) -> Self::Future;
}

impl<F, Fut, S> DeliveryHandler<S, fn(Delivery)> for F
where
    F: Fn(Delivery) -> Fut + Send + Sync + 'static,
    Fut: Future<Output: HandlerOutcome> + Send + 'static,
{
    type Future = Fut;

    fn call(&self, _state: S, delivery: Delivery) -> Fut {
        self(delivery)
    }
}

impl<F, Fut, S> DeliveryHandler<S, fn(State<S>, Delivery)> for F
where
    F: Fn(State<S>, Delivery) -> Fut + Send + Sync + 'static,
    Fut: Future<Output: HandlerOutcome> + Send + 'static,
{
    type Future = Fut;

    fn call(&self, state: S, delivery: Delivery) -> Fut {
        self(State(state), delivery)
    }
}

/// A webhook endpoint: build it with the client that confirms events, then
/// mount [`Receiver::route`] at the path registered with
/// [`Webhooks::set_url`](crate::Webhooks::set_url).
///
/// For each POST it answers:
///
/// * **200** `{"message": "Event accepted"}` as soon as the body parses and
///   the event is queued, before anything else. Then, one event at a time
///   and in order, the event is judged with [`verify`](super::verify) (one
///   read of `GET /api/transaction/{reference}`) and handed to the handler
///   as a [`Delivery`] with its [`Verdict`]. A handler that panics or
///   returns `Err` is logged, its change forgotten by the dedupe store
///   (so a later delivery of it is handed over again), and the next event
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
/// What reaches the handler:
///
/// * [`Verdict::Confirmed`] once per confirmed status change, however often
///   it is delivered: its [`dedupe_key`] (taken from the confirmed
///   transaction) is recorded in the [`DedupeStore`], and a later delivery
///   confirming the same change is dropped. Act on its transaction.
/// * [`Verdict::Superseded`] each time (logged at `DEBUG`): ignore it.
/// * [`Verdict::Unconfirmed`] each time (logged at `WARN` with why): do not
///   act on it. Nothing is recorded for it, so a forged event, even one
///   POSTed before the genuine one with the same fields, never makes the
///   genuine event look repeated.
///
/// The handler may take the router's state, as an axum handler does:
///
/// ```no_run
/// use std::sync::Arc;
///
/// use crossborder::webhook::axum::{extract::State, Router};
/// use crossborder::webhook::{Classification, Delivery, Verdict, Receiver};
/// use crossborder::Client;
///
/// #[derive(Clone)]
/// struct Shop {
///     orders: Arc<tokio::sync::Mutex<Vec<String>>>,
/// }
///
/// # async fn run(client: Client) -> std::io::Result<()> {
/// let shop = Shop { orders: Arc::default() };
/// let route = Receiver::new(client).queue_capacity(256).route(
///     |State(shop): State<Shop>, delivery: Delivery| async move {
///         // Runs after the 200 has been sent, once the service has answered.
///         match delivery.verdict {
///             Verdict::Confirmed(confirmed) => {
///                 if let Classification::Completed { .. } = confirmed.change {
///                     let paid = confirmed.transaction.payment_reference;
///                     shop.orders.lock().await.push(paid);
///                 }
///             }
///             Verdict::Superseded(_) => {} // a later change supersedes it
///             Verdict::Unconfirmed(why) => eprintln!("not acted on: {why}"),
///         }
///     },
/// );
/// let app = Router::new().route("/hooks/crossborder", route).with_state(shop);
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8443").await?;
/// crossborder::webhook::axum::serve(listener, app).await
/// # }
/// ```
#[derive(Debug)]
pub struct Receiver<D = MemoryDedupe> {
    client: Client,
    queue_capacity: usize,
    max_body_bytes: usize,
    words: StatusWords,
    dedupe: D,
}

impl Receiver<MemoryDedupe> {
    /// A receiver that confirms each event through `client`, with the
    /// defaults: a queue of [`DEFAULT_QUEUE_CAPACITY`], a body limit of
    /// [`DEFAULT_MAX_BODY_BYTES`], no [`StatusWords`] beyond the SDK's, and
    /// a [`MemoryDedupe`].
    pub fn new(client: Client) -> Self {
        Receiver {
            client,
            queue_capacity: DEFAULT_QUEUE_CAPACITY,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            words: StatusWords::default(),
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

    /// The service's status words, read before the SDK's own when events
    /// are verified ([`verify_with`](super::verify_with)).
    pub fn status_words(mut self, words: StatusWords) -> Self {
        self.words = words;
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
            words: self.words,
            dedupe: store,
        }
    }

    /// The POST route that feeds `handler`: an async function of the
    /// [`Delivery`], or of `State<S>` and the delivery, where `S` is the
    /// state of the router the route is mounted in (see
    /// [`DeliveryHandler`]). The task that confirms events and runs the
    /// handler starts with the first request, on the server's runtime; the
    /// state is the one that request carried.
    pub fn route<S, M, H>(self, handler: H) -> MethodRouter<S>
    where
        H: DeliveryHandler<S, M>,
        S: Clone + Send + Sync + 'static,
    {
        let (queue, waiting) = mpsc::channel(self.queue_capacity);
        let Receiver {
            client,
            words,
            dedupe,
            max_body_bytes,
            ..
        } = self;
        let worker: Worker<S> = Box::new(move |mut waiting: Waiting<S>| {
            tokio::spawn(async move {
                while let Some((state, event)) = waiting.recv().await {
                    deliver(&client, &words, &dedupe, &handler, state, event).await;
                }
            });
        });
        let shared = Arc::new(Shared {
            queue,
            idle: Mutex::new(Some((waiting, worker))),
            max_body_bytes,
        });
        post(
            move |State(state): State<S>, body: Result<Bytes, BytesRejection>| {
                let shared = Arc::clone(&shared);
                async move { receive(&shared, state, body) }
            },
        )
        .layer(DefaultBodyLimit::max(max_body_bytes))
    }
}

/// Judges `event`, drops a repeat of a confirmed change, and runs the
/// handler.
async fn deliver<S, M, D, H>(
    client: &Client,
    words: &StatusWords,
    dedupe: &D,
    handler: &H,
    state: S,
    event: WebhookEvent,
) where
    D: DedupeStore,
    H: DeliveryHandler<S, M>,
{
    let reference = event.reference.clone();
    let verdict = verify_with(client, &event, words).await;
    // Only a change the service confirmed is remembered: a key recorded
    // for an unconfirmed event would let a forgery suppress the real one.
    let key = match &verdict {
        Verdict::Confirmed(confirmed) => {
            let key = dedupe_key(&confirmed.transaction);
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
        Verdict::Superseded(superseded) => {
            let status = superseded.transaction.status.as_str();
            tracing::debug!(%reference, %status, "webhook event superseded by a later change");
            None
        }
        Verdict::Unconfirmed(error) => {
            tracing::warn!(%reference, %error, "webhook event not confirmed by the service");
            None
        }
    };
    // Its own task, so a panicking handler ends only itself.
    let handled = match tokio::spawn(handler.call(state, Delivery { event, verdict })).await {
        Ok(outcome) => match outcome.failure() {
            None => true,
            Some(error) => {
                tracing::error!(%reference, %error, "the webhook handler failed");
                false
            }
        },
        Err(_) => {
            tracing::error!(%reference, "the webhook handler panicked");
            false
        }
    };
    if let (false, Some(key)) = (handled, key) {
        dedupe.forget(&key).await;
    }
}

/// Starts the task that drains the queue.
type Worker<S> = Box<dyn FnOnce(Waiting<S>) + Send>;

/// The queue's receiving end: each event with the state of the request
/// that brought it.
type Waiting<S> = mpsc::Receiver<(S, WebhookEvent)>;

/// The route's side of the queue. Each event travels with the state of the
/// request that brought it.
struct Shared<S> {
    queue: mpsc::Sender<(S, WebhookEvent)>,
    /// The queue's receiving end and the worker, until the first request
    /// starts it.
    idle: Mutex<Option<(Waiting<S>, Worker<S>)>>,
    max_body_bytes: usize,
}

type Answer = (StatusCode, Json<serde_json::Value>);

fn answer(status: StatusCode, message: String) -> Answer {
    (status, Json(serde_json::json!({ "message": message })))
}

fn receive<S>(shared: &Shared<S>, state: S, body: Result<Bytes, BytesRejection>) -> Answer {
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
    start_worker(shared);
    let reference = event.reference.clone();
    match shared.queue.try_send((state, event)) {
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

fn start_worker<S>(shared: &Shared<S>) {
    let idle = shared
        .idle
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some((waiting, worker)) = idle {
        worker(waiting);
    }
}
