//! Webhook delivery: one POST per event, never retried (as the service
//! does), and the log of attempts that tests read.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use crossborder_api::types::WebhookEvent;

use crate::faults::{FaultEngine, FaultKind, REORDER_HOLD, WEBHOOK_DELAY};
use crate::store::account::BusinessId;
use crate::sync::lock;

/// One delivery attempt of a webhook event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookDelivery {
    /// The URL the event was POSTed to.
    pub url: String,
    /// The JSON body sent.
    pub body: String,
    /// When the attempt started (sandbox clock).
    pub attempted_at: SystemTime,
    /// The receiver's HTTP status, when it answered.
    pub status: Option<u16>,
    /// Why the attempt failed, when it did (connection refused, timeout).
    pub error: Option<String>,
}

impl WebhookDelivery {
    /// The body parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// True when the receiver answered with a 2xx status.
    pub fn succeeded(&self) -> bool {
        self.status
            .is_some_and(|status| (200..300).contains(&status))
    }
}

/// How many webhook delivery attempts the sandbox remembers: beyond this,
/// the oldest are forgotten.
pub const MAX_WEBHOOK_DELIVERIES: usize = 1000;

/// The last attempts (at most `capacity`, oldest first) and how many have
/// finished in all; and, for the control API, the last deliveries of every
/// business with their ids, from the moment they are sent.
#[derive(Debug)]
struct DeliveryLog {
    capacity: usize,
    kept: VecDeque<WebhookDelivery>,
    finished: usize,
    sent: VecDeque<SentEvent>,
    next_id: u64,
}

/// A delivery as the control API lists it: whose, which event, and the
/// receiver's answer once it came.
#[derive(Debug, Clone)]
pub(crate) struct SentEvent {
    /// `whd_` and a number, unique in this sandbox.
    pub(crate) id: String,
    /// The business whose collection it announces.
    pub(crate) owner: BusinessId,
    /// The URL it was POSTed to.
    pub(crate) url: String,
    /// The JSON body.
    pub(crate) body: String,
    /// When it was sent (sandbox clock).
    pub(crate) sent_at: SystemTime,
    /// The receiver's status or why there is none; `None` while in flight.
    pub(crate) outcome: Option<Result<u16, String>>,
}

impl DeliveryLog {
    fn new(capacity: usize) -> DeliveryLog {
        DeliveryLog {
            capacity,
            kept: VecDeque::new(),
            finished: 0,
            sent: VecDeque::new(),
            next_id: 1,
        }
    }

    /// Records a delivery as sent and returns its id.
    fn start(&mut self, owner: BusinessId, url: &str, body: &str, now: SystemTime) -> String {
        let id = format!("whd_{:06}", self.next_id);
        self.next_id += 1;
        while self.sent.len() >= self.capacity.max(1) {
            self.sent.pop_front();
        }
        self.sent.push_back(SentEvent {
            id: id.clone(),
            owner,
            url: url.to_owned(),
            body: body.to_owned(),
            sent_at: now,
            outcome: None,
        });
        id
    }

    /// Records the receiver's answer to the delivery `id`.
    fn finish(&mut self, id: &str, outcome: Result<u16, String>) {
        if let Some(sent) = self.sent.iter_mut().find(|sent| sent.id == id) {
            sent.outcome = Some(outcome);
        }
    }

    fn push(&mut self, delivery: WebhookDelivery) {
        self.finished = self.finished.saturating_add(1);
        if self.capacity == 0 {
            return;
        }
        while self.kept.len() >= self.capacity {
            self.kept.pop_front();
        }
        self.kept.push_back(delivery);
    }
}

/// Events held back, by business and collection reference: the URL and
/// body of each.
type HeldEvents = HashMap<(BusinessId, String), (String, String)>;

/// The HTTP client of the deliveries: plain HTTP/1.1 (hyper's, already in
/// the tree through axum and reqwest). Not reqwest: under the SDK's
/// `rustls` feature, unified into a test build that has the sandbox too,
/// reqwest has TLS without a crypto provider and panics when a client is
/// built; the sandbox never had TLS of its own.
type HttpClient = hyper_util::client::legacy::Client<
    hyper_util::client::legacy::connect::HttpConnector,
    http_body_util::Full<bytes::Bytes>,
>;

/// Sends events and keeps the log of attempts.
#[derive(Clone)]
pub(crate) struct WebhookSender {
    client: HttpClient,
    timeout: Duration,
    log: Arc<Mutex<DeliveryLog>>,
    /// The runtime the sandbox started in: deliveries are spawned there, so
    /// a `SandboxHandle` action may be called from any thread.
    runtime: Option<tokio::runtime::Handle>,
    /// The fault engine of the sandbox, attached once its state is built:
    /// events may be dropped, duplicated or delayed.
    faults: Arc<OnceLock<Arc<FaultEngine>>>,
    /// Events held back by `webhook_reordered`, by business and collection
    /// reference: sent after that collection's next event.
    held: Arc<Mutex<HeldEvents>>,
}

