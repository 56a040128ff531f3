//! What these tests share: the test kit's sandbox (a manual clock, raw
//! requests with a key, the error shape), and the steps these tests take
//! on it: collections, fundings, reads, a webhook receiver that answers 200.

use std::ops::Deref;
use std::time::Duration;

use crossborder_testkit::{assert_error_body, TestSandbox, WebhookReceiver};
pub use crossborder_testkit::{read_reply as reply, Reply};
use serde_json::Value;

/// The test kit's sandbox, with the steps of these tests.
pub struct Api {
    kit: TestSandbox,
}

impl Deref for Api {
    type Target = TestSandbox;

    fn deref(&self) -> &TestSandbox {
        &self.kit
    }
}

impl Api {
    /// A sandbox with the default keys, on the kit's manual clock.
    pub async fn start() -> Api {
        Api {
            kit: TestSandbox::start().await,
        }
    }

    /// The kit's HTTP client, for requests the kit does not shape.
    pub fn client(&self) -> &reqwest::Client {
        &self.kit.http
    }

    /// The staging business's balance in `currency`, as the JSON number.
    pub async fn balance(&self, currency: &str) -> Value {
        let reply = self.get(&format!("/api/balance/{currency}")).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["data"]["balance"].clone()
    }

    /// Starts a receiver answering 200 and registers it as the webhook;
    /// it stops when the returned value is dropped.
    pub async fn register_receiver(&self) -> WebhookReceiver {
        let receiver = WebhookReceiver::start().await;
        self.set_webhook(receiver.url()).await;
        receiver
    }

    /// The bodies of every webhook sent so far, once `count` were sent, and
    /// after making sure no further one follows: the sends run in the
    /// background, so a send that should not exist is given time to show.
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

/// The API's error shape with this status and message, for `method` on
/// `path` (under /v1).
pub fn assert_error(reply: &Reply, status: u16, message: &str, method: &str, path: &str) {
    assert_error_body(reply, status, message, method, path);
}
