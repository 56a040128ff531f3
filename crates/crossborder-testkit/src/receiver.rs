//! A webhook receiver that records every POST and answers 200: what a test
//! of the sandbox's (or the service's) webhook sends needs.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use serde_json::Value;

use crate::serve::LocalServer;

/// The route the receiver listens on.
const ROUTE: &str = "/hooks/crossborder";

/// One POST received by the [`WebhookReceiver`].
#[derive(Debug, Clone)]
pub struct ReceivedWebhook {
    /// The request headers.
    pub headers: HeaderMap,
    /// The raw body.
    pub body: Bytes,
}

impl ReceivedWebhook {
    /// The body parsed as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// A receiver on 127.0.0.1 that records every POST to
/// `/hooks/crossborder` and answers 200; it stops when dropped.
pub struct WebhookReceiver {
    url: String,
    received: Arc<Mutex<Vec<ReceivedWebhook>>>,
    _server: LocalServer,
}

impl WebhookReceiver {
    /// Starts the receiver.
    ///
    /// # Panics
    ///
    /// When no loopback port is free.
    pub async fn start() -> WebhookReceiver {
        let received: Arc<Mutex<Vec<ReceivedWebhook>>> = Arc::default();
        let log = received.clone();
        let app = Router::new().route(
            ROUTE,
            post(move |headers: HeaderMap, body: Bytes| {
                let log = log.clone();
                async move {
                    log.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(ReceivedWebhook { headers, body });
                    StatusCode::OK
                }
            }),
        );
        let server = LocalServer::start(app).await;
        WebhookReceiver {
            url: server.url(ROUTE),
            received,
            _server: server,
        }
    }

    /// The URL to register as the webhook.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Everything received so far, in order.
    pub fn received(&self) -> Vec<ReceivedWebhook> {
        self.received
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The bodies received so far as JSON, in order.
    pub fn bodies(&self) -> Vec<Value> {
        self.received().iter().map(ReceivedWebhook::json).collect()
    }

    /// Waits (polling every 2 ms) until `count` POSTs arrived or `timeout`
    /// passed, and returns what arrived.
    pub async fn wait_for(&self, count: usize, timeout: Duration) -> Vec<ReceivedWebhook> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let received = self.received();
            if received.len() >= count || tokio::time::Instant::now() >= deadline {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

impl crate::TestSandbox {
    /// Starts a [`WebhookReceiver`] and registers it as the staging
    /// business's webhook; it stops when the returned value is dropped.
    ///
    /// # Panics
    ///
    /// When the registration is refused.
    pub async fn register_receiver(&self) -> WebhookReceiver {
        let receiver = WebhookReceiver::start().await;
        self.set_webhook(receiver.url()).await;
        receiver
    }

    /// The bodies of every webhook the sandbox sent, once `count` were
    /// sent, after making sure no further one follows within 500 ms (the
    /// sends run in the background, so one that should not exist is given
    /// time to show).
    ///
    /// # Panics
    ///
    /// When the sandbox sent any other number within the waits.
    pub async fn exactly_webhooks(&self, count: usize) -> Vec<Value> {
        self.sandbox
            .wait_for_webhook_deliveries(count, Duration::from_secs(10))
            .await;
        let after = self
            .sandbox
            .wait_for_webhook_deliveries(count + 1, Duration::from_millis(500))
            .await;
        assert_eq!(after.len(), count, "{after:#?}");
        after.iter().map(|delivery| delivery.json()).collect()
    }
}