impl std::fmt::Debug for WebhookSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookSender")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl WebhookSender {
    /// A sender whose one attempt times out after `timeout`; redirects are
    /// not followed (the HTTP client has none). Never fails since it no
    /// longer builds a reqwest client; the `Result` keeps its callers.
    pub(crate) fn new(timeout: Duration) -> Result<WebhookSender, reqwest::Error> {
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build_http();
        Ok(WebhookSender {
            client,
            timeout,
            log: Arc::new(Mutex::new(DeliveryLog::new(MAX_WEBHOOK_DELIVERIES))),
            runtime: tokio::runtime::Handle::try_current().ok(),
            faults: Arc::new(OnceLock::new()),
            held: Arc::default(),
        })
    }

    /// Makes the events of every clone meet the faults of `faults`.
    pub(crate) fn attach_faults(&self, faults: Arc<FaultEngine>) {
        let _ = self.faults.set(faults);
    }

    /// The last [`MAX_WEBHOOK_DELIVERIES`] finished attempts, oldest first.
    pub(crate) fn deliveries(&self) -> Vec<WebhookDelivery> {
        lock(&self.log).kept.iter().cloned().collect()
    }

    /// How many attempts have finished since the start, including those
    /// no longer kept.
    pub(crate) fn finished(&self) -> usize {
        lock(&self.log).finished
    }

    /// The deliveries of `owner` the log still keeps, newest first.
    pub(crate) fn sent_by(&self, owner: BusinessId) -> Vec<SentEvent> {
        lock(&self.log)
            .sent
            .iter()
            .rev()
            .filter(|sent| sent.owner == owner)
            .cloned()
            .collect()
    }

    /// Forgets the deliveries of `owner` (a reset of its business).
    pub(crate) fn forget(&self, owner: BusinessId) {
        lock(&self.log).sent.retain(|sent| sent.owner != owner);
        lock(&self.held).retain(|(held_by, _), _| *held_by != owner);
    }

    /// POSTs `event` of `owner`'s collection to `url` once, in a background
    /// task.
    pub(crate) fn send(
        &self,
        owner: BusinessId,
        url: String,
        event: &WebhookEvent,
        now: SystemTime,
    ) {
        let body = match serde_json::to_string(event) {
            Ok(body) => body,
            Err(error) => {
                tracing::error!(%error, "could not serialise a webhook event");
                return;
            }
        };
        let reference = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|event| Some(event.get("reference")?.as_str()?.to_owned()))
            .unwrap_or_default();
        let key = (owner, reference.clone());
        // A held event of this collection goes after this newer one, which
        // meets no fault of its own.
        if let Some(older) = lock(&self.held).remove(&key) {
            self.send_in_order(owner, vec![(url, body), older], now, Duration::ZERO);
            return;
        }
        let fault = self
            .faults
            .get()
            .and_then(|faults| Some((faults, faults.draw_webhook(owner)?)));
        let Some((faults, kind)) = fault else {
            self.send_body(owner, url, body, now);
            return;
        };
        match kind {
            FaultKind::WebhookDropped => {
                let id = self.drop_body(owner, url, body, now);
                faults.record(owner, now, kind, id, "the event was not sent");
            }
            FaultKind::WebhookDuplicated => {
                let first = self.send_body(owner, url.clone(), body.clone(), now);
                let second = self.send_body(owner, url, body, now);
                faults.record(
                    owner,
                    now,
                    kind,
                    first,
                    format!("the event was sent twice, the second time as {second}"),
                );
            }
            FaultKind::WebhookReordered => {
                lock(&self.held).insert(key.clone(), (url, body.clone()));
                faults.record(
                    owner,
                    now,
                    kind,
                    format!("paymentReference {reference}"),
                    format!(
                        "the event was held, to be sent after the collection's next event ({} ms later if none comes)",
                        REORDER_HOLD.as_millis()
                    ),
                );
                // Sent on its own if no newer event releases it in time.
                let sender = self.clone();
                self.spawn(async move {
                    tokio::time::sleep(REORDER_HOLD).await;
                    let still_held = {
                        let mut held = lock(&sender.held);
                        match held.get(&key) {
                            Some((_, kept)) if *kept == body => held.remove(&key),
                            _ => None,
                        }
                    };
                    if let Some((url, body)) = still_held {
                        sender.send_body(owner, url, body, now);
                    }
                });
            }
            _ => {
                let id = self.send_body_after(owner, url, body, now, WEBHOOK_DELAY);
                faults.record(
                    owner,
                    now,
                    kind,
                    id,
                    format!("the event was sent {} ms late", WEBHOOK_DELAY.as_millis()),
                );
            }
        }
    }

    /// Records the delivery of `body` as never sent (a dropped event): it
    /// is listed `failed`, and counts as finished.
    fn drop_body(&self, owner: BusinessId, url: String, body: String, now: SystemTime) -> String {
        let mut log = lock(&self.log);
        let id = log.start(owner, &url, &body, now);
        let error = format!(
            "dropped by the sandbox's fault injection ({})",
            FaultKind::WebhookDropped
        );
        log.finish(&id, Err(error.clone()));
        log.push(WebhookDelivery {
            url,
            body,
            attempted_at: now,
            status: None,
            error: Some(error),
        });
        id
    }

    /// POSTs `body` to `url` once, in a background task, and returns the
    /// delivery's id.
    pub(crate) fn send_body(
        &self,
        owner: BusinessId,
        url: String,
        body: String,
        now: SystemTime,
    ) -> String {
        self.send_body_after(owner, url, body, now, Duration::ZERO)
    }

    /// [`send_body`](Self::send_body), POSTed after `delay`.
    fn send_body_after(
        &self,
        owner: BusinessId,
        url: String,
        body: String,
        now: SystemTime,
        delay: Duration,
    ) -> String {
        self.send_in_order(owner, vec![(url, body)], now, delay)
            .into_iter()
            .next()
            .unwrap_or_default()
    }

    /// POSTs each `(url, body)` once, one after the other in one background
    /// task (the second only once the first is answered), after `delay`,
    /// and returns their delivery ids.
    fn send_in_order(
        &self,
        owner: BusinessId,
        events: Vec<(String, String)>,
        now: SystemTime,
        delay: Duration,
    ) -> Vec<String> {
        let jobs: Vec<(String, String, String)> = {
            let mut log = lock(&self.log);
            events
                .into_iter()
                .map(|(url, body)| (log.start(owner, &url, &body, now), url, body))
                .collect()
        };
        let ids = jobs.iter().map(|(id, _, _)| id.clone()).collect();
        let client = self.client.clone();
        let timeout = self.timeout;
        let log = Arc::clone(&self.log);
        let attempt = async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            for (delivery, url, body) in jobs {
                let outcome = post(&client, &url, &body, timeout).await;
                let (status, error) = match &outcome {
                    Ok(status) => (Some(*status), None),
                    Err(error) => (None, Some(error.clone())),
                };
                tracing::info!(%url, ?status, ?error, "webhook delivery attempted");
                let mut log = lock(&log);
                log.finish(&delivery, outcome);
                log.push(WebhookDelivery {
                    url,
                    body,
                    attempted_at: now,
                    status,
                    error,
                });
            }
        };
        self.spawn(attempt);
        ids
    }

    fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        match &self.runtime {
            Some(runtime) => drop(runtime.spawn(task)),
            None => drop(tokio::spawn(task)),
        }
    }
}

/// POSTs `body` to `url` and returns the receiver's status, or why there is
/// none.
async fn post(
    client: &HttpClient,
    url: &str,
    body: &str,
    timeout: Duration,
) -> Result<u16, String> {
    let request = http::Request::post(url)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(
            http::header::USER_AGENT,
            concat!("crossborder-sandbox/", env!("CARGO_PKG_VERSION")),
        )
        .body(http_body_util::Full::new(bytes::Bytes::from(
            body.to_owned(),
        )))
        .map_err(|error| format!("invalid webhook URL {url}: {error}"))?;
    match tokio::time::timeout(timeout, client.request(request)).await {
        Ok(Ok(response)) => Ok(response.status().as_u16()),
        Ok(Err(error)) => Err(error_chain(&error)),
        Err(_) => Err(format!("timed out after {} ms", timeout.as_millis())),
    }
}

/// An error and its sources, `: `-separated (hyper's own text says only
/// "client error (Connect)").
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(index: usize) -> WebhookDelivery {
        WebhookDelivery {
            url: format!("http://127.0.0.1/{index}"),
            body: "{}".to_owned(),
            attempted_at: SystemTime::UNIX_EPOCH,
            status: Some(200),
            error: None,
        }
    }

    #[test]
    fn the_delivery_log_keeps_only_the_last_attempts() {
        let mut log = DeliveryLog::new(MAX_WEBHOOK_DELIVERIES);
        for index in 0..MAX_WEBHOOK_DELIVERIES + 250 {
            log.push(delivery(index));
        }
        assert_eq!(log.kept.len(), MAX_WEBHOOK_DELIVERIES);
        assert_eq!(log.finished, MAX_WEBHOOK_DELIVERIES + 250);
        assert_eq!(log.kept.front(), Some(&delivery(250)));
        assert_eq!(
            log.kept.back(),
            Some(&delivery(MAX_WEBHOOK_DELIVERIES + 249))
        );

        let mut none = DeliveryLog::new(0);
        none.push(delivery(0));
        assert!(none.kept.is_empty());
        assert_eq!(none.finished, 1);
    }
}
